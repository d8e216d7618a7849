/**
 * One simulated day of demand for a range of SKUs (all their locations): the per-cell part of the replay.
 * Cells of different SKUs share nothing here, so ranges can be served by different threads over shared
 * memory; the engine's review, which couples styles, happens between days on the whole state.
 *
 * Both sides meet the same demand: on a day the actual location held the SKU, what it sold (and, had it sold
 * out, an estimate of what it could have sold more); on a day it carried the SKU without stock, the history's
 * estimate (actual-demand.ts); nothing where it did not carry it. The actual side lost what it could not serve;
 * the simulation serves what its own stock allows.
 */
import { Sums } from './kpis.js';
import { CF, traceAt, type TraceBuffer } from './trace.js';
import { heldStock, openingOr } from './actual-demand.js';

export interface ServeArrays {
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
  /** Per SKU. */
  styleOf: Int32Array;
  /** SKUs of style s are [styleStart[s], styleStart[s+1]). */
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
  /** Per cell. */
  sim: Float64Array;
  actLevel: Float64Array;
  rate: Float64Array;
  inStockDays: Int32Array;
  everActive: Uint8Array;
  /** Per cell × window day: the engine's rings. */
  windowSales: Float32Array;
  windowInStock: Uint8Array;
  /** A traced replay: where one style's cells record each day. */
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

export interface Accumulators {
  sim: Sums;
  act: Sums;
  /** DAY_FIELDS.length values per day. */
  daily: Float64Array;
  /** The lowest simulated stock any cell held at the end of a day (never below 0: stock is physical). */
  lowest: Float64Array;
}

export function accumulators(locations: number, styles: number, days: number): Accumulators {
  return {
    sim: new Sums(1 + locations + styles),
    act: new Sums(1 + locations + styles),
    daily: new Float64Array(days * DAY_FIELDS.length),
    lowest: new Float64Array(1),
  };
}

/** The sums of every range of a partitioned replay, added up. */
export function totalOf(parts: readonly Accumulators[], L: number, styles: number, days: number): Accumulators {
  const total = accumulators(L, styles, days);
  for (const part of parts) {
    for (const side of ['sim', 'act'] as const) {
      for (const k of Object.keys(total[side].f) as (keyof Sums['f'])[]) {
        const t = total[side].f[k];
        const x = part[side].f[k];
        for (let g = 0; g < t.length; g++) t[g] += x[g];
      }
    }
    for (let j = 0; j < total.daily.length; j++) total.daily[j] += part.daily[j];
  }
  total.lowest[0] = Math.min(...parts.map((part) => part.lowest[0]));
  return total;
}

/** The first row of `[from, to)` whose cell is at least `cell` (rows are in cell order). */
function firstRow(cells: Int32Array, from: number, to: number, cell: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cells[mid] < cell) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Sums are taken per run of a style's SKUs at a location, then per location, then for the day: a style's sums are
 * made of the same runs in the same order however the SKUs are split over threads, so they come out the same.
 */
export function serveDay(
  a: ServeArrays,
  L: number,
  K: number,
  W: number,
  i: number,
  head: number,
  kFrom: number,
  kTo: number,
  acc: Accumulators,
): void {
  const { actualCell, actualOpening, actualSold, actualNet, actualEnd, actualRevenue, actualExtra } = a;
  const { outCell, outDemand, styleOf, styleStart, soldUnits, soldValue, salePrice, cost, trace } = a;
  const { sim: simStock, actLevel, windowSales, windowInStock, inStockDays, everActive, rate } = a;
  const rowsFrom = a.dayStart[i];
  const rowsTo = a.dayStart[i + 1];
  const outFrom = a.outStart[i];
  const outTo = a.outStart[i + 1];
  const sim = acc.sim.f;
  const act = acc.act.f;
  const locationBase = 1;
  const styleBase = 1 + L;
  // The day's network totals.
  let dCarried = 0;
  let dSales = 0;
  let aSalesDay = 0;
  let dLost = 0;
  let dDemand = 0;
  let dEstimated = 0;
  let dSimOut = 0;
  let dActOut = 0;
  let dSimInv = 0;
  let dActInv = 0;
  let dSimWarehouse = 0;
  let dActWarehouse = 0;
  let lowest = acc.lowest[0];
  // Each location's sums over the day (cd: carried days; s…/a…: simulated/actual), and a style's, apart for the
  // locations that sell and those that do not (their stock is the warehouses').
  const at = new Float64Array(L * RUN_FIELDS);
  const runShelves = new Float64Array(RUN_FIELDS);
  const runWarehouses = new Float64Array(RUN_FIELDS);
  // Per location, for the day: a store or the webshop (its stock is the shelves'), and open today: demand is there.
  const sells = new Uint8Array(L);
  const open = new Uint8Array(L);
  for (let l = 0; l < L; l++) {
    sells[l] = a.stores[l];
    open[l] = a.stores[l] === 1 && a.closed[l * a.days + i] === 0 ? 1 : 0;
  }
  const { selling } = a;
  // The day's rows come in cell order, and the range's cells are one block: one pass over each.
  let j = firstRow(actualCell, rowsFrom, rowsTo, kFrom * L);
  let o = firstRow(outCell, outFrom, outTo, kFrom * L);
  for (let k = kFrom; k < kTo;) {
    const s = styleOf[k];
    const runTo = Math.min(kTo, styleStart[s + 1]);
    const tr = trace !== undefined && trace.style === s ? trace : undefined;
    runShelves.fill(0);
    runWarehouses.fill(0);
    for (; k < runTo; k++) {
      for (let l = 0; l < L; l++) {
        const c = k * L + l;
        const row = j < rowsTo && actualCell[j] === c ? j++ : -1;
        const out = o < outTo && outCell[o] === c ? o++ : -1;
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
        const x = l * RUN_FIELDS;
        if (carried) {
          at[x + R.cd]++;
          at[x + R.dem] += demand;
          at[x + R.est] += estimated;
          at[x + R.sSales] += served;
          at[x + R.aSales] += gross;
          at[x + R.ret] += returns;
          at[x + R.sLost] += demand - served;
          // Units are valued at the day's own prices where the actual sold, else at the history's average.
          if (gross > 0) {
            at[x + R.sVal] += served * (actualRevenue[row] / gross);
            at[x + R.aVal] += actualRevenue[row];
          } else at[x + R.sVal] += served * salePrice[k];
          at[x + R.sEst] += Math.max(0, served - (actInStock ? gross : 0));
          if (!simInStock) at[x + R.sOut]++;
          if (!actInStock) at[x + R.aOut]++;
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
          v[traced + CF.actStock] = actLevel[c];
        }
        const actNow = actLevel[c];
        if (simNow < lowest) lowest = simNow;
        at[x + R.sU] += simNow;
        at[x + R.sV] += simNow * cost[k];
        at[x + R.aU] += actNow;
        at[x + R.aV] += actNow * cost[k];
        // The style's sums of the cell, from the location's before and after.
        const run = sells[l] === 1 ? runShelves : runWarehouses;
        if (carried) {
          run[R.cd]++;
          run[R.dem] += demand;
          run[R.est] += estimated;
          run[R.sSales] += served;
          run[R.aSales] += gross;
          run[R.ret] += returns;
          run[R.sLost] += demand - served;
          if (gross > 0) {
            run[R.sVal] += served * (actualRevenue[row] / gross);
            run[R.aVal] += actualRevenue[row];
          } else run[R.sVal] += served * salePrice[k];
          run[R.sEst] += Math.max(0, served - (actInStock ? gross : 0));
          if (!simInStock) run[R.sOut]++;
          if (!actInStock) run[R.aOut]++;
        }
        run[R.sU] += simNow;
        run[R.sV] += simNow * cost[k];
        run[R.aU] += actNow;
        run[R.aV] += actNow * cost[k];
      }
    }
    addRun(sim, act, true, styleBase + s, runShelves);
    addRun(sim, act, false, styleBase + s, runWarehouses);
  }
  for (let l = 0; l < L; l++) {
    const x = at.subarray(l * RUN_FIELDS, (l + 1) * RUN_FIELDS);
    const isStore = sells[l] === 1;
    addRun(sim, act, isStore, locationBase + l, x);
    addRun(sim, act, isStore, 0, x);
    dCarried += x[R.cd];
    dSales += x[R.sSales];
    aSalesDay += x[R.aSales];
    dLost += x[R.sLost];
    dDemand += x[R.dem];
    dEstimated += x[R.est];
    dSimOut += x[R.sOut];
    dActOut += x[R.aOut];
    if (isStore) {
      dSimInv += x[R.sU];
      dActInv += x[R.aU];
    } else {
      dSimWarehouse += x[R.sU];
      dActWarehouse += x[R.aU];
    }
  }
  const d = i * DAY_FIELDS.length;
  const t = acc.daily;
  t[d + D.sCarried] += dCarried;
  t[d + D.aCarried] += dCarried;
  t[d + D.sSales] += dSales;
  t[d + D.aSales] += aSalesDay;
  t[d + D.sLost] += dLost;
  t[d + D.aLost] += dEstimated;
  t[d + D.demand] += dDemand;
  t[d + D.estimated] += dEstimated;
  t[d + D.sOut] += dSimOut;
  t[d + D.aOut] += dActOut;
  t[d + D.sInv] += dSimInv;
  t[d + D.aInv] += dActInv;
  t[d + D.sWarehouse] += dSimWarehouse;
  t[d + D.aWarehouse] += dActWarehouse;
  acc.lowest[0] = lowest;
}

/** A run's sums (see serveDay), by position. */
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
