/**
 * Replenishment, warehouse → store/online: need = target − (on hand + in transit). The warehouse gives what
 * it has net of stock not for replenishment and a reserve; when it is short, each pack goes to the location
 * where it most likely sells over the review period + lead time (highest marginal expected sale at price). When
 * what it has, with what its purchase orders bring, cannot last the shortage horizon, it rations: stores get the
 * lowest service level.
 */
import { exactUnits, explainCell, horizonDemand, type Forecast } from '../forecast/forecast.js';
import { expectedShortage, poissonTail } from '../forecast/poisson.js';
import { MaxHeap } from './heap.js';
import { coverDays, planningLead, type CategorySettings, type Settings } from './settings.js';
import { decision, round2, type Decision, type Explain } from './proposal.js';
import type { EngineState } from './state.js';
import { CATEGORY_SETTING } from '../model/settings.js';
import { basisOf, cycleQuantile, demandStock, type Targets } from './targets.js';

export interface Context {
  state: EngineState;
  forecast: Forecast;
  targets: Targets;
  settings: Settings;
  /** Each category's settings, by the category's number (settingsByCategory). */
  byCategory: CategorySettings[];
  explain: Explain;
  /** Units of each warehouse cell already promised in this run. */
  promised: Float64Array;
  /** Units each cell receives from proposals made earlier in this run. */
  incoming: Float64Array;
  /**
   * The warehouses and the selling locations that take part (not excluded; a location selling from a warehouse's
   * stock is none of the sellers: nothing is sent to it).
   */
  warehouses: number[];
  sellers: number[];
  /** Per location: the online locations selling from its stock (see EngineState.locations.fulfilledFrom). */
  fulfils: number[][];
  /** Per location: 1 when this review sends it stock (review.ts deliveriesDue); unset, every store. */
  deliverTo?: Uint8Array;
  /** Per SKU: 1 where replenishment rationed the warehouse's stock (set by replenish). */
  rationed?: Uint8Array;
}

/**
 * Per location: the sales value each seller would lose before the next review at what it holds and has coming,
 * stretched from the review's days to the days a delivery covers (a loss of 40 before tomorrow's review is 280 over
 * a week's delivery), on the grid of exactUnits so the network's sum is the same however the styles are split; summed
 * over the SKUs below target that a warehouse could send now. What tells whether a store not due a delivery needs
 * one now: a delivery saves only what there is to deliver. Stretched, the bar it is held to (the early delivery
 * value) is the same however often the engine reviews: a daily review held to a whole week's value for one day's
 * loss almost never delivered early, and filled worse than a review every three days.
 */
export function storeNeeds(ctx: Context): Float64Array {
  const { state, forecast: f, targets: t } = ctx;
  const L = state.locations.ids.length;
  const needs = new Float64Array(L);
  const every = ctx.settings.replenishment.deliveryEveryDays;
  for (let k = 0; k < state.skus.ids.length; k++) {
    if (skuBlocked(state, k)) continue;
    const pack = Math.max(1, state.skus.packSize[k]);
    if (!ctx.warehouses.some((w) => warehouseAvailable(ctx, k * L + w) >= pack)) continue;
    const cs = ctx.byCategory[state.styles.category[state.skus.style[k]]];
    const stretch = every / Math.min(every, cs.reviewPeriodDays);
    for (const l of ctx.sellers) {
      const c = k * L + l;
      const held = state.onHand[c] + state.inTransit[c] + ctx.incoming[c];
      if (!(f.rate[c] > 0) || held >= t.target[c]) continue;
      const mean = horizonDemand(f, c, cs.reviewPeriodDays + planningLead(cs, state, l));
      needs[l] += exactUnits(state.skus.price[k] * expectedShortage(mean, held) * stretch);
    }
  }
  return needs;
}

/** Per location, the locations selling from its stock. */
export function fulfilment(state: EngineState): number[][] {
  const fulfils: number[][] = state.locations.ids.map(() => []);
  state.locations.fulfilledFrom.forEach((w, l) => {
    if (w >= 0) fulfils[w].push(l);
  });
  return fulfils;
}

