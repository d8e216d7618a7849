/**
 * The days of a part of the replay (a range of styles: all their SKUs at every location): the per-cell part of
 * the replay. Cells of different SKUs share nothing here, so parts are served by different threads or processes;
 * the engine's review, which couples styles, happens between days in steps (review.ts).
 *
 * Both sides meet the same demand: on a day the actual location held the SKU, what it sold (and, had it sold
 * out, an estimate of what it could have sold more); on a day it carried the SKU without stock, the history's
 * estimate (actual-demand.ts); nothing where it did not carry it. The actual side lost what it could not serve;
 * the simulation serves what its own stock allows.
 *
 * Most cells have nothing happen on most days: stock sits on a shelf or in a warehouse. Such a day is the same
 * for every such cell — no demand, the stock it had — so its figures come from running sums of what the cells
 * hold (per location and per style: units and value on both sides, and how many cells a store carries with and
 * without simulated stock), kept as stock moves. A day visits only the cells with a row (a sale, a receipt, a
 * count) or carried without stock, and adds what each did beyond such a day. The engine's windows are written
 * the same way: a cell's days without a sale are written when something happens to it, or before a review reads
 * them, as runs of the level it held.
 */
import { bitWords, setSlot, setSlots } from '../recommend/in-stock-bits.js';
import { addRun, RUN, Sums } from './kpi-sums.js';
import { STYLE_DAY_FIELDS, type StyleDayField } from './style-days.js';
import { addToDay, DAY_VALUES } from './daily-totals.js';
import { CF, traceAt, type TraceBuffer } from './trace.js';
import { heldStock, openingOr } from './actual-demand.js';

/** What a part serves from: the actual days' rows and, per cell of the part (numbered from 0), its state. */
export interface ServeArrays {
  /** Rows of day i: [dayStart[i], dayStart[i+1]), in cell order, numbered as the whole replay's cells. */
  dayStart: Int32Array;
  actualCell: Int32Array;
  actualEnd: Float64Array;
  /** The level a day starts with (after what is stamped at its midnight); NaN: the day before's end. */
  actualOpening: Float64Array;
  actualSold: Float64Array;
  actualNet: Float64Array;
  actualRevenue: Float64Array;
  /** Stock mutations other than transfers (receipts, corrections): what explains a level's change besides sales. */
  actualMutations: Float64Array;
  actualExtra: Float64Array;
  outStart: Int32Array;
  outCell: Int32Array;
  outDemand: Float64Array;
  /** The part's first cell in the whole replay's numbering: its rows are those of cells [cellBase, cellBase + n). */
  cellBase: number;
  /** Per SKU of the part: its style in the part. */
  styleOf: Int32Array;
  /** SKUs of the part's style s are [styleStart[s], styleStart[s+1]). */
  styleStart: Int32Array;
  /** Per SKU: the history's average price of a unit sold (see input.ts). */
  salePrice: Float64Array;
  cost: Float64Array;
  soldUnits: Float64Array;
  soldValue: Float64Array;
  /** Per location: the first day of the period the engine counts it as selling (its windows are written), or −1. */
  sellingFrom: Int32Array;
  /** Per location: 1 when it sells in the history: demand is there, and its stock counts as the shelves'. */
  stores: Uint8Array;
  /**
   * Per location: the warehouse whose stock it sells from, or −1 (see EngineState.locations). Such a location's
   * cells hold nothing: their demand is served from the warehouse's cell of the SKU, and their actual level is
   * the warehouse's (actual-demand.ts reads it so), counted as its stock, not theirs.
   */
  fulfilledFrom: Int32Array;
  /** Per location × day: 1 when it was closed (nothing carried that day). */
  closed: Uint8Array;
  days: number;
  /** Per cell of the part. */
  sim: Float64Array;
  actLevel: Float64Array;
  rate: Float64Array;
  /** Per cell: the target of the last review. */
  target: Float64Array;
  inStockDays: Int32Array;
  /** Per cell: the window's days with a sale (a window without one needs no reading: see ownStats). */
  salesDays: Int32Array;
  everActive: Uint8Array;
  /** Per cell: the last day (since 1970-01-01) it sold, or −1 (see EngineState.lastSaleDay). */
  lastSaleDay: Int32Array;
  /** The period's first day, since 1970-01-01. */
  firstDay: number;
  /** Per cell × window day: the engine's ring of units sold, NaN on a day without stock (see EngineState.sales). */
  windowSales: Float32Array;
  /** Per cell: which slots of its ring hold stock, kept with it (see EngineState.inStockBits). */
  inStockBits: Uint32Array;
  /** A traced replay: where one style's cells record each day (its SKUs numbered as the part's). */
  trace?: TraceBuffer;
}

