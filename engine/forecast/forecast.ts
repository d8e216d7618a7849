/**
 * Demand for every location×SKU where the location carries the style: its own censored estimate, shrunk towards
 * nested pools (the style at the location split by its size curve, the style across the network, its category:
 * see pooledRates). A new style's days in stock across every store and size soon tell how it sells, long before
 * any one cell's do. Every part is kept for explanation.
 *
 * In two steps, so that a range of styles can estimate on its own (see recommend/review.ts): `ownEstimates` reads
 * each cell's window and adds the range's part to the network's sums; `pooledRates` blends, given those sums added
 * up over every range. Only the category at a location needs every style.
 */
import { bitWords } from '../recommend/in-stock-bits.js';
import type { EngineState } from '../recommend/state.js';
import type { Settings } from '../recommend/settings.js';
import { blendRate, CLASSES, dayWeights, ownWeight, OWN, OWN_FIELDS, ownStats } from './demand.js';
import { beforeLaunch, soldDays } from './launch.js';
import { otherPriceDays, type PriceDays } from './price-regime.js';
import { cutLift, liftedRate } from './promotion.js';

/** The daily rate to plan `horizon` days of a cell with: its estimate, lifted for a price cut under way. */
export const horizonRate = (f: Forecast, cell: number, horizon: number): number =>
  liftedRate(f.rate[cell], f.lift[cell], f.liftDays[cell], horizon);

/** A cell's expected demand over the next `horizon` days (horizonRate's days). */
export const horizonDemand = (f: Forecast, cell: number, horizon: number): number =>
  horizonRate(f, cell, horizon) * horizon;

/** The nearest pool that held data: the style at the location, the style across the network, its category. */
export type PoolSource = 'none' | 'style' | 'styleNetwork' | 'category';
const SOURCES: PoolSource[] = ['none', 'style', 'styleNetwork', 'category'];
const [NONE, STYLE, STYLE_NETWORK, CATEGORY] = [0, 1, 2, 3];

export interface Forecast {
  /** Units per day, per cell: 0 where the location does not carry the style, and at warehouses. */
  rate: Float64Array;
  /** Standard deviation of daily demand, per cell. */
  sd: Float64Array;
  own: Float64Array;
  pooled: Float64Array;
  /** Weight of the own estimate in `rate`. */
  weight: Float64Array;
  inStockDays: Int32Array;
  /** Units sold over the window on in-stock days (every sale happens on an in-stock day). */
  units: Float64Array;
  /** The window's days with a sale (sold out or not): how often the cell sells, whatever a sale's size. */
  saleDays: Int32Array;
  /**
   * The in-stock days and units as the estimate weighs them, recent days more (demand.ts dayWeights): what the
   * pools add up, and what the own estimate's weight against its pool counts.
   */
  days: Float64Array;
  weightedUnits: Float64Array;
  source: Uint8Array;
  demandClass: Uint8Array;
  /** Per cell: the lift of a price cut under way at its style (promotion.ts), 0 or 1 where none. */
  lift: Float64Array;
  /** Per cell: the days its style's price cut is still expected to run (with `lift`). */
  liftDays: Float64Array;
}

export function newForecast(cells: number): Forecast {
  return {
    rate: new Float64Array(cells),
    sd: new Float64Array(cells),
    own: new Float64Array(cells),
    pooled: new Float64Array(cells),
    weight: new Float64Array(cells),
    inStockDays: new Int32Array(cells),
    units: new Float64Array(cells),
    saleDays: new Int32Array(cells),
    days: new Float64Array(cells),
    weightedUnits: new Float64Array(cells),
    source: new Uint8Array(cells),
    demandClass: new Uint8Array(cells),
    lift: new Float64Array(cells),
    liftDays: new Float64Array(cells),
  };
}

