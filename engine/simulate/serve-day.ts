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
import { heldStock } from './actual-demand.js';

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
  const rowsFrom = a.dayStart[i];
  const rowsTo = a.dayStart[i + 1];
  const outFrom = a.outStart[i];
  const outTo = a.outStart[i + 1];
  const sim = acc.sim.f;
  const act = acc.act.f;
  const locationBase = 1;
  const styleBase = 1 + L;
  const inc = (arr: Float64Array, l: number, style: number, v: number) => {
    if (v === 0) return;
    arr[0] += v;
    arr[locationBase + l] += v;
    arr[styleBase + style] += v;
  };
  const d = i * DAY_FIELDS.length;
  const t = acc.daily;
  let lowest = acc.lowest[0];
  for (let l = 0; l < L; l++) {
    let j = firstRow(a.actualCell, rowsFrom, rowsTo, l * K + kFrom);
    let o = firstRow(a.outCell, outFrom, outTo, l * K + kFrom);
    const store = a.stores[l] === 1 && a.closed[l * a.days + i] === 0;
    const [units, value, simInv, actInv] =
      a.stores[l] === 1
        ? ([sim.storeUnitsSum, sim.storeValueSum, D.sInv, D.aInv] as const)
        : ([sim.warehouseUnitsSum, sim.warehouseValueSum, D.sWarehouse, D.aWarehouse] as const);
    const [actUnits, actValue] =
      a.stores[l] === 1 ? [act.storeUnitsSum, act.storeValueSum] : [act.warehouseUnitsSum, act.warehouseValueSum];
    let s = a.styleOf[kFrom];
    for (let k = kFrom; k < kTo; k++) {
      if (k >= a.styleStart[s + 1]) s = a.styleOf[k];
      const c = l * K + k;
      const row = j < rowsTo && a.actualCell[j] === c ? j++ : -1;
      const out = o < outTo && a.outCell[o] === c ? o++ : -1;
      const tr = a.trace !== undefined && a.trace.style === s ? a.trace : undefined;
      const traced = tr ? traceAt(tr, K, c, i) : -1;
      const opening = row >= 0 && !Number.isNaN(a.actualOpening[row]) ? a.actualOpening[row] : a.actLevel[c];
      const gross = row >= 0 ? a.actualSold[row] : 0;
      const returns = row >= 0 ? gross - a.actualNet[row] : 0;
      if (row >= 0) {
        a.actLevel[c] = a.actualEnd[row];
        a.soldUnits[k] += gross;
        a.soldValue[k] += a.actualRevenue[row];
      }
      const actInStock = heldStock(opening, gross);
      // What customers wanted: the day's sales (and more, had it sold out) in stock; the estimate when carried without.
      const estimated = actInStock ? (row >= 0 ? a.actualExtra[row] : 0) : out >= 0 ? a.outDemand[out] : 0;
      const demand = actInStock ? gross + estimated : estimated;
      const carried = store && (actInStock || out >= 0);
      const simStart = a.sim[c];
      const served = Math.min(demand, Math.max(simStart, 0));
      a.sim[c] = simStart - served + returns;
      const simInStock = simStart > 0 || served > 0;
      if (carried) {
        // Units are valued at the day's own prices where the actual sold, else at the history's average.
        const price = gross > 0 ? a.actualRevenue[row] / gross : a.salePrice[k];
        const lost = demand - served;
        inc(sim.carriedDays, l, s, 1);
        inc(act.carriedDays, l, s, 1);
        inc(sim.demand, l, s, demand);
        inc(act.demand, l, s, demand);
        inc(sim.estimatedDemand, l, s, estimated);
        inc(act.estimatedDemand, l, s, estimated);
        inc(sim.sales, l, s, served);
        inc(act.sales, l, s, gross);
        inc(sim.returns, l, s, returns);
        inc(act.returns, l, s, returns);
        inc(sim.lostSales, l, s, lost);
        inc(act.lostSales, l, s, estimated);
        inc(sim.salesValue, l, s, served * price);
        inc(act.salesValue, l, s, gross > 0 ? a.actualRevenue[row] : 0);
        inc(sim.estimatedSales, l, s, Math.max(0, served - (actInStock ? gross : 0)));
        t[d + D.sCarried]++;
        t[d + D.aCarried]++;
        t[d + D.sSales] += served;
        t[d + D.aSales] += gross;
        t[d + D.sLost] += lost;
        t[d + D.aLost] += estimated;
        t[d + D.demand] += demand;
        t[d + D.estimated] += estimated;
        if (!simInStock) {
          inc(sim.stockOutDays, l, s, 1);
          t[d + D.sOut]++;
        }
        if (!actInStock) {
          inc(act.stockOutDays, l, s, 1);
          t[d + D.aOut]++;
        }
      }
      if (a.selling[l]) {
        // The engine's own history of the simulated world: what it sold, and whether it had stock.
        const slot = c * W + head;
        a.windowSales[slot] = served;
        const flag = simInStock ? 1 : 0;
        a.inStockDays[c] += flag - a.windowInStock[slot];
        a.windowInStock[slot] = flag;
        if (simInStock) a.everActive[c] = 1;
      }
      if (traced >= 0) {
        const v = tr!.values;
        v[traced + CF.simSales] = served;
        v[traced + CF.actSales] = gross;
        v[traced + CF.returns] = returns;
        v[traced + CF.demand] = carried ? demand : 0;
        v[traced + CF.estimatedDemand] = carried ? estimated : 0;
        v[traced + CF.simLostSales] = carried ? demand - served : 0;
        v[traced + CF.actLostSales] = carried ? estimated : 0;
        v[traced + CF.demandEstimate] = a.rate[c];
        v[traced + CF.simInStock] = simInStock ? 1 : 0;
        v[traced + CF.actInStock] = actInStock ? 1 : 0;
        v[traced + CF.carried] = carried ? 1 : 0;
        v[traced + CF.simStock] = a.sim[c];
        v[traced + CF.actStock] = a.actLevel[c];
      }
      const cost = a.cost[k];
      const simNow = a.sim[c];
      const actNow = a.actLevel[c];
      if (simNow < lowest) lowest = simNow;
      inc(units, l, s, simNow);
      inc(value, l, s, simNow * cost);
      inc(actUnits, l, s, actNow);
      inc(actValue, l, s, actNow * cost);
      t[d + simInv] += simNow;
      t[d + actInv] += actNow;
    }
  }
  acc.lowest[0] = lowest;
}