/** What a part adds up while it serves: per style of the part, per location, per day. */
export interface PartSums {
  /** Per style of the part, over the run. */
  style: { sim: Sums; act: Sums };
  /** Per location, over the run (the part's SKUs there). */
  location: { sim: Sums; act: Sums };
  /** `(day * styles + style) * STYLE_DAY_FIELDS.length + field`: the part's styles day by day. */
  styleDays: Float64Array;
  /** DAY_VALUES values per day: the part's share of the network's day. */
  daily: Float64Array;
  /** The lowest simulated stock any cell held at the end of a day (never below 0: stock is physical). */
  lowest: number;
  /**
   * Location×SKU days whose actual stock stood below zero at the day's end: the history sold what it did not
   * hold (sales without stock sent, stock counts missing). Such stock is counted as none, not averaged in.
   */
  negativeDays: number;
  /**
   * Per location × day (`l * days + i`): 1 when the actual stock of a SKU of the part rose beyond what the day's
   * returns and stock mutations explain: a delivery by transfer (the history's own replenishment). The parts' are
   * or-ed: a store-day counts once whatever SKUs it received.
   */
  actualDeliveries: Uint8Array;
}

/** A cell whose actual stock went below zero: its lowest level and the days it stood below zero. */
export interface NegativeCell {
  cell: number;
  lowest: number;
  days: number;
}

export function partSums(locations: number, styles: number, days: number): PartSums {
  return {
    style: { sim: new Sums(styles), act: new Sums(styles) },
    location: { sim: new Sums(locations), act: new Sums(locations) },
    styleDays: new Float64Array(days * styles * STYLE_DAY_FIELDS.length),
    daily: new Float64Array(days * DAY_VALUES),
    lowest: 0,
    negativeDays: 0,
    actualDeliveries: new Uint8Array(locations * days),
  };
}

/** The first row of `[from, to)` whose cell is at least `cell` (rows are in cell order). */
export function firstRow(cells: Int32Array, from: number, to: number, cell: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cells[mid] < cell) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A rise of a store's actual stock this far beyond what explains it is a delivery (sums are exact to 10⁻⁴). */
const DELIVERY_MIN_UNITS = 0.5;

/**
 * A run's sums (kpi-sums.ts): where each side's sum of a KPI is, and the slots a run takes. Both sides share the
 * slot of what they count alike (`SIM.demand` is `ACT.demand`).
 */
const { sim: SIM, act: ACT, size: RF } = RUN;

/** Where each style-day field comes from: a run's sum over the selling locations (shelves) or the others. */
const STYLE_DAY_FROM: [StyleDayField, 0 | 1, number][] = [
  ['carriedDays', 0, SIM.carriedDays],
  ['demand', 0, SIM.demand],
  ['estimatedDemand', 0, SIM.estimatedDemand],
  ...(['sim', 'act'] as const).flatMap((side): [StyleDayField, 0 | 1, number][] => [
    [`${side}StockOutDays`, 0, RUN[side].stockOutDays],
    [`${side}Sales`, 0, RUN[side].sales],
    [`${side}LostSales`, 0, RUN[side].lostSales],
    [`${side}InventoryUnits`, 0, RUN[side].units],
    [`${side}WarehouseUnits`, 1, RUN[side].units],
  ]),
];
const F = STYLE_DAY_FIELDS.length;
const STYLE_DAY_AT = STYLE_DAY_FROM.map(([field]) => STYLE_DAY_FIELDS.indexOf(field));

/** The stock a group of cells holds, in the order of a run's stock sums: sim units, sim value, act units, act value. */
const STOCK = [SIM.units, SIM.value, ACT.units, ACT.value] as const;

