/** Hand-made engine states: a few locations and SKUs, with daily sales written out, for hand-computed tests. */
import { worldTransit } from '../engine/simulate/transit.js';
import { emptyState, type EngineState } from '../engine/recommend/state.js';
import type { LocationKind } from '../engine/recommend/settings.js';
import { demandLayout, periodDays, type BacktestInput, type PlannedReceipt } from '../engine/simulate/input.js';

export interface CellSpec {
  onHand?: number;
  inTransit?: number;
  /** Units sold per day over the window, oldest first (a number: the same every day). */
  sales?: number | number[];
  /** Days (window index) the location was out of stock; no sales are recorded on them. */
  outOfStock?: number[];
  notForReplenishment?: number;
  clientTarget?: number;
  lastArrivalDay?: number;
  /** The last delivery's arrival (EngineState.lastDeliveryDay); by default the last arrival's. */
  lastDeliveryDay?: number;
  /** Carried before (defaults to true when there are sales or stock). */
  everActive?: boolean;
  /** Open purchase-order units and the day they are due. */
  purchaseOrder?: { quantity: number; day: number };
}

export interface StateSpec {
  asOfDay?: number;
  windowDays?: number;
  /** `fulfilledFrom`: the id of the warehouse an online location sells from. */
  locations: { id: string; kind: LocationKind; gln?: string; excluded?: boolean; fulfilledFrom?: string }[];
  /** The days a transfer takes to reach every location, as the data would tell (2 unless said). */
  transitDays?: number;
  styles: {
    id: string;
    category?: string;
    brand?: string;
    openPurchaseOrder?: boolean;
    excluded?: boolean;
    skus: { id: string; size?: string; price?: number; excluded?: boolean; packSize?: number }[];
  }[];
  /** Keyed `location/sku`. */
  cells: Record<string, CellSpec>;
}

export const DAY0 = 19_800; // 2024-03-18

/** A state's locations written `id: kind`, in the order given (ids that are not whole numbers, which JS would sort). */
export function sites(kinds: Record<string, LocationKind>): StateSpec['locations'] {
  return Object.entries(kinds).map(([id, kind]) => ({ id, kind }));
}

