/**
 * Replenishment, warehouse → store/online: need = target − (on hand + in transit). The warehouse gives what
 * it has net of stock not for replenishment and a reserve; when it is short, each pack goes to the location
 * where it most likely sells over the review period + lead time (highest marginal expected sale at price).
 */
import { exactUnits, explainCell, horizonDemand, type Forecast } from '../forecast/forecast.js';
import { expectedShortage, poissonTail } from '../forecast/poisson.js';
import { MaxHeap } from './heap.js';
import { coverDays, planningLead, type CategorySettings, type Settings } from './settings.js';
import { decision, round2, type Decision, type Explain } from './proposal.js';
import type { EngineState } from './state.js';
import { basisOf, type Targets } from './targets.js';

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
  need: number;
  given: number;
  mean: number;
}

export function replenish(ctx: Context): Decision[] {
  const { state, warehouses } = ctx;
  const sellers = ctx.deliverTo ? ctx.sellers.filter((l) => ctx.deliverTo![l]) : ctx.sellers;
  const L = state.locations.ids.length;
  const out: Decision[] = [];
  for (let k = 0; k < state.skus.ids.length; k++) {
    if (skuBlocked(state, k)) continue;
    const cs = ctx.byCategory[state.styles.category[state.skus.style[k]]];
    const pack = Math.max(1, state.skus.packSize[k]);
    const needs = needsOf(ctx, k, sellers, cs, pack);
    if (needs.length === 0) continue;
    const stock = warehouses
      .map((w) => ({ w, cell: k * L + w, free: warehouseAvailable(ctx, k * L + w) }))
      .filter((x) => x.free >= pack);
    const available = stock.reduce((s, x) => s + Math.floor(x.free / pack) * pack, 0);
    if (available === 0) continue;
    const totalNeed = needs.reduce((s, n) => s + n.need, 0);
    const short = totalNeed > available;
    if (!short) for (const n of needs) n.given = n.need;
    else shareShort(needs, available, pack);
    stock.sort((a, b) => b.free - a.free || a.w - b.w);
    const kept = warehouses.reduce((sum, w) => sum + keptForOnline(ctx, k * L + w), 0);
    for (const n of needs)
      if (n.given >= Math.max(cs.minimumTransferQuantity, pack))
        send(ctx, k, n, stock, { cs, pack, short, totalNeed, kept }, out);
  }
  return out;
}

/** The sellers of SKU k below target, each with what it needs in whole packs and its expected demand. */
function needsOf(ctx: Context, k: number, sellers: number[], cs: CategorySettings, pack: number): Need[] {
  const { state, forecast: f, targets: t } = ctx;
  const L = state.locations.ids.length;
  const needs: Need[] = [];
  for (const l of sellers) {
    const c = k * L + l;
    const horizon = coverDays(cs, ctx.settings) + planningLead(cs, state, l);
    const position = state.onHand[c] + state.inTransit[c];
    const raw = t.target[c] - position;
    if (raw <= 0) continue;
    needs.push({
      location: l,
      horizon,
      cell: c,
      position,
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
  why: { cs: CategorySettings; pack: number; short: boolean; totalNeed: number; kept: number },
  out: Decision[],
): void {
  const { state, forecast: f, targets: t } = ctx;
  const { cs, pack, short, totalNeed, kept } = why;
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
          ...(kept > 0 ? { keptForOnline: kept } : {}),
          packSize: pack,
        },
      })),
    );
    if (left === 0) break;
  }
}