export function explainCell(f: Forecast, cell: number) {
  return {
    rate: f.rate[cell],
    own: f.own[cell],
    pooled: f.pooled[cell],
    weight: f.weight[cell],
    inStockDays: f.inStockDays[cell],
    pooledFrom: SOURCES[f.source[cell]],
    demandClass: CLASSES[f.demandClass[cell]],
    // A price cut under way: how much it lifts demand, and for how many more days (promotion.ts).
    ...(f.lift[cell] > 1 ? { priceCutLift: f.lift[cell], priceCutDaysLeft: f.liftDays[cell] } : {}),
  };
}

/**
 * Units on a grid of 2^-20: sums of them are exact (far below 2^53 units), so the network's sums come out the same
 * bit for bit however the styles are split and in whatever order the parts are added.
 */
export const exactUnits = (x: number): number => Math.round(x * 1_048_576) / 1_048_576;

/** What a range of styles adds to the network's sums, per selling location × category (`l * categories + c`). */
export interface CategorySums {
  /** Units sold on in-stock days (exactUnits). */
  units: Float64Array;
  /** In-stock SKU-days. */
  days: Float64Array;
  /**
   * How the styles of each category sell against each other (`c * SPREAD_FIELDS + field`, see STYLE_SPREAD): what
   * the style level of the pools is weighed against its category with (styleWeightDays).
   */
  spread: Float64Array;
}

/** Per category: styles with a network day, and the sums of their rates, squared rates and rates' sampling noise. */
export const STYLE_SPREAD = { styles: 0, rate: 1, rateSq: 2, noise: 3 } as const;
export const SPREAD_FIELDS = 4;

export function emptyCategorySums(locations: number, categories: number): CategorySums {
  return {
    units: new Float64Array(locations * categories),
    days: new Float64Array(locations * categories),
    spread: new Float64Array(categories * SPREAD_FIELDS),
  };
}

/**
 * Adds each style's rate across the network (units per cell-day, recent days weighing more) to its category's
 * spread, on the grid of exactUnits, so the network's sums come out the same however the styles are split.
 */
function addStyleSpread(state: EngineState, f: Forecast, spread: Float64Array): void {
  const L = state.locations.ids.length;
  const { styleStart, category } = state.styles;
  for (let s = 0; s < styleStart.length - 1; s++) {
    let units = 0;
    let days = 0;
    for (let c = styleStart[s] * L; c < styleStart[s + 1] * L; c++) {
      units += f.weightedUnits[c];
      days += f.days[c];
    }
    if (days < 1) continue;
    const rate = units / days;
    const at = category[s] * SPREAD_FIELDS;
    spread[at + STYLE_SPREAD.styles]++;
    spread[at + STYLE_SPREAD.rate] += exactUnits(rate);
    spread[at + STYLE_SPREAD.rateSq] += exactUnits(rate * rate);
    spread[at + STYLE_SPREAD.noise] += exactUnits(rate / days);
  }
}

/**
 * The days of a style's network data that weigh as much as its category's average (the prior of a gamma–Poisson
 * model, fitted to the category): the average rate over the variance of the styles' rates beyond their sampling
 * noise. Styles that sell much alike lean on their category; a category whose styles sell very differently (a
 * bestseller beside a slow one) lets a new style's first days speak for it. Within [1, `most`] days: `most` (the
 * setting) where the spread tells nothing.
 */
export function styleWeightDays(spread: Float64Array, cat: number, mean: number, most: number): number {
  const at = cat * SPREAD_FIELDS;
  const n = spread[at + STYLE_SPREAD.styles];
  if (n < 2 || !(mean > 0)) return most;
  const average = spread[at + STYLE_SPREAD.rate] / n;
  const between = spread[at + STYLE_SPREAD.rateSq] / n - average * average - spread[at + STYLE_SPREAD.noise] / n;
  return between > 0 ? Math.min(most, Math.max(1, mean / between)) : most;
}

/** Which locations sell (stores and the webshop: they have demand); warehouses do not. */
export function sellingLocations(state: Pick<EngineState, 'locations'>): Uint8Array {
  return Uint8Array.from(state.locations.kind, (k) => (k !== 'warehouse' ? 1 : 0));
}

