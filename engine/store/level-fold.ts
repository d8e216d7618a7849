/**
 * Folds a cell's stock events, in time order, into its days: the running level (a stock level resets it, every
 * mutation and sale moves it), what the day starts and ends with, whether it sold out, and the day's sums. One
 * linear pass, chunk by chunk as the events stream in, so the events of a long history are never all held at once.
 *
 * Events of one instant and kind move the stock together: each of them sees the level after all of them, and a
 * day's figures do not depend on how such ties happen to be ordered. Amounts are added up exactly, to a
 * ten-thousandth (a floating-point sum depends on the order of its terms), as integers of that unit.
 */
import { DAY_MICROS } from '../model/datetime.js';

/** One chunk of events, ordered by cell, then moment, then kind (a level before the moves of its own instant). */
export interface LevelEvents {
  /** `location index × skuCount + sku index`. */
  cell: Int32Array;
  /** Microseconds since 1970-01-01. */
  t: Float64Array;
  /** 0: a stock level (`v` is the level); 1: a move (`v` is added). */
  kind: Int32Array;
  v: Float64Array;
  /** Gross units sold (returns not subtracted). */
  sold: Float64Array;
  /** Net units sold (returns subtracted): negative for a return. */
  net: Float64Array;
  /** A stock mutation other than a transfer. */
  mut: Float64Array;
  /** Sales value incl. VAT of units sold. */
  revenue: Float64Array;
}

/** One row per cell and day with an event; the day relative to the first day, −1 for all days before it. */
export interface DailyLevels {
  /** Ascending; then the day. */
  cell: Int32Array;
  /** Day relative to `fromDay`; −1 is "before it" (the level it starts from). */
  d: Int32Array;
  /** Stock at the end of the day. */
  endLevel: Float64Array;
  /**
   * The stock the day starts with when something is stamped at its midnight (a count, a delivery, a feed's dated
   * sales), else NaN: the day starts with the day before's end.
   */
  opening: Float64Array;
  /** 1 when a sale left no stock but the day's returns (it sold out: its sales are a lower bound of its demand). */
  soldOut: Int32Array;
  /** 1 when a stock level was posted for it that day (zero included): the location lists the SKU. */
  counted: Int32Array;
  /** Gross units sold (returns not subtracted). */
  sold: Float64Array;
  /** Net units sold (returns subtracted). */
  net: Float64Array;
  /** Stock mutations of the day other than transfers (receipts, corrections). */
  mutations: Float64Array;
  /** Sales value incl. VAT of the units sold (returns not subtracted). */
  revenue: Float64Array;
}

/** The unit amounts are added up in: a ten-thousandth, rounded half away from zero like a DECIMAL cast. */
const UNIT = 10_000;
const exact = (x: number) => (Number.isNaN(x) ? 0 : x < 0 ? -Math.round(-x * UNIT) : Math.round(x * UNIT));

type Column = keyof DailyLevels;
const INT_COLUMNS = new Set<Column>(['cell', 'd', 'soldOut', 'counted']);

/** Rows a block of Growing holds. */
const BLOCK_ROWS = 65_536;

/**
 * Typed columns that grow as rows are appended, a block at a time: filled blocks are copied once, into the columns
 * `done` hands out, never again as they grow.
 */
class Growing {
  length = 0;
  /** The block rows are written to; the next row goes to `row`. */
  columns = {} as DailyLevels;
  private row = BLOCK_ROWS;
  private readonly blocks: DailyLevels[] = [];
  private make(c: Column, n: number) {
    return INT_COLUMNS.has(c) ? new Int32Array(n) : new Float64Array(n);
  }
  /** The next row's index in `columns`, room made for it. */
  next(): number {
    if (this.row === BLOCK_ROWS) {
      this.columns = {} as DailyLevels;
      for (const c of COLUMNS) this.columns[c] = this.make(c, BLOCK_ROWS) as never;
      this.blocks.push(this.columns);
      this.row = 0;
    }
    this.length++;
    return this.row++;
  }
  done(): DailyLevels {
    const out = {} as DailyLevels;
    for (const c of COLUMNS) {
      const column = this.make(c, this.length);
      this.blocks.forEach((block, b) => {
        const at = b * BLOCK_ROWS;
        column.set(block[c].subarray(0, Math.min(BLOCK_ROWS, this.length - at)), at);
      });
      out[c] = column as never;
    }
    return out;
  }
}
const COLUMNS: Column[] = [
  'cell',
  'd',
  'endLevel',
  'opening',
  'soldOut',
  'counted',
  'sold',
  'net',
  'mutations',
  'revenue',
];

