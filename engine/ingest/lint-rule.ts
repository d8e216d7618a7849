/**
 * What a feed-lint rule is and what it reports, and the live views its queries read: a leaf module, so the lint and
 * the files that hold groups of its rules share them without importing each other.
 */
import type { RequestLogEntry } from '../model/request-log.js';
import type { Workspace } from '../store/workspace.js';

export interface LintExample {
  dataset: string;
  id: string;
  detail: string;
  /** Set when `id` is a stored record's key in `dataset`: the record can be read at data/{dataset}/{id}. The
   * rules that are queries name a level in brackets when the id is not the dataset's key. */
  record?: boolean;
  /**
   * For a rule that reports a group (a SKU, a location) rather than a record: a few of the group's own records,
   * worst or first first (sales ids, location×SKU cells), so the counts in `detail` can be checked by hand.
   */
  sample?: string[];
}

/** Findings that say the same thing (one SKU never sent, referred to from many records), counted together. */
export interface LintRepeat {
  detail: string;
  count: number;
  /** The datasets the findings are in. */
  datasets: string[];
}

export interface LintFinding {
  rule: string;
  title: string;
  /** What the spec says, in a line. */
  why: string;
  count: number;
  examples: LintExample[];
  /**
   * Set where findings repeat one detail and there are more of them than examples: the most repeated details (at
   * most LINT_REPEATS), and how many different ones there are in all.
   */
  repeats?: { groups: number; top: LintRepeat[] };
}

export interface LintReport {
  checkedAt: string;
  findings: LintFinding[];
}

export interface Rule {
  rule: string;
  title: string;
  why: string;
  /**
   * SELECT dataset, id, detail FROM … ; `$1` is now. A `grouped` rule's query also selects `sample` (VARCHAR[]) and
   * `weight` (how much of the dirt the group holds): its heaviest groups are the examples.
   */
  sql?: string;
  grouped?: boolean;
  /** The rule's examples, in the order to show them. */
  run?: (ws: Workspace, now: number, log: RequestLogEntry[]) => Promise<LintExample[]>;
}

/** Live records only: the views every rule reads from. */
export const LIVE = {
  items: `(SELECT * FROM items WHERE _deleted_at IS NULL)`,
  skus: `(SELECT s.* FROM items__skus AS s JOIN items AS i ON i.itemId = s._itemId AND i._deleted_at IS NULL)`,
  barcodes: `(SELECT b.* FROM items__skus__barcodes AS b
              JOIN items AS i ON i.itemId = b._itemId AND i._deleted_at IS NULL)`,
  lines: `(SELECT l.*, s.locationId, s.salesDateTime FROM sales__salesLines AS l
           JOIN sales AS s ON s.salesId = l._salesId AND s._deleted_at IS NULL)`,
  poLines: `(SELECT l.* FROM purchase_orders__purchaseOrderLines AS l
             JOIN purchase_orders AS p ON p.purchaseOrderId = l._purchaseOrderId AND p._deleted_at IS NULL)`,
  live: (table: string) => `(SELECT * FROM ${table} WHERE _deleted_at IS NULL)`,
};

/**
 * Where stock is kept: the locations with a stock level or a stock mutation. A location outside it has no stock the
 * backtest could reconstruct.
 */
export const STOCKED_LOCATIONS = `(SELECT locationId FROM stock
  UNION SELECT locationId FROM ${LIVE.live('stock_mutations')})`;

/** The SKUs that are merchandise by the feed's own account: stocked, moved or ordered somewhere. */
export const STOCKED_SKUS = `(SELECT skuId FROM stock
  UNION SELECT skuId FROM ${LIVE.live('stock_mutations')}
  UNION SELECT skuId FROM ${LIVE.poLines})`;

export const union = (parts: string[]) => parts.join('\nUNION ALL\n');

/** A quantity as text, without a trailing `.0` (`3`, `2.5`, `-1`). */
export const units = (expr: string) => `printf('%.10g', ${expr})`;

/** A day as text, `YYYY-MM-DD`. */
export const day = (expr: string) => `strftime(${expr}, '%Y-%m-%d')`;
