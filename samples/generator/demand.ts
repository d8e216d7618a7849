/**
 * The true (unobserved) demand: per outlet × SKU × day a Poisson rate that is the product of the store's size,
 * the style's base rate, the size share, the weekday, the time of year (overall and per category), the style's
 * life cycle and any price cut (the basics and slow assortments then scatter each day's rate: see policy.ts).
 * Buying and replenishment plan with the same expected rates, so the operation is sensible and the stock-outs come
 * from chance, late deliveries and thin buys, not from a planner who cannot count.
 */
import type { Calendar } from './calendar.js';
import type { Catalog, StyleDef } from './catalog.js';
import type { LocationDef, Network } from './locations.js';
import type { CategoryDef } from './masterdata.js';
import type { GenerateOptions } from './options.js';
import { Random } from './rng.js';

/** Demand response to a price cut: (1 − discount)^−ELASTICITY. */
const ELASTICITY = 1.6;

/** Sunday … Saturday. Stores peak on Saturday; the webshop is nearly flat with a Sunday-evening bump. */
const WEEKLY_STORE = [0.75, 0.75, 0.8, 0.9, 1.0, 1.2, 1.6];
const WEEKLY_ONLINE = [1.1, 1.05, 1.0, 0.95, 0.95, 0.95, 1.0];
/** Mid-month level of the whole market, January … December: the January lull, the December peak. */
const MONTHLY = [0.85, 0.8, 0.95, 1.0, 1.05, 1.05, 1.0, 0.95, 1.0, 1.0, 1.15, 1.35];
const PROMO_DISCOUNTS = [0.2, 0.25, 0.3, 0.4];

export class DemandModel {
  /** Days covered: the warm-up before day 0 through the lives of styles launching after the end. */
  readonly first: number;
  readonly last: number;
  private readonly dows: Uint8Array;
  private readonly market: Float64Array;
  /** 1 where stores are open (closed on 1 January and Christmas Day). */
  private readonly storeOpen: Uint8Array;
  private readonly categorySeason: Float64Array[];
  /** Category-wide promotion discount of each day (whole weeks). */
  readonly promo: Float64Array[];

  constructor(opts: GenerateOptions, cal: Calendar, categories: readonly CategoryDef[], first: number, last: number) {
    this.first = first;
    this.last = last;
    const n = last - first + 1;
    this.dows = new Uint8Array(n);
    this.market = new Float64Array(n);
    this.storeOpen = new Uint8Array(n);
    this.categorySeason = categories.map(() => new Float64Array(n));
    this.promo = categories.map(() => new Float64Array(n));
    for (let i = 0; i < n; i++) {
      const day = first + i;
      const dow = cal.dow(day);
      const month = cal.month(day);
      const dom = cal.dayOfMonth(day);
      const yf = cal.yearFraction(day);
      this.dows[i] = dow;
      // Linear between mid-month levels, wrapping over the year end.
      const pos = yf * 12 - 0.5;
      const lo = Math.floor(pos);
      const frac = pos - lo;
      let level = MONTHLY[(lo + 12) % 12] * (1 - frac) + MONTHLY[(lo + 13) % 12] * frac;
      if (month === 11 && dow === 5 && dom >= 23 && dom <= 29) level *= 2.2; // Black Friday
      if (month === 11 && dow === 6 && dom >= 24 && dom <= 30) level *= 1.4;
      this.market[i] = level;
      this.storeOpen[i] = (month === 1 && dom === 1) || (month === 12 && dom === 25) ? 0 : 1;
      categories.forEach((c, ci) => {
        const peak = c.warmth > 0 ? 0.5 : 0.9;
        this.categorySeason[ci][i] = c.warmth === 0 ? 1 : 1 + 0.35 * Math.cos(2 * Math.PI * (yf - peak));
      });
    }
    // Promotions run Monday to Sunday for a whole category, about one week in fourteen.
    const rng = new Random(opts.seed, 'promotions');
    for (let monday = cal.mondayOnOrAfter(first); monday <= last; monday += 7) {
      categories.forEach((_, ci) => {
        if (!rng.chance(0.07)) return;
        const discount = rng.pick(PROMO_DISCOUNTS);
        for (let d = monday; d < monday + 7 && d <= last; d++) this.promo[ci][d - first] = discount;
      });
    }
  }

  dow(day: number): number {
    return this.dows[day - this.first];
  }

  isOpen(loc: LocationDef, day: number): boolean {
    return loc.kind === 'online' || this.storeOpen[day - this.first] === 1;
  }

  /** Ramp-up over the first two weeks, a plateau, then a decline over the last 45 % of the life; flat styles: 1. */
  lifecycle(s: StyleDef, day: number): number {
    const t = day - s.launchDay;
    const life = s.endDay - s.launchDay;
    if (t < 0 || t >= life) return 0;
    if (s.flat) return 1;
    let f = t < 14 ? 0.45 + (0.55 * t) / 14 : 1;
    const x = t / life;
    if (x > 0.55) f *= 1 - (0.55 * (x - 0.55)) / 0.45;
    return f;
  }

  /**
   * Price cut of the day: the category promotion, or the end-of-life markdown (30 %, 50 % in the last week; none
   * for flat styles, whose clearanceDay is their endDay).
   */
  discount(s: StyleDef, day: number): number {
    let d = this.promo[s.category][day - this.first];
    if (day >= s.clearanceDay) d = Math.max(d, day >= s.endDay - 7 ? 0.5 : 0.3);
    return d;
  }

  /** Expected units per day of the whole style at a median store on an average weekday. */
  styleRate(s: StyleDef, day: number): number {
    const life = this.lifecycle(s, day);
    if (life === 0) return 0;
    const i = day - this.first;
    const boost = Math.pow(1 - this.discount(s, day), -ELASTICITY);
    return s.baseRate * life * this.market[i] * this.categorySeason[s.category][i] * boost;
  }

  /** The outlet's multiplier for the day: its size and its weekday pattern (0 when the store is closed). */
  outletFactor(loc: LocationDef, day: number): number {
    return loc.size * this.weekdayFactor(loc.kind === 'online', day);
  }

  /** Weekday pattern of a store or of the webshop (0 when stores are closed). */
  weekdayFactor(online: boolean, day: number): number {
    const i = day - this.first;
    if (online) return WEEKLY_ONLINE[this.dows[i]];
    return this.storeOpen[i] ? WEEKLY_STORE[this.dows[i]] : 0;
  }
}

/**
 * Which outlet carries which style: the webshop everything, a store a style with a probability of the style's
 * breadth, a little more in big stores. Flat `outlet × style` bytes, indexed by location index.
 */
export function buildAssortment(opts: GenerateOptions, catalog: Catalog, network: Network): Uint8Array {
  const rng = new Random(opts.seed, 'assortment');
  const nStyles = catalog.styles.length;
  const carried = new Uint8Array(network.locations.length * nStyles);
  for (const l of network.outlets) {
    const loc = network.locations[l];
    for (const s of catalog.styles) {
      const p = loc.kind === 'online' ? 1 : s.breadth * (0.8 + 0.2 * Math.min(loc.size, 2));
      carried[l * nStyles + s.index] = rng.next() < p ? 1 : 0;
    }
  }
  return carried;
}
