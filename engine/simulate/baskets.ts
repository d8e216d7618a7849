/**
 * How many units a customer of a SKU takes at once, read from the history (demand-distribution.ts: Basket). A day a
 * SKU sells at a location that sees a customer every few days is, nearly always, one customer: what it sold is what
 * that customer took. So the units of such days, pooled over the SKU's locations, tell its basket — with two
 * corrections. A day that sold out says only "at least this many" (the units are right-censored by the stock on
 * the shelf), so the distribution is read as a discrete Kaplan–Meier estimate: the chance of stopping at x units
 * among the days known to have reached x. And some such days did see two customers: their share is known from the
 * expected number of customers, and taken out of the distribution (a first-order deconvolution).
 *
 * A SKU with few such days borrows from its style, the style from its category, the category from the whole
 * assortment: each level's stopping chances are its own counts plus pseudo-counts of the level above. Where no SKU
 * ever sells slowly enough to tell (staples selling tens a day), every customer takes one unit.
 */
import { basketOf, type Basket } from './demand-distribution.js';

/** Units told apart; from here on, one geometric tail. */
const UNITS = 12;
/** Length the distribution is written out to while taking two-customer days out of it. */
const SPREAD = 48;
/** Days with at most this many customers expected are read as one customer's (two on a share of them). */
export const FEW_CUSTOMERS = 0.35;
/** Share of one-customer days beyond the two-customer ones that took two units or more: below it, no lumps. */
const LUMPY_SHARE = 0.1;
/** Pseudo-days a level's stopping chances are drawn towards the level above with. */
const POOL_DAYS = 10;

export interface BasketLayout {
  skus: number;
  /** Per SKU. */
  styleOf: Int32Array;
  /** Per style. */
  categoryOf: Int32Array;
  styles: number;
  categories: number;
}

/** The counts a level of the pooling holds: stopping and censored days per unit count, and two-customer chances. */
class Counts {
  /** events[x]: days known to have sold exactly x (x < UNITS); events[UNITS]: x ≥ UNITS, uncensored. */
  readonly events = new Float64Array(UNITS + 1);
  /** tailUnits: Σ (x − UNITS) over uncensored days of x ≥ UNITS (the tail's stopping chance). */
  tailUnits = 0;
  /** censored[s]: days that sold out at s units (known: x ≥ s), s < UNITS; censored[UNITS]: s ≥ UNITS. */
  readonly censored = new Float64Array(UNITS + 1);
  censoredTailUnits = 0;
  twoCustomers = 0;
  days = 0;

  add(other: Counts): void {
    for (let x = 0; x <= UNITS; x++) {
      this.events[x] += other.events[x];
      this.censored[x] += other.censored[x];
    }
    this.tailUnits += other.tailUnits;
    this.censoredTailUnits += other.censoredTailUnits;
    this.twoCustomers += other.twoCustomers;
    this.days += other.days;
  }
}

/** Stopping chances h[x] = P(X = x | X ≥ x) for x < UNITS, and the tail's h[UNITS]; and the two-customer share. */
interface Hazards {
  h: Float64Array;
  two: number;
}

/** Gathers a SKU's days that sold, each with its expected demand, and tells the SKUs' baskets. */
export class BasketReader {
  private readonly sku: Counts[];

  constructor(private readonly layout: BasketLayout) {
    this.sku = Array.from({ length: layout.skus }, () => new Counts());
  }

  /**
   * A day SKU `k` sold `units` (> 0) at a location where `customers` were expected; `soldOut`: the stock ran out,
   * so at least `units` were wanted. Days expecting more than FEW_CUSTOMERS say little of a single customer.
   */
  day(k: number, units: number, soldOut: boolean, customers: number, invK = 0): void {
    if (!(units > 0) || !(customers <= FEW_CUSTOMERS)) return;
    const c = this.sku[k];
    const x = Math.round(units);
    if (x < 1) return;
    if (soldOut) {
      c.censored[Math.min(x, UNITS)]++;
      if (x >= UNITS) c.censoredTailUnits += x - UNITS;
    } else {
      c.events[Math.min(x, UNITS)]++;
      if (x >= UNITS) c.tailUnits += x - UNITS;
    }
    c.twoCustomers += twoOrMore(customers, invK);
    c.days++;
  }

  /** Per SKU: its basket (undefined: one unit a customer). */
  baskets(): (Basket | undefined)[] {
    const { skus, styleOf, categoryOf, styles, categories } = this.layout;
    const style = Array.from({ length: styles }, () => new Counts());
    const category = Array.from({ length: categories }, () => new Counts());
    const all = new Counts();
    for (let k = 0; k < skus; k++) style[styleOf[k]].add(this.sku[k]);
    for (let s = 0; s < styles; s++) category[categoryOf[s]].add(style[s]);
    for (let c = 0; c < categories; c++) all.add(category[c]);
    if (all.days === 0) return new Array(skus).fill(undefined);
    // The whole assortment is drawn towards one constant chance of stopping (a geometric), its own maximum
    // likelihood: where nothing was seen beyond some units, the chances go on as the counts below them suggest.
    const top = hazards(all, geometric(all));
    // A category whose customers take several units at once no more often than two customers come on one day is one
    // unit a customer: what little more there is, the day's own ups and downs explain as well as lumps would.
    const lumpy = category.map((c) => {
      let several = 0;
      for (let x = 2; x <= UNITS; x++) several += c.events[x] + c.censored[x];
      const known = c.events[1] + several;
      return known > 0 && several / known - c.twoCustomers / Math.max(1, c.days) >= LUMPY_SHARE;
    });
    const catH = category.map((c) => hazards(c, top));
    const styleH = style.map((c, s) => hazards(c, catH[categoryOf[s]]));
    return this.sku.map((c, k) => (lumpy[categoryOf[styleOf[k]]] ? basket(hazards(c, styleH[styleOf[k]])) : undefined));
  }
}

