/**
 * The feed lint: the spec's pitfalls as named rules. Each rule is one set-based query that yields the
 * offending records; the lint reports how many there are and the first few, so an integrator sees what
 * their feed gets wrong before the real service quietly mishandles it. The rules for a spreadsheet export's dirt
 * (lint-sales-export.ts, lint-negative-stock.ts) yield groups instead, a SKU or a location each, heaviest first.
 */
import type { DuckDBListValue } from '@duckdb/node-api';
import { DATASETS } from '../model/datasets.js';
import { DAY_MICROS, formatIsoMicros } from '../model/datetime.js';
import { countRecords } from '../store/read.js';
import { timestampValue } from '../store/values.js';
import type { Workspace } from '../store/workspace.js';
import type { RequestLogEntry } from '../model/request-log.js';
import { LIVE, union, type LintExample, type LintFinding, type LintReport, type Rule } from './lint-rule.js';
import { SALES_EXPORT_RULES } from './lint-sales-export.js';
import { NEGATIVE_STOCK_RULE } from './lint-negative-stock.js';

export type { LintExample, LintFinding, LintRepeat, LintReport } from './lint-rule.js';

export const LINT_EXAMPLES = 10;
/** The most repeated details a finding lists, when its findings repeat. */
export const LINT_REPEATS = 5;

/** Master-data references: [referring dataset, source, id column, field, master table, master id]. */
const MASTER_REFS: [string, string, string, string, string, string][] = [
  ...(['brandId', 'themeId', 'seasonId', 'collectionId', 'merchandiseCategoryId'] as const).map(
    (f): [string, string, string, string, string, string] => ['Items', LIVE.items, 'itemId', f, MASTER_TABLE(f), f],
  ),
  ...(['colorId', 'sizeId', 'brandId', 'themeId', 'seasonId', 'collectionId'] as const).map(
    (f): [string, string, string, string, string, string] => ['Items (SKU)', LIVE.skus, 'skuId', f, MASTER_TABLE(f), f],
  ),
  ...(['vendorId', 'seasonId', 'collectionId'] as const).map((f): [string, string, string, string, string, string] => [
    'PurchaseOrders',
    LIVE.live('purchase_orders'),
    'purchaseOrderId',
    f,
    MASTER_TABLE(f),
    f,
  ]),
  [
    'MerchandiseCategorySettings',
    LIVE.live('merchandise_category_settings'),
    'merchandiseCategoryId',
    'merchandiseCategoryId',
    'merchandise_categories',
    'merchandiseCategoryId',
  ],
  [
    'ExcludedCollections',
    LIVE.live('excluded_collections'),
    'collectionId',
    'collectionId',
    'collections',
    'collectionId',
  ],
];

function MASTER_TABLE(field: string): string {
  const d = DATASETS.find((x) => x.masterData && x.key[0] === field);
  if (!d) throw new Error(`no master-data dataset for ${field}`);
  return d.table;
}

/** Location and SKU references: [referring dataset, source, id expression, field]. */
const LOCATION_REFS: [string, string, string, string][] = [
  ['Sales', LIVE.live('sales'), 'salesId', 'locationId'],
  ['Stock', 'stock', `skuId || ' @ ' || strftime(stockDateTime, '%Y-%m-%d')`, 'locationId'],
  ['StockMutations', LIVE.live('stock_mutations'), 'stockMutationId', 'locationId'],
  ['PurchaseOrders', LIVE.live('purchase_orders'), 'purchaseOrderId', 'locationId'],
  ['StockTargets', LIVE.live('stock_targets'), 'skuId', 'locationId'],
  ['StockNotForReplenishment', LIVE.live('stock_not_for_replenishment'), 'skuId', 'locationId'],
  ['Transfers', LIVE.live('transfers'), 'transferId', 'fromLocationId'],
  ['Transfers', LIVE.live('transfers'), 'transferId', 'toLocationId'],
  ['ExcludedLocations', LIVE.live('excluded_locations'), 'locationId', 'locationId'],
];

