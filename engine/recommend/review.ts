/**
 * A review of the network split into steps, so that each part of the network's styles can be reviewed apart
 * (in another thread, process or machine) and only sums and moves travel between the parts:
 *
 * 1. `sums`: each part reads its cells' windows (own estimates, units sold) and gives its share of the
 *    network's sums: units and in-stock days per location × category, the spread of each category's styles' rates,
 *    units per location × brand, season and category × size. The sums are exact (forecast.ts `exactUnits`), so
 *    they add up the same in any order.
 * 2. `decide`, given the network's sums: pooled estimates, targets, initial distribution, replenishment, and the
 *    moves redistribution would make for each of the part's styles.
 * 3. The trips to make are chosen over every part's moves (redistribute.ts `chooseTrips`, `keepMoves`), and each
 *    part puts its kept moves as decisions (`redistribute`).
 *
 * Every decision but redistribution's trips is a part's own (a SKU's warehouse stock is its own cells), so the
 * decisions are the same however the network is split. The live API's review is the one-part case (recommend.ts).
 */
import {
  emptyCategorySums,
  newForecast,
  ownEstimates,
  pooledRates,
  sellingLocations,
  type CategorySums,
  type Forecast,
} from '../forecast/forecast.js';
import { addSales, emptySalesSums, initialDistribution, type SalesSums } from './initial.js';
import type { Decision, Explain } from './proposal.js';
import { candidateMoves, redistribution, type KeptMove, type Move } from './redistribute.js';
import { fulfilment, replenish, storeNeeds, type Context } from './replenish.js';
import { offSaleReturns } from './returns.js';
import { reviewOutcomes } from './outcome.js';
import type { Settings } from './settings.js';
import type { EngineState } from './state.js';
import { addHeld, assortment, emptyAssortmentSums, type AssortmentSums } from './assortment.js';
import { settingsByCategory, targets, type Targets } from './targets.js';

/** A part's share of the network's sums, and the network's: see the steps above. */
export interface ReviewSums {
  demand: CategorySums;
  sales: SalesSums;
  assortment: AssortmentSums;
  /**
   * Per location: the last day stock was sent to it, as far as its cells tell (−∞: none known; lastSentDays).
   * Combined by the maximum.
   */
  lastSent: Float64Array;
}

export function emptyReviewSums(state: EngineState): ReviewSums {
  const L = state.locations.ids.length;
  const C = Math.max(1, state.categories.ids.length);
  return {
    demand: emptyCategorySums(L, C),
    sales: emptySalesSums(state),
    assortment: emptyAssortmentSums(L, C),
    lastSent: new Float64Array(L).fill(-Infinity),
  };
}

/** Adds a part's sums to the network's (exact: the order does not matter). */
export function addReviewSums(into: ReviewSums, part: ReviewSums): void {
  const add = (a: Float64Array, b: Float64Array) => {
    for (let i = 0; i < a.length; i++) a[i] += b[i];
  };
  const latest = (a: Float64Array, b: Float64Array) => {
    for (let i = 0; i < a.length; i++) a[i] = Math.max(a[i], b[i]);
  };
  add(into.demand.units, part.demand.units);
  add(into.demand.days, part.demand.days);
  add(into.demand.spread, part.demand.spread);
  for (const k of ['brand', 'season', 'size'] as const) add(into.sales[k], part.sales[k]);
  add(into.assortment.held, part.assortment.held);
  add(into.assortment.styles, part.assortment.styles);
  latest(into.assortment.lastSale, part.assortment.lastSale);
  latest(into.lastSent, part.lastSent);
}

/**
 * Per location, into `into`: the last day stock was sent to it, as far as its cells tell — the last delivery's
 * arrival less the location's transit, and while stock is on its way to it, the earliest day that stock could have
 * left. Counted from arrivals, a store behind three days of transit was due again three days after each delivery:
 * "every seven days" delivered every ten, and a daily review sent it stock on each of the three days its delivery
 * was on the road. Counted from any transfer's arrival, every redistribution move or initial distribution a store
 * received put its next delivery off by a week: with weekly deliveries and no early ones, a daily review filled
 * 65 % on the generated slow assortment against 88 % reviewing weekly.
 */
