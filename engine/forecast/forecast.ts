/**
 * Demand for every location×SKU where the location carries the style: its own censored estimate, shrunk towards
 * a pooled one when its history is thin. The pool is the style at the location × the style's size curve, else the
 * category at the location, else the SKU across all selling locations. Every part is kept for explanation.
 *
 * In two steps, so that a range of styles can estimate on its own (see recommend/review.ts): `ownEstimates` reads
 * each cell's window and adds the range's part to the network's sums; `pooledRates` blends, given those sums added
 * up over every range. Only the category at a location needs every style.
 */
import type { EngineState } from '../recommend/state.js';
import type { Settings } from '../recommend/settings.js';
import { blendRate, CLASSES, ownWeight, OWN, OWN_FIELDS, ownStats } from './demand.js';

export type PoolSource = 'none' | 'style' | 'category' | 'network';
const SOURCES: PoolSource[] = ['none', 'style', 'category', 'network'];
const [NONE, STYLE, CATEGORY, NETWORK] = [0, 1, 2, 3];

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
  source: Uint8Array;
  demandClass: Uint8Array;
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
    source: new Uint8Array(cells),
    demandClass: new Uint8Array(cells),
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
}

/** Which locations sell (stores and the webshop: they have demand); warehouses do not. */
export function sellingLocations(state: Pick<EngineState, 'locations'>): Uint8Array {
  return Uint8Array.from(state.locations.kind, (k) => (k !== 'warehouse' ? 1 : 0));
}

/**
 * Each selling cell's own estimate from its window, and the range's part of the category sums. `f` is reset
 * (a replay reuses one).
 */
export function ownEstimates(state: EngineState, f: Forecast, sums: CategorySums): void {
  const L = state.locations.ids.length;
  const K = state.skus.ids.length;
  const W = state.windowDays;
  const C = Math.max(1, state.categories.ids.length);
  for (const a of Object.values(f)) a.fill(0);
  const selling = sellingLocations(state);
  const e = new Float64Array(OWN_FIELDS);
  const { sales, inStockDays, salesDays, windowHead } = state;
  const { style } = state.skus;
  const { category } = state.styles;
  for (let k = 0; k < K; k++) {
    const cat = category[style[k]];
    for (let l = 0; l < L; l++) {
      if (!selling[l]) continue;
      const c = k * L + l;
      // No in-stock day: nothing to estimate from (all parts stay 0).
      if (inStockDays && inStockDays[c] === 0) continue;
      // In stock without a sale: an estimate of 0 from those days, the window unread.
      if (inStockDays && salesDays && salesDays[c] === 0) {
        f.inStockDays[c] = inStockDays[c];
        sums.days[l * C + cat] += inStockDays[c];
        continue;
      }
      ownStats(sales, c * W, W, windowHead, e);
      const n = e[OWN.inStockDays];
      if (n === 0) continue;
      f.own[c] = e[OWN.rate];
      f.sd[c] = e[OWN.sd];
      f.inStockDays[c] = n;
      f.demandClass[c] = e[OWN.demandClass];
      f.units[c] = e[OWN.units];
      sums.units[l * C + cat] += exactUnits(e[OWN.units]);
      sums.days[l * C + cat] += n;
    }
  }
}

/**
 * Blends each carried cell's own estimate with its pool, given the category sums of the whole network.
 * `carried[l * styles + s]`: the selling location carries the style (see recommend/targets.ts).
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
  const { sales } = state;
  // The SKU across all selling locations (a SKU's cells lie together).
  const skuUnits = new Float64Array(K);
  const skuDays = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    let u = 0;
    let d = 0;
    for (let c = k * L; c < (k + 1) * L; c++) {
      u += f.units[c];
      d += f.inStockDays[c];
    }
    skuUnits[k] = u;
    skuDays[k] = d;
  }
  // Per location, for the style at hand: its units, and the most in-stock days of any of its sizes.
  const styleUnits = new Float64Array(L);
  const mostDays = new Int32Array(L);
  const anyInStock = new Uint8Array(W);
  for (let s = 0; s < S; s++) {
    const [k0, k1] = [styleStart[s], styleStart[s + 1]];
    let any = false;
    for (let l = 0; l < L; l++) any ||= carried[l * S + s] === 1;
    if (!any) continue;
    // Size curve across all selling locations (Laplace-smoothed so an unsold size keeps a share).
    let total = 0;
    for (let k = k0; k < k1; k++) total += skuUnits[k];
    styleUnits.fill(0);
    mostDays.fill(0);
    for (let k = k0; k < k1; k++) {
      for (let l = 0; l < L; l++) {
        const c = k * L + l;
        styleUnits[l] += f.units[c];
        if (f.inStockDays[c] > mostDays[l]) mostDays[l] = f.inStockDays[c];
      }
    }
    const cat = category[s];
    for (let l = 0; l < L; l++) {
      if (!carried[l * S + s]) continue;
      // Style at the location: units per day with any size in stock. A size in stock every day of the window puts
      // the style in stock every day.
      let styleDays = 0;
      if (mostDays[l] === W) styleDays = W;
      else if (mostDays[l] > 0) {
        anyInStock.fill(0);
        for (let k = k0; k < k1; k++) {
          const base = (k * L + l) * W;
          for (let d = 0; d < W; d++) if (sales[base + d] === sales[base + d]) anyInStock[d] = 1;
        }
        for (let d = 0; d < W; d++) styleDays += anyInStock[d];
      }
      const catUnits = network.units[l * C + cat];
      const catDays = network.days[l * C + cat];
      for (let k = k0; k < k1; k++) {
        const c = k * L + l;
        let pooled = 0;
        let source = NONE;
        // (A style never in stock here gives no rate, whatever the half-weight.)
        if (styleDays > 0 && styleDays >= half) {
          pooled = (styleUnits[l] / styleDays) * ((skuUnits[k] + 1) / (total + (k1 - k0)));
          source = STYLE;
        } else if (catDays > 0) {
          pooled = catUnits / catDays;
          source = CATEGORY;
        } else if (skuDays[k] > 0) {
          pooled = skuUnits[k] / skuDays[k];
          source = NETWORK;
        }
        if (source === NONE) {
          f.rate[c] = f.own[c];
          f.weight[c] = 1;
        } else {
          f.rate[c] = blendRate(f.own[c], f.inStockDays[c], pooled, half);
          f.weight[c] = ownWeight(f.inStockDays[c], half);
        }
        f.pooled[c] = pooled;
        f.source[c] = source;
      }
    }
  }
}
