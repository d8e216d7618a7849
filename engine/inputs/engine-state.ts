/**
 * Builds the engine's state of a workspace as of a day with a few set-based queries (never one per SKU).
 * Stock on any moment is the latest level before it, plus the stock mutations and minus the net sales
 * after that level: the same rule the backtest uses to reconstruct actual stock.
 */
import type { DuckDBValue } from '@duckdb/node-api';
import { levelTransit, worldTransit } from '../simulate/transit.js';
import { demandLayout } from '../simulate/input.js';
import { clientTransitDays } from './client-transit.js';
import type { DailyLevels } from '../store/level-fold.js';
import { DAY_MICROS, dayOf } from '../model/datetime.js';
import { timestampValue } from '../store/values.js';
import { dailyLevels, writeCellIndex } from '../store/daily-levels.js';
import { readStyleDiscounts } from './style-discounts.js';
import { prices } from '../recommend/prices.js';
import { Workspace } from '../store/workspace.js';
import { APPROVAL_OPEN_DAYS, emptyState, type Alloc, type EngineState } from '../recommend/state.js';
import { bitWords, setSlot } from '../recommend/in-stock-bits.js';
import { heldStock, openingOr } from '../simulate/actual-demand.js';
import {
  categorySettings,
  planningLead,
  type CategorySettings,
  type LocationKind,
  type Settings,
} from '../recommend/settings.js';
import { applyFulfilment } from './fulfilment.js';
import { readNetworkRows, type KeptNetwork, type LocationRow, type SkuRow } from './network-rows.js';
import { HISTORY_DAYS, readYearOfSales, stockedInYear, type LiveDays, type YearOfSales } from './live-days.js';

/**
 * The day a run stands on by default: today, or the first day the workspace's data does not cover if that is
 * earlier — the day after the latest sale, or the day the latest stock level opens (a count stamped at midnight is
 * the stock its day starts with, and nothing else of that day is known yet).
 */
export async function defaultAsOfDay(ws: Workspace, nowMicros: number): Promise<number> {
  const [row] = await ws.rows<{ sale: bigint | null; level: bigint | null }>(`SELECT
      (SELECT epoch_us(max(salesDateTime)) FROM sales WHERE _deleted_at IS NULL) AS sale,
      (SELECT epoch_us(max(stockDateTime)) FROM stock) AS level`);
  const days = [
    ...(row.sale === null ? [] : [dayOf(Number(row.sale)) + 1]),
    ...(row.level === null ? [] : [Math.ceil(Number(row.level) / DAY_MICROS)]),
  ];
  const today = dayOf(nowMicros);
  return days.length ? Math.min(today, Math.max(...days)) : today;
}

export async function categorySettingsOf(ws: Workspace): Promise<Record<string, Partial<CategorySettings>>> {
  const rows = await ws.rows<Record<string, DuckDBValue> & { merchandiseCategoryId: string }>(
    `SELECT * FROM merchandise_category_settings WHERE _deleted_at IS NULL`,
  );
  const out: Record<string, Partial<CategorySettings>> = {};
  for (const r of rows) {
    const s: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r))
      if (!k.startsWith('_') && k !== 'merchandiseCategoryId' && v !== null)
        s[k] = typeof v === 'bigint' ? Number(v) : v;
    out[r.merchandiseCategoryId] = s as Partial<CategorySettings>;
  }
  return out;
}

/**
 * `live`: the state of the workspace now, for the service: approved transfers still open are on their way to
 * their destination and reserved at their sender, client transfers count by their current status. With
 * `atMoment`, stock is what it is at `nowMicros`, everything received until then included (a run standing on
 * today); without it, the stock the day started with (the morning's review of an explicit day).
 * `days`: the days kept from the run before, where they stand (live-days.ts), and `network`: the rows of the
 * network, kept while their tables stay as they were (network-rows.ts): the same state, read faster.
 * `replay`: the state as of a past day's morning, for a backtest: nothing from the live system's approvals,
 * client transfers as they stood that day (shipped before it, arriving on or after it).
 */