const SKU_REFS: [string, string, string, string][] = [
  ['Sales', LIVE.lines, '_salesId', 'skuId'],
  ['Stock', 'stock', `locationId || ' @ ' || strftime(stockDateTime, '%Y-%m-%d')`, 'skuId'],
  ['StockMutations', LIVE.live('stock_mutations'), 'stockMutationId', 'skuId'],
  ['PurchaseOrders', LIVE.poLines, '_purchaseOrderId', 'skuId'],
  ['Prepacks', 'prepacks', 'skuId', 'skuId'],
  ['Prepacks', 'prepacks__components', '_skuId', 'skuId'],
  ['StockTargets', LIVE.live('stock_targets'), 'locationId', 'skuId'],
  ['StockNotForReplenishment', LIVE.live('stock_not_for_replenishment'), 'locationId', 'skuId'],
  ['Transfers', LIVE.live('transfers'), 'transferId', 'skuId'],
  ['ExcludedSkus', LIVE.live('excluded_skus'), 'skuId', 'skuId'],
];

/** A finding of a rule's query, with how many there are: the rules select texts, never NULL (ids are keys). */
interface LintRow {
  dataset: string;
  id: string;
  detail: string;
  /** A grouped rule's few records of the group. */
  sample?: DuckDBListValue | null;
  total: bigint;
}

