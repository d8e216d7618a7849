/**
 * What a backtest replays: the engine's state at the start, the actual days of the period, and the demand the
 * history shows or implies on each of them (actual-demand.ts), the same for both sides of the comparison.
 */
import type { EngineState } from '../recommend/state.js';
import { actualDemand, type DemandLayout, type HistoryRange, type HistoryRows } from './actual-demand.js';
import { fulfilledRows, onSale } from './fulfilled-days.js';
import { levelTransit, type LevelTransit, type Transit } from './transit.js';

export interface ActualDays {
  /** Rows of day i: [dayStart[i], dayStart[i+1]), ordered by cell. */
  dayStart: Int32Array;
  cell: Int32Array;
  endLevel: Float64Array;
  /** The level the day starts with (after what is stamped at its midnight); NaN: the day before's end. */
  opening: Float64Array;
  /** Gross units sold. */
  sold: Float64Array;
  /** Net units sold (returns subtracted). */
  net: Float64Array;
  /** Stock mutations other than transfers (receipts, corrections), replayed in the simulation too. */
  mutations: Float64Array;
  /** Value of the units sold (returns not subtracted). */
  revenue: Float64Array;
  /** On a day the cell sold out: the demand beyond its sales, estimated (0 on other days). */
  extra: Float64Array;
}

/** Days a location carried a SKU and had none of it: rows of day i are [dayStart[i], dayStart[i+1]), by cell. */
export interface OutDays {
  dayStart: Int32Array;
  cell: Int32Array;
  /** The demand of the day, estimated: lost in fact, served by the simulation where it has stock. */
  demand: Float64Array;
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
  out: OutDays;
  /** Per location: 1 when it sells in the history (a store or the webshop: its stock meets demand), 0 a warehouse. */
  selling: Uint8Array;
  /** Per location × day: 1 on a day it was closed (it sold nothing where it sells plenty): nothing carried there. */
  closed: Uint8Array;
  /** Per SKU: unit cost, to value inventory. */
  cost: Float64Array;
  /**
   * Per SKU: the average price a unit sold for in the history read (recorded amounts ÷ units), which values the
   * units sold on a day the actual side did not sell (a day's own sales are valued at that day's prices).
   */
  salePrice: Float64Array;
  /**
   * Per day of the period × style (`day * styles + style`): how far below its list price the style sold that day
   * across the network, NaN on a day it did not sell (inputs/style-discounts.ts). The engine reads each day's after
   * it, as it reads the day's sales (forecast/price-regime.ts). Absent: every day at its list price.
   */
  styleDiscount?: Float64Array;
  /** Purchase-order lines, so the engine knows what is on order on each day (nothing ordered later). */
  receipts: PlannedReceipt[];
  /** How long a transfer takes to reach each location in the world the history shows (transit.ts). */
  transit: Transit;
  /** Whether the actual days were read back from the workspace's cache rather than derived (history-cache.ts). */
  historyCached?: boolean;
  /**
   * Per day of the period, its recorded revenue: the amounts of every sales line of the day, returns, cancellations
   * and discount lines included (the units sold are valued apart, at their own lines' amounts: see kpis.ts).
   */
  recordedRevenue?: Float64Array;
}

/**
 * An estimated demand as whole units, rounded up with the probability of its fraction: customers come whole, and
 * stock served to a fraction of one would stand on the shelves as fractions no transfer moves. The draw is a hash of
 * the cell and the day, so a day's demand is the same in every backtest that covers it; over many cell-days the
 * units add up to the estimate.
 */
