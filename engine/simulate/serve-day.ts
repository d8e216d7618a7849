/**
 * One simulated day of demand for a part of the replay (a range of styles: all their SKUs at every location):
 * the per-cell part of the replay. Cells of different SKUs share nothing here, so parts are served by different
 * threads or processes; the engine's review, which couples styles, happens between days in steps (review.ts).
 *
 * Both sides meet the same demand: on a day the actual location held the SKU, what it sold (and, had it sold
 * out, an estimate of what it could have sold more); on a day it carried the SKU without stock, the history's
 * estimate (actual-demand.ts); nothing where it did not carry it. The actual side lost what it could not serve;
 * the simulation serves what its own stock allows.
 */
import { Sums } from './kpis.js';
import { STYLE_DAY_FIELDS, type StyleDayField } from './style-days.js';
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
  /** Per location: 1 when the engine counts it as selling (a store or the webshop), as far as it knows. */
  selling: Uint8Array;
  /** Per location: 1 when it sells in the history: demand is there, and its stock counts as the shelves'. */
  stores: Uint8Array;
  /** Per location × day: 1 when it was closed (nothing carried that day). */
  closed: Uint8Array;
  days: number;
  /** Per cell of the part. */
  sim: Float64Array;
  actLevel: Float64Array;
  rate: Float64Array;
  inStockDays: Int32Array;
  everActive: Uint8Array;
  /**
   * Per cell: 0 when nothing is in it — no stock on either side, no in-stock day in the window — so a day without a
   * row for it passes it over. Whatever puts stock in a cell sets it.
   */
  live: Uint8Array;
  /** Per cell × window day: the engine's rings. */
  windowSales: Float32Array;
  windowInStock: Uint8Array;
  /** A traced replay: where one style's cells record each day (its SKUs numbered as the part's). */
  trace?: TraceBuffer;
}

/** Network totals of one day, per side (`s…` simulated, `a…` actual), and the demand both sides met. */
export const DAY_FIELDS = [
  'sOut',
  'sCarried',
  'sSales',
  'sLost',
  'sInv',
  'sWarehouse',
  'aOut',
  'aCarried',
  'aSales',
  'aLost',
  'aInv',
  'aWarehouse',
  'demand',
  'estimated',
] as const;
const D = Object.fromEntries(DAY_FIELDS.map((f, i) => [f, i])) as Record<(typeof DAY_FIELDS)[number], number>;

/** What a part adds up while it serves: per style of the part, per location, per day. */
export interface PartSums {
  /** Per style of the part, over the run. */
  style: { sim: Sums; act: Sums };
  /** Per location, over the run (the part's SKUs there). */
  location: { sim: Sums; act: Sums };
  /** `(day * styles + style) * STYLE_DAY_FIELDS.length + field`: the part's styles day by day. */
  styleDays: Float64Array;
  /** DAY_FIELDS.length values per day: the part's share of the network's day. */
  daily: Float64Array;
  /** The lowest simulated stock any cell held at the end of a day (never below 0: stock is physical). */
  lowest: number;
}