/**
 * A part's days: serves them (only the cells something happens to, see above), and keeps the running sums of what
 * its cells hold. Every change of a cell's simulated stock outside a day's serving goes through `setSim`.
 */
export class PartDays {
  private readonly L: number;
  private readonly S: number;
  private readonly W: number;
  /** Words of a cell's in-stock bits. */
  private readonly words: number;
  /** Per cell: the first day whose window slot is not written yet. */
  private readonly ringDay: Int32Array;
  /** What the cells hold now: per location (4 a location) and per style and kind of location (8 a style). */
  private readonly locStock: Float64Array;
  private readonly styleStock: Float64Array;
  /**
   * Cells a store carries with actual stock on hand, and those of them without simulated stock: per location ×
   * style, and their totals per location and per style.
   */
  private readonly carried: Int32Array;
  private readonly short: Int32Array;
  private readonly locCarried: Int32Array;
  private readonly locShort: Int32Array;
  private readonly styleCarried: Int32Array;
  private readonly styleShort: Int32Array;
  /**
   * Cells visited every day, in cell order: a traced style's (the trace has each of their days) and those of the
   * locations selling from a warehouse's stock (in no running sum: whether they are in stock moves with the
   * warehouse's, on days nothing happens to them).
   */
  private readonly always: Int32Array;
  /** The traced style's cells: [tracedFrom, tracedTo). */
  private readonly tracedFrom: number;
  private readonly tracedTo: number;

  constructor(
    readonly a: ServeArrays,
    L: number,
    W: number,
    readonly sums: PartSums,
  ) {
    this.L = L;
    this.W = W;
    this.words = bitWords(W);
    const S = (this.S = a.styleStart.length - 1);
    const n = a.sim.length;
    this.ringDay = new Int32Array(n);
    this.locStock = new Float64Array(L * 4);
    this.styleStock = new Float64Array(S * 8);
    this.carried = new Int32Array(L * S);
    this.short = new Int32Array(L * S);
    this.locCarried = new Int32Array(L);
    this.locShort = new Int32Array(L);
    this.styleCarried = new Int32Array(S);
    this.styleShort = new Int32Array(S);
    // A cell selling from a warehouse's stock is none of these: its level is the warehouse's, counted there.
    this.lowestActual = Float64Array.from(a.actLevel, (q, c) => (a.fulfilledFrom[c % L] < 0 ? q : 0));
    this.negativeSince = new Int32Array(n).fill(-1);
    this.daysNegative = new Int32Array(n);
    for (let c = 0; c < n; c++) {
      this.hold(c, 0, 0, a.sim[c], a.actLevel[c]);
      if (this.lowestActual[c] < 0) this.negative(c, true, 0);
    }
    const { trace } = a;
    this.tracedFrom = trace ? a.styleStart[trace.style] * L : 0;
    this.tracedTo = trace ? a.styleStart[trace.style + 1] * L : 0;
    const always: number[] = [];
    const fulfilled = a.fulfilledFrom.some((w) => w >= 0);
    if (trace || fulfilled)
      for (let c = 0; c < n; c++)
        if ((c >= this.tracedFrom && c < this.tracedTo) || a.fulfilledFrom[c % L] >= 0) always.push(c);
    this.always = Int32Array.from(always);
  }

  /** Per cell: its lowest actual level; the day it went below zero (−1: it is not); its days below zero so far. */
  private readonly lowestActual: Float64Array;
  private readonly negativeSince: Int32Array;
  private readonly daysNegative: Int32Array;
  /** Cells whose actual stock stands below zero now. */
  private negatives = 0;

  /** A cell's actual stock goes below zero (or comes back) from day `from` on. */
  private negative(c: number, below: boolean, from: number): void {
    if (below) {
      this.negativeSince[c] = from;
      this.negatives++;
    } else {
      this.daysNegative[c] += from - this.negativeSince[c];
      this.negativeSince[c] = -1;
      this.negatives--;
    }
  }

  /** The cells whose actual stock went below zero in the first `days` days, with their lowest level and days. */
  negativeCells(days: number): NegativeCell[] {
    const out: NegativeCell[] = [];
    for (let c = 0; c < this.lowestActual.length; c++) {
      if (!(this.lowestActual[c] < 0)) continue;
      const open = this.negativeSince[c] >= 0 ? days - this.negativeSince[c] : 0;
      out.push({ cell: c, lowest: this.lowestActual[c], days: this.daysNegative[c] + open });
    }
    return out;
  }