export type StateMode =
  { kind: 'live'; nowMicros: number; atMoment: boolean; days?: LiveDays; network?: KeptNetwork } | { kind: 'replay' };

/** Where each location×SKU sits in the state's flat arrays. */
interface CellIndex {
  locIndex: Map<string, number>;
  skuIndex: Map<string, number>;
  /** k × L + l, or −1 for a location or SKU the state does not hold. */
  cellOf: (loc: string | null, sku: string) => number;
}

type Stamp = ReturnType<typeof timestampValue>;

/**
 * The state as of a day's morning (or, live at a moment, now), in named phases: the year of sales, the locations
 * and the assortment, prices and packs, the daily levels of the demand window, what is on its way, and the
 * client's own controls.
 */
export async function loadEngineState(
  ws: Workspace,
  asOfDay: number,
  settings: Settings,
  mode: StateMode = { kind: 'replay' },
  alloc?: Alloc,
): Promise<EngineState> {
  const asOf = timestampValue(asOfDay * DAY_MICROS);
  const live = mode.kind === 'live' ? mode : undefined;
  const { state, index } = await readNetwork(ws, asOfDay, settings, alloc, live?.network);
  await writeCellIndex(ws, state.locations.ids, state.skus.ids);
  const kept = live?.days;
  const layout = {
    locationIds: state.locations.ids,
    skuIds: state.skus.ids,
    skuStyle: state.skus.style,
    styles: state.styles.ids.length,
    windowDays: state.windowDays,
  };
  const year = kept
    ? await kept.yearOfSales(ws, layout, asOfDay, untilMicros(state, mode))
    : await readYearOfSales(ws, layout.locationIds.length, layout.skuIds.length, asOfDay);
  applyLocationKinds(state, settings, year);
  applyFulfilment(state, settings);
  await applyPricesAndPacks(ws, state, year, index);
  const days = kept && (await kept.windowDays(ws, state.locations.fulfilledFrom));
  const window = await applyDailyLevels(ws, state, mode, asOf, index, days?.window);
  await applyTransit(ws, state, settings, window);
  applyStockedInYear(state, days?.stocked ?? (await stockedInYear(ws, layout.locationIds.length, asOfDay)));
  await applyInbound(ws, state, settings, mode, asOf, index);
  await applyClientControls(ws, state, asOf, index);
  state.styleDiscount = discountRing(
    state,
    days?.discounts ??
      (await readStyleDiscounts(ws, state.skus.style, state.styles.ids.length, asOfDay - state.windowDays, asOfDay)),
  );
  return state;
}

/** Until when the state's days are read: the day's start, or (live at a moment) now, what is stamped now included. */
function untilMicros(state: EngineState, mode: StateMode): number {
  return mode.kind === 'live' && mode.atMoment ? mode.nowMicros + 1 : state.asOfDay * DAY_MICROS;
}

/**
 * The styles' discounts over the demand window (days × styles), as the engine's rings hold them (head 0: the oldest
 * day first).
 */
function discountRing(state: EngineState, byDay: Float64Array): Float32Array {
  const W = state.windowDays;
  const S = state.styles.ids.length;
  const ring = new Float32Array(S * W);
  for (let d = 0; d < W; d++) for (let s = 0; s < S; s++) ring[s * W + d] = byDay[d * S + s];
  return ring;
}

/**
 * Locations' kinds: online where most lines are online sales, a store where anything sells, a warehouse otherwise;
 * settings may say otherwise.
 */
function applyLocationKinds(state: EngineState, settings: Settings, year: YearOfSales): void {
  const ids = state.locations.ids;
  const lines = new Float64Array(ids.length);
  const online = new Float64Array(ids.length);
  for (let i = 0; i < year.l.length; i++) {
    lines[year.l[i]] += year.lines[i];
    online[year.l[i]] += year.online[i];
  }
  ids.forEach((id, l) => {
    state.locations.kind[l] = settings.locationKinds[id] ?? kindBySales(lines[l], online[l]);
  });
}

/** A location's kind as its last year of sales lines tells it (settings aside). */
function kindBySales(lines: number, online: number): LocationKind {
  return lines === 0 ? 'warehouse' : online * 2 > lines ? 'online' : 'store';
}