/**
 * Warehouse units this run may still send: on hand (plus `arriving` units) less stock not for replenishment
 * and the reserve, less what the online locations selling from its stock need (their targets: their customers
 * are served from here first), less what this run already promised. The reserve is taken once, of the whole stock.
 */
export function warehouseAvailable(ctx: Context, cell: number, arriving = 0): number {
  const { state, settings } = ctx;
  const free =
    (state.onHand[cell] + arriving - state.notForReplenishment[cell]) * (1 - settings.warehouseReservePercentage / 100);
  return Math.max(0, Math.floor(free) - keptForOnline(ctx, cell) - ctx.promised[cell]);
}

/** What a warehouse cell keeps for the online locations selling from its stock: their targets of the SKU. */
export function keptForOnline(ctx: Context, cell: number): number {
  const L = ctx.state.locations.ids.length;
  const w = cell % L;
  let kept = 0;
  for (const l of ctx.fulfils[w]) kept += ctx.targets.target[cell - w + l];
  return kept;
}

export function skuBlocked(state: EngineState, sku: number): boolean {
  return state.skus.excluded[sku] === 1 || state.styles.excluded[state.skus.style[sku]] === 1;
}

/** How a target came about, in words. */
export const BASIS: Record<string, string> = {
  demand: 'from demand',
  presentation: 'the presentation minimum',
  maximum: 'capped at the maximum stock',
  client: "the client's stock target",
  offSale: 'off sale: it stopped selling everywhere',
};

interface Need {
  location: number;
  horizon: number;
  cell: number;
  position: number;
  /** The target it is sent stock towards: its own, or less where the warehouse's stock is rationed. */
  target: number;
  need: number;
  given: number;
  mean: number;
}

export function replenish(ctx: Context): Decision[] {
  const { state, warehouses } = ctx;
  const sellers = ctx.deliverTo ? ctx.sellers.filter((l) => ctx.deliverTo![l]) : ctx.sellers;
  const L = state.locations.ids.length;
  const out: Decision[] = [];
  const receipts = receiptsBySku(ctx);
  ctx.rationed = new Uint8Array(state.skus.ids.length);
  for (let k = 0; k < state.skus.ids.length; k++) {
    if (skuBlocked(state, k)) continue;
    const cs = ctx.byCategory[state.styles.category[state.skus.style[k]]];
    const pack = Math.max(1, state.skus.packSize[k]);
    // Rationed targets are never above the cells' own: a SKU no seller due is below target needs nothing either way.
    let needs = needsOf(ctx, k, sellers, cs, pack, false);
    if (needs.length === 0) continue;
    const stock = warehouses
      .map((w) => ({ w, cell: k * L + w, free: warehouseAvailable(ctx, k * L + w) }))
      .filter((x) => x.free >= pack);
    const available = stock.reduce((s, x) => s + Math.floor(x.free / pack) * pack, 0);
    if (available === 0) continue;
    const ration = rationing(ctx, k, cs, available, receipts[k]);
    if (ration) {
      ctx.rationed[k] = 1;
      needs = needsOf(ctx, k, sellers, cs, pack, true);
      if (needs.length === 0) continue;
    }
    const totalNeed = needs.reduce((s, n) => s + n.need, 0);
    const short = totalNeed > available;
    if (!short) for (const n of needs) n.given = n.need;
    else shareShort(needs, available, pack);
    stock.sort((a, b) => b.free - a.free || a.w - b.w);
    const kept = warehouses.reduce((sum, w) => sum + keptForOnline(ctx, k * L + w), 0);
    for (const n of needs)
      if (n.given >= Math.max(cs.minimumTransferQuantity, pack))
        send(ctx, k, n, stock, { cs, pack, short, totalNeed, kept, ration }, out);
  }
  return out;
}

/** An open purchase order's units of a SKU due at a warehouse taking part, on the first day they can be used. */
interface Receipt {
  day: number;
  quantity: number;
}

