/**
 * Batches whose records all carry one marker in their ids, so a reader can tell for any batch whether it is
 * stored whole, not at all, or (never) in part; and broken twins of them that the API must refuse whole.
 */
import { getDataset } from '../engine/model/datasets.js';
import type { JsonRecord } from '../engine/ingest/validate.js';
import { item, poLine, purchaseOrder, sale, salesLine, T0, type Rec } from './fixtures.js';

/** The endpoints the batches go to: master data with children, transactions, dated history. */
export const BATCH_DATASETS = ['Items', 'Sales', 'PurchaseOrders', 'Stock', 'StockMutations'] as const;
export type BatchDataset = (typeof BATCH_DATASETS)[number];

const BUILD: Record<BatchDataset, (id: string, k: number) => Rec> = {
  Items: (id, k) =>
    item(
      id,
      Array.from({ length: 1 + (k % 3) }, (_, s) => `${id}-${s}`),
    ),
  Sales: (id, k) =>
    sale(
      id,
      Array.from({ length: 1 + (k % 3) }, (_, l) => salesLine(`${id}-${l}`, `SKU${k % 50}`, 1 + l)),
    ),
  PurchaseOrders: (id, k) =>
    purchaseOrder(
      id,
      Array.from({ length: 1 + (k % 4) }, (_, l) => poLine(`${id}-${l}`, 10 + l, 10 + l)),
    ),
  // The location carries the marker: a stock level is keyed by location, SKU and time.
  Stock: (id, k) => ({ locationId: id, skuId: `SKU${k % 50}`, quantity: k % 20, stockDateTime: T0 }),
  StockMutations: (id, k) => ({
    stockMutationId: id,
    locationId: 'L1',
    skuId: `SKU${k % 50}`,
    quantity: -1 - (k % 3),
    mutationDateTime: T0,
    type: 'correction',
  }),
};

/** One invalid field per dataset, deep enough that only full validation finds it. */
const BREAK: Record<BatchDataset, (r: Rec) => void> = {
  Items: (r) => delete r.skus[0].skuId,
  Sales: (r) => (r.salesLines[0].quantitySold = 'two'),
  PurchaseOrders: (r) => (r.purchaseOrderLines[0].quantity = -3),
  Stock: (r) => (r.quantity = 'many'),
  StockMutations: (r) => (r.mutationDateTime = 'yesterday'),
};

export interface Batch {
  dataset: BatchDataset;
  marker: string;
  records: Rec[];
  /** What the API must answer: 200, or 400 for a batch with a broken record or broken JSON. */
  expected: 200 | 400;
  /** The request body as sent. */
  body: string;
}

/**
 * `size` records whose ids all start with `marker`. `broken`: one record in the middle gets an invalid field;
 * `truncated`: the JSON text is cut short.
 */
export function markedBatch(dataset: BatchDataset, marker: string, size: number, flaw?: 'broken' | 'truncated'): Batch {
  const records = Array.from({ length: size }, (_, k) => BUILD[dataset](`${marker}-${k}`, k));
  if (flaw === 'broken') BREAK[dataset](records[size >> 1]);
  const text = JSON.stringify({ [getDataset(dataset).envelope]: records });
  return {
    dataset,
    marker,
    records,
    expected: flaw ? 400 : 200,
    body: flaw === 'truncated' ? text.slice(0, -7) : text,
  };
}

/** A record's key as one string, as the dataset defines it. */
export function keyText(dataset: string, r: JsonRecord): string {
  return getDataset(dataset)
    .key.map((k) => String(r[k]))
    .join('\u0000');
}

/** The record and every child row nested in it: equal sent and stored means the record is whole. */
export function rowCount(r: JsonRecord): number {
  let n = 1;
  for (const v of Object.values(r)) {
    if (Array.isArray(v)) for (const c of v) if (c && typeof c === 'object') n += rowCount(c as JsonRecord);
  }
  return n;
}
