/**
 * Demand for every selling location×SKU of a state: its own censored estimate, shrunk towards a pooled one
 * when its history is thin. The pool is the style at the location × the style's size curve, else the
 * category at the location, else the SKU across all selling locations. Every part is kept for explanation.
 */
import type { EngineState } from '../recommend/state.js';
import type { Settings } from '../recommend/settings.js';
import { blendRate, CLASSES, ownWeight, OWN, OWN_FIELDS, ownStats } from './demand.js';

export type PoolSource = 'none' | 'style' | 'category' | 'network';
const SOURCES: PoolSource[] = ['none', 'style', 'category', 'network'];
const [NONE, STYLE, CATEGORY, NETWORK] = [0, 1, 2, 3];

export interface Forecast {
  /** Units per day, per cell (0 at warehouses). */
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

export function forecast(state: EngineState, settings: Settings): Forecast {
  const L = state.locations.ids.length;
  const K = state.skus.ids.length;
  const W = state.windowDays;
  const cells = L * K;
  const f: Forecast = {
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
  const units = f.units;
  const selling = state.locations.kind.map((k) => k !== 'warehouse');

  const e = new Float64Array(OWN_FIELDS);
  const { sales, inStock, inStockDays, windowHead } = state;
  for (let l = 0; l < L; l++) {
    if (!selling[l]) continue;
    for (let k = 0; k < K; k++) {
      const c = k * L + l;
      // No in-stock day: nothing to estimate from (all parts stay 0).
      if (inStockDays && inStockDays[c] === 0) continue;
      ownStats(sales, inStock, c * W, W, windowHead, e);
      f.own[c] = e[OWN.rate];
      f.sd[c] = e[OWN.sd];
      f.inStockDays[c] = e[OWN.inStockDays];
      f.demandClass[c] = e[OWN.demandClass];
      units[c] = e[OWN.units];
    }
  }

  // Size curve per style across all selling locations (Laplace-smoothed so an unsold size keeps a share).
  const { styleStart, skuIndex, category } = state.styles;
  const S = state.styles.ids.length;
  const sizeShare = new Float64Array(K);
  const skuNetUnits = new Float64Array(K);
  const skuNetDays = new Float64Array(K);
  for (let l = 0; l < L; l++) {
    if (!selling[l]) continue;
    for (let k = 0; k < K; k++) {
      skuNetUnits[k] += units[k * L + l];
      skuNetDays[k] += f.inStockDays[k * L + l];
    }
  }
  for (let s = 0; s < S; s++) {
    let total = 0;
    const n = styleStart[s + 1] - styleStart[s];
    for (let i = styleStart[s]; i < styleStart[s + 1]; i++) total += skuNetUnits[skuIndex[i]];
    for (let i = styleStart[s]; i < styleStart[s + 1]; i++)
      sizeShare[skuIndex[i]] = (skuNetUnits[skuIndex[i]] + 1) / (total + n);
  }

  const C = state.categories.ids.length;
  const anyInStock = new Uint8Array(W);
  const catUnits = new Float64Array(C);
  const catDays = new Float64Array(C);
  const half = settings.poolingHalfWeightDays;
  for (let l = 0; l < L; l++) {
    if (!selling[l]) continue;
    // Category at the location: average units per in-stock SKU-day.
    catUnits.fill(0);
    catDays.fill(0);
    for (let s = 0; s < S; s++) {
      for (let i = styleStart[s]; i < styleStart[s + 1]; i++) {
        const c = skuIndex[i] * L + l;
        catUnits[category[s]] += units[c];
        catDays[category[s]] += f.inStockDays[c];
      }
    }
    for (let s = 0; s < S; s++) {
      // Style at the location: units per day with any size in stock (none where no size ever was).
      let styleUnits = 0;
      let styleDays = 0;
      let mostDays = 0;
      for (let i = styleStart[s]; i < styleStart[s + 1]; i++) {
        const c = skuIndex[i] * L + l;
        styleUnits += units[c];
        if (f.inStockDays[c] > mostDays) mostDays = f.inStockDays[c];
      }
      // A size in stock every day of the window puts the style in stock every day.
      if (mostDays === W) styleDays = W;
      else if (mostDays > 0) {
        anyInStock.fill(0);
        for (let i = styleStart[s]; i < styleStart[s + 1]; i++) {
          const base = (skuIndex[i] * L + l) * W;
          for (let d = 0; d < W; d++) anyInStock[d] |= state.inStock[base + d];
        }
        for (let d = 0; d < W; d++) styleDays += anyInStock[d];
      }
      const cat = category[s];
      for (let i = styleStart[s]; i < styleStart[s + 1]; i++) {
        const k = skuIndex[i];
        const c = k * L + l;
        let pooled = 0;
        let source = NONE;
        if (styleDays >= half) {
          pooled = (styleUnits / styleDays) * sizeShare[k];
          source = STYLE;
        } else if (catDays[cat] > 0) {
          pooled = catUnits[cat] / catDays[cat];
          source = CATEGORY;
        } else if (skuNetDays[k] > 0) {
          pooled = skuNetUnits[k] / skuNetDays[k];
          source = NETWORK;
        }
        if (source === NONE) {
          f.rate[c] = f.own[c];
          f.weight[c] = 1;
        } else {
          const b = blendRate(f.own[c], f.inStockDays[c], pooled, half);
          f.rate[c] = b;
          f.weight[c] = ownWeight(f.inStockDays[c], half);
        }
        f.pooled[c] = pooled;
        f.source[c] = source;
      }
    }
  }
  return f;
}