/** Every location's kind as the data tells it on a day (what a run on that day takes without `locationKinds`). */
export async function locationKindsOfData(ws: Workspace, asOfDay: number): Promise<Map<string, LocationKind>> {
  const rows = await ws.rows<{ locationId: string; lines: number; online: number }>(
    `SELECT o.locationId, count(l._ord)::DOUBLE AS lines, (count(l._ord) FILTER (WHERE l.online))::DOUBLE AS online
     FROM locations AS o
     LEFT JOIN sales AS s ON s.locationId = o.locationId AND s._deleted_at IS NULL
       AND s.salesDateTime >= $1 AND s.salesDateTime < $2
     LEFT JOIN sales__salesLines AS l ON l._salesId = s.salesId
     WHERE o._deleted_at IS NULL GROUP BY 1`,
    [timestampValue((asOfDay - HISTORY_DAYS) * DAY_MICROS), timestampValue(asOfDay * DAY_MICROS)],
  );
  return new Map(rows.map((r) => [r.locationId, kindBySales(r.lines, r.online)]));
}

/** Ids numbered in the order first met, so the state holds each attribute as a small integer; none is −1. */
function dictionary() {
  const ids: string[] = [];
  const map = new Map<string, number>();
  return {
    ids,
    at: (v: string | null) =>
      v === null || v === undefined ? -1 : (map.get(v) ?? (ids.push(v), map.set(v, ids.length - 1), ids.length - 1)),
  };
}
type Dictionary = ReturnType<typeof dictionary>;

/** The styles the SKUs (already in style order) fall into, each style's attributes taken from its first SKU. */
interface StyleGroups {
  ids: string[];
  /** Per SKU: its style, and its place within the style (its size rank). */
  styleOf: Int32Array;
  sizeRank: Int32Array;
  /** Where each style's SKUs start, and one past the last SKU. */
  styleStart: number[];
  category: number[];
  brand: number[];
  season: number[];
  collection: (string | null)[];
  item: string[];
  categories: Dictionary;
  brands: Dictionary;
  seasons: Dictionary;
}

function groupStyles(skuRows: SkuRow[]): StyleGroups {
  const g: StyleGroups = {
    ids: [],
    styleOf: new Int32Array(skuRows.length),
    sizeRank: new Int32Array(skuRows.length),
    styleStart: [0],
    category: [],
    brand: [],
    season: [],
    collection: [],
    item: [],
    categories: dictionary(),
    brands: dictionary(),
    seasons: dictionary(),
  };
  skuRows.forEach((r, k) => {
    if (g.ids[g.ids.length - 1] !== r.styleId) {
      if (k > 0) g.styleStart.push(k);
      g.ids.push(r.styleId);
      g.category.push(Math.max(0, g.categories.at(r.category ?? '')));
      g.brand.push(g.brands.at(r.brand));
      g.season.push(g.seasons.at(r.season));
      g.collection.push(r.collection);
      g.item.push(r.itemId);
    }
    g.styleOf[k] = g.ids.length - 1;
    g.sizeRank[k] = k - g.styleStart[g.styleStart.length - 1];
  });
  g.styleStart.push(skuRows.length);
  return g;
}

/** The state's locations: all warehouses until their sales tell (applyLocationKinds); closed by the day excluded. */
function networkLocations(locRows: LocationRow[], asOfDay: number): EngineState['locations'] {
  const L = locRows.length;
  return {
    ids: locRows.map((r) => r.locationId),
    kind: locRows.map((): LocationKind => 'warehouse'),
    gln: locRows.map((r) => r.gln),
    excluded: Uint8Array.from(
      locRows.map((r) => (r.excluded || (r.closed !== null && dayOf(Number(r.closed)) <= asOfDay) ? 1 : 0)),
    ),
    fulfilledFrom: new Int32Array(L).fill(-1),
    transitDays: new Int32Array(L),
  };
}

/**
 * The state's SKUs, priced at 1 in packs of 1 until the sales and packs say otherwise (applyPricesAndPacks); their
 * sizes numbered into `sizes`.
 */