export class LevelFold {
  private readonly out = new Growing();
  // The cell and day being folded, and the cell's running level (in UNITs).
  private cell = -1;
  private day = 0;
  private level = 0;
  // The day's figures so far.
  private returned = 0;
  private endLevel = 0;
  private opening = Number.NaN;
  private lowest = Number.POSITIVE_INFINITY;
  private counted = 0;
  private sold = 0;
  private net = 0;
  private mutations = 0;
  private revenue = 0;
  // The instant (moment and kind) whose events are being gathered: they apply together.
  private open = false;
  private t = 0;
  private kind = 0;
  private move = 0;
  private setTo = 0;
  private returns = 0;
  private sells = false;

  constructor(private readonly fromDay: number) {}

  push(e: LevelEvents, rows: number): void {
    for (let i = 0; i < rows; i++) {
      const cell = e.cell[i];
      const t = e.t[i];
      const kind = e.kind[i];
      if (!this.open || cell !== this.cell || t !== this.t || kind !== this.kind) {
        this.closeInstant();
        const day = Math.max(Math.floor(t / DAY_MICROS) - this.fromDay, -1);
        if (cell !== this.cell || day !== this.day) {
          this.closeDay();
          if (cell !== this.cell) this.level = 0;
          this.cell = cell;
          this.day = day;
        }
        this.open = true;
        this.t = t;
        this.kind = kind;
      }
      const v = exact(e.v[i]);
      if (kind === 0) this.setTo = v;
      else this.move += v;
      const net = exact(e.net[i]);
      if (net < 0) this.returns -= net;
      const sold = exact(e.sold[i]);
      if (sold > 0) this.sells = true;
      this.sold += sold;
      this.net += net;
      this.mutations += exact(e.mut[i]);
      this.revenue += exact(e.revenue[i]);
    }
  }

  /** The days folded, the last one included. */
  finish(): DailyLevels {
    this.closeInstant();
    this.closeDay();
    return this.out.done();
  }

  private closeInstant(): void {
    if (!this.open) return;
    this.open = false;
    if (this.kind === 0) {
      this.level = this.setTo;
      this.counted = 1;
    } else this.level += this.move;
    this.returned += this.returns;
    if (this.sells) this.lowest = Math.min(this.lowest, this.level - this.returned);
    this.endLevel = this.level;
    const t = this.t;
    if (t === Math.floor(t / DAY_MICROS) * DAY_MICROS) this.opening = this.level;
    this.move = 0;
    this.setTo = 0;
    this.returns = 0;
    this.sells = false;
  }

  private closeDay(): void {
    if (this.cell < 0) return;
    const o = this.out;
    const r = o.next();
    const c = o.columns;
    c.cell[r] = this.cell;
    c.d[r] = this.day;
    c.endLevel[r] = this.endLevel / UNIT;
    c.opening[r] = this.opening / UNIT;
    c.soldOut[r] = this.lowest <= 0 ? 1 : 0;
    c.counted[r] = this.counted;
    c.sold[r] = this.sold / UNIT;
    c.net[r] = this.net / UNIT;
    c.mutations[r] = this.mutations / UNIT;
    c.revenue[r] = this.revenue / UNIT;
    this.returned = 0;
    this.opening = Number.NaN;
    this.lowest = Number.POSITIVE_INFINITY;
    this.counted = 0;
    this.sold = 0;
    this.net = 0;
    this.mutations = 0;
    this.revenue = 0;
  }
}