/**
 * Each selling cell's own estimate from its window, and the range's part of the category sums. `f` is reset
 * (a replay reuses one).
 */
export function ownEstimates(
  state: EngineState,
  f: Forecast,
  sums: CategorySums,
  { demandHalfLifeDays: halfLifeDays, promotionDays }: Pick<Settings, 'demandHalfLifeDays' | 'promotionDays'>,
): void {
  const L = state.locations.ids.length;
  const K = state.skus.ids.length;
  const W = state.windowDays;
  const C = Math.max(1, state.categories.ids.length);
  for (const a of Object.values(f)) a.fill(0);
  const selling = sellingLocations(state);
  const e = new Float64Array(OWN_FIELDS);
  const weights = dayWeights(W, halfLifeDays);
  let meanWeight = 0;
  for (const w of weights) meanWeight += w / W;
  const { sales, inStockDays, salesDays, windowHead } = state;
  const { style } = state.skus;
  const { category } = state.styles;
  // The days each style sold at another price than today's, or stood on the shelves before its launch, are left out
  // (daysLeftOut); SKUs of a style lie together, so its days are worked out once.
  const skip = new Uint8Array(W);
  const sold = new Uint8Array(W);
  let skipping = false;
  for (let k = 0; k < K; k++) {
    const cat = category[style[k]];
    if (k === 0 || style[k] !== style[k - 1]) {
      const prices = daysLeftOut(state, style[k], selling, skip, promotionDays, sold);
      skipping = prices.skipping;
      if (prices.cutDays > 0)
        liftStyle(state, f, styleCells(state, style[k], selling), prices.cutDays, promotionDays - prices.cutDays, skip);
    }
    for (let l = 0; l < L; l++) {
      if (!selling[l]) continue;
      const c = k * L + l;
      // No in-stock day: nothing to estimate from (all parts stay 0).
      if (inStockDays && inStockDays[c] === 0) continue;
      // In stock without a sale: an estimate of 0 from those days, the window unread.
      // (Its days weigh as the window's average day: unread, when they fell is not known; a whole window is exact.)
      if (inStockDays && salesDays && salesDays[c] === 0 && !skipping) {
        f.inStockDays[c] = inStockDays[c];
        f.days[c] = exactUnits(inStockDays[c] * meanWeight);
        sums.days[l * C + cat] += f.days[c];
        continue;
      }
      ownStats(sales, c * W, W, windowHead, e, weights, skipping ? skip : undefined);
      const n = e[OWN.inStockDays];
      if (n === 0) continue;
      f.own[c] = e[OWN.rate];
      f.sd[c] = e[OWN.sd];
      f.inStockDays[c] = n;
      f.demandClass[c] = e[OWN.demandClass];
      f.units[c] = e[OWN.units];
      f.saleDays[c] = e[OWN.saleDays];
      f.days[c] = exactUnits(e[OWN.weightedDays]);
      f.weightedUnits[c] = exactUnits(e[OWN.weightedUnits]);
      sums.units[l * C + cat] += f.weightedUnits[c];
      sums.days[l * C + cat] += f.days[c];
    }
  }
  addStyleSpread(state, f, sums.spread);
}

/** The cells of style `s` at the selling locations. */
function styleCells(state: EngineState, s: number, selling: Uint8Array): number[] {
  const L = state.locations.ids.length;
  const cells: number[] = [];
  for (let k = state.styles.styleStart[s]; k < state.styles.styleStart[s + 1]; k++)
    for (let l = 0; l < L; l++) if (selling[l]) cells.push(k * L + l);
  return cells;
}

/**
 * Marks in `skip` the window's days style `s` is not read on: those at another price than today's
 * (price-regime.ts) and those before it went on sale (launch.ts).
 */
