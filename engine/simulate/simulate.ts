/**
 * The backtest in lost-sales mode. From the actual stock at the start, each day: receive arrivals (the
 * engine's transfers after their lead time, and the actual receipts and corrections), review on review days
 * (the same recommend code on the simulated state as of that day, its transfers put in transit), then serve
 * demand: on days the actual location×SKU was in stock, demand is its actual net sales; on actual stock-out
 * days, the engine's unconstrained estimate. Simulated sales are what the simulated stock allows; the rest is
 * lost. The engine sees only the simulated history up to the day before: nothing later.
 */
import { dayText } from '../model/datetime.js';
import { recommend } from '../recommend/recommend.js';
import { prices } from '../recommend/prices.js';
import { categorySettings, type Settings } from '../recommend/settings.js';
import type { EngineState } from '../recommend/state.js';
import type { TransferType } from '../recommend/proposal.js';
import type { BacktestInput } from './input.js';
import { kpisOf, Sums, type SideKpis, type TransferKpis } from './kpis.js';

export interface SimulationOptions {
  /** Days between reviews; default: the default review period of the settings. */
  reviewEveryDays?: number;
  onProgress?: (daysDone: number, days: number) => void;
  isCancelled?: () => boolean;
}

export interface SimulatedTransfer {
  day: number;
  transferType: TransferType;
  fromLocationId: string;
  toLocationId: string;
  skuId: string;
  quantity: number;
  referenceId: string;
}

export interface DailyRow {
  date: string;
  simulated: { stockOutDays: number; activeDays: number; sales: number; lostSales: number; inventoryUnits: number; transferUnits: number };
  actual: { stockOutDays: number; activeDays: number; sales: number; lostSales: number; inventoryUnits: number };
}

export interface GroupKpis {
  id: string;
  simulated: SideKpis;
  actual: SideKpis;
}

export interface SimulationResult {
  fromDay: number;
  days: number;
  /** Days simulated (less than `days` when cancelled). */
  daysDone: number;
  cancelled: boolean;
  summary: { simulated: SideKpis & { transfers: TransferKpis; estimatedDemandDays: number }; actual: SideKpis };
  daily: DailyRow[];
  byLocation: GroupKpis[];
  byStyle: GroupKpis[];
  transfers: SimulatedTransfer[];
}

/** A cell with stock or sales this recently still sells: its stock-out days have (estimated) demand. */
export const RECENT_DAYS = 28;