/** One chance of stopping at every unit: stops over the units customers are known to have gone past or stopped at. */
function geometric(c: Counts): Hazards {
  let stops = 0;
  let trials = 0;
  for (let x = 1; x < UNITS; x++) {
    stops += c.events[x];
    trials += x * c.events[x] + (x - 1) * c.censored[x];
  }
  stops += c.events[UNITS];
  trials += UNITS * c.events[UNITS] + c.tailUnits + (UNITS - 1) * c.censored[UNITS] + c.censoredTailUnits;
  const h = new Float64Array(UNITS + 1).fill(trials > 0 ? Math.min(1, stops / trials) : 1);
  return { h, two: c.days > 0 ? c.twoCustomers / c.days : 0 };
}

/** P(two customers or more | at least one) when their number is negative binomial with mean ν, overdispersion φ. */
export function twoOrMore(nu: number, invK: number): number {
  const n = Math.max(nu, 1e-9);
  if (invK <= 1e-9) return 1 - (n * Math.exp(-n)) / -Math.expm1(-n);
  const base = 1 + invK * n;
  const p0 = Math.pow(base, -1 / invK);
  const p1 = n * Math.pow(base, -1 / invK - 1);
  return 1 - p1 / (1 - p0);
}

/** A level's stopping chances, drawn towards its parent's by POOL_DAYS pseudo-days. */
function hazards(c: Counts, parent: Hazards): Hazards {
  const h = new Float64Array(UNITS + 1);
  // At risk at x: days known to have reached x — uncensored with X ≥ x, and sold out at s > x (X ≥ s).
  let uncensoredAbove = 0;
  let censoredAbove = 0;
  for (let x = 0; x <= UNITS; x++) uncensoredAbove += c.events[x];
  for (let x = 0; x <= UNITS; x++) censoredAbove += c.censored[x];
  censoredAbove -= c.censored[0] + c.censored[1];
  const w = POOL_DAYS;
  for (let x = 1; x < UNITS; x++) {
    const atRisk = uncensoredAbove + censoredAbove;
    h[x] = (c.events[x] + w * parent.h[x]) / (atRisk + w);
    uncensoredAbove -= c.events[x];
    censoredAbove -= c.censored[x + 1];
  }
  // The tail: a constant chance of stopping at each unit from UNITS on (the geometric's maximum likelihood with
  // censoring: stops over units survived).
  const stops = c.events[UNITS];
  const exposure = c.tailUnits + c.censoredTailUnits + stops;
  h[UNITS] = (stops + w * parent.h[UNITS]) / (exposure + w);
  const two = (c.twoCustomers + w * parent.two) / (c.days + w);
  return { h, two };
}

/** The basket whose one-customer days and two-customer days give the stopping chances `hz`. */
function basket({ h, two }: Hazards): Basket | undefined {
  // The distribution of a day's units given it sold (written out, the tail geometric).
  const g = new Float64Array(SPREAD + 1);
  let survive = 1;
  for (let x = 1; x <= SPREAD; x++) {
    const hx = x < UNITS ? h[x] : h[UNITS];
    g[x] = survive * Math.min(1, Math.max(0, hx));
    survive -= g[x];
  }
  // g = (1 − π)·f + π·(f * f): solve for f by fixed point from f = g.
  let f = Float64Array.from(g);
  const pi = Math.min(Math.max(two, 0), 0.5);
  if (pi > 0) {
    for (let round = 0; round < 8; round++) {
      const next = new Float64Array(SPREAD + 1);
      let total = 0;
      for (let x = 1; x <= SPREAD; x++) {
        let conv = 0;
        for (let j = 1; j < x; j++) conv += f[j] * f[x - j];
        next[x] = Math.max(0, (g[x] - pi * conv) / (1 - pi));
        total += next[x];
      }
      for (let x = 1; x <= SPREAD; x++) next[x] /= total;
      f = next;
    }
  }
  if (1 - f[1] < 1e-3) return undefined;
  // Written out to UNITS, the rest one geometric tail with the stopping chance read above.
  const pmf = new Float64Array(UNITS + 1);
  let rest = 1;
  for (let x = 1; x < UNITS; x++) {
    pmf[x] = f[x];
    rest -= f[x];
  }
  pmf[UNITS] = Math.max(0, rest);
  return basketOf(pmf, 1 - h[UNITS]);
}