export function partSums(locations: number, styles: number, days: number): PartSums {
  return {
    style: { sim: new Sums(styles), act: new Sums(styles) },
    location: { sim: new Sums(locations), act: new Sums(locations) },
    styleDays: new Float64Array(days * styles * STYLE_DAY_FIELDS.length),
    daily: new Float64Array(days * DAY_FIELDS.length),
    lowest: 0,
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

/** A run's sums, by position. */
const R = {
  cd: 0,
  dem: 1,
  est: 2,
  sSales: 3,
  aSales: 4,
  ret: 5,
  sLost: 6,
  sVal: 7,
  aVal: 8,
  sEst: 9,
  sOut: 10,
  aOut: 11,
  sU: 12,
  sV: 13,
  aU: 14,
  aV: 15,
} as const;
const RUN_FIELDS = 16;

/** Where each style-day field comes from: a run's sum over the selling locations (shelves) or the others. */
const STYLE_DAY_FROM: [StyleDayField, 'shelves' | 'warehouses', number][] = [
  ['carriedDays', 'shelves', R.cd],
  ['demand', 'shelves', R.dem],
  ['estimatedDemand', 'shelves', R.est],
  ['simStockOutDays', 'shelves', R.sOut],
  ['simSales', 'shelves', R.sSales],
  ['simLostSales', 'shelves', R.sLost],
  ['simInventoryUnits', 'shelves', R.sU],
  ['simWarehouseUnits', 'warehouses', R.sU],
  ['actStockOutDays', 'shelves', R.aOut],
  ['actSales', 'shelves', R.aSales],
  ['actLostSales', 'shelves', R.est],
  ['actInventoryUnits', 'shelves', R.aU],
  ['actWarehouseUnits', 'warehouses', R.aU],
];
const F = STYLE_DAY_FIELDS.length;
const STYLE_DAY_AT = STYLE_DAY_FROM.map(([field]) => STYLE_DAY_FIELDS.indexOf(field));

/**
 * Serves day i for the part. `L` locations, `W` window days, `head`: the window's slot for the day. A cell with
 * nothing in it (no stock on either side, no row, no window history) is passed over: it adds nothing anywhere.
 */
export function serveDay(a: ServeArrays, L: number, W: number, i: number, head: number, sums: PartSums): void {
  const { actualCell, actualOpening, actualSold, actualNet, actualEnd, actualRevenue, actualExtra } = a;
  const { outCell, outDemand, styleOf, styleStart, soldUnits, soldValue, salePrice, cost, trace } = a;
  const { sim: simStock, actLevel, windowSales, windowInStock, inStockDays, everActive, rate, selling, live } = a;
  const K = styleOf.length;
  const base = a.cellBase;
  const end = base + K * L;
  const rowsTo = firstRow(actualCell, a.dayStart[i], a.dayStart[i + 1], end);
  const outTo = firstRow(outCell, a.outStart[i], a.outStart[i + 1], end);
  let j = firstRow(actualCell, a.dayStart[i], rowsTo, base);
  let o = firstRow(outCell, a.outStart[i], outTo, base);
  const sim = sums.location.sim.f;
  const act = sums.location.act.f;
  // Each location's sums over the day (cd: carried days; s…/a…: simulated/actual), and a style's, apart for the
  // locations that sell and those that do not (their stock is the warehouses').
  const at = new Float64Array(L * RUN_FIELDS);
  const shelves = new Float64Array(RUN_FIELDS);
  const warehouses = new Float64Array(RUN_FIELDS);
  // Per location, for the day: open today where it sells (demand is there).
  const open = new Uint8Array(L);
  for (let l = 0; l < L; l++) open[l] = a.stores[l] === 1 && a.closed[l * a.days + i] === 0 ? 1 : 0;
  let lowest = sums.lowest;
  const S = styleStart.length - 1;
  for (let s = 0; s < S; s++) {
    const tr = trace !== undefined && trace.style === s ? trace : undefined;
    shelves.fill(0);
    warehouses.fill(0);
    for (let k = styleStart[s]; k < styleStart[s + 1]; k++) {
      for (let l = 0, c = k * L; l < L; l++, c++) {
        const row = j < rowsTo && actualCell[j] === base + c ? j++ : -1;
        const out = o < outTo && outCell[o] === base + c ? o++ : -1;
        if (live[c] === 0 && row < 0 && out < 0 && !tr) continue;
        const opening = row >= 0 ? openingOr(actualOpening[row], actLevel[c]) : actLevel[c];
        const gross = row >= 0 ? actualSold[row] : 0;
        const returns = row >= 0 ? gross - actualNet[row] : 0;
        if (row >= 0) {
          actLevel[c] = actualEnd[row];
          soldUnits[k] += gross;
          soldValue[k] += actualRevenue[row];
        }
        const actInStock = heldStock(opening, gross);
        // What customers wanted: in stock, the day's sales (and more, had it sold out); carried without, the estimate.
        const estimated = actInStock ? (row >= 0 ? actualExtra[row] : 0) : out >= 0 ? outDemand[out] : 0;
        const demand = actInStock ? gross + estimated : estimated;
        const carried = open[l] === 1 && (actInStock || out >= 0);
        const simStart = simStock[c];
        const served = Math.min(demand, Math.max(simStart, 0));
        const simNow = simStart - served + returns;
        simStock[c] = simNow;
        const simInStock = simStart > 0 || served > 0;
        const actNow = actLevel[c];
        const run = a.stores[l] === 1 ? shelves : warehouses;
        const x = l * RUN_FIELDS;
        if (carried) {
          // Units are valued at the day's own prices where the actual sold, else at the history's average.
          const sVal = gross > 0 ? served * (actualRevenue[row] / gross) : served * salePrice[k];
          const aVal = gross > 0 ? actualRevenue[row] : 0;
          const sEst = Math.max(0, served - (actInStock ? gross : 0));
          const sOut = simInStock ? 0 : 1;
          const aOut = actInStock ? 0 : 1;
          carry(run, 0, demand, estimated, served, gross, returns, sVal, aVal, sEst, sOut, aOut);
          carry(at, x, demand, estimated, served, gross, returns, sVal, aVal, sEst, sOut, aOut);
        }
        if (simNow !== 0 || actNow !== 0) {
          run[R.sU] += simNow;
          run[R.sV] += simNow * cost[k];
          run[R.aU] += actNow;
          run[R.aV] += actNow * cost[k];
          at[x + R.sU] += simNow;
          at[x + R.sV] += simNow * cost[k];
          at[x + R.aU] += actNow;
          at[x + R.aV] += actNow * cost[k];
        }
        if (selling[l] === 1) {
          // The engine's own history of the simulated world: what it sold, and whether it had stock.
          const slot = c * W + head;
          windowSales[slot] = served;
          const flag = simInStock ? 1 : 0;
          inStockDays[c] += flag - windowInStock[slot];
          windowInStock[slot] = flag;
          if (simInStock) everActive[c] = 1;
        }
        if (tr) {
          const traced = traceAt(tr, L, c, i);
          const v = tr.values;
          v[traced + CF.simSales] = served;
          v[traced + CF.actSales] = gross;
          v[traced + CF.returns] = returns;
          v[traced + CF.demand] = carried ? demand : 0;
          v[traced + CF.estimatedDemand] = carried ? estimated : 0;
          v[traced + CF.simLostSales] = carried ? demand - served : 0;
          v[traced + CF.actLostSales] = carried ? estimated : 0;
          v[traced + CF.demandEstimate] = rate[c];
          v[traced + CF.simInStock] = simInStock ? 1 : 0;
          v[traced + CF.actInStock] = actInStock ? 1 : 0;
          v[traced + CF.carried] = carried ? 1 : 0;
          v[traced + CF.simStock] = simNow;
          v[traced + CF.actStock] = actNow;
        }
        if (simNow < lowest) lowest = simNow;
        live[c] = simNow !== 0 || actNow !== 0 || inStockDays[c] !== 0 ? 1 : 0;
      }
    }
    addRun(sums.style.sim.f, sums.style.act.f, true, s, shelves);
    addRun(sums.style.sim.f, sums.style.act.f, false, s, warehouses);
    const row = (i * S + s) * F;
    for (let f = 0; f < STYLE_DAY_FROM.length; f++) {
      const [, from, r] = STYLE_DAY_FROM[f];
      sums.styleDays[row + STYLE_DAY_AT[f]] = (from === 'shelves' ? shelves : warehouses)[r];
    }
  }
  const t = sums.daily;
  const d = i * DAY_FIELDS.length;
  for (let l = 0; l < L; l++) {
    const x = at.subarray(l * RUN_FIELDS, (l + 1) * RUN_FIELDS);
    const isStore = a.stores[l] === 1;
    addRun(sim, act, isStore, l, x);
    t[d + D.sCarried] += x[R.cd];
    t[d + D.aCarried] += x[R.cd];
    t[d + D.sSales] += x[R.sSales];
    t[d + D.aSales] += x[R.aSales];
    t[d + D.sLost] += x[R.sLost];
    t[d + D.aLost] += x[R.est];
    t[d + D.demand] += x[R.dem];
    t[d + D.estimated] += x[R.est];
    t[d + D.sOut] += x[R.sOut];
    t[d + D.aOut] += x[R.aOut];
    t[d + (isStore ? D.sInv : D.sWarehouse)] += x[R.sU];
    t[d + (isStore ? D.aInv : D.aWarehouse)] += x[R.aU];
  }
  sums.lowest = lowest;
}

/** Adds a carried cell-day to a run's sums at `y`. */
function carry(
  r: Float64Array,
  y: number,
  demand: number,
  estimated: number,
  served: number,
  gross: number,
  returns: number,
  sVal: number,
  aVal: number,
  sEst: number,
  sOut: number,
  aOut: number,
): void {
  r[y + R.cd]++;
  r[y + R.dem] += demand;
  r[y + R.est] += estimated;
  r[y + R.sSales] += served;
  r[y + R.aSales] += gross;
  r[y + R.ret] += returns;
  r[y + R.sLost] += demand - served;
  r[y + R.sVal] += sVal;
  r[y + R.aVal] += aVal;
  r[y + R.sEst] += sEst;
  r[y + R.sOut] += sOut;
  r[y + R.aOut] += aOut;
}

/** Adds a run's sums to group g of both sides; stock goes to the stores' or the warehouses' sums. */
function addRun(sim: Sums['f'], act: Sums['f'], store: boolean, g: number, r: Float64Array): void {
  sim.carriedDays[g] += r[R.cd];
  act.carriedDays[g] += r[R.cd];
  sim.demand[g] += r[R.dem];
  act.demand[g] += r[R.dem];
  sim.estimatedDemand[g] += r[R.est];
  act.estimatedDemand[g] += r[R.est];
  sim.sales[g] += r[R.sSales];
  act.sales[g] += r[R.aSales];
  sim.returns[g] += r[R.ret];
  act.returns[g] += r[R.ret];
  sim.lostSales[g] += r[R.sLost];
  act.lostSales[g] += r[R.est];
  sim.salesValue[g] += r[R.sVal];
  act.salesValue[g] += r[R.aVal];
  sim.estimatedSales[g] += r[R.sEst];
  sim.stockOutDays[g] += r[R.sOut];
  act.stockOutDays[g] += r[R.aOut];
  if (store) {
    sim.storeUnitsSum[g] += r[R.sU];
    sim.storeValueSum[g] += r[R.sV];
    act.storeUnitsSum[g] += r[R.aU];
    act.storeValueSum[g] += r[R.aV];
  } else {
    sim.warehouseUnitsSum[g] += r[R.sU];
    sim.warehouseValueSum[g] += r[R.sV];
    act.warehouseUnitsSum[g] += r[R.aU];
    act.warehouseValueSum[g] += r[R.aV];
  }
}