  /** Moves a cell's levels in the running sums from (sim0, act0) to (sim1, act1). */
  private hold(c: number, sim0: number, act0: number, sim1: number, act1: number): void {
    const { L, S } = this;
    const l = c % L;
    // Selling from a warehouse's stock: it holds none, and is visited every day (see `always`).
    if (this.a.fulfilledFrom[l] >= 0) return;
    const k = (c - l) / L;
    const s = this.a.styleOf[k];
    const cost = this.a.cost[k];
    const ls = l * 4;
    const ss = (s * 2 + (this.a.stores[l] ? 0 : 1)) * 4;
    const dSim = sim1 - sim0;
    // Actual stock below zero is none (the history's sales outran its stock): counted apart, not averaged in.
    const dAct = Math.max(0, act1) - Math.max(0, act0);
    if (dSim !== 0) {
      this.locStock[ls] += dSim;
      this.locStock[ls + 1] += dSim * cost;
      this.styleStock[ss] += dSim;
      this.styleStock[ss + 1] += dSim * cost;
    }
    if (dAct !== 0) {
      this.locStock[ls + 2] += dAct;
      this.locStock[ls + 3] += dAct * cost;
      this.styleStock[ss + 2] += dAct;
      this.styleStock[ss + 3] += dAct * cost;
    }
    if (!this.a.stores[l]) return;
    // Carried on a day without anything happening: actual stock on hand; short of it in the simulation.
    const carried = (act1 > 0 ? 1 : 0) - (act0 > 0 ? 1 : 0);
    const short = (act1 > 0 && sim1 <= 0 ? 1 : 0) - (act0 > 0 && sim0 <= 0 ? 1 : 0);
    if (carried !== 0) {
      this.carried[l * S + s] += carried;
      this.locCarried[l] += carried;
      this.styleCarried[s] += carried;
    }
    if (short !== 0) {
      this.short[l * S + s] += short;
      this.locShort[l] += short;
      this.styleShort[s] += short;
    }
  }

  /** Writes a cell's window up to day `until` (not included), the days since its last write held at `level`. */
  private catchUp(c: number, until: number): void {
    const selling = this.a.sellingFrom[c % this.L];
    const from = Math.max(this.ringDay[c], selling);
    this.ringDay[c] = until;
    if (selling < 0 || from >= until) return;
    const { a, W } = this;
    const flag = a.sim[c] > 0 ? 1 : 0;
    // A window that is all such days already (nothing held, or held without a sale, all along) stays as it is.
    if (a.inStockDays[c] === (flag ? W : 0) && a.salesDays[c] === 0) return;
    const base = c * W;
    const value = flag ? 0 : Number.NaN;
    let days = 0;
    let sold = 0;
    const first = Math.max(from, until - W);
    for (let d = first; d < until; d++) {
      const slot = base + (d % W);
      const old = a.windowSales[slot];
      // NaN (no stock) is the one value not equal to itself.
      if (old === old) days--;
      if (old !== 0 && old === old) sold++;
      a.windowSales[slot] = value;
    }
    // The same days' slots in the bits.
    setSlots(a.inStockBits, W, c, first % W, (first % W) + (until - first), flag === 1);
    if (flag) days += until - first;
    a.inStockDays[c] += days;
    a.salesDays[c] -= sold;
    if (flag) a.everActive[c] = 1;
  }

  /** Every cell's window written up to day `until`: before a review reads them. */
  catchUpAll(until: number): void {
    const { L, ringDay } = this;
    const { sellingFrom, sim, inStockDays, salesDays } = this.a;
    for (let c = 0, l = 0; c < ringDay.length; c++, l = l + 1 === L ? 0 : l + 1) {
      if (ringDay[c] >= until || sellingFrom[l] < 0) continue;
      // A window that is all such days already stays as it is (see catchUp).
      if (salesDays[c] === 0 && inStockDays[c] === (sim[c] > 0 ? this.W : 0)) ringDay[c] = until;
      else this.catchUp(c, until);
    }
  }

