/**
 * A traced replay: every location×SKU cell of one style, day by day, as the replay saw it. Keeping this for every
 * cell of a run would take cells × days × fields (515,000 × 730 × 15 on the big benchmark), so a run keeps its
 * figures per style and day, and a style's cells are traced on demand by replaying the run again: the same
 * input, settings and days give the same decisions (the replay is pure), and what the trace adds up to is
 * checked against the figures the run kept.
 */
import type { SimulatedTransfer } from './simulated-transfer.js';

/** One value per cell and day, in this order. Stocks are at the end of the day; `sim…` simulated, `act…` actual. */
export const CELL_DAY_FIELDS = [
  'simStock',
  'actStock',
  'simSales',
  'actSales',
  /** Units returned to the location (both sides: customers bring back what they bought). */
  'returns',
  /** What customers wanted on a carried day (the same on both sides): the actual sales on days in stock, plus an
   * estimate beyond them on a day that sold out; the estimate on days carried without stock; 0 when not carried. */
  'demand',
  /** The part of `demand` that is estimated. */
  'estimatedDemand',
  'simLostSales',
  'actLostSales',
  /** The engine's demand estimate for the cell that day (units per day, from its last review). */
  'demandEstimate',
  /** The stock the engine's last review aimed the cell at (its target). */
  'target',
  /** On a review day, what the review did for the cell: recommend/outcome.ts OUTCOMES' place + 1; else 0. */
  'outcome',
  /** Actual receipts and corrections, replayed as they happened. */
  'receipts',
  /** A write-down larger than the simulated stock: the units it could not take (a difference between the worlds). */
  'writeDownShortfall',
  /** The engine's transfers arriving at the cell and leaving it. */
  'transfersIn',
  'transfersOut',
  'simInStock',
  'actInStock',
  /** 1 on a day a store or the webshop carried the SKU (held it, or was out of a SKU it carries). */
  'carried',
] as const;
export type CellDayField = (typeof CELL_DAY_FIELDS)[number];
export const CELL_FIELDS = CELL_DAY_FIELDS.length;
/** Each field's offset in a cell-day's values. */
export const CF = Object.fromEntries(CELL_DAY_FIELDS.map((f, i) => [f, i])) as Record<CellDayField, number>;

/** Where a trace writes: the style's SKUs `[kFrom, kTo)` at every location. */
export interface TraceBuffer {
  style: number;
  kFrom: number;
  kTo: number;
  days: number;
  /** `values[((location × (kTo − kFrom) + sku − kFrom) × days + day) × CELL_FIELDS + field]`. */
  values: Float64Array;
}

/** A transfer the replay made for a traced cell, with when it arrives (days since 1970-01-01) and why. */
export interface TracedTransfer extends SimulatedTransfer {
  arrivalDay: number;
  reason: string;
}

export interface StyleTrace extends TraceBuffer {
  /** Days replayed. */
  daysDone: number;
  /** The engine's transfers of the style's SKUs, with their reasons. */
  transfers: TracedTransfer[];
  /** Each location's kind as the replay ended: a location counted as a warehouse sells from its first sale on. */
  locationKinds: string[];
}

/** The offset of a cell-day's values, or −1 when the cell is not traced. */
export function traceAt(t: TraceBuffer, L: number, cell: number, day: number): number {
  const l = cell % L;
  const k = (cell - l) / L;
  if (k < t.kFrom || k >= t.kTo) return -1;
  return ((l * (t.kTo - t.kFrom) + k - t.kFrom) * t.days + day) * CELL_FIELDS;
}

/** Adds units to a field of a cell-day, when the cell is traced. */
export function traceAdd(
  t: TraceBuffer | undefined,
  L: number,
  cell: number,
  day: number,
  field: number,
  units: number,
): void {
  if (!t) return;
  const i = traceAt(t, L, cell, day);
  if (i >= 0) t.values[i + field] += units;
}