function networkSkus(skuRows: SkuRow[], styles: StyleGroups, sizes: Dictionary): EngineState['skus'] {
  const K = skuRows.length;
  return {
    ids: skuRows.map((r) => r.skuId),
    style: styles.styleOf,
    sizeRank: styles.sizeRank,
    sizeId: skuRows.map((r) => r.sizeId),
    size: Int32Array.from(skuRows, (r) => sizes.at(r.sizeId)),
    colorId: skuRows.map((r) => r.colorId),
    price: new Float64Array(K).fill(1),
    soldUnits: new Float64Array(K),
    soldValue: new Float64Array(K),
    excluded: Uint8Array.from(skuRows.map((r) => (r.excluded ? 1 : 0))),
    packSize: new Int32Array(K).fill(1),
  };
}

/** The state's styles: excluded with their collection, and marked when a purchase order still brings some. */
function networkStyles(
  styles: StyleGroups,
  excludedCollections: Set<string>,
  stylesOnOrder: Set<string>,
): EngineState['styles'] {
  return {
    ids: styles.ids,
    itemId: styles.item,
    category: Int32Array.from(styles.category),
    brand: Int32Array.from(styles.brand),
    season: Int32Array.from(styles.season),
    styleStart: Int32Array.from(styles.styleStart),
    excluded: Uint8Array.from(styles.collection.map((c) => (c !== null && excludedCollections.has(c) ? 1 : 0))),
    hasOpenPurchaseOrder: Uint8Array.from(styles.ids.map((s) => (stylesOnOrder.has(s) ? 1 : 0))),
  };
}

function cellIndexOf(locRows: LocationRow[], skuRows: SkuRow[]): CellIndex {
  const L = locRows.length;
  const locIndex = new Map(locRows.map((r, i) => [r.locationId, i]));
  const skuIndex = new Map(skuRows.map((r, i) => [r.skuId, i]));
  const cellOf = (loc: string | null, sku: string) => {
    const l = loc === null ? undefined : locIndex.get(loc);
    const k = skuIndex.get(sku);
    return l === undefined || k === undefined ? -1 : k * L + l;
  };
  return { locIndex, skuIndex, cellOf };
}

/** Locations (their kinds told later), and the assortment: SKUs of live items grouped by style in size order. */
async function readNetwork(
  ws: Workspace,
  asOfDay: number,
  settings: Settings,
  alloc?: Alloc,
  kept?: KeptNetwork,
): Promise<{ state: EngineState; index: CellIndex }> {
  const { locRows, skuRows, excludedCollections, stylesOnOrder } = await (kept?.rows(ws) ?? readNetworkRows(ws));
  const styles = groupStyles(skuRows);
  const sizes = dictionary();
  const base = emptyState(asOfDay, settings.demandWindowDays, locRows.length, skuRows.length, alloc);
  const state: EngineState = {
    ...base,
    locations: networkLocations(locRows, asOfDay),
    skus: networkSkus(skuRows, styles, sizes),
    styles: networkStyles(styles, excludedCollections, stylesOnOrder),
    categories: { ids: styles.categories.ids.length ? styles.categories.ids : [''] },
    brands: { ids: styles.brands.ids },
    seasons: { ids: styles.seasons.ids },
    sizes: { ids: sizes.ids },
  };
  return { state, index: cellIndexOf(locRows, skuRows) };
}

