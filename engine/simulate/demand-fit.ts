/**
 * The demand model the history's estimates stand on, fitted together: each cell's level, the day indices (how its
 * location, category and style sold each day: day-index.ts), a customer's units per SKU (baskets.ts) and each
 * category's overdispersion. Each round imputes the demand of the days that sold out from the fit before it
 * (what they sold, on the first).
 */
import { BasketReader } from './baskets.js';
import { OUT, SOLD_OUT, openingOr, type CellDayRows, type CellWalk } from './cell-walk.js';
import { DayIndex, weekday } from './day-index.js';
import { expectedGiven, type Basket } from './demand-distribution.js';
import type { DemandLayout } from './history-range.js';
import { pooledLevels } from './pooled-levels.js';
import type { Shelves } from './shelf-history.js';

/**
 * Fits of the day indices and the levels: the first takes a sold-out day's sales as they are, each next one its
 * expected demand given them under the previous fit.
 */
const INDEX_ROUNDS = 3;
/** Cells selling at least this much a day inform the dispersion of daily demand. */
const DISPERSION_MIN_RATE = 1;
const DISPERSION_SAMPLE = 4000;
/** Days of the blocks the dispersion's residuals are taken around (each its own level). */
const DISPERSION_BLOCK_DAYS = 56;

export interface DemandFit {
  index: DayIndex;
  /** Per cell: its level drawn towards its SKU's and its location's (pooled-levels.ts): what its days are judged by. */
  judged: Float64Array;
  /** Per SKU: a customer's units, where its slow days tell. */
  baskets: (Basket | undefined)[];
  /** Per category: the overdispersion of daily demand (1/k of a negative binomial; 0 is Poisson). */
  dispersion: Float64Array;
}

/** What the rounds share: the history, the shelves' facts and the fit so far. */
interface Fitting extends DemandFit {
  rows: CellDayRows;
  days: number;
  firstDay: number;
  layout: DemandLayout;
  cellWalk: CellWalk;
  shelves: Shelves;
  /** Per row: the demand the fit reads (a sold-out day's imputed). */
  want: Float64Array;
  /** Per cell: units per day at a day index of 1 over its days in stock (sold-out days at their expected demand). */
  level: Float64Array;
  units: Float64Array;
  exposure: Float64Array;
}

const catOf = (layout: DemandLayout, k: number) => layout.categoryOf[layout.styleOf[k]];
const skuOf = (c: number, locations: number) => ((c - (c % locations)) / locations) | 0;

export function fitDemand(
  rows: CellDayRows,
  { days, firstDay }: { days: number; firstDay: number },
  layout: DemandLayout,
  cellWalk: CellWalk,
  selling: Uint8Array,
  shelves: Shelves,
): DemandFit {
  const cells = layout.locations * layout.skus;
  const level = new Float64Array(cells);
  const f: Fitting = {
    rows,
    days,
    firstDay,
    layout,
    cellWalk,
    shelves,
    want: Float64Array.from(rows.sold),
    level,
    units: new Float64Array(cells),
    exposure: new Float64Array(cells),
    index: new DayIndex(cellWalk, layout, selling, firstDay),
    baskets: new Array(layout.skus).fill(undefined),
    dispersion: new Float64Array(layout.categories),
    judged: level,
  };
  for (let round = 0; round < INDEX_ROUNDS; round++) {
    if (round > 0) imputeSoldOut(f);
    measure(f, round === 0 ? (c) => shelves.fullDays[c] : (c) => f.index.cellExposure(c));
    f.index.fit(shelves.stocked, { want: f.want, level: f.level, pooled: f.judged });
    measure(f, (c) => f.index.cellExposure(c));
    f.judged = pool(f);
    f.baskets = readBaskets(f);
    f.dispersion = readDispersion(f);
  }
  f.judged = pool(f);
  return { index: f.index, judged: f.judged, baskets: f.baskets, dispersion: f.dispersion };
}

/** A sold-out day's demand: its expectation given what it sold, under the fit before. */
function imputeSoldOut(f: Fitting): void {
  const L = f.layout.locations;
  for (const c of f.shelves.stocked) {
    if (!f.shelves.gappy[c]) continue;
    const l = c % L;
    const k = (c - l) / L;
    f.cellWalk.walk(
      c,
      () => {},
      (e, j, status) => {
        if (status !== SOLD_OUT) return;
        f.want[j] = expectedGiven(
          f.rows.sold[j],
          f.judged[c] * f.index.at(l, k, e),
          f.dispersion[catOf(f.layout, k)],
          f.baskets[k],
        );
      },
    );
  }
}

/** Each stocked cell's units wanted, its exposure (`exposureOf`) and their ratio, its level. */
function measure(f: Fitting, exposureOf: (c: number) => number): void {
  for (const c of f.shelves.stocked) {
    let u = 0;
    f.cellWalk.walk(
      c,
      () => {},
      (_e, j, status) => {
        if (status !== OUT) u += f.want[j];
      },
    );
    const x = exposureOf(c);
    f.units[c] = u;
    f.exposure[c] = x;
    f.level[c] = x > 0 ? u / x : 0;
  }
}

function pool(f: Fitting): Float64Array {
  const { layout } = f;
  const L = layout.locations;
  return pooledLevels({
    locations: L,
    skus: layout.skus,
    categories: layout.categories,
    catOf: (k) => catOf(layout, k),
    stocked: f.shelves.stocked,
    units: f.units,
    exposure: f.exposure,
    spread: (c, m) => (f.baskets[skuOf(c, L)]?.kappa ?? 1) + f.dispersion[catOf(layout, skuOf(c, L))] * m,
  }).level;
}