export function lastSentDays(
  state: Pick<EngineState, 'lastDeliveryDay' | 'inTransit' | 'asOfDay' | 'locations'>,
  into: Float64Array,
): void {
  const L = state.locations.ids.length;
  const { lastDeliveryDay, inTransit, asOfDay } = state;
  const { transitDays } = state.locations;
  for (let c = 0; c < lastDeliveryDay.length; c++) {
    const l = c % L;
    if (lastDeliveryDay[c] >= 0) into[l] = Math.max(into[l], lastDeliveryDay[c] - transitDays[l]);
    // On its way: it arrives after today, so it left after today less the transit.
    if (inTransit[c] > 0 && transitDays[l] > 0) into[l] = Math.max(into[l], asOfDay - transitDays[l] + 1);
  }
}

/**
 * Which stores this review sends stock to: every one, unless deliveries are fewer than reviews
 * (`replenishment.deliveryEveryDays`); then those whose delivery's days would run out before the next review, and
 * those that would lose sales before the next review at a pace worth more than `earlyDeliveryValue` over a
 * delivery's days (`needs`: the network's sum of each store's, storeNeeds). `reviewDays`: the days to the next
 * review, the settings' review period unless a replay reviews at a cadence of its own (`reviewEveryDays`).
 */
export function deliveriesDue(
  settings: Settings,
  network: ReviewSums,
  needs: Float64Array,
  day: number,
  reviewDays = settings.defaults.reviewPeriodDays,
): Uint8Array {
  const every = settings.replenishment.deliveryEveryDays;
  if (every <= 0) return new Uint8Array(needs.length).fill(1);
  const due = deliveryDueAfter(every, reviewDays);
  return Uint8Array.from(needs, (need, l) =>
    day - network.lastSent[l] >= due || need >= settings.replenishment.earlyDeliveryValue ? 1 : 0,
  );
}

/**
 * The days after stock was last sent to a store at which a review sends it stock again: `every` less the review
 * period, plus one. A delivery covers `every` days (its targets are sized so: settings.ts coverDays), so the review
 * that sends the next one is the last before they run out: with a review every 5 days and deliveries every 7, every
 * 5 days. Waiting until 7 days had passed sent it every 10, three days the targets did not cover, and a review
 * every 5 days filled a point and more below a weekly one.
 */
function deliveryDueAfter(every: number, reviewDays: number): number {
  return Math.max(1, every - Math.max(1, reviewDays) + 1);
}

/** What a part decides before the trips are chosen. */
export interface PartDecisions {
  /**
   * Initial distribution, replenishment, then the returns of styles off sale, each in the order of the part's
   * styles and SKUs.
   */
  decisions: Decision[];
  /** The moves redistribution would make, in the order of the part's styles. */
  moves: Move[];
}

/** The per-cell arrays a review fills: a replay keeps one set for its every review of the same cells. */
export interface ReviewArrays {
  forecast: Forecast;
  target: Float64Array;
  basis: Uint8Array;
  promised: Float64Array;
  incoming: Float64Array;
}

export function reviewArrays(cells: number): ReviewArrays {
  return {
    forecast: newForecast(cells),
    target: new Float64Array(cells),
    basis: new Uint8Array(cells),
    promised: new Float64Array(cells),
    incoming: new Float64Array(cells),
  };
}

export class ReviewPart {
  readonly forecast: Forecast;
  private readonly arrays: ReviewArrays;
  private ctx?: Context;
  /** Initial distribution's decisions, planned and not yet handed out. */
  private initial?: Decision[];

  /** `arrays`: those of an earlier review of the same part, to fill again (a replay reviews every week). */
  constructor(
    readonly state: EngineState,
    readonly settings: Settings,
    readonly explain: Explain,
    arrays?: ReviewArrays,
  ) {
    this.arrays = arrays ?? reviewArrays(state.onHand.length);
    this.forecast = this.arrays.forecast;
  }