function daysLeftOut(
  state: EngineState,
  s: number,
  selling: Uint8Array,
  skip: Uint8Array,
  promotionDays: number,
  sold: Uint8Array,
): PriceDays {
  const prices = otherPriceDays(state.styleDiscount, s, state.windowDays, state.windowHead, skip, promotionDays);
  // The style's cells are listed only where no discount ring tells the days it sold.
  const launched = beforeLaunch(
    soldDays(state, s, () => styleCells(state, s, selling), sold),
    skip,
  );
  return launched ? { ...prices, skipping: true } : prices;
}

/** Marks the style's cells with the lift of the price cut under way, `cutDays` days old, `daysLeft` to run. */
function liftStyle(
  state: EngineState,
  f: Forecast,
  cells: readonly number[],
  cutDays: number,
  daysLeft: number,
  skip: Uint8Array,
) {
  const lift = cutLift(state.sales, cells, state.windowDays, state.windowHead, cutDays, skip);
  for (const c of cells) {
    f.lift[c] = lift;
    f.liftDays[c] = daysLeft;
  }
}

/**
 * Blends each carried cell's own estimate with its pool, given the category sums of the whole network.
 * `carried[l * styles + s]`: the selling location carries the style (see recommend/assortment.ts).
 *
 * The pools are nested, each shrunk towards the one above by as many days as `poolingHalfWeightDays` (a gamma prior
 * on a Poisson rate: the data weighs its days against the prior's): the category's average cell across the network;
 * the style's cells across the network (against the category by fewer days where its styles sell very differently:
 * styleWeightDays); the style at the location (all its sizes, times how the location sells the
 * category against the network), split by the style's size curve; and the cell's own estimate. Units and days are
 * weighed by recency (demand.ts dayWeights), so each level follows a launch, a decline or a markdown within weeks.
 * The levels are one function, as each is summed over the cells in the pass that blends the one below it.
 */