const RULES: Rule[] = [
  {
    rule: 'unknown-master-data',
    title: 'References to master data never sent',
    why: 'Ids that refer to master data must equal the ids sent to the master-data endpoints.',
    sql: union(
      MASTER_REFS.map(
        ([ds, src, id, field, table, mid]) =>
          `SELECT '${ds}' AS dataset, r.${id}::VARCHAR AS id, '${field} "' || r.${field} ||
              '" was never sent to /${DATASETS.find((d) => d.table === table)!.name}' AS detail
       FROM ${src} AS r WHERE r.${field} IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM ${table} AS m WHERE m.${mid} = r.${field} AND m._deleted_at IS NULL)`,
      ),
    ),
  },
  {
    rule: 'unknown-location',
    title: 'References to locations never sent',
    why: 'Sales, stock and orders attach to locations sent to POST /Locations.',
    sql: union(
      LOCATION_REFS.map(
        ([ds, src, id, field]) =>
          `SELECT '${ds}', (${id})::VARCHAR, '${field} "' || r.${field} || '" was never sent to /Locations'
       FROM ${src} AS r WHERE r.${field} IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM locations AS m WHERE m.locationId = r.${field} AND m._deleted_at IS NULL)`,
      ),
    ),
  },
  {
    rule: 'unknown-sku',
    title: 'References to SKUs never sent',
    why: 'skuId must match a skuId sent to POST /Items.',
    sql: union(
      SKU_REFS.map(
        ([ds, src, id, field]) =>
          `SELECT '${ds}', (${id})::VARCHAR, 'skuId "' || r.${field} || '" was never sent in /Items'
       FROM ${src} AS r WHERE NOT EXISTS (SELECT 1 FROM ${LIVE.skus} AS m WHERE m.skuId = r.${field})`,
      ),
    ),
  },
  {
    rule: 'barcode-as-sku-id',
    title: 'A barcode used as skuId',
    why: 'A barcode change then changes the skuId and breaks the link to history.',
    sql: `SELECT 'Items (SKU)', s.skuId, 'skuId equals barcode ' || b.barcodeId || ' of SKU ' || b._skuId
          FROM ${LIVE.skus} AS s JOIN ${LIVE.barcodes} AS b ON b.code = s.skuId`,
  },
  {
    rule: 'code-equals-id',
    title: 'A code equal to an internal id',
    why: 'The code is a business key shown to users; internal system-generated ids should not be used as codes.',
    sql: union([
      `SELECT 'Items', itemId, 'code equals itemId' FROM ${LIVE.items} WHERE code = itemId`,
      `SELECT 'Items (SKU)', skuId, 'code equals skuId' FROM ${LIVE.skus} WHERE code = skuId`,
      `SELECT 'Locations', locationId, 'code equals locationId' FROM ${LIVE.live('locations')} WHERE code = locationId`,
      `SELECT 'PurchaseOrders', purchaseOrderId, 'code equals purchaseOrderId'
       FROM ${LIVE.live('purchase_orders')} WHERE code = purchaseOrderId`,
      ...DATASETS.filter((d) => d.masterData).map(
        (d) =>
          `SELECT '${d.name}', ${d.key[0]}, 'code equals ${d.key[0]}'
           FROM ${LIVE.live(d.table)} WHERE code = ${d.key[0]}`,
      ),
    ]),
  },
  {
    rule: 'attribute-id-reused',
    title: 'Attribute or style attribute ids reused',
    why: 'attributeId and styleAttributeId must be unique across all (style) attributes.',
    sql: union([
      `SELECT 'Items (attribute)', attributeId,
              'attributeId used ' || count(*) || ' times, in items ' || string_agg(DISTINCT _itemId, ', ')
       FROM items__attributes AS a
       WHERE EXISTS (SELECT 1 FROM items AS i WHERE i.itemId = a._itemId AND i._deleted_at IS NULL)
       GROUP BY attributeId HAVING count(*) > 1`,
      `SELECT 'Items (style attribute)', styleAttributeId,
              'styleAttributeId used ' || count(*) || ' times, in items ' || string_agg(DISTINCT _itemId, ', ')
       FROM items__styleAttributes AS a
       WHERE EXISTS (SELECT 1 FROM items AS i WHERE i.itemId = a._itemId AND i._deleted_at IS NULL)
       GROUP BY styleAttributeId HAVING count(*) > 1`,
    ]),
  },
  {
    rule: 'bare-line-number-ids',
    title: 'Line ids that are bare line numbers',
    why: 'Line ids must be unique across all lines: combine the order or sale id with the line number.',
    sql: union([
      `SELECT 'Sales', _salesId, 'salesLineId "' || salesLineId || '" is a bare line number'
       FROM ${LIVE.lines} WHERE regexp_full_match(salesLineId, '[0-9]+')`,
      `SELECT 'PurchaseOrders', _purchaseOrderId,
              'purchaseOrderLineId "' || purchaseOrderLineId || '" is a bare line number'
       FROM ${LIVE.poLines} WHERE regexp_full_match(purchaseOrderLineId, '[0-9]+')`,
    ]),
  },
  {
    rule: 'store-without-address',
    title: 'Stores without one complete address form',
    why: 'A brick-and-mortar store needs streetName+houseNo+postalCode+city, or address, or latitude+longitude.',
    sql: `SELECT 'Locations', l.locationId, 'store "' || l.name || '" has in-store sales but no complete address form'
          FROM ${LIVE.live('locations')} AS l
          WHERE l.locationId IN (SELECT locationId FROM ${LIVE.lines} WHERE NOT online)
            AND NOT (l.streetName IS NOT NULL AND l.houseNo IS NOT NULL
                     AND l.postalCode IS NOT NULL AND l.city IS NOT NULL)
            AND coalesce(trim(l.address), '') = ''
            AND NOT (l.latitude IS NOT NULL AND l.longitude IS NOT NULL)`,
  },
  {
    rule: 'location-name-not-unique',
    title: 'Location names not unique',
    why: 'A location name must be clear and unique, for example a chain name plus the town.',
    sql: `SELECT 'Locations', l.locationId,
                 'name "' || l.name || '" is shared with ' || (n.c - 1) || ' other location(s)'
          FROM ${LIVE.live('locations')} AS l
          JOIN (SELECT lower(trim(name)) AS k, count(*) AS c FROM ${LIVE.live('locations')}
                GROUP BY 1 HAVING count(*) > 1) AS n ON n.k = lower(trim(l.name))`,
  },
  {
    rule: 'currency-not-local',
    title: 'Currency fields other than local / LOCAL',
    why: 'Only local-currency values are wanted: purchase orders send currencyId "local", sales currencyCode "LOCAL".',
    sql: union([
      `SELECT 'Sales', salesId, 'currencyCode "' || currencyCode || '"'
       FROM ${LIVE.live('sales')} WHERE upper(currencyCode) <> 'LOCAL'`,
      `SELECT 'PurchaseOrders', purchaseOrderId, 'currency "' || coalesce(currencyId, currencyCode) || '"'
       FROM ${LIVE.live('purchase_orders')} WHERE lower(coalesce(currencyId, currencyCode)) <> 'local'`,
    ]),
  },
  {
    rule: 'quantity-to-receive-differs',
    title: 'quantityToReceive differs from quantityOutstanding',
    why: 'quantityToReceive is to be deprecated; send the value of quantityOutstanding.',
    sql: `SELECT 'PurchaseOrders', _purchaseOrderId,
                 'line ' || purchaseOrderLineId || ': quantityToReceive ' || quantityToReceive
                 || ', quantityOutstanding ' || quantityOutstanding
          FROM ${LIVE.poLines} WHERE quantityToReceive <> quantityOutstanding`,
  },
  {
    rule: 'open-po-past-due',
    title: 'Open purchase orders whose orderDueDate is past',
    why: 'orderDueDate must be a real expected date: it decides whether the order is shown.',
    sql: `SELECT 'PurchaseOrders', purchaseOrderId,
                 'status ' || status || ', due ' || strftime(orderDueDate, '%Y-%m-%d')
          FROM purchase_order_status WHERE status IN ('open', 'partiallyReceived') AND orderDueDate < $1`,
  },
  {
    rule: 'cost-price-missing',
    title: 'Sales lines without costPrice',
    why: 'costPrice, the unit cost the retailer paid, is needed to value sales and stock.',
    sql: `SELECT 'Sales', _salesId, 'line ' || salesLineId || ' has no costPrice'
          FROM ${LIVE.lines} WHERE costPrice IS NULL`,
  },
  {
    rule: 'cost-price-negative',
    title: 'Sales lines with a negative costPrice',
    why: 'costPrice is a unit cost and stays positive, also on returns.',
    sql: `SELECT 'Sales', _salesId, 'line ' || salesLineId || ' has costPrice ' || costPrice
          FROM ${LIVE.lines} WHERE costPrice < 0`,
  },
  ...(
    [
      ['sku-moved', 'SKUs that moved from one item to another', 'Items (SKU)', 'items', 'skuId', 'item'],
      [
        'sales-line-moved',
        'Sales lines that moved from one sale to another',
        'Sales (line)',
        'sales',
        'salesLineId',
        'sale',
      ],
    ] as const
  ).map(([rule, title, dataset, table, field, parent]): Rule => ({
    rule,
    title,
    why:
      `A ${field} is unique across the dataset: a later ${parent} that lists it takes it over, and the earlier ` +
      `${parent} no longer does. A feed that sends one ${field} under two ${parent}s mixes two things up.`,
    sql: `SELECT '${dataset}', id, 'moved from ' || fromParent || ' to ' || toParent || ' at ' ||
              strftime(movedAt, '%Y-%m-%dT%H:%M:%S')
            FROM record_moves WHERE dataset = '${table}'`,
  })),
  {
    rule: 'listed-twice',
    title: 'SKUs or sales lines listed by two records',
    why:
      'skuId and salesLineId are unique across all SKUs and sales lines; a workspace written by an earlier ' +
      'release may hold one under two items or sales, which leaves its style or its sale ambiguous.',
    sql: `SELECT 'Items (SKU)', skuId, 'listed by items ' || string_agg(_itemId, ', ' ORDER BY _itemId)
          FROM ${LIVE.skus} GROUP BY skuId HAVING count(*) > 1
          UNION ALL
          SELECT 'Sales (line)', salesLineId, 'listed by sales ' || string_agg(_salesId, ', ' ORDER BY _salesId)
          FROM ${LIVE.lines} GROUP BY salesLineId HAVING count(*) > 1`,
  },
  {
    rule: 'style-mixed-colors',
    title: 'SKUs of one style with different colours',
    why: 'A style is an item in one colour: its SKUs share one colorId.',
    sql: `SELECT 'Items (style)', styleId, 'style has colours ' || string_agg(DISTINCT colorId, ', ')
          FROM ${LIVE.skus} GROUP BY styleId HAVING count(DISTINCT colorId) > 1`,
  },
  {
    rule: 'dataset-stale',
    title: 'Datasets not refreshed within a day',
    why: 'Each dataset must be uploaded at least once per day; items, locations and sales are mandatory.',
    run: async (ws, now) => {
      const out: LintExample[] = [];
      for (const d of DATASETS) {
        const c = await countRecords(ws, d);
        if (c.lastWrite === undefined) {
          if (['Items', 'Locations', 'Sales'].includes(d.name))
            out.push({ dataset: d.name, id: d.name, detail: 'never sent (mandatory)' });
        } else if (now - c.lastWrite > DAY_MICROS) {
          out.push({ dataset: d.name, id: d.name, detail: `last written ${formatIsoMicros(c.lastWrite)}` });
        }
      }
      return out;
    },
  },
  {
    rule: 'unknown-fields',
    title: 'Unknown fields sent (ignored)',
    why: 'Fields the spec does not define are ignored by the service: a misspelt field is data lost.',
    run: async (_ws, _now, log) => {
      const seen = new Map<string, LintExample>();
      for (const e of log) {
        for (const w of e.warnings) {
          const m = /^unknown field "([^"]+)"/.exec(w.message);
          if (!m) continue;
          const key = `${e.dataset ?? e.path}:${m[1]}`;
          if (!seen.has(key))
            seen.set(key, {
              dataset: e.dataset ?? e.path,
              id: m[1],
              detail: `${w.message} at ${w.path} (request ${e.requestId})`,
            });
        }
      }
      return [...seen.values()];
    },
  },
  ...SALES_EXPORT_RULES,
  NEGATIVE_STOCK_RULE,
];