/** Per SKU: a customer's units, from the days it sold where a customer came rarely. */
function readBaskets(f: Fitting): (Basket | undefined)[] {
  const { layout, rows } = f;
  const L = layout.locations;
  const reader = new BasketReader({
    skus: layout.skus,
    styleOf: layout.styleOf,
    categoryOf: layout.categoryOf,
    styles: layout.styleStart.length - 1,
    categories: layout.categories,
  });
  for (const c of f.shelves.stocked) {
    const l = c % L;
    const k = (c - l) / L;
    const perCustomer = f.baskets[k]?.mean ?? 1;
    const phi = f.dispersion[catOf(layout, k)];
    f.cellWalk.walk(
      c,
      () => {},
      (e, j, status) => {
        if (status === OUT || !(rows.sold[j] > 0)) return;
        reader.day(k, rows.sold[j], status === SOLD_OUT, (f.judged[c] * f.index.at(l, k, e)) / perCustomer, phi);
      },
    );
  }
  return reader.baskets();
}

/**
 * The overdispersion of daily demand per category, from the residuals of cells' in-stock days around a level
 * fitted per week (so trends and life cycles do not count as noise), beyond what customers' lumps explain.
 */
function readDispersion(f: Fitting): Float64Array {
  const { layout, rows, days, index, level } = f;
  const L = layout.locations;
  const categories = layout.categories;
  const varNum = new Float64Array(categories);
  const varDen = new Float64Array(categories);
  const informs = (c: number) => f.shelves.everIn[c] === 1 && level[c] >= DISPERSION_MIN_RATE;
  const informing = new Int32Array(categories);
  for (const c of f.shelves.stocked) if (informs(c)) informing[catOf(layout, (c / L) | 0)]++;
  const seen = new Int32Array(categories);
  /** Per day: 1 when it started with stock enough that it would hardly sell out (see `enough`). */
  const ample = new Uint8Array(days);
  const sold = new Float64Array(days);
  for (const c of f.shelves.stocked) {
    if (!informs(c)) continue;
    const l = c % L;
    const k = (c - l) / L;
    const cat = catOf(layout, k);
    // A sample of a few thousand cells per category says as much as all of them.
    if (seen[cat]++ % Math.max(1, Math.floor(informing[cat] / DISPERSION_SAMPLE)) !== 0) continue;
    const kappa = f.baskets[k]?.kappa ?? 1;
    const phi = f.dispersion[cat];
    // Days are chosen by the stock they started with, never by what they sold: leaving out the days that sold out
    // would leave out the days that wanted most, and the spread would read low; a day counts when its stock was
    // three standard deviations above its expected demand, so that what it sold is what it wanted.
    const enough = (e: number, stock: number) => {
      const lambda = level[c] * index.at(l, k, e);
      return stock >= lambda + 3 * Math.sqrt(kappa * lambda + phi * lambda * lambda) + 1;
    };
    f.cellWalk.walk(
      c,
      (a, b, inStock, stock) => {
        sold.fill(0, a, b);
        for (let e = a; e < b; e++) ample[e] = inStock && enough(e, stock) ? 1 : 0;
      },
      (e, j, st, start) => {
        sold[e] = rows.sold[j];
        ample[e] = st !== OUT && enough(e, openingOr(rows.opening[j], start)) ? 1 : 0;
      },
    );
    addBlockResiduals(f, l, k, kappa, ample, sold, { num: varNum, den: varDen, cat });
  }
  const out = new Float64Array(categories);
  for (let cat = 0; cat < categories; cat++)
    out[cat] = varDen[cat] > 0 ? Math.min(3, Math.max(0, varNum[cat] / varDen[cat])) : 0;
  return out;
}

/**
 * Adds to its category's sums a cell's squared residuals beyond its customers' lumps, and their expectation's scale,
 * over blocks of whole weeks from Monday to Sunday (a week's promotion in one), each with a level of its own, so
 * trends the indices miss do not read as spread.
 */
function addBlockResiduals(
  f: Fitting,
  l: number,
  k: number,
  kappa: number,
  ample: Uint8Array,
  sold: Float64Array,
  into: { num: Float64Array; den: Float64Array; cat: number },
): void {
  const { days, index } = f;
  for (let e = (8 - weekday(f.firstDay)) % 7; e + DISPERSION_BLOCK_DAYS <= days; e += DISPERSION_BLOCK_DAYS) {
    let units = 0;
    let exposure = 0;
    let m = 0;
    for (let x = e; x < e + DISPERSION_BLOCK_DAYS; x++) {
      if (!ample[x]) continue;
      units += sold[x];
      exposure += index.at(l, k, x);
      m++;
    }
    if (m < DISPERSION_BLOCK_DAYS / 4 || exposure <= 0) continue;
    const lvl = units / exposure;
    let sq = 0;
    let mean = 0;
    let mean2 = 0;
    let index2 = 0;
    for (let x = e; x < e + DISPERSION_BLOCK_DAYS; x++) {
      if (!ample[x]) continue;
      const ix = index.at(l, k, x);
      const lambda = lvl * ix;
      sq += (sold[x] - lambda) ** 2;
      mean += lambda;
      mean2 += lambda * lambda;
      index2 += ix * ix;
    }
    into.num[into.cat] += (sq * m) / (m - 1) - kappa * mean;
    // The block's level is noisy itself: its squares exceed the true level's by its variance (nearly all of it
    // the counts' own), which slow cells would otherwise read as no spread at all.
    into.den[into.cat] += mean2 - (kappa * mean * index2) / (exposure * exposure);
  }
}
