/** The history a backtest's actual side is read from: its rows, its range of days and the network's layout. */
import type { CellDayRows } from './cell-walk.js';
import type { IndexLayout } from './day-index.js';

/** History rows of every cell over a range holding the period (cell by cell), with the columns the replay uses. */
export interface HistoryRows extends CellDayRows {
  net: ArrayLike<number>;
  mutations: ArrayLike<number>;
  revenue: ArrayLike<number>;
}

/**
 * Per style: the first day of the history read it sold anywhere, and the last it was on sale in the network (sold,
 * or still counted on empty shelves: fulfilled-days.ts); last < first where it never sold.
 */
export interface OnSale {
  first: Int32Array;
  last: Int32Array;
}

export interface DemandLayout extends IndexLayout {
  /**
   * Per location: 1 when it sells from a warehouse's stock (its rows are the warehouse's level and its own sales).
   * Its level rising or falling is then the warehouse's business — a delivery, stock taken back from the stores,
   * a shipment to them — so only its own sales tell that it sells a SKU.
   */
  fulfilled: Uint8Array;
}

export interface HistoryRange {
  /** Days in the history read (index 0 is `firstDay`, days since 1970-01-01). */
  days: number;
  firstDay: number;
  /** The backtest's period within it: [periodFrom, periodTo). */
  periodFrom: number;
  periodTo: number;
}