/** Prices from the last year's sales (see prices.ts), single-SKU prepacks; and what sold was carried. */
async function applyPricesAndPacks(ws: Workspace, state: EngineState, year: YearOfSales, { skuIndex }: CellIndex) {
  const K = state.skus.ids.length;
  const L = state.locations.ids.length;
  const revenue = new Float64Array(K);
  const units = new Float64Array(K);
  const list = new Float64Array(K);
  const known = (x: number) => (Number.isNaN(x) ? 0 : x);
  for (let i = 0; i < year.k.length; i++) {
    const k = year.k[i];
    if (k < 0) continue;
    revenue[k] += known(year.revenue[i]);
    units[k] += known(year.units[i]);
    list[k] = Math.max(list[k], known(year.list[i]));
    state.everActive[k * L + year.l[i]] = 1;
    if (!Number.isNaN(year.last[i])) state.lastSaleDay[k * L + year.l[i]] = year.last[i];
  }
  state.skus.soldUnits.set(units);
  state.skus.soldValue.set(revenue);
  state.skus.price.set(prices(state, units, revenue, list));
  type Component = { pack: string; skuId: string; quantity: number };
  for (const r of await ws.rows<Component>(`SELECT p.skuId AS pack, c.skuId, c.quantity
                                 FROM prepacks AS p JOIN prepacks__components AS c ON c._skuId = p.skuId
                                 WHERE p._deleted_at IS NULL
                                   AND (SELECT count(*) FROM prepacks__components x WHERE x._skuId = p.skuId) = 1`)) {
    const k = skuIndex.get(r.skuId);
    if (k !== undefined) state.skus.packSize[k] = Number(r.quantity);
  }
}

/**
 * Daily stock levels and gross sales over the window, from the latest level before it on; at a moment of the
 * day, that day's part as well (its stock is on hand now; its sales, not a whole day's, stay out of the window).
 */
async function applyDailyLevels(
  ws: Workspace,
  state: EngineState,
  mode: StateMode,
  asOf: Stamp,
  { cellOf }: CellIndex,
  kept?: DailyLevels,
) {
  const { asOfDay, windowDays: W } = state;
  const atMoment = mode.kind === 'live' && mode.atMoment;
  const { ids, fulfilledFrom } = state.locations;
  const days =
    kept ??
    (await dailyLevels(ws, ids, state.skus.ids, asOfDay - W, atMoment ? asOfDay + 1 : asOfDay, {
      untilMicros: untilMicros(state, mode),
      fulfilledFrom,
    }));
  const dCell = days.cell;
  const dDay = days.d;
  const dEnd = days.endLevel;
  const dOpening = days.opening;
  const dSold = days.sold;
  const dSoldOut = days.soldOut;
  // (The window's days also tell how long transfers take: applyTransit.)
  // A live run's cells' in-stock days, counted and marked as its ring is written: the engine then passes over a cell
  // never in stock, and reads which days a cell had stock from a few words instead of its window. A replay's parts
  // count their own as they take their cells (replay-part.ts): counted here, they would be counted twice.
  const words = bitWords(W);
  const counts =
    mode.kind === 'live'
      ? { days: new Int32Array(state.onHand.length), bits: new Uint32Array(state.onHand.length * words) }
      : undefined;
  const inStock = (c: number, d: number, sold: number) => {
    state.sales[c * W + d] = sold;
    if (!counts) return;
    counts.days[c]++;
    setSlot(counts.bits, words, c, d, true);
  };
  let cell = -1;
  let level = 0;
  let day = -1;
  const closeTo = (c: number, until: number) => {
    // Days without events keep the level they started with: in stock without a sale, or without stock.
    if (level > 0) for (let d = Math.max(day + 1, 0); d < until; d++) inStock(c, d, 0);
  };
  for (let i = 0; i < dCell.length; i++) {
    const c = dCell[i];
    if (c !== cell) {
      if (cell >= 0) {
        closeTo(cell, W);
        state.onHand[cell] = level;
      }
      cell = c;
      level = 0;
      day = -1;
    }
    const d = dDay[i];
    closeTo(c, d);
    if (d >= 0 && d < W) {
      const sold = dSold[i];
      // A day that sold out is a lower bound of its demand: kept negated (see EngineState.sales).
      if (heldStock(openingOr(dOpening[i], level), sold)) inStock(c, d, dSoldOut[i] && sold > 0 ? -sold : sold);
    }
    level = dEnd[i];
    day = d;
  }
  if (cell >= 0) {
    closeTo(cell, W);
    state.onHand[cell] = level;
  }
  if (counts) {
    state.inStockDays = counts.days;
    state.inStockBits = counts.bits;
  }
  // A count stamped at midnight is the stock the day starts with: the morning's review (and a backtest's first
  // day) starts from it. The day's own sales and moves still come after it (at a moment, they are in already).
  if (!atMoment) {
    for (const r of await ws.rows<{ locationId: string; skuId: string; q: number }>(
      `SELECT locationId, skuId, quantity::DOUBLE AS q FROM stock WHERE stockDateTime = $1`,
      [asOf],
    )) {
      const c = cellOf(r.locationId, r.skuId);
      if (c >= 0) state.onHand[c] = Number(r.q);
    }
  }
  // A location selling from a warehouse's stock holds none: its days above are the warehouse's level.
  const L = ids.length;
  for (let l = 0; l < L; l++)
    if (fulfilledFrom[l] >= 0) for (let c = l; c < state.onHand.length; c += L) state.onHand[c] = 0;
  return days;
}