export function wholeUnits(x: number, cell: number, day: number): number {
  const whole = Math.floor(x);
  if (x === whole) return x;
  let h = Math.imul(cell ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(day, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return whole + ((h >>> 0) / 4294967296 < x - whole ? 1 : 0);
}

export function demandLayout(start: EngineState): DemandLayout {
  return {
    locations: start.locations.ids.length,
    skus: start.skus.ids.length,
    styleOf: start.skus.style,
    styleStart: start.styles.styleStart,
    categoryOf: start.styles.category,
    fulfilled: Uint8Array.from(start.locations.fulfilledFrom, (w) => (w >= 0 ? 1 : 0)),
    categories: start.categories.ids.length,
  };
}

/** The period's actual days and demand, day by day, from the history read around it. */
export function periodDays(
  rows: HistoryRows,
  range: HistoryRange,
  layout: DemandLayout,
): Pick<BacktestInput, 'actual' | 'out' | 'selling' | 'closed' | 'salePrice'> & { transit: LevelTransit } {
  // A location selling from a warehouse's stock: its days cut to its styles' spans on sale.
  const sale = layout.fulfilled.includes(1) ? onSale(rows, range, layout) : undefined;
  const measured = (selling: Uint8Array) => levelTransit(rows, range, layout, selling);
  if (sale) rows = fulfilledRows(rows, range, layout, sale);
  const demand = actualDemand(rows, range, layout, sale);
  const days = range.periodTo - range.periodFrom;
  // Rows per day, each day's rows by cell: a counting sort of the (cell, day)-ordered rows.
  const n = rows.cell.length;
  const counts = new Int32Array(days + 1);
  const dayOf = (j: number) => rows.d[j] - range.periodFrom;
  for (let j = 0; j < n; j++) {
    const d = dayOf(j);
    if (d >= 0 && d < days) counts[d + 1]++;
  }
  const dayStart = new Int32Array(days + 1);
  for (let i = 0; i < days; i++) dayStart[i + 1] = dayStart[i] + counts[i + 1];
  const m = dayStart[days];
  const fill = Int32Array.from(dayStart.subarray(0, days));
  const actual: ActualDays = {
    dayStart,
    cell: new Int32Array(m),
    endLevel: new Float64Array(m),
    opening: new Float64Array(m),
    sold: new Float64Array(m),
    net: new Float64Array(m),
    mutations: new Float64Array(m),
    revenue: new Float64Array(m),
    extra: new Float64Array(m),
  };
  for (let j = 0; j < n; j++) {
    const d = dayOf(j);
    if (d < 0 || d >= days) continue;
    const at = fill[d]++;
    actual.cell[at] = rows.cell[j];
    actual.endLevel[at] = rows.endLevel[j];
    actual.opening[at] = rows.opening[j];
    actual.sold[at] = rows.sold[j];
    actual.net[at] = rows.net[j];
    actual.mutations[at] = rows.mutations[j];
    actual.revenue[at] = rows.revenue[j];
    actual.extra[at] = wholeUnits(demand.extra[j], rows.cell[j], range.firstDay + rows.d[j]);
  }
  const o = demand.out;
  const outStart = new Int32Array(days + 1);
  for (let j = 0; j < o.day.length; j++) outStart[o.day[j] + 1]++;
  for (let i = 0; i < days; i++) outStart[i + 1] += outStart[i];
  const at = Int32Array.from(outStart.subarray(0, days));
  const out: OutDays = {
    dayStart: outStart,
    cell: new Int32Array(o.cell.length),
    demand: new Float64Array(o.cell.length),
  };
  for (let j = 0; j < o.day.length; j++) {
    const x = at[o.day[j]]++;
    out.cell[x] = o.cell[j];
    out.demand[x] = wholeUnits(o.demand[j], o.cell[j], range.firstDay + range.periodFrom + o.day[j]);
  }
  const units = new Float64Array(layout.skus);
  const value = new Float64Array(layout.skus);
  for (let j = 0; j < n; j++) {
    if (rows.d[j] < 0 || !(rows.sold[j] > 0)) continue;
    const k = Math.floor(rows.cell[j] / layout.locations);
    units[k] += rows.sold[j];
    value[k] += rows.revenue[j];
  }
  return {
    actual,
    out,
    selling: demand.selling,
    closed: demand.closed,
    transit: measured(demand.selling),
    salePrice: value.map((v, k) => (units[k] > 0 ? v / units[k] : 0)),
  };
}