/** Per SKU, its open purchase orders' receipts at the warehouses taking part, earliest first (past due: today). */
function receiptsBySku(ctx: Context): Receipt[][] {
  const { state } = ctx;
  const L = state.locations.ids.length;
  const bySku: Receipt[][] = Array.from({ length: state.skus.ids.length }, () => []);
  const taking = new Uint8Array(L);
  for (const w of ctx.warehouses) taking[w] = 1;
  const { inbound } = state;
  for (let i = 0; i < inbound.cell.length; i++) {
    const c = inbound.cell[i];
    if (!inbound.purchaseOrder[i] || !taking[c % L] || !(inbound.quantity[i] > 0)) continue;
    bySku[Math.floor(c / L)].push({ day: Math.max(state.asOfDay, inbound.day[i]), quantity: inbound.quantity[i] });
  }
  for (const list of bySku) if (list.length > 1) list.sort((a, b) => a.day - b.day);
  return bySku;
}

/** Why a SKU's warehouse stock was rationed: the stores' expected demand it cannot meet, over how many days. */
interface Ration {
  want: number;
  days: number;
  /** Whether the days run until a purchase order is due (else they are the shortage horizon). */
  untilReceipt: boolean;
  /** Units on order due within the days, counted as stock the warehouse will have. */
  onOrder: number;
}

/**
 * Whether the warehouses' `available` units of SKU k, with what their open purchase orders bring, cannot bring
 * every seller to its expected demand (plus the transit to it) until each order is due and until the shortage
 * horizon is out (or the first order, if that comes later). An order that comes in time but too small to last the
 * horizon rations as surely as none: safety stock sent now is stock one store holds while another runs out before
 * more comes; held at the warehouse, it goes to whichever store sells. Every seller counts, whether or not this
 * review delivers to it.
 */
function rationing(
  ctx: Context,
  k: number,
  cs: CategorySettings,
  available: number,
  receipts: Receipt[],
): Ration | undefined {
  const horizon = ctx.settings.replenishment.shortageHorizonDays;
  if (horizon === 0) return undefined;
  const today = ctx.state.asOfDay;
  const end = Math.max(horizon, receipts.length ? receipts[0].day - today : 0);
  let onOrder = 0;
  for (const r of receipts) {
    const days = r.day - today;
    if (days > end) break;
    const want = wantOver(ctx, k, cs, days);
    if (available + onOrder < want) return { want: Math.ceil(want), days, untilReceipt: true, onOrder };
    onOrder += r.quantity;
  }
  const want = wantOver(ctx, k, cs, end);
  return available + onOrder < want ? { want: Math.ceil(want), days: end, untilReceipt: false, onOrder } : undefined;
}

/** The sellers' expected demand for SKU k over `days` plus each one's transit, beyond what each holds. */
function wantOver(ctx: Context, k: number, cs: CategorySettings, days: number): number {
  const { state, forecast: f } = ctx;
  const L = state.locations.ids.length;
  let want = 0;
  for (const l of ctx.sellers) {
    const c = k * L + l;
    if (!(f.rate[c] > 0)) continue;
    const held = state.onHand[c] + state.inTransit[c] + ctx.incoming[c];
    want += Math.max(0, horizonDemand(f, c, days + planningLead(cs, state, l)) - held);
  }
  return want;
}

/**
 * The lowest service level a setting may ask (a week in two without running out): what a store's stock is held to
 * while the warehouse rations. Per week like the setting, so a daily review keeps the day's safety stock it needs
 * (the median of a day's demand runs out every other day) and a weekly one the median of its week's.
 */
const RATIONED_SERVICE_LEVEL = CATEGORY_SETTING.serviceLevel.minimum!;

/**
 * The sellers of SKU k below target, each with what it needs in whole packs and its expected demand. Rationed, a
 * seller's target is at most the stock that meets its demand until its next delivery arrives at the lowest service
 * level (RATIONED_SERVICE_LEVEL); a client's own target stands.
 */