  /** Step 1: own estimates, and the part's share of the network's sums. */
  sums(): ReviewSums {
    const sums = emptyReviewSums(this.state);
    ownEstimates(this.state, this.forecast, sums.demand, this.settings);
    addSales(this.state, this.forecast.units, sums.sales);
    addHeld(this.state, sellingLocations(this.state), sums.assortment);
    // Only deliveries fewer than reviews ask when a store was last sent stock (deliveriesDue).
    if (this.settings.replenishment.deliveryEveryDays > 0) lastSentDays(this.state, sums.lastSent);
    return sums;
  }

  /**
   * Step 2, given the network's sums: estimates, targets and initial distribution; answers what each store would
   * lose before the next review (sales value, on the grid of exactUnits), which the network adds up to tell which
   * stores are sent stock (deliveriesDue).
   */
  plan(network: ReviewSums): Float64Array {
    const { state, settings } = this;
    const L = state.locations.ids.length;
    const selling = sellingLocations(state);
    const stores = assortment(state, this.forecast, selling, network.assortment);
    pooledRates(state, settings, this.forecast, network.demand, stores.carried);
    const t = targets(state, this.forecast, settings, stores, this.arrays);
    const { excluded, fulfilledFrom } = state.locations;
    const taking = [...Array(L).keys()].filter((l) => !excluded[l]);
    const ctx: Context = {
      state,
      forecast: this.forecast,
      targets: t,
      settings,
      byCategory: settingsByCategory(state, settings),
      explain: this.explain,
      promised: this.arrays.promised.fill(0),
      incoming: this.arrays.incoming.fill(0),
      warehouses: taking.filter((l) => !selling[l]),
      sellers: taking.filter((l) => selling[l] && fulfilledFrom[l] < 0),
      fulfils: fulfilment(state),
    };
    this.ctx = ctx;
    // New styles first: they have no other way to reach the stores; replenishment then uses what is left.
    this.initial = settings.initialDistribution.enabled ? initialDistribution(ctx, network.demand, network.sales) : [];
    return settings.replenishment.deliveryEveryDays > 0 ? storeNeeds(ctx) : new Float64Array(L);
  }

  /** Step 3, given the stores due a delivery: replenishment, returns, and the moves redistribution would make. */
  deliver(due: Uint8Array): PartDecisions {
    const ctx = this.ctx;
    if (!ctx || !this.initial) throw new Error('a review part delivers after it plans');
    ctx.deliverTo = due;
    const decisions: Decision[] = [...this.initial];
    if (this.settings.replenishment.enabled) for (const d of replenish(ctx)) decisions.push(d);
    for (const d of offSaleReturns(ctx)) decisions.push(d);
    this.initial = undefined;
    return { decisions, moves: this.settings.redistribution.enabled ? candidateMoves(ctx) : [] };
  }

  /** Steps 2 and 3 of a review that is the whole network (no other part to wait for). */
  decide(network: ReviewSums): PartDecisions {
    const needs = this.plan(network);
    return this.deliver(deliveriesDue(this.settings, network, needs, this.state.asOfDay));
  }

  get targets(): Targets {
    if (!this.ctx) throw new Error('a review part has no targets before it decides');
    return this.ctx.targets;
  }

  /** What the review did for each cell of SKUs [kFrom, kTo), given all its decisions (outcome.ts). */
  outcomes(decisions: readonly Decision[], kFrom: number, kTo: number): Uint8Array {
    if (!this.ctx) throw new Error('a review part tells its outcomes after it decides');
    return reviewOutcomes(this.ctx, decisions, kFrom, kTo);
  }

  /** Step 3: the part's kept moves, in the order the trips were chosen. */
  redistribute(kept: readonly KeptMove[]): Decision[] {
    if (!this.ctx) throw new Error('a review part redistributes after it decides');
    return redistribution(this.ctx, kept);
  }
}