/**
 * How long a transfer takes to reach each location as the data before the state's day tells (the client's own
 * transfers, else the window's stock levels; simulate/transit.ts): what the engine plans with where no
 * leadTimeDays is set. A backtest's engine plans with what the history before its period showed.
 */
async function applyTransit(ws: Workspace, state: EngineState, settings: Settings, window: DailyLevels) {
  const { ids, kind } = state.locations;
  const selling = Uint8Array.from(kind, (k) => (k === 'warehouse' ? 0 : 1));
  const W = state.windowDays;
  const range = { days: W, firstDay: state.asOfDay - W, periodFrom: 0, periodTo: W };
  const measured = levelTransit(window, range, demandLayout(state), selling);
  state.locations.transitDays.set(
    worldTransit(ids, selling, measured, await clientTransitDays(ws, ids), settings.transitDays).days,
  );
}

/** A location×SKU with stock at any level in the last year (`stocked`: stockedInYear's cells) was carried there. */
function applyStockedInYear(state: EngineState, stocked: Int32Array) {
  const L = state.locations.ids.length;
  const { fulfilledFrom } = state.locations;
  // The stock records of a location selling from a warehouse's are not read (applyFulfilment).
  for (const c of stocked) if (fulfilledFrom[c % L] < 0) state.everActive[c] = 1;
}

/**
 * On its way, with the day it is expected: approved transfers still open (live only: confirmation + lead
 * time), client transfers in transit, and open purchase-order lines (at the order's location, else the first
 * warehouse).
 */
async function applyInbound(
  ws: Workspace,
  state: EngineState,
  settings: Settings,
  mode: StateMode,
  asOf: Stamp,
  { cellOf }: CellIndex,
) {
  const asOfDay = state.asOfDay;
  const L = state.locations.ids.length;
  const kind = state.locations.kind;
  const firstWarehouse = state.locations.ids.find((_, l) => kind[l] === 'warehouse') ?? '';
  const live = mode.kind === 'live';
  const approvalsSince = timestampValue(live ? mode.nowMicros - APPROVAL_OPEN_DAYS * DAY_MICROS : 0);
  const inbound = await ws.columns<{
    loc: string;
    sender: string | null;
    skuId: string;
    q: number;
    day: number;
    po: number;
    approved: number;
  }>(
    `
    SELECT p.toLocationId AS loc, p.fromLocationId AS sender, p.skuId, p.quantity::DOUBLE AS q,
           (epoch_us(p.confirmedDateTime) // ${DAY_MICROS})::INTEGER AS day, 0 AS po, 1 AS approved
    FROM transfer_proposals AS p
    WHERE $4 AND p.approvalBatchId IS NOT NULL AND p.confirmedDateTime >= $5
      AND NOT EXISTS (SELECT 1 FROM transfers AS c WHERE c.referenceId = p.referenceId AND c._deleted_at IS NULL)
    UNION ALL
    SELECT toLocationId, NULL, skuId, quantity::DOUBLE,
           (coalesce(epoch_us(expectedArrivalDateTime) // ${DAY_MICROS}, $2))::INTEGER, 0, 0 FROM transfers
    WHERE _deleted_at IS NULL AND CASE WHEN $4 THEN NOT coalesce(received, false)
      ELSE shippedDateTime < $1 AND coalesce(expectedArrivalDateTime, shippedDateTime) >= $1 END
    UNION ALL
    SELECT coalesce(p.locationId, $3), NULL, l.skuId, l.quantityOutstanding::DOUBLE,
           (epoch_us(l.plannedReceiptDate) // ${DAY_MICROS})::INTEGER, 1, 0
    FROM purchase_order_status AS st
    JOIN purchase_orders AS p ON p.purchaseOrderId = st.purchaseOrderId
    JOIN purchase_orders__purchaseOrderLines AS l ON l._purchaseOrderId = p.purchaseOrderId
    WHERE st.status IN ('open', 'partiallyReceived') AND l.quantityOutstanding > 0`,
    [asOf, asOfDay, firstWarehouse, live, approvalsSince],
  );
  const inCell: number[] = [];
  const inDay: number[] = [];
  const inQty: number[] = [];
  const inPo: number[] = [];
  inbound.loc.forEach((loc, i) => {
    const c = cellOf(loc, inbound.skuId[i]);
    if (c < 0) return;
    const q = inbound.q[i];
    const po = inbound.po[i];
    let day = inbound.day[i];
    if (inbound.approved[i]) {
      const k = Math.floor(c / L);
      const cs = categorySettings(settings, state.categories.ids[state.styles.category[state.skus.style[k]]]);
      day += planningLead(cs, state, c % L);
      // Promised to a destination: not the sender's to give again until the stock feed shows it gone.
      const from = cellOf(inbound.sender[i], inbound.skuId[i]);
      if (from >= 0) state.onHand[from] = Math.max(0, state.onHand[from] - q);
    }
    inCell.push(c);
    inDay.push(day);
    inQty.push(q);
    inPo.push(po);
    if (po) state.onOrder[c] += q;
    else state.inTransit[c] += q;
  });
  state.inbound = {
    cell: Int32Array.from(inCell),
    day: Int32Array.from(inDay),
    quantity: Float64Array.from(inQty),
    purchaseOrder: Uint8Array.from(inPo),
  };
}