export function buildState(spec: StateSpec): EngineState {
  const asOfDay = spec.asOfDay ?? DAY0;
  const W = spec.windowDays ?? 28;
  const skus = spec.styles.flatMap((s, si) => s.skus.map((k, rank) => ({ ...k, style: si, rank })));
  const L = spec.locations.length;
  const K = skus.length;
  const categories = [...new Set(spec.styles.map((s) => s.category ?? 'CAT'))];
  const brands = [...new Set(spec.styles.map((s) => s.brand).filter((b): b is string => !!b))];
  const sizes = [...new Set(skus.map((k) => k.size ?? String(k.rank)))];
  const base = emptyState(asOfDay, W, L, K);
  const styleStart = new Int32Array(spec.styles.length + 1);
  spec.styles.forEach((s, i) => (styleStart[i + 1] = styleStart[i] + s.skus.length));
  const state: EngineState = {
    ...base,
    locations: {
      ids: spec.locations.map((l) => l.id),
      kind: spec.locations.map((l) => l.kind),
      gln: spec.locations.map((l) => l.gln ?? null),
      excluded: Uint8Array.from(spec.locations.map((l) => (l.excluded ? 1 : 0))),
      fulfilledFrom: Int32Array.from(spec.locations, (l) =>
        l.fulfilledFrom === undefined ? -1 : spec.locations.findIndex((w) => w.id === l.fulfilledFrom),
      ),
      // What the data's transit would be: the engine plans with it where no leadTimeDays is set.
      transitDays: new Int32Array(spec.locations.length).fill(spec.transitDays ?? 2),
    },
    skus: {
      ids: skus.map((k) => k.id),
      style: Int32Array.from(skus.map((k) => k.style)),
      sizeRank: Int32Array.from(skus.map((k) => k.rank)),
      sizeId: skus.map((k) => k.size ?? String(k.rank)),
      size: Int32Array.from(skus, (k) => sizes.indexOf(k.size ?? String(k.rank))),
      colorId: skus.map(() => 'C'),
      price: Float64Array.from(skus.map((k) => k.price ?? 50)),
      soldUnits: new Float64Array(skus.length),
      soldValue: new Float64Array(skus.length),
      excluded: Uint8Array.from(skus.map((k) => (k.excluded ? 1 : 0))),
      packSize: Int32Array.from(skus.map((k) => k.packSize ?? 1)),
    },
    styles: {
      ids: spec.styles.map((s) => s.id),
      itemId: spec.styles.map((s) => s.id),
      category: Int32Array.from(spec.styles.map((s) => categories.indexOf(s.category ?? 'CAT'))),
      brand: Int32Array.from(spec.styles.map((s) => (s.brand ? brands.indexOf(s.brand) : -1))),
      season: new Int32Array(spec.styles.length).fill(-1),
      styleStart,
      excluded: Uint8Array.from(spec.styles.map((s) => (s.excluded ? 1 : 0))),
      hasOpenPurchaseOrder: Uint8Array.from(spec.styles.map((s) => (s.openPurchaseOrder ? 1 : 0))),
    },
    categories: { ids: categories },
    brands: { ids: brands },
    seasons: { ids: [] },
    sizes: { ids: sizes },
  };
  const inbound: [number, number, number][] = [];
  for (const [key, c] of Object.entries(spec.cells)) {
    const [loc, sku] = key.split('/');
    const l = state.locations.ids.indexOf(loc);
    const k = state.skus.ids.indexOf(sku);
    if (l < 0 || k < 0) throw new Error(`unknown cell ${key}`);
    const cell = k * state.locations.ids.length + l;
    state.onHand[cell] = c.onHand ?? 0;
    state.inTransit[cell] = c.inTransit ?? 0;
    state.notForReplenishment[cell] = c.notForReplenishment ?? 0;
    if (c.clientTarget !== undefined) state.clientTarget[cell] = c.clientTarget;
    if (c.lastArrivalDay !== undefined) state.lastArrivalDay[cell] = c.lastArrivalDay;
    // An arrival of no other kind is a delivery, as a client's transfer of no type is.
    const delivered = c.lastDeliveryDay ?? c.lastArrivalDay;
    if (delivered !== undefined) state.lastDeliveryDay[cell] = delivered;
    const out = new Set(c.outOfStock ?? []);
    let any = (c.onHand ?? 0) > 0;
    for (let d = 0; d < W; d++) {
      const sold = c.sales === undefined ? 0 : typeof c.sales === 'number' ? c.sales : (c.sales[d] ?? 0);
      if (out.has(d)) continue;
      // NaN: a day without stock.
      state.sales[cell * W + d] = c.sales === undefined && !(c.onHand ?? 0) ? Number.NaN : sold;
      if (sold > 0) {
        any = true;
        // Window day d is the day W − d before the state's.
        state.lastSaleDay[cell] = state.asOfDay - W + d;
      }
    }
    state.everActive[cell] = (c.everActive ?? any) ? 1 : 0;
    if (c.purchaseOrder) {
      inbound.push([cell, c.purchaseOrder.day, c.purchaseOrder.quantity]);
      state.onOrder[cell] += c.purchaseOrder.quantity;
    }
  }
  state.inbound = {
    cell: Int32Array.from(inbound.map((x) => x[0])),
    day: Int32Array.from(inbound.map((x) => x[1])),
    quantity: Float64Array.from(inbound.map((x) => x[2])),
    purchaseOrder: new Uint8Array(inbound.length).fill(1),
  };
  return state;
}

/**
 * One actual day of a location/SKU (`cell` is `location/sku`): its level at the end, the level it started with
 * when something is stamped at its midnight (`open`), what it sold and whether a sale left it empty (`soldOut`,
 * by default: it sold and ended at 0), its net sales and its stock mutations.
 */
export interface ActualRow {
  day: number;
  cell: string;
  end: number;
  open?: number;
  sold?: number;
  soldOut?: boolean;
  net?: number;
  mutations?: number;
}

/**
 * A backtest input from a hand-made start state and the actual days, written out row by row. Rows may lie before
 * the period (negative days, down to −`historyDays`) or after it: the history its demand is estimated from. The
 * history starts from `startLevels` (by cell) when it reaches before the period, else from the start state's stock.
 */
