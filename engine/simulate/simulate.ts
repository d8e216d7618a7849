/**
 * The backtest in lost-sales mode. From the actual stock at the start, each day: receive arrivals (the
 * engine's transfers after their lead time, and the actual receipts and corrections), review on review days
 * (the same recommend code on the simulated state as of that day, its transfers put in transit), then serve
 * the day's demand — the same on both sides, taken from the history (actual-demand.ts): what the location sold
 * when it had stock, an estimate when it carried the SKU without stock. Simulated sales are what the simulated
 * stock allows; the rest is lost. Simulated stock is physical: never below zero. The engine sees only the
 * simulated history up to the day before: nothing later.
 */
import { dayText } from '../model/datetime.js';
import { recommend } from '../recommend/recommend.js';
import { prices } from '../recommend/prices.js';
import { categorySettings, type Settings } from '../recommend/settings.js';
import { APPROVAL_OPEN_DAYS, type EngineState } from '../recommend/state.js';
import type { SimulatedTransfer } from './simulated-transfer.js';
import type { BacktestInput } from './input.js';
import { kpisOf, type SideKpis, type TransferKpis } from './kpis.js';
import { accumulators, DAY_FIELDS, serveDay, type Accumulators, type ServeArrays } from './serve-day.js';
import { StyleDayCounter, type StyleDays } from './style-days.js';
import { CELL_FIELDS, CF, traceAdd, type StyleTrace, type TracedTransfer } from './trace.js';

export type { SimulatedTransfer };

export interface SimulationOptions {
  /** Days between reviews; default: the default review period of the settings. */
  reviewEveryDays?: number;
  onProgress?: (daysDone: number, days: number) => void;
  isCancelled?: () => boolean;
  /** Replay only the first n days (a cancelled run's, to trace it again). */
  stopAfterDays?: number;
  /** Record every cell of this style (its index in the start state) day by day: see trace.ts. */
  trace?: { style: number };
}

/** One side of a day, network totals: service at the stores and webshop, stock where it is at the day's end. */
export interface DailySide {
  carriedDays: number;
  stockOutDays: number;
  /** Gross units sold. */
  sales: number;
  lostSales: number;
  /** At the stores and webshop. */
  inventoryUnits: number;
  warehouseUnits: number;
}

export interface DailyRow {
  date: string;
  /** What customers wanted that day (both sides meet the same demand), and the part of it that is estimated. */
  demand: number;
  estimatedDemand: number;
  simulated: DailySide & { transferUnits: number };
  actual: DailySide;
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
  summary: {
    simulated: SideKpis & {
      transfers: TransferKpis;
      writeDownShortfall: WriteDownShortfall;
      /** Units the engine decided to send that never left: the stock its sender waited for did not come in time. */
      unsentTransferUnits: number;
    };
    actual: SideKpis;
  };
  daily: DailyRow[];
  byLocation: GroupKpis[];
  byStyle: GroupKpis[];
  transfers: SimulatedTransfer[];
  /** Per style and day, simulated and actual (the first `daysDone` days). */
  styleDays: StyleDays;
  /** The traced style's cells, when asked for. */
  trace?: StyleTrace;
  /** The lowest simulated stock of any cell at the end of any day (0 when none went below: stock is physical). */
  lowestSimulatedStock: number;
}

/**
 * Actual write-downs (shrinkage, corrections) larger than what the simulation held at the time: it takes what
 * there is, and the rest is a difference between the two worlds, in units and cell-days.
 */
export interface WriteDownShortfall {
  units: number;
  days: number;
}

type Typed = Float64Array | Float32Array | Int32Array | Uint8Array;
/** Makes a typed array of n elements: in ordinary memory, or in shared memory for partitioned replays. */
export type Alloc = <T extends Typed>(make: (n: number) => T, n: number) => T;