/** Datasets whose records one id addresses (not Stock's dated levels, not location×SKU pairs). */
const SINGLE_KEYED = new Set(DATASETS.filter((d) => d.key.length === 1 && !d.history).map((d) => d.name));

/** A rule's query names a record a person can open when the dataset it names is one and its id that dataset's key. */
function withRecord(x: LintExample): LintExample {
  return SINGLE_KEYED.has(x.dataset) ? { ...x, record: true } : x;
}

/**
 * A rule's findings by what they say: 180 references to one SKU never sent are one thing to fix, not 180. Undefined
 * when no detail repeats.
 */
async function repeated(ws: Workspace, r: Rule, now: number): Promise<LintFinding['repeats']> {
  const rows = await ws.rows<{ detail: string; n: bigint; datasets: DuckDBListValue; groups: bigint }>(
    `WITH hits AS (SELECT * FROM (${r.sql}) AS h(dataset, id, detail))
     SELECT detail, count(*) AS n, list_sort(list_distinct(list(dataset))) AS datasets,
            (SELECT count(DISTINCT detail) FROM hits) AS groups
     FROM hits GROUP BY detail ORDER BY n DESC, detail LIMIT ${LINT_REPEATS}`,
    r.sql!.includes('$1') ? [timestampValue(now)] : [],
  );
  if (rows.length === 0 || Number(rows[0].n) < 2) return undefined;
  return {
    groups: Number(rows[0].groups),
    top: rows.map((x) => ({ detail: x.detail, count: Number(x.n), datasets: x.datasets.items.map(String) })),
  };
}