export function pooledRates(
  state: EngineState,
  settings: Settings,
  f: Forecast,
  network: CategorySums,
  carried: Uint8Array,
): void {
  const L = state.locations.ids.length;
  const K = state.skus.ids.length;
  const W = state.windowDays;
  const S = state.styles.ids.length;
  const C = Math.max(1, state.categories.ids.length);
  const { styleStart, category } = state.styles;
  const half = settings.poolingHalfWeightDays;
  const { sales, windowHead } = state;
  const selling = sellingLocations(state);
  const weights = dayWeights(W, settings.demandHalfLifeDays);
  let allDays = 0;
  for (const w of weights) allDays += w;
  // The SKU across all selling locations (a SKU's cells lie together): units for the size curve.
  const skuUnits = new Float64Array(K);
  for (let k = 0; k < K; k++) for (let c = k * L; c < (k + 1) * L; c++) skuUnits[k] += f.units[c];
  // The category's average cell across the network, and how each location sells it against that (1: alike).
  const categoryRate = new Float64Array(C);
  const locationFactor = new Float64Array(L * C).fill(1);
  for (let cat = 0; cat < C; cat++) {
    let units = 0;
    let days = 0;
    for (let l = 0; l < L; l++) {
      units += network.units[l * C + cat];
      days += network.days[l * C + cat];
    }
    const average = units > 0 ? units / days : 0;
    categoryRate[cat] = average;
    if (average > 0)
      for (let l = 0; l < L; l++) {
        const days = network.days[l * C + cat];
        if (days + half > 0)
          locationFactor[l * C + cat] = (network.units[l * C + cat] + average * half) / ((days + half) * average);
      }
  }
  // Per location, for the style at hand: its units and the most in-stock days of any of its sizes.
  const styleUnits = new Float64Array(L);
  const mostDays = new Int32Array(L);
  const anyInStock = new Uint8Array(W);
  const bits = state.inStockBits;
  const words = bitWords(W);
  const union = new Uint32Array(words);
  const slotWeight = new Float64Array(W);
  const skip = new Uint8Array(W);
  const sold = new Uint8Array(W);
  const shrink = (units: number, days: number, prior: number) =>
    days + half > 0 ? (units + half * prior) / (days + half) : prior;
  for (let s = 0; s < S; s++) {
    const [k0, k1] = [styleStart[s], styleStart[s + 1]];
    const n = k1 - k0;
    let any = false;
    for (let l = 0; l < L; l++) any ||= carried[l * S + s] === 1;
    if (!any) continue;
    // Size curve across all selling locations (Laplace-smoothed so an unsold size keeps a share).
    let total = 0;
    for (let k = k0; k < k1; k++) total += skuUnits[k];
    styleUnits.fill(0);
    mostDays.fill(0);
    let netUnits = 0;
    let netDays = 0;
    for (let k = k0; k < k1; k++) {
      for (let l = 0; l < L; l++) {
        const c = k * L + l;
        styleUnits[l] += f.weightedUnits[c];
        if (f.inStockDays[c] > mostDays[l]) mostDays[l] = f.inStockDays[c];
        netUnits += f.weightedUnits[c];
        netDays += f.days[c];
      }
    }
    const cat = category[s];
    const skipping = daysLeftOut(state, s, selling, skip, settings.promotionDays, sold).skipping;
    // Each slot's weight as the style's days count it (none on a day left out): the ring's oldest day first.
    for (let d = 0; d < W; d++) {
      const pos = (d - windowHead + W) % W;
      slotWeight[d] = skip[pos] ? 0 : weights[pos];
    }
    // The style's cells across the network, shrunk towards the category's average cell by as many days as the
    // category's styles' spread says its average is worth.
    const priorDays = styleWeightDays(network.spread, cat, categoryRate[cat], half);
    const styleRate = netDays + priorDays > 0 ? (netUnits + priorDays * categoryRate[cat]) / (netDays + priorDays) : 0;
    for (let l = 0; l < L; l++) {
      if (!carried[l * S + s]) continue;
      // The style at the location: its units per day with any size in stock (a size in stock every day of the
      // window puts the style in stock every day), shrunk towards what its cells sell across the network there.
      let styleDays = 0;
      if (mostDays[l] === W && !skipping) styleDays = allDays;
      else if (mostDays[l] > 0 && bits) {
        // The same from the bits the state keeps of the ring: a few words a size instead of its window.
        union.fill(0);
        for (let k = k0; k < k1; k++) {
          if (f.inStockDays[k * L + l] === 0) continue;
          const at = (k * L + l) * words;
          for (let w = 0; w < words; w++) union[w] |= bits[at + w];
        }
        for (let w = 0; w < words; w++)
          for (let x = union[w]; x !== 0; x &= x - 1) styleDays += slotWeight[(w << 5) + 31 - Math.clz32(x & -x)];
      } else if (mostDays[l] > 0) {
        anyInStock.fill(0);
        for (let k = k0; k < k1; k++) {
          // A size without a day in stock that counts (ownEstimates) adds none.
          if (f.inStockDays[k * L + l] === 0) continue;
          const base = (k * L + l) * W;
          for (let d = 0; d < W; d++) if (sales[base + d] === sales[base + d]) anyInStock[d] = 1;
        }
        for (let d = 0; d < W; d++) if (anyInStock[d]) styleDays += slotWeight[d];
      }
      const atLocation = shrink(styleUnits[l], styleDays, styleRate * n * locationFactor[l * C + cat]);
      const source = styleDays > 0 ? STYLE : netDays > 0 ? STYLE_NETWORK : categoryRate[cat] > 0 ? CATEGORY : NONE;
      for (let k = k0; k < k1; k++) {
        const c = k * L + l;
        const pooled = atLocation * ((skuUnits[k] + 1) / (total + n));
        f.rate[c] = blendRate(f.own[c], f.days[c], pooled, half);
        f.weight[c] = ownWeight(f.days[c], half);
        f.pooled[c] = pooled;
        f.source[c] = source;
      }
    }
  }
}