/** The replay's per-cell and per-SKU state at the start (buffers may be shared: see serve-day.ts). */
export function serveArrays(
  input: BacktestInput,
  alloc: Alloc = (make, n) => make(n),
  trace?: SimulationOptions['trace'],
): ServeArrays {
  const S0 = input.start;
  const W = S0.windowDays;
  const cells = S0.onHand.length;
  const copy = <T extends Float64Array | Float32Array | Int32Array | Uint8Array>(
    source: T,
    make: (n: number) => T,
  ): T => {
    const out = alloc(make, source.length);
    out.set(source as never);
    return out;
  };
  const f64 = (n: number) => new Float64Array(n);
  const i32 = (n: number) => new Int32Array(n);
  const u8 = (n: number) => new Uint8Array(n);
  const inStockDays = alloc(i32, cells);
  for (let c = 0; c < cells; c++) {
    let n = 0;
    for (let d = 0; d < W; d++) n += S0.inStock[c * W + d];
    inStockDays[c] = n;
  }
  const { actual, out } = input;
  return {
    dayStart: copy(actual.dayStart, i32),
    actualCell: copy(actual.cell, i32),
    actualEnd: copy(actual.endLevel, f64),
    actualOpening: copy(actual.opening, f64),
    actualSold: copy(actual.sold, f64),
    actualNet: copy(actual.net, f64),
    actualRevenue: copy(actual.revenue, f64),
    actualExtra: copy(actual.extra, f64),
    outStart: copy(out.dayStart, i32),
    outCell: copy(out.cell, i32),
    outDemand: copy(out.demand, f64),
    styleOf: copy(S0.skus.style, i32),
    styleStart: copy(S0.styles.styleStart, i32),
    salePrice: copy(input.salePrice, f64),
    cost: copy(input.cost, f64),
    soldUnits: copy(S0.skus.soldUnits, f64),
    soldValue: copy(S0.skus.soldValue, f64),
    selling: copy(Uint8Array.from(S0.locations.kind.map((k) => (k !== 'warehouse' ? 1 : 0))), u8),
    stores: copy(input.selling, u8),
    closed: copy(input.closed, u8),
    days: input.days,
    // Stock is physical: a start below zero (a feed's sales without stock) is an empty shelf.
    sim: copy(
      S0.onHand.map((q) => Math.max(0, q)),
      f64,
    ),
    actLevel: copy(S0.onHand, f64),
    rate: alloc(f64, cells),
    inStockDays,
    everActive: copy(S0.everActive, u8),
    windowSales: copy(S0.sales, (n) => new Float32Array(n)),
    windowInStock: copy(S0.inStock, u8),
    ...(trace ? { trace: traceBuffer(input, trace.style, alloc) } : {}),
  };
}

function traceBuffer(input: BacktestInput, style: number, alloc: Alloc): ServeArrays['trace'] {
  const { styleStart } = input.start.styles;
  if (!(style >= 0 && style < styleStart.length - 1)) throw new RangeError(`no style ${style} to trace`);
  const [kFrom, kTo] = [styleStart[style], styleStart[style + 1]];
  const n = input.start.locations.ids.length * (kTo - kFrom) * input.days * CELL_FIELDS;
  return { style, kFrom, kTo, days: input.days, values: alloc((m) => new Float64Array(m), n) };
}

/** Serves the days for a replay: in this thread by default, or split over threads (partitioned.ts). */
export interface DayExecutor {
  arrays: ServeArrays;
  serve(i: number, head: number): void;
  /** All of the day's accumulations, once the last day is served. */
  accumulators(): Accumulators;
  /** The accumulations of each thread's range so far, read between days. */
  parts: readonly Accumulators[];
  /** Brings the engine's history of every range into `arrays` before a review reads it (ranges kept elsewhere). */
  beforeReview?(): void;
}