export async function lint(ws: Workspace, now: number, log: RequestLogEntry[]): Promise<LintReport> {
  const findings: LintFinding[] = [];
  for (const r of RULES) {
    let count: number;
    let examples: LintExample[];
    if (r.sql) {
      const uses = r.sql.includes('$1');
      const columns = r.grouped ? 'dataset, id, detail, sample, weight' : 'dataset, id, detail';
      const rows = await ws.rows<LintRow>(
        // The total as a scalar subquery: `count(*) OVER ()` here hit an internal DuckDB error (1.5.5) now and then.
        `WITH hits AS (SELECT * FROM (${r.sql}) AS h(${columns}))
         SELECT ${columns}, (SELECT count(*) FROM hits) AS total FROM hits
         ORDER BY ${r.grouped ? 'weight DESC, ' : ''}dataset, id LIMIT ${LINT_EXAMPLES}`,
        uses ? [timestampValue(now)] : [],
      );
      count = rows.length ? Number(rows[0].total) : 0;
      examples = rows.map((x) =>
        withRecord({
          dataset: x.dataset,
          id: String(x.id),
          detail: x.detail,
          ...(x.sample ? { sample: x.sample.items.map(String) } : {}),
        }),
      );
    } else {
      const all = await r.run!(ws, now, log);
      count = all.length;
      examples = all.slice(0, LINT_EXAMPLES);
    }
    const repeats = r.sql && !r.grouped && count > examples.length ? await repeated(ws, r, now) : undefined;
    findings.push({ rule: r.rule, title: r.title, why: r.why, count, examples, ...(repeats ? { repeats } : {}) });
  }
  return { checkedAt: formatIsoMicros(now), findings };
}