/** The client's own controls: last arrivals, stock not for replenishment, stock targets. */
async function applyClientControls(ws: Workspace, state: EngineState, asOf: Stamp, { cellOf }: CellIndex) {
  for (const r of await ws.rows<{ loc: string; skuId: string; at: bigint | null; delivered: bigint | null }>(
    `
    SELECT toLocationId AS loc, skuId, max(epoch_us(coalesce(expectedArrivalDateTime, shippedDateTime))) AS at,
      max(epoch_us(coalesce(expectedArrivalDateTime, shippedDateTime)))
        FILTER (WHERE coalesce(transferType, 'Replenishment') = 'Replenishment') AS delivered
    FROM transfers
    WHERE _deleted_at IS NULL AND coalesce(expectedArrivalDateTime, shippedDateTime) < $1 GROUP BY 1, 2`,
    [asOf],
  )) {
    const c = cellOf(r.loc, r.skuId);
    if (c >= 0 && r.at !== null) state.lastArrivalDay[c] = dayOf(Number(r.at));
    if (c >= 0 && r.delivered !== null) state.lastDeliveryDay[c] = dayOf(Number(r.delivered));
  }
  for (const r of await ws.rows<{ locationId: string; skuId: string; quantity: number }>(
    `SELECT locationId, skuId, quantity FROM stock_not_for_replenishment WHERE _deleted_at IS NULL`,
  )) {
    const c = cellOf(r.locationId, r.skuId);
    if (c >= 0) state.notForReplenishment[c] = Number(r.quantity);
  }
  for (const r of await ws.rows<{
    locationId: string;
    skuId: string;
    targetQuantity: number;
    minimumQuantity: number | null;
    maximumQuantity: number | null;
  }>(
    `SELECT locationId, skuId, targetQuantity, minimumQuantity, maximumQuantity FROM stock_targets
     WHERE _deleted_at IS NULL`,
  )) {
    const c = cellOf(r.locationId, r.skuId);
    if (c < 0) continue;
    state.clientTarget[c] = Number(r.targetQuantity);
    if (r.minimumQuantity !== null) state.clientMinimum[c] = Number(r.minimumQuantity);
    if (r.maximumQuantity !== null) state.clientMaximum[c] = Number(r.maximumQuantity);
  }
}