  /** A cell's simulated stock set on day i outside its serving (arrivals, transfers sent, receipts, write-downs). */
  setSim(c: number, value: number, i: number): void {
    this.catchUp(c, i);
    const old = this.a.sim[c];
    this.a.sim[c] = value;
    this.hold(c, old, this.a.actLevel[c], value, this.a.actLevel[c]);
    if (value < this.sums.lowest) this.sums.lowest = value;
  }

  /**
   * Serves day i: `head` is the day's slot in the windows. One function for one pass over the part's cells a day,
   * every figure of a cell-day taken from the one read of it: the replay's innermost loop, where a call per cell and
   * figure would cost on every cell-day of a run.
   */
  serve(i: number, head: number): void {
    const { a, L, S, W, sums } = this;
    const { actualCell, actualOpening, actualSold, actualNet, actualEnd, actualRevenue, actualExtra } = a;
    const { outCell, outDemand, styleOf, soldUnits, soldValue, salePrice, cost, trace } = a;
    const { sim: simStock, actLevel, windowSales, inStockDays, everActive, rate } = a;
    const K = styleOf.length;
    const base = a.cellBase;
    const end = base + K * L;
    const rowsTo = firstRow(actualCell, a.dayStart[i], a.dayStart[i + 1], end);
    const outTo = firstRow(outCell, a.outStart[i], a.outStart[i + 1], end);
    let j = firstRow(actualCell, a.dayStart[i], rowsTo, base);
    let o = firstRow(outCell, a.outStart[i], outTo, base);
    const open = new Uint8Array(L);
    const delivered = sums.actualDeliveries;
    for (let l = 0; l < L; l++) open[l] = a.stores[l] === 1 && a.closed[l * a.days + i] === 0 ? 1 : 0;

    // The day as if nothing happened anywhere: each location's and each style's stock, and the cells it carried.
    const at = new Float64Array(L * RF);
    for (let l = 0; l < L; l++) {
      for (let f = 0; f < 4; f++) at[l * RF + STOCK[f]] = this.locStock[l * 4 + f];
      if (open[l]) {
        at[l * RF + SIM.carriedDays] = this.locCarried[l];
        at[l * RF + SIM.stockOutDays] = this.locShort[l];
      }
    }
    const runs = new Float64Array(S * 2 * RF);
    for (let s = 0; s < S; s++) {
      for (let kind = 0; kind < 2; kind++)
        for (let f = 0; f < 4; f++) runs[(s * 2 + kind) * RF + STOCK[f]] = this.styleStock[(s * 2 + kind) * 4 + f];
      runs[s * 2 * RF + SIM.carriedDays] = this.styleCarried[s];
      runs[s * 2 * RF + SIM.stockOutDays] = this.styleShort[s];
    }
    // A store closed for the day carried nothing.
    for (let l = 0; l < L; l++)
      if (a.stores[l] && !open[l] && this.locCarried[l] > 0)
        for (let s = 0; s < S; s++) {
          runs[s * 2 * RF + SIM.carriedDays] -= this.carried[l * S + s];
          runs[s * 2 * RF + SIM.stockOutDays] -= this.short[l * S + s];
        }

    // Then the cells something happened to, in cell order: what each did beyond such a day, and those visited
    // every day (see `always`).
    const { always, tracedFrom, tracedTo } = this;
    const { fulfilledFrom } = a;
    let next = 0;
    let lowest = sums.lowest;
    for (;;) {
      const nextRow = j < rowsTo ? actualCell[j] - base : Infinity;
      const nextOut = o < outTo ? outCell[o] - base : Infinity;
      const nextAlways = next < always.length ? always[next] : Infinity;
      const c = Math.min(nextRow, nextOut, nextAlways);
      if (c === Infinity) break;
      if (c === nextAlways) next++;
      const isTraced = c >= tracedFrom && c < tracedTo;
      const row = nextRow === c ? j++ : -1;
      const out = nextOut === c ? o++ : -1;
      const l = c % L;
      const k = (c - l) / L;
      const s = styleOf[k];
      if (a.sellingFrom[l] >= 0) this.catchUp(c, i);
      // The cell whose stock serves this one's demand: its own, or its warehouse's.
      const w = fulfilledFrom[l];
      const held = w < 0 ? c : c - l + w;
      const sim0 = simStock[held];
      const act0 = actLevel[c];
      // Such a day: carried with actual stock on hand, short of it in the simulation, the stock held (a cell
      // selling from a warehouse's stock is in no running sum).
      const carried0 = w < 0 && open[l] === 1 && act0 > 0;
      const short0 = carried0 && sim0 <= 0;

      const opening = row >= 0 ? openingOr(actualOpening[row], act0) : act0;
      const gross = row >= 0 ? actualSold[row] : 0;
      const returns = row >= 0 ? gross - actualNet[row] : 0;
      if (row >= 0) {
        // Stock that came in beyond the day's returns and receipts: a delivery to the store (not a warehouse's).
        if (w < 0 && a.stores[l] && !delivered[l * a.days + i]) {
          const unexplained = actualEnd[row] - act0 + actualNet[row] - a.actualMutations[row];
          if (unexplained > DELIVERY_MIN_UNITS) delivered[l * a.days + i] = 1;
        }
        actLevel[c] = actualEnd[row];
        soldUnits[k] += gross;
        soldValue[k] += actualRevenue[row];
      }
      const actInStock = heldStock(opening, gross);
      // What customers wanted: in stock, the day's sales (and more, had it sold out); carried without, the estimate.
      const estimated = actInStock ? (row >= 0 ? actualExtra[row] : 0) : out >= 0 ? outDemand[out] : 0;
      const demand = actInStock ? gross + estimated : estimated;
      const carried = open[l] === 1 && (actInStock || out >= 0);
      const served = Math.min(demand, Math.max(sim0, 0));
      const simNow = sim0 - served + returns;
      simStock[held] = simNow;
      const simInStock = sim0 > 0 || served > 0;
      const actNow = actLevel[c];

      const run = (s * 2 + (a.stores[l] ? 0 : 1)) * RF;
      const x = l * RF;
      const dCarried = (carried ? 1 : 0) - (carried0 ? 1 : 0);
      const dShort = (carried && !simInStock ? 1 : 0) - (short0 ? 1 : 0);
      runs[run + SIM.carriedDays] += dCarried;
      at[x + SIM.carriedDays] += dCarried;
      runs[run + SIM.stockOutDays] += dShort;
      at[x + SIM.stockOutDays] += dShort;
      if (carried) {
        // Units are valued at the day's own prices where the actual sold, else at the history's average.
        const sVal = gross > 0 ? served * (actualRevenue[row] / gross) : served * salePrice[k];
        const aVal = gross > 0 ? actualRevenue[row] : 0;
        const sEst = Math.max(0, served - (actInStock ? gross : 0));
        const aOut = actInStock ? 0 : 1;
        carry(runs, run, at, x, SIM.demand, demand);
        carry(runs, run, at, x, SIM.estimatedDemand, estimated);
        carry(runs, run, at, x, SIM.sales, served);
        carry(runs, run, at, x, ACT.sales, gross);
        carry(runs, run, at, x, SIM.returns, returns);
        carry(runs, run, at, x, SIM.lostSales, demand - served);
        carry(runs, run, at, x, SIM.salesValue, sVal);
        carry(runs, run, at, x, ACT.salesValue, aVal);
        carry(runs, run, at, x, SIM.estimatedSales, sEst);
        carry(runs, run, at, x, ACT.stockOutDays, aOut);
      }
      const dSim = simNow - sim0;
      if (w < 0) {
        const dAct = Math.max(0, actNow) - Math.max(0, act0);
        if (act0 < 0 !== actNow < 0) this.negative(c, actNow < 0, i);
        if (actNow < this.lowestActual[c]) this.lowestActual[c] = actNow;
        if (dSim !== 0 || dAct !== 0) {
          runs[run + SIM.units] += dSim;
          runs[run + SIM.value] += dSim * cost[k];
          runs[run + ACT.units] += dAct;
          runs[run + ACT.value] += dAct * cost[k];
          at[x + SIM.units] += dSim;
          at[x + SIM.value] += dSim * cost[k];
          at[x + ACT.units] += dAct;
          at[x + ACT.value] += dAct * cost[k];
          this.hold(c, sim0, act0, simNow, actNow);
        }
      } else if (dSim !== 0) {
        // What it sold (or took back) left (or came back to) the warehouse's stock.
        const wRun = (s * 2 + (a.stores[w] ? 0 : 1)) * RF;
        runs[wRun + SIM.units] += dSim;
        runs[wRun + SIM.value] += dSim * cost[k];
        at[w * RF + SIM.units] += dSim;
        at[w * RF + SIM.value] += dSim * cost[k];
        this.hold(held, sim0, actLevel[held], simNow, actLevel[held]);
        if (trace && held >= tracedFrom && held < tracedTo)
          trace.values[traceAt(trace, L, held, i) + CF.simStock] = simNow;
      }
      if (a.sellingFrom[l] >= 0 && i >= a.sellingFrom[l]) {
        // The engine's own history of the simulated world: what it sold, and whether it had stock.
        const slot = c * W + head;
        const old = windowSales[slot];
        a.salesDays[c] += (served > 0 ? 1 : 0) - (old !== 0 && old === old ? 1 : 0);
        inStockDays[c] += (simInStock ? 1 : 0) - (old === old ? 1 : 0);
        // A shelf that sold out tells a lower bound of the day's demand, kept negated (see EngineState.sales).
        windowSales[slot] = simInStock ? (served < demand && served > 0 ? -served : served) : Number.NaN;
        setSlot(a.inStockBits, this.words, c, head, simInStock);
        if (simInStock) everActive[c] = 1;
        if (served > 0) a.lastSaleDay[c] = a.firstDay + i;
        this.ringDay[c] = i + 1;
      }
      if (isTraced && trace) {
        const v = trace.values;
        const at0 = traceAt(trace, L, c, i);
        v[at0 + CF.simSales] = served;
        v[at0 + CF.actSales] = gross;
        v[at0 + CF.returns] = returns;
        v[at0 + CF.demand] = carried ? demand : 0;
        v[at0 + CF.estimatedDemand] = carried ? estimated : 0;
        v[at0 + CF.simLostSales] = carried ? demand - served : 0;
        v[at0 + CF.actLostSales] = carried ? estimated : 0;
        v[at0 + CF.demandEstimate] = rate[c];
        v[at0 + CF.target] = a.target[c];
        v[at0 + CF.simInStock] = simInStock ? 1 : 0;
        v[at0 + CF.actInStock] = actInStock ? 1 : 0;
        v[at0 + CF.carried] = carried ? 1 : 0;
        // A cell selling from a warehouse's stock holds none (the warehouse's cell shows it).
        v[at0 + CF.simStock] = w < 0 ? simNow : 0;
        v[at0 + CF.actStock] = w < 0 ? actNow : 0;
      }
      if (simNow < lowest) lowest = simNow;
    }
    sums.lowest = lowest;
    sums.negativeDays += this.negatives;

    for (let s = 0; s < S; s++) {
      const shelves = runs.subarray(s * 2 * RF, (s * 2 + 1) * RF);
      const warehouses = runs.subarray((s * 2 + 1) * RF, (s * 2 + 2) * RF);
      addRun(sums.style.sim, sums.style.act, true, s, shelves);
      addRun(sums.style.sim, sums.style.act, false, s, warehouses);
      const row = (i * S + s) * F;
      for (let f = 0; f < STYLE_DAY_FROM.length; f++) {
        const [, kind, r] = STYLE_DAY_FROM[f];
        sums.styleDays[row + STYLE_DAY_AT[f]] = (kind === 0 ? shelves : warehouses)[r];
      }
    }
    const t = sums.daily;
    const d = i * DAY_VALUES;
    for (let l = 0; l < L; l++) {
      const x = at.subarray(l * RF, (l + 1) * RF);
      const isStore = a.stores[l] === 1;
      addRun(sums.location.sim, sums.location.act, isStore, l, x);
      addToDay(t, d, x, isStore);
    }
  }
}

/** Adds a carried cell-day's figure `v` to slot `slot` of its style's run at `y` and of its location's at `x`. */
function carry(runs: Float64Array, y: number, at: Float64Array, x: number, slot: number, v: number): void {
  runs[y + slot] += v;
  at[x + slot] += v;
}
