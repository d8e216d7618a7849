/**
 * One simulated day of demand for a range of SKUs (all their locations): the per-cell part of the replay.
 * Cells of different SKUs share nothing here, so ranges can be served by different threads over shared
 * memory; the engine's review, which couples styles, happens between days on the whole state.
 */
import { Sums } from './kpis.js';
import { CF, traceAt, type TraceBuffer } from './trace.js';

/** A cell with stock or sales this recently still sells: its stock-out days have (estimated) demand. */
export const RECENT_DAYS = 28;

export interface ServeArrays {
  dayStart: Int32Array;
  actualCell: Int32Array;
  actualEnd: Float64Array;
  actualPeak: Float64Array;
  actualSold: Float64Array;
  actualNet: Float64Array;
  actualRevenue: Float64Array;
  activeFrom: Int32Array;
  activeTo: Int32Array;
  /** Per SKU. */
  styleOf: Int32Array;
  /** SKUs of style s are [styleStart[s], styleStart[s+1]). */
  styleStart: Int32Array;
  price: Float64Array;
  cost: Float64Array;
  soldUnits: Float64Array;
  soldValue: Float64Array;
  /** Per location: 1 when it sells (a store or the webshop). */
  selling: Uint8Array;
  /** Per cell. */
  sim: Float64Array;
  actLevel: Float64Array;
  lastActivity: Int32Array;
  rate: Float64Array;
  inStockDays: Int32Array;
  everActive: Uint8Array;
  /** Per cell × window day: the engine's rings. */
  windowSales: Float32Array;
  windowInStock: Uint8Array;
  /** A traced replay: where one style's cells record each day. */
  trace?: TraceBuffer;
}

/** Network totals of one day: simulated and actual stock-outs, active days, sales, lost sales, inventory. */
export const DAY_FIELDS = ['sOut', 'sActive', 'sSales', 'sLost', 'sInv', 'aOut', 'aActive', 'aSales', 'aLost', 'aInv'] as const;

export interface Accumulators {
  sim: Sums;
  act: Sums;
  /** DAY_FIELDS.length values per day. */
  daily: Float64Array;
  estimatedDemandDays: number;
}