export function simulate(
  input: BacktestInput,
  settings: Settings,
  options: SimulationOptions = {},
  executor?: DayExecutor,
): SimulationResult {
  const S0 = input.start;
  const L = S0.locations.ids.length;
  const K = S0.skus.ids.length;
  const W = S0.windowDays;
  const days = input.days;
  const fromDay = S0.asOfDay;
  const reviewEvery = Math.max(1, options.reviewEveryDays ?? settings.defaults.reviewPeriodDays);
  const locIndex = new Map(S0.locations.ids.map((id, l) => [id, l]));
  const skuIndex = new Map(S0.skus.ids.map((id, k) => [id, k]));
  const styleOf = S0.skus.style;
  const Sg = S0.styles.ids.length;

  const cells = L * K;
  const inTransit = new Float64Array(cells);
  /** Arrivals by day; `engines`: the engine's own transfer, not a client's already on its way at the start. */
  const pending = new Map<number, { cell: number; quantity: number; engines: boolean }[]>();
  const arrive = (day: number, cell: number, quantity: number, engines = true) => {
    inTransit[cell] += quantity;
    const list = pending.get(day) ?? [];
    list.push({ cell, quantity, engines });
    pending.set(day, list);
  };
  /**
   * Transfers decided but not yet sent: their sender lacked the units (an initial distribution planned on a purchase
   * order still to arrive). They leave as its stock comes in, counted on their way meanwhile; what has not left
   * within the days an approved transfer stays open lapses.
   */
  const waiting: { from: number; to: number; left: number; lead: number; until: number }[] = [];
  let unsentUnits = 0;
  // What was already on its way at the start (not purchase orders: receipts are replayed from the actuals).
  for (let i = 0; i < S0.inbound.cell.length; i++) {
    if (!S0.inbound.purchaseOrder[i])
      arrive(Math.max(0, S0.inbound.day[i] - fromDay), S0.inbound.cell[i], S0.inbound.quantity[i], false);
  }

  // Everything the days change, per cell or SKU, in one place (see serve-day.ts).
  const a: ServeArrays = executor?.arrays ?? serveArrays(input, undefined, options.trace);
  const trace = a.trace;
  const tracedTransfers: TracedTransfer[] = [];
  // The engine's view of the simulated world: shares those arrays, never writes them.
  const view: EngineState = {
    ...S0,
    onHand: a.sim,
    inTransit,
    onOrder: new Float64Array(cells),
    sales: a.windowSales,
    inStock: a.windowInStock,
    inStockDays: a.inStockDays,
    windowHead: 0,
    everActive: a.everActive,
    lastArrivalDay: Int32Array.from(S0.lastArrivalDay),
    skus: { ...S0.skus, price: Float64Array.from(S0.skus.price) },
    locations: { ...S0.locations, kind: [...S0.locations.kind] },
    styles: { ...S0.styles, hasOpenPurchaseOrder: new Uint8Array(Sg) },
  };
  const kindFixed = S0.locations.ids.map((id) => settings.locationKinds[id] !== undefined);
  let head = 0;
  const own = executor ? undefined : accumulators(L, Sg, days);
  const parts = executor ? executor.parts : [own!];
  const styleDays = new StyleDayCounter(Sg, days, 1 + L, styleOf);
  const lastDay = Math.min(days, options.stopAfterDays ?? days);
  const transferKpis: TransferKpis = {};
  const transfers: SimulatedTransfer[] = [];
  const transferUnitsByDay = new Float64Array(days);
  const shortfall: WriteDownShortfall = { units: 0, days: 0 };
  let daysDone = 0;
  let cancelled = false;

  let i = 0;
  /** Units leave their sender today and reach their destination after the lead time. */
  const send = (from: number, to: number, quantity: number, lead: number) => {
    a.sim[from] -= quantity;
    arrive(i + lead, to, quantity);
    styleDays.transferOut(i, (from / L) | 0, quantity);
    traceAdd(trace, L, from, i, CF.transfersOut, quantity);
  };

  for (; i < lastDay; i++) {
    if (options.isCancelled?.()) {
      cancelled = true;
      break;
    }
    const day = fromDay + i;
    const arrivals = pending.get(i);
    if (arrivals) {
      for (const { cell, quantity, engines } of arrivals) {
        a.sim[cell] += quantity;
        inTransit[cell] -= quantity;
        view.lastArrivalDay[cell] = day;
        // A client's transfer already on its way at the start arrives too, but is none of the engine's.
        if (engines) {
          styleDays.transferIn(i, (cell / L) | 0, quantity);
          traceAdd(trace, L, cell, i, CF.transfersIn, quantity);
        }
      }
      pending.delete(i);
    }
    const rowsFrom = input.actual.dayStart[i];
    const rowsTo = input.actual.dayStart[i + 1];

    if (i % reviewEvery === 0) {
      executor?.beforeReview?.();
      // Prices as known on this day: the year before the start plus the actual sales since, never later ones.
      if (i > 0) view.skus.price.set(prices(view, a.soldUnits, a.soldValue, S0.skus.price));
      view.asOfDay = day;
      view.windowHead = head;
      // On order as of this day: lines ordered by now and not yet due; nothing ordered later is known.
      view.onOrder.fill(0);
      view.styles.hasOpenPurchaseOrder.fill(0);
      let n = waiting.length;
      for (const list of pending.values()) n += list.length;
      for (const r of input.receipts) if (r.orderDay <= i && r.dueDay > i) n++;
      const inbound = {
        cell: new Int32Array(n),
        day: new Int32Array(n),
        quantity: new Float64Array(n),
        purchaseOrder: new Uint8Array(n),
      };
      let at = 0;
      for (const [d, list] of pending) {
        for (const { cell, quantity } of list) {
          inbound.cell[at] = cell;
          inbound.day[at] = fromDay + d;
          inbound.quantity[at++] = quantity;
        }
      }
      for (const x of waiting) {
        inbound.cell[at] = x.to;
        inbound.day[at] = fromDay + i + x.lead;
        inbound.quantity[at++] = x.left;
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
      // Only the traced style's proposals are put in words: the others are decisions and nothing more.
      const rec = recommend(view, settings, (k) => trace !== undefined && k >= trace.kFrom && k < trace.kTo);
      a.rate.set(rec.forecast.rate);
      styleDays.review(a.rate, L);
      const trips = new Set<string>();
      for (const p of rec.proposals) {
        const from = locIndex.get(p.fromLocationId)!;
        const to = locIndex.get(p.toLocationId)!;
        const k = skuIndex.get(p.skuId)!;
        const lead = Math.max(
          1,
          categorySettings(settings, S0.categories.ids[S0.styles.category[styleOf[k]]]).leadTimeDays,
        );
        const arrivalDay = i + lead;
        const now = Math.min(p.quantity, Math.max(0, a.sim[k * L + from]));
        if (now > 0) send(k * L + from, k * L + to, now, lead);
        if (now < p.quantity) {
          inTransit[k * L + to] += p.quantity - now;
          waiting.push({
            from: k * L + from,
            to: k * L + to,
            left: p.quantity - now,
            lead,
            until: i + APPROVAL_OPEN_DAYS,
          });
        }
        const made: SimulatedTransfer = {
          day,
          transferType: p.transferType,
          fromLocationId: p.fromLocationId,
          toLocationId: p.toLocationId,
          skuId: p.skuId,
          quantity: p.quantity,
          referenceId: p.referenceId,
        };
        if (trace && k >= trace.kFrom && k < trace.kTo)
          tracedTransfers.push({ ...made, arrivalDay: fromDay + arrivalDay, reason: p.reason });
        transfers.push(made);
        const t = (transferKpis[p.transferType] ??= { trips: 0, lines: 0, units: 0 });
        t.lines++;
        t.units += p.quantity;
        transferUnitsByDay[i] += p.quantity;
        const trip = `${p.transferType}:${from}:${to}`;
        if (!trips.has(trip)) {
          trips.add(trip);
          t.trips++;
        }
      }
    }

    // The day's actual receipts and corrections: after the morning's decision, before the day's demand.
    // A location sells once it has sold: known from the day of its first sale, never earlier.
    for (let j = rowsFrom; j < rowsTo; j++) {
      const c = input.actual.cell[j];
      const moved = input.actual.mutations[j];
      if (moved !== 0) {
        // A write-down takes what the simulation holds; the rest happened only in the actual world.
        const taken = Math.max(moved, -Math.max(0, a.sim[c]));
        a.sim[c] += taken;
        if (taken !== moved) {
          shortfall.units += taken - moved;
          shortfall.days++;
          traceAdd(trace, L, c, i, CF.writeDownShortfall, taken - moved);
        }
        styleDays.receipt(i, (c / L) | 0, moved);
        traceAdd(trace, L, c, i, CF.receipts, moved);
      }
      if (input.actual.sold[j] > 0) {
        const l = c % L;
        if (!a.selling[l] && !kindFixed[l]) {
          a.selling[l] = 1;
          view.locations.kind[l] = 'store';
        }
      }
    }

    // Transfers waiting for their sender's stock leave once it is there (after the day's receipts).
    for (let w = waiting.length - 1; w >= 0; w--) {
      const x = waiting[w];
      const q = i > x.until ? 0 : Math.min(x.left, Math.max(0, a.sim[x.from]));
      if (q > 0) {
        inTransit[x.to] -= q;
        send(x.from, x.to, q, x.lead);
        x.left -= q;
      }
      if (x.left > 0 && i < x.until) continue;
      inTransit[x.to] -= x.left;
      unsentUnits += x.left;
      waiting.splice(w, 1);
    }

    if (executor) executor.serve(i, head);
    else serveDay(a, L, K, W, i, head, 0, K, own!);
    styleDays.served(i, parts);
    head = head + 1 === W ? 0 : head + 1;
    daysDone = i + 1;
    if (options.onProgress && (daysDone % 7 === 0 || daysDone === days)) options.onProgress(daysDone, days);
  }

  const acc = executor ? executor.accumulators() : own!;
  const daily: DailyRow[] = [];
  for (let i = 0; i < daysDone; i++) {
    const t = acc.daily.subarray(i * DAY_FIELDS.length, (i + 1) * DAY_FIELDS.length);
    const v = (f: (typeof DAY_FIELDS)[number]) => t[DAY_FIELDS.indexOf(f)];
    daily.push({
      date: dayText(fromDay + i),
      demand: v('demand'),
      estimatedDemand: v('estimated'),
      simulated: {
        carriedDays: v('sCarried'),
        stockOutDays: v('sOut'),
        sales: v('sSales'),
        lostSales: v('sLost'),
        inventoryUnits: v('sInv'),
        warehouseUnits: v('sWarehouse'),
        transferUnits: transferUnitsByDay[i],
      },
      actual: {
        carriedDays: v('aCarried'),
        stockOutDays: v('aOut'),
        sales: v('aSales'),
        lostSales: v('aLost'),
        inventoryUnits: v('aInv'),
        warehouseUnits: v('aWarehouse'),
      },
    });
  }
  const sim = a.sim;
  const actLevel = a.actLevel;
  const groups = { network: 0, location: 1, style: 1 + L };

  // End of period: what is left on hand, by kind of location (simulated: on hand and on its way there).
  const G = 1 + L + Sg;
  const simEnd = {
    storeUnits: new Float64Array(G),
    storeValue: new Float64Array(G),
    warehouseUnits: new Float64Array(G),
    warehouseValue: new Float64Array(G),
  };
  const actEnd = {
    storeUnits: new Float64Array(G),
    storeValue: new Float64Array(G),
    warehouseUnits: new Float64Array(G),
    warehouseValue: new Float64Array(G),
  };
  for (let l = 0; l < L; l++) {
    const [units, value] = a.stores[l]
      ? (['storeUnits', 'storeValue'] as const)
      : (['warehouseUnits', 'warehouseValue'] as const);
    for (let k = 0; k < K; k++) {
      const c = k * L + l;
      const simLeft = sim[c] + inTransit[c];
      for (const g of [groups.network, groups.location + l, groups.style + styleOf[k]]) {
        simEnd[units][g] += simLeft;
        simEnd[value][g] += simLeft * input.cost[k];
        actEnd[units][g] += actLevel[c];
        actEnd[value][g] += actLevel[c] * input.cost[k];
      }
    }
  }
  const endOf = (e: typeof simEnd, g: number) => ({
    storeUnits: e.storeUnits[g],
    storeValue: e.storeValue[g],
    warehouseUnits: e.warehouseUnits[g],
    warehouseValue: e.warehouseValue[g],
  });
  const n = Math.max(daysDone, 1);
  const group = (g: number, id: string): GroupKpis => ({
    id,
    simulated: kpisOf(acc.sim, g, n, endOf(simEnd, g)),
    actual: kpisOf(acc.act, g, n, endOf(actEnd, g)),
  });
  return {
    fromDay,
    days,
    daysDone,
    cancelled,
    summary: {
      simulated: {
        ...kpisOf(acc.sim, 0, n, endOf(simEnd, 0)),
        transfers: transferKpis,
        writeDownShortfall: { units: Math.round(shortfall.units * 100) / 100, days: shortfall.days },
        unsentTransferUnits: unsentUnits,
      },
      actual: kpisOf(acc.act, 0, n, endOf(actEnd, 0)),
    },
    daily,
    byLocation: S0.locations.ids.map((id, l) => group(groups.location + l, id)),
    byStyle: S0.styles.ids.map((id, s) => group(groups.style + s, id)),
    transfers,
    styleDays: styleDays.out,
    lowestSimulatedStock: acc.lowest[0],
    ...(trace
      ? { trace: { ...trace, daysDone, transfers: tracedTransfers, locationKinds: [...view.locations.kind] } }
      : {}),
  };
}