export function simulate(input: BacktestInput, settings: Settings, options: SimulationOptions = {}): SimulationResult {
  const S0 = input.start;
  const L = S0.locations.ids.length;
  const K = S0.skus.ids.length;
  const W = S0.windowDays;
  const cells = L * K;
  const days = input.days;
  const fromDay = S0.asOfDay;
  const reviewEvery = Math.max(1, options.reviewEveryDays ?? settings.defaults.reviewPeriodDays);
  // A location sells once it has sold: known from the day of its first sale, never earlier (kinds set in the
  // settings stay as they are).
  const selling = S0.locations.kind.map((k) => k !== 'warehouse');
  const kindFixed = S0.locations.ids.map((id) => settings.locationKinds[id] !== undefined);
  const locIndex = new Map(S0.locations.ids.map((id, l) => [id, l]));
  const skuIndex = new Map(S0.skus.ids.map((id, k) => [id, k]));
  const styleOf = S0.skus.style;
  const Sg = S0.styles.ids.length;

  const sim = Float64Array.from(S0.onHand);
  const actLevel = Float64Array.from(S0.onHand);
  const inTransit = new Float64Array(cells);
  const pending = new Map<number, number[]>(); // day → [cell, qty, cell, qty, …]
  const arrive = (day: number, cell: number, qty: number) => {
    inTransit[cell] += qty;
    const list = pending.get(day) ?? [];
    list.push(cell, qty);
    pending.set(day, list);
  };
  // What was already on its way at the start (not purchase orders: receipts are replayed from the actuals).
  for (let i = 0; i < S0.inbound.cell.length; i++) {
    if (!S0.inbound.purchaseOrder[i]) arrive(Math.max(0, S0.inbound.day[i] - fromDay), S0.inbound.cell[i], S0.inbound.quantity[i]);
  }

  // The engine's view of the simulated world: shares the simulated arrays, never written by the engine.
  const view: EngineState = {
    ...S0,
    onHand: sim,
    inTransit,
    onOrder: new Float64Array(cells),
    sales: Float32Array.from(S0.sales),
    inStock: Uint8Array.from(S0.inStock),
    windowHead: 0,
    everActive: Uint8Array.from(S0.everActive),
    lastArrivalDay: Int32Array.from(S0.lastArrivalDay),
    skus: { ...S0.skus, price: Float64Array.from(S0.skus.price) },
    locations: { ...S0.locations, kind: [...S0.locations.kind] },
    styles: { ...S0.styles, hasOpenPurchaseOrder: new Uint8Array(Sg) },
  };
  // Prices as known on each day: the year before the start plus the actual sales since, never later ones.
  const soldUnits = Float64Array.from(S0.skus.soldUnits);
  const soldValue = Float64Array.from(S0.skus.soldValue);
  let head = 0;
  let rate: Float64Array = new Float64Array(cells);
  const inStockDays = new Int32Array(cells);
  for (let c = 0; c < cells; c++) {
    let n = 0;
    for (let d = 0; d < W; d++) n += view.inStock[c * W + d];
    inStockDays[c] = n;
  }
  view.inStockDays = inStockDays;
  // Whether a cell still sells, for estimating demand on its stock-out days, must not come from later data:
  // it is "had stock or sales within the last RECENT_DAYS days", known on the day itself.
  const lastActivity = new Int32Array(cells).fill(-1_000_000);
  for (let c = 0; c < cells; c++) {
    if (S0.onHand[c] > 0) lastActivity[c] = 0;
    else for (let d = W - 1; d >= 0; d--) if (S0.inStock[c * W + d]) {
      lastActivity[c] = d - W;
      break;
    }
  }

  const groups = { network: 0, location: 1, style: 1 + L };
  const simSums = new Sums(1 + L + Sg);
  const actSums = new Sums(1 + L + Sg);
  const transferKpis: TransferKpis = {};
  const transfers: SimulatedTransfer[] = [];
  const daily: DailyRow[] = [];
  let estimatedDemandDays = 0;
  let daysDone = 0;
  let cancelled = false;

  const inc = (a: Float64Array, l: number, style: number, v: number) => {
    if (v === 0) return;
    a[groups.network] += v;
    a[groups.location + l] += v;
    a[groups.style + style] += v;
  };
  const sim_ = simSums.f;
  const act_ = actSums.f;

  for (let i = 0; i < days; i++) {
    if (options.isCancelled?.()) {
      cancelled = true;
      break;
    }
    const day = fromDay + i;
    const arrivals = pending.get(i);
    if (arrivals) {
      for (let a = 0; a < arrivals.length; a += 2) {
        sim[arrivals[a]] += arrivals[a + 1];
        inTransit[arrivals[a]] -= arrivals[a + 1];
        view.lastArrivalDay[arrivals[a]] = day;
      }
      pending.delete(i);
    }
    const rowsFrom = input.actual.dayStart[i];
    const rowsTo = input.actual.dayStart[i + 1];

    let transferUnits = 0;
    if (i % reviewEvery === 0) {
      if (i > 0) view.skus.price = prices(view, soldUnits, soldValue, S0.skus.price);
      view.asOfDay = day;
      view.windowHead = head;
      // On order as of this day: lines ordered by now and not yet due; nothing ordered later is known.
      view.onOrder.fill(0);
      view.styles.hasOpenPurchaseOrder.fill(0);
      let n = 0;
      for (const list of pending.values()) n += list.length / 2;
      for (const r of input.receipts) if (r.orderDay <= i && r.dueDay > i) n++;
      const inbound = { cell: new Int32Array(n), day: new Int32Array(n), quantity: new Float64Array(n), purchaseOrder: new Uint8Array(n) };
      let at = 0;
      for (const [d, list] of pending) {
        for (let a = 0; a < list.length; a += 2, at++) {
          inbound.cell[at] = list[a];
          inbound.day[at] = fromDay + d;
          inbound.quantity[at] = list[a + 1];
        }
      }
      for (const r of input.receipts) {
        if (r.orderDay <= i && r.dueDay > i) {
          view.onOrder[r.cell] += r.quantity;
          view.styles.hasOpenPurchaseOrder[r.style] = 1;
          inbound.cell[at] = r.cell;
          inbound.day[at] = fromDay + r.dueDay;
          inbound.quantity[at] = r.quantity;
          inbound.purchaseOrder[at++] = 1;
        }
      }
      view.inbound = inbound;
      const rec = recommend(view, settings);
      rate = rec.forecast.rate;
      const trips = new Set<string>();
      for (const p of rec.proposals) {
        const from = locIndex.get(p.fromLocationId)!;
        const to = locIndex.get(p.toLocationId)!;
        const k = skuIndex.get(p.skuId)!;
        const lead = categorySettings(settings, S0.categories.ids[S0.styles.category[styleOf[k]]]).leadTimeDays;
        sim[from * K + k] -= p.quantity;
        arrive(i + Math.max(1, lead), to * K + k, p.quantity);
        transfers.push({ day, transferType: p.transferType, fromLocationId: p.fromLocationId, toLocationId: p.toLocationId, skuId: p.skuId, quantity: p.quantity, referenceId: p.referenceId });
        const t = (transferKpis[p.transferType] ??= { trips: 0, lines: 0, units: 0 });
        t.lines++;
        t.units += p.quantity;
        transferUnits += p.quantity;
        const trip = `${p.transferType}:${from}:${to}`;
        if (!trips.has(trip)) {
          trips.add(trip);
          t.trips++;
        }
      }
    }

    // The day's actual receipts and corrections: after the morning's decision, before the day's demand.
    for (let j = rowsFrom; j < rowsTo; j++) {
      const c = input.actual.cell[j];
      if (input.actual.mutations[j] !== 0) sim[c] += input.actual.mutations[j];
      if (input.actual.sold[j] > 0) {
        const l = (c / K) | 0;
        if (!selling[l] && !kindFixed[l]) {
          selling[l] = true;
          view.locations.kind[l] = 'store';
        }
      }
    }

    // Serve the day's demand, cell by cell; the actual rows of the day come in cell order.
    let j = rowsFrom;
    const dayTotals = { sOut: 0, sActive: 0, sSales: 0, sLost: 0, sInv: 0, aOut: 0, aActive: 0, aSales: 0, aLost: 0, aInv: 0 };
    for (let l = 0; l < L; l++) {
      for (let k = 0; k < K; k++) {
        const c = l * K + k;
        const row = j < rowsTo && input.actual.cell[j] === c ? j++ : -1;
        const actStart = actLevel[c];
        if (row >= 0) {
          actLevel[c] = input.actual.endLevel[row];
          soldUnits[k] += input.actual.sold[row];
          soldValue[k] += input.actual.revenue[row];
        }
        const style = styleOf[k];
        if (selling[l]) {
          // Active (for the KPIs): inside the cell's selling life in the actual data.
          const active = input.activeFrom[c] >= 0 && input.activeFrom[c] <= i && i <= input.activeTo[c];
          const actInStock = actStart > 0 || (row >= 0 && (input.actual.sold[row] > 0 || input.actual.peak[row] > 0));
          if (actInStock) lastActivity[c] = i;
          const selling = i - lastActivity[c] <= RECENT_DAYS;
          let demand = 0;
          if (actInStock) demand = row >= 0 ? input.actual.net[row] : 0;
          else if (selling) {
            demand = rate[c];
            if (demand > 0) estimatedDemandDays++;
          }
          const simStart = sim[c];
          let served = 0;
          let lost = 0;
          let simSales: number;
          if (demand >= 0) {
            served = Math.min(demand, Math.max(simStart, 0));
            lost = demand - served;
            sim[c] -= served;
            simSales = served;
          } else {
            sim[c] -= demand;
            simSales = demand;
          }
          const simInStock = simStart > 0 || served > 0;
          const price = view.skus.price[k];
          const actSales = actInStock && row >= 0 ? input.actual.net[row] : 0;
          const actLost = !actInStock && selling ? rate[c] : 0;
          inc(sim_.sales, l, style, simSales);
          inc(sim_.served, l, style, served);
          inc(sim_.lostSales, l, style, lost);
          inc(sim_.salesValue, l, style, simSales * price);
          inc(act_.sales, l, style, actSales);
          inc(act_.served, l, style, Math.max(actSales, 0));
          inc(act_.lostSales, l, style, actLost);
          inc(act_.salesValue, l, style, actSales * price);
          dayTotals.sSales += simSales;
          dayTotals.sLost += lost;
          dayTotals.aSales += actSales;
          dayTotals.aLost += actLost;
          if (active) {
            inc(sim_.activeDays, l, style, 1);
            inc(act_.activeDays, l, style, 1);
            dayTotals.sActive++;
            dayTotals.aActive++;
            if (!simInStock) {
              inc(sim_.stockOutDays, l, style, 1);
              dayTotals.sOut++;
            }
            if (!actInStock) {
              inc(act_.stockOutDays, l, style, 1);
              dayTotals.aOut++;
            }
          }
          const slot = c * W + head;
          view.sales[slot] = served;
          const flag = simInStock ? 1 : 0;
          inStockDays[c] += flag - view.inStock[slot];
          view.inStock[slot] = flag;
          if (simInStock) view.everActive[c] = 1;
        }
        const cost = input.cost[k];
        inc(sim_.inventoryUnitsSum, l, style, sim[c]);
        inc(sim_.inventoryValueSum, l, style, sim[c] * cost);
        inc(act_.inventoryUnitsSum, l, style, actLevel[c]);
        inc(act_.inventoryValueSum, l, style, actLevel[c] * cost);
        dayTotals.sInv += sim[c];
        dayTotals.aInv += actLevel[c];
      }
    }
    head = head + 1 === W ? 0 : head + 1;
    daily.push({
      date: dayText(day),
      simulated: { stockOutDays: dayTotals.sOut, activeDays: dayTotals.sActive, sales: dayTotals.sSales, lostSales: dayTotals.sLost, inventoryUnits: dayTotals.sInv, transferUnits },
      actual: { stockOutDays: dayTotals.aOut, activeDays: dayTotals.aActive, sales: dayTotals.aSales, lostSales: dayTotals.aLost, inventoryUnits: dayTotals.aInv },
    });
    daysDone = i + 1;
    if (options.onProgress && (daysDone % 7 === 0 || daysDone === days)) options.onProgress(daysDone, days);
  }

  // End of period: what is left on hand (and, simulated, on its way).
  const simEnd = new Float64Array(1 + L + Sg);
  const simEndValue = new Float64Array(1 + L + Sg);
  const actEnd = new Float64Array(1 + L + Sg);
  const actEndValue = new Float64Array(1 + L + Sg);
  for (let l = 0; l < L; l++) {
    for (let k = 0; k < K; k++) {
      const c = l * K + k;
      const gs = [groups.network, groups.location + l, groups.style + styleOf[k]];
      for (const g of gs) {
        simEnd[g] += sim[c] + inTransit[c];
        simEndValue[g] += (sim[c] + inTransit[c]) * input.cost[k];
        actEnd[g] += actLevel[c];
        actEndValue[g] += actLevel[c] * input.cost[k];
      }
    }
  }
  const n = Math.max(daysDone, 1);
  const group = (g: number, id: string): GroupKpis => ({
    id,
    simulated: kpisOf(simSums, g, n, simEnd[g], simEndValue[g]),
    actual: kpisOf(actSums, g, n, actEnd[g], actEndValue[g]),
  });
  return {
    fromDay, days, daysDone, cancelled,
    summary: {
      simulated: { ...kpisOf(simSums, 0, n, simEnd[0], simEndValue[0]), transfers: transferKpis, estimatedDemandDays },
      actual: kpisOf(actSums, 0, n, actEnd[0], actEndValue[0]),
    },
    daily,
    byLocation: S0.locations.ids.map((id, l) => group(groups.location + l, id)),
    byStyle: S0.styles.ids.map((id, s) => group(groups.style + s, id)),
    transfers,
  };
}