export function accumulators(locations: number, styles: number, days: number): Accumulators {
  return { sim: new Sums(1 + locations + styles), act: new Sums(1 + locations + styles), daily: new Float64Array(days * DAY_FIELDS.length), estimatedDemandDays: 0 };
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

export function serveDay(a: ServeArrays, L: number, K: number, W: number, i: number, head: number, kFrom: number, kTo: number, acc: Accumulators): void {
  const rowsFrom = a.dayStart[i];
  const rowsTo = a.dayStart[i + 1];
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
  const rows = new Int32Array(64);
  for (let l = 0; l < L; l++) {
    let j = firstRow(a.actualCell, rowsFrom, rowsTo, l * K + kFrom);
    let s = a.styleOf[kFrom];
    for (let k0 = kFrom; k0 < kTo; k0 = a.styleStart[++s]) {
      const k1 = Math.min(a.styleStart[s + 1], kTo);
      // Is the style on the shelf here today (a size with stock or a sale)? Only then is a size's stock-out a
      // lost sale: a style gone from the location is no demand. A fact of the day itself, never a later one.
      let onShelf = false;
      const n = k1 - k0;
      const rowOf = n <= rows.length ? rows : new Int32Array(n);
      for (let k = k0; k < k1; k++) {
        const c = l * K + k;
        const row = j < rowsTo && a.actualCell[j] === c ? j++ : -1;
        rowOf[k - k0] = row;
        if (a.actLevel[c] > 0 || (row >= 0 && (a.actualSold[row] > 0 || a.actualPeak[row] > 0))) onShelf = true;
      }
      const tr = a.trace !== undefined && a.trace.style === s ? a.trace : undefined;
      for (let k = k0; k < k1; k++) {
      const c = l * K + k;
      const row = rowOf[k - k0];
      const traced = tr ? traceAt(tr, K, c, i) : -1;
      const actStart = a.actLevel[c];
      if (row >= 0) {
        a.actLevel[c] = a.actualEnd[row];
        a.soldUnits[k] += a.actualSold[row];
        a.soldValue[k] += a.actualRevenue[row];
      }
      const style = s;
      if (a.selling[l]) {
        // Active (for the KPIs): inside the cell's selling life in the actual data.
        const active = a.activeFrom[c] >= 0 && a.activeFrom[c] <= i && i <= a.activeTo[c];
        const actInStock = actStart > 0 || (row >= 0 && (a.actualSold[row] > 0 || a.actualPeak[row] > 0));
        if (actInStock) a.lastActivity[c] = i;
        const recent = onShelf && i - a.lastActivity[c] <= RECENT_DAYS;
        let demand = 0;
        if (actInStock) demand = row >= 0 ? a.actualNet[row] : 0;
        else if (recent) {
          demand = a.rate[c];
          if (demand > 0) acc.estimatedDemandDays++;
        }
        const simStart = a.sim[c];
        let served = 0;
        let lost = 0;
        let simSales: number;
        if (demand >= 0) {
          served = Math.min(demand, Math.max(simStart, 0));
          lost = demand - served;
          a.sim[c] -= served;
          simSales = served;
        } else {
          a.sim[c] -= demand;
          simSales = demand;
        }
        const simInStock = simStart > 0 || served > 0;
        const price = a.price[k];
        const actSales = actInStock && row >= 0 ? a.actualNet[row] : 0;
        const actLost = !actInStock && recent ? a.rate[c] : 0;
        inc(sim.sales, l, style, simSales);
        inc(sim.served, l, style, served);
        inc(sim.lostSales, l, style, lost);
        inc(sim.salesValue, l, style, simSales * price);
        inc(act.sales, l, style, actSales);
        inc(act.served, l, style, Math.max(actSales, 0));
        inc(act.lostSales, l, style, actLost);
        inc(act.salesValue, l, style, actSales * price);
        t[d + 2] += simSales;
        t[d + 3] += lost;
        t[d + 7] += actSales;
        t[d + 8] += actLost;
        if (active) {
          inc(sim.activeDays, l, style, 1);
          inc(act.activeDays, l, style, 1);
          t[d + 1]++;
          t[d + 6]++;
          if (!simInStock) {
            inc(sim.stockOutDays, l, style, 1);
            t[d]++;
          }
          if (!actInStock) {
            inc(act.stockOutDays, l, style, 1);
            t[d + 5]++;
          }
        }
        const slot = c * W + head;
        a.windowSales[slot] = served;
        const flag = simInStock ? 1 : 0;
        a.inStockDays[c] += flag - a.windowInStock[slot];
        a.windowInStock[slot] = flag;
        if (simInStock) a.everActive[c] = 1;
        if (traced >= 0) {
          const v = tr!.values;
          v[traced + CF.simSales] = simSales;
          v[traced + CF.actSales] = actSales;
          v[traced + CF.demand] = demand;
          v[traced + CF.estimated] = !actInStock && recent && demand > 0 ? 1 : 0;
          v[traced + CF.simLostSales] = lost;
          v[traced + CF.actLostSales] = actLost;
          v[traced + CF.demandEstimate] = a.rate[c];
          v[traced + CF.simInStock] = flag;
          v[traced + CF.actInStock] = actInStock ? 1 : 0;
          v[traced + CF.active] = active ? 1 : 0;
        }
      }
      const cost = a.cost[k];
      inc(sim.inventoryUnitsSum, l, style, a.sim[c]);
      inc(sim.inventoryValueSum, l, style, a.sim[c] * cost);
      inc(act.inventoryUnitsSum, l, style, a.actLevel[c]);
      inc(act.inventoryValueSum, l, style, a.actLevel[c] * cost);
      t[d + 4] += a.sim[c];
      t[d + 9] += a.actLevel[c];
      if (traced >= 0) {
        tr!.values[traced + CF.simStock] = a.sim[c];
        tr!.values[traced + CF.actStock] = a.actLevel[c];
      }
      }
    }
  }
}