export function backtestInput(
  spec: StateSpec,
  days: number,
  rows: ActualRow[],
  receipts: PlannedReceipt[] = [],
  history: { historyDays?: number; startLevels?: Record<string, number>; transitDays?: number } = {},
): BacktestInput {
  const start = buildState(spec);
  const L = start.locations.ids.length;
  const before = history.historyDays ?? 0;
  const cellOf = (key: string) => {
    const [l, k] = key.split('/');
    return start.skus.ids.indexOf(k) * L + start.locations.ids.indexOf(l);
  };
  const levels = new Map<number, number>();
  if (before === 0) start.onHand.forEach((q, c) => q !== 0 && levels.set(c, q));
  for (const [key, q] of Object.entries(history.startLevels ?? {})) levels.set(cellOf(key), q);
  const all = [
    ...[...levels].map(([cell, end]) => ({
      cell,
      d: -1,
      end,
      open: null,
      soldOut: 0,
      counted: 1,
      sold: 0,
      net: 0,
      mutations: 0,
    })),
    ...rows.map((r) => ({
      cell: cellOf(r.cell),
      d: r.day + before,
      end: r.end,
      open: r.open ?? null,
      sold: r.sold ?? 0,
      soldOut: (r.soldOut ?? ((r.sold ?? 0) > 0 && r.end <= 0)) ? 1 : 0,
      counted: r.open === undefined ? 0 : 1,
      net: r.net ?? r.sold ?? 0,
      mutations: r.mutations ?? 0,
    })),
  ].sort((a, b) => a.cell - b.cell || a.d - b.d);
  const last = Math.max(days, ...rows.map((r) => r.day + 1));
  const {
    actual,
    out,
    selling,
    closed,
    salePrice,
    transit: measured,
  } = periodDays(
    {
      cell: all.map((r) => r.cell),
      d: all.map((r) => r.d),
      endLevel: all.map((r) => r.end),
      opening: all.map((r) => r.open ?? Number.NaN),
      soldOut: all.map((r) => r.soldOut),
      counted: all.map((r) => r.counted),
      sold: all.map((r) => r.sold),
      net: all.map((r) => r.net),
      mutations: all.map((r) => r.mutations),
      revenue: all.map((r) => r.sold * 20),
    },
    { days: before + last, firstDay: start.asOfDay - before, periodFrom: before, periodTo: before + days },
    demandLayout(start),
  );
  const cost = new Float64Array(start.skus.ids.length).fill(10);
  const declared = history.transitDays;
  const transit = worldTransit(
    start.locations.ids,
    selling,
    measured,
    new Int32Array(L).fill(-1),
    declared === undefined ? {} : Object.fromEntries(start.locations.ids.map((id) => [id, declared])),
  );
  return { start, days, actual, out, selling, closed, salePrice, cost, receipts, transit };
}

/**
 * The days before `day` of `before` and the days from `day` on of `after`: two worlds that agree up to a day, in
 * what happened and in the demand the history gives it, and differ from then on.
 */
export function spliceDays(before: BacktestInput, after: BacktestInput, day: number): BacktestInput {
  const join = <T extends { dayStart: Int32Array }>(a: T, b: T, fields: (keyof T)[]): T => {
    const [ra, rb] = [a.dayStart[day], b.dayStart[day]];
    const out = { ...a, dayStart: Int32Array.from(b.dayStart, (v, i) => (i <= day ? a.dayStart[i] : v - rb + ra)) };
    for (const f of fields) {
      const [x, y] = [a[f] as Float64Array | Int32Array, b[f] as Float64Array | Int32Array];
      const joined = new (x.constructor as new (n: number) => typeof x)(ra + y.length - rb);
      joined.set(x.subarray(0, ra));
      joined.set(y.subarray(rb), ra);
      (out as Record<keyof T, unknown>)[f] = joined;
    }
    return out;
  };
  return {
    ...after,
    start: before.start,
    actual: join(before.actual, after.actual, [
      'cell',
      'endLevel',
      'opening',
      'sold',
      'net',
      'mutations',
      'revenue',
      'extra',
    ]),
    out: join(before.out, after.out, ['cell', 'demand']),
  };
}
