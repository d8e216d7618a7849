/**
 * A location × SKU cell's days, read from its rows: stretches without an event (the level held) and days with one,
 * each with whether it started with stock, sold out during it, or had none. The one reading of the history the
 * demand estimate's passes share (actual-demand.ts, day-index.ts).
 */

/** A day without stock when it started and without a sale: a stock-out day if the SKU was carried. */
export const OUT = 0;
/** A day that started with stock (or sold some) and did not sell out. */
export const IN = 1;
/** In stock and sold out during the day: the day's sales are a lower bound of its demand. */
export const SOLD_OUT = 2;
/**
 * After selling out with no stock coming back, a SKU still counts as carried while its style sells elsewhere in the
 * network, for this long at most ("sold shortly before"; longer is a location that stopped carrying it).
 */
export const SOLD_OUT_TAIL_DAYS = 56;

/** Daily rows of every location×SKU cell over the history read, cell by cell and day by day within a cell. */
export interface CellDayRows {
  /** `sku × L + location` (see recommend/state.ts), ascending. */
  cell: ArrayLike<number>;
  /** Day index in the history read; −1 is the level it starts from. */
  d: ArrayLike<number>;
  endLevel: ArrayLike<number>;
  /** The level the day starts with, when something is stamped at its midnight; else NaN (the day before's end). */
  opening: ArrayLike<number>;
  /** 1 when a sale left no stock: the day sold out. */
  soldOut: ArrayLike<number>;
  /** 1 when a stock level was posted that day (zero included): the location still lists the SKU. */
  counted: ArrayLike<number>;
  /** Gross units sold. */
  sold: ArrayLike<number>;
  /** Net units sold (returns subtracted). */
  net: ArrayLike<number>;
}

/**
 * Whether a location held a SKU on a day: it had stock when the day started (after what is stamped at its
 * midnight) or it sold some. Stock that came in later without a sale (a return, a late delivery) leaves the day
 * one without stock for the customers who came before it. The rule the engine's history, the backtest's actual
 * side and the demand estimate share: a carried day that did not hold stock is a stock-out day.
 */
export function heldStock(opening: number, sold: number): boolean {
  return opening > 0 || sold > 0;
}

/** The level a day starts with: its own opening where something was stamped at its midnight (else NaN), or `level`. */
export const openingOr = (opening: number, level: number): number => (Number.isNaN(opening) ? level : opening);

/** The rows of each cell, and its days walked in order over `days` days. */
export class CellWalk {
  private readonly from: Int32Array;
  private readonly to: Int32Array;

  constructor(
    readonly rows: CellDayRows,
    readonly days: number,
    cells: number,
  ) {
    this.from = new Int32Array(cells).fill(-1);
    this.to = new Int32Array(cells);
    for (let j = 0; j < rows.cell.length; j++) {
      const c = rows.cell[j];
      if (this.from[c] < 0) this.from[c] = j;
      this.to[c] = j + 1;
    }
  }

  /** The cell's rows [from, to); empty where it has none. */
  rowsOf(c: number): [number, number] {
    return this.from[c] < 0 ? [0, 0] : [this.from[c], this.to[c]];
  }

  /**
   * The cell's days: `stretch(a, b, inStock, level)` for days [a, b) without an event (holding `level`),
   * `day(e, j, status, start)` for a day with row j (`start`: the level the day before ended with).
   */
  walk(
    c: number,
    stretch: (a: number, b: number, inStock: boolean, level: number) => void,
    day: (e: number, j: number, status: number, start: number) => void,
  ): void {
    const { rows, days: E } = this;
    const [j0, j1] = this.rowsOf(c);
    let j = j0;
    let level = 0;
    if (j < j1 && rows.d[j] < 0) level = rows.endLevel[j++];
    let e = 0;
    for (; j < j1; j++) {
      const d = rows.d[j];
      if (d >= E) break;
      if (d > e) stretch(e, d, level > 0, level);
      const sold = rows.sold[j];
      const opening = openingOr(rows.opening[j], level);
      day(d, j, !heldStock(opening, sold) ? OUT : rows.soldOut[j] ? SOLD_OUT : IN, level);
      level = rows.endLevel[j];
      e = d + 1;
    }
    if (e < E) stretch(e, E, level > 0, level);
  }
}
