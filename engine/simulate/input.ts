/** What a backtest replays: the engine's state at the start, and the actual days after it, per day. */
import type { EngineState } from '../recommend/state.js';

export interface ActualDays {
  /** Rows of day i: [dayStart[i], dayStart[i+1]), ordered by cell. */
  dayStart: Int32Array;
  cell: Int32Array;
  endLevel: Float64Array;
  peak: Float64Array;
  /** Gross units sold. */
  sold: Float64Array;
  /** Net units sold (returns subtracted). */
  net: Float64Array;
  /** Stock mutations other than transfers (receipts, corrections), replayed in the simulation too. */
  mutations: Float64Array;
  /** Value of the units sold (returns not subtracted). */
  revenue: Float64Array;
}

export interface PlannedReceipt {
  cell: number;
  /** Day the order was placed and the day it is due, relative to the start. */
  orderDay: number;
  dueDay: number;
  quantity: number;
  style: number;
}

export interface BacktestInput {
  /** The engine's state as of the first day (actual stock then, actual history before it). */
  start: EngineState;
  days: number;
  actual: ActualDays;
  /** Per cell: the first and last day (relative) of its selling life within the period, −1 when none. */
  activeFrom: Int32Array;
  activeTo: Int32Array;
  /** Per SKU: unit cost, to value inventory. */
  cost: Float64Array;
  /** Purchase-order lines, so the engine knows what is on order on each day (nothing ordered later). */
  receipts: PlannedReceipt[];
}

/** Selling life of each cell: from its first to its last day with stock or sales, within the period. */
export function sellingLife(start: EngineState, actual: ActualDays, days: number): { activeFrom: Int32Array; activeTo: Int32Array } {
  const cells = start.onHand.length;
  const activeFrom = new Int32Array(cells).fill(-1);
  const activeTo = new Int32Array(cells).fill(-1);
  for (let c = 0; c < cells; c++) {
    if (start.onHand[c] > 0) activeFrom[c] = activeTo[c] = 0;
  }
  for (let i = 0; i < days; i++) {
    for (let j = actual.dayStart[i]; j < actual.dayStart[i + 1]; j++) {
      if (actual.peak[j] > 0 || actual.sold[j] > 0 || actual.endLevel[j] > 0) {
        const c = actual.cell[j];
        if (activeFrom[c] < 0) activeFrom[c] = i;
        activeTo[c] = i;
      }
    }
  }
  // Stock still held at the end keeps the cell alive to the end.
  const level = Float64Array.from(start.onHand);
  for (let j = 0; j < actual.cell.length; j++) level[actual.cell[j]] = actual.endLevel[j];
  for (let c = 0; c < cells; c++) if (level[c] > 0 && activeFrom[c] >= 0) activeTo[c] = days - 1;
  return { activeFrom, activeTo };
}