function needsOf(
  ctx: Context,
  k: number,
  sellers: number[],
  cs: CategorySettings,
  pack: number,
  rationed: boolean,
): Need[] {
  const { state, forecast: f, targets: t } = ctx;
  const L = state.locations.ids.length;
  const needs: Need[] = [];
  // The rationed quantile only where rationed: needsOf runs for every SKU at every review.
  const cover = coverDays(cs, ctx.settings);
  const z = rationed ? cycleQuantile(RATIONED_SERVICE_LEVEL, cover) : 0;
  for (const l of sellers) {
    const c = k * L + l;
    const position = state.onHand[c] + state.inTransit[c];
    // At or above its own target it needs nothing, rationed or not (a rationed target is never above it).
    if (t.target[c] <= position) continue;
    const horizon = cover + planningLead(cs, state, l);
    const target =
      rationed && basisOf(t, c) !== 'client'
        ? Math.min(t.target[c], Math.max(cs.presentationMinimum, demandStock(f, c, horizon, z)))
        : t.target[c];
    const raw = target - position;
    if (raw <= 0) continue;
    needs.push({
      location: l,
      horizon,
      cell: c,
      position,
      target,
      need: Math.ceil(raw / pack) * pack,
      given: 0,
      mean: horizonDemand(f, c, horizon),
    });
  }
  return needs;
}

/** A short warehouse's packs by marginal expected sale: each next pack where its first unit most likely sells. */
function shareShort(needs: Need[], available: number, pack: number): void {
  const heap = new MaxHeap<Need & { key: number }>();
  const value = (n: Need) => poissonTail(n.mean, n.position + n.given + 1);
  for (const n of needs) heap.push(Object.assign(n, { key: n.location }), value(n));
  while (available >= pack && heap.size) {
    const best = heap.pop()!.item;
    best.given += pack;
    available -= pack;
    if (best.given < best.need) heap.push(best, value(best));
  }
}

/** A seller's share as transfers, from the warehouses holding most first, each with its reason. */
function send(
  ctx: Context,
  k: number,
  n: Need,
  stock: { w: number; cell: number }[],
  why: { cs: CategorySettings; pack: number; short: boolean; totalNeed: number; kept: number; ration?: Ration },
  out: Decision[],
): void {
  const { state, forecast: f, targets: t } = ctx;
  const { cs, pack, short, totalNeed, kept, ration } = why;
  let left = n.given;
  for (const s of stock) {
    const take = Math.min(left, Math.floor(warehouseAvailable(ctx, s.cell) / pack) * pack);
    if (take <= 0) continue;
    ctx.promised[s.cell] += take;
    ctx.incoming[n.cell] += take;
    left -= take;
    out.push(
      decision(ctx.explain, 'Replenishment', s.w, n.location, k, take, () => ({
        reason:
          `below target: ${round2(n.position)} on hand and in transit against a target of ${t.target[n.cell]}` +
          ` (${BASIS[basisOf(t, n.cell)] ?? basisOf(t, n.cell)}; demand ${round2(f.rate[n.cell])}/day` +
          ` over ${n.horizon} days at ${cs.serviceLevel * 100}% service)` +
          (f.lift[n.cell] > 1
            ? `; a price cut under way lifts demand ×${round2(f.lift[n.cell])}` +
              ` for the ${f.liftDays[n.cell]} days a promotion still runs`
            : '') +
          (ration && n.target < t.target[n.cell] ? rationedText(ration, n.target) : '') +
          (short ? `; warehouse short (${totalNeed} needed), allocated where it sells most` : '') +
          (kept > 0 ? `; ${kept} kept for the online customers it serves` : ''),
        details: {
          onHand: state.onHand[n.cell],
          inTransit: state.inTransit[n.cell],
          target: t.target[n.cell],
          targetBasis: basisOf(t, n.cell),
          demandPerDay: round2(f.rate[n.cell]),
          demand: explainCell(f, n.cell),
          horizonDays: n.horizon,
          serviceLevel: cs.serviceLevel,
          warehouseShort: short,
          ...(ration && n.target < t.target[n.cell] ? { rationedTarget: n.target } : {}),
          ...(kept > 0 ? { keptForOnline: kept } : {}),
          packSize: pack,
        },
      })),
    );
    if (left === 0) break;
  }
}

function rationedText(r: Ration, target: number): string {
  const until =
    (r.untilReceipt ? 'until a purchase order arrives' : 'the shortage horizon') +
    (r.onOrder > 0 ? `, with the ${r.onOrder} on order due by then` : '');
  return (
    `; rationed: the warehouse cannot meet the ${r.want} the stores are expected to sell beyond what they hold over` +
    ` the next ${r.days} days (${until}), so this store is sent up to ${target}, its demand at` +
    ` ${RATIONED_SERVICE_LEVEL * 100}% service`
  );
}
