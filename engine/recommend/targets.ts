/**
 * Target stock per SKU×location: max(presentation minimum, demand over review period + lead time + safety
 * stock for the service level), capped where a maximum is set; the client's StockTargets override it. A store that
 * has not sold the style yet is sized to its demand times the chance it sells the style (assortment.ts).
 */
import { horizonRate, sellingLocations, type Forecast } from '../forecast/forecast.js';
import type { Assortment } from './assortment.js';
import { offSaleStyles } from './life.js';
import { categorySettings, coverDays, planningLead, type CategorySettings, type Settings } from './settings.js';
import type { EngineState } from './state.js';

/** Inverse of the standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [
    -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1,
    2.506628277459239,
  ];
  const b = [
    -5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1,
  ];
  const c = [
    -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    );
  }
  if (p > 1 - lo) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}

/**
 * The stock that meets a horizon's demand with the service level's probability: the smallest whole S with
 * P(D ≤ S) ≥ service level, D the demand over `horizon` days at `rate` a day with a daily standard deviation of
 * `sd` (at least Poisson's √rate). Cornish–Fisher's skewness term and the continuity correction of a count (−½) keep
 * a slow SKU's stock at what its few units need: at 0.1 a day over 9 days, 2 units at 90 % (Poisson's own quantile),
 * where the normal approximation rounded up gives 3. `z`: the service level's normal quantile.
 */
export function stockFor(rate: number, sd: number, horizon: number, z: number): number {
  const mean = rate * horizon;
  if (mean <= 0) return 0;
  const variance = Math.max(sd * sd, rate) * horizon;
  const sigma = Math.sqrt(variance);
  // σ × skewness of a negative binomial with this mean and variance (1 for a Poisson).
  const skew = (2 * variance - mean) / variance;
  return Math.max(0, Math.ceil(mean + z * sigma + ((z * z - 1) / 6) * skew - 0.5 - 1e-9));
}

/**
 * A cell's stock for its demand over `horizon` days at quantile `z` (stockFor), its rate scaled by the chance the
 * location carries the style and its spread with it.
 */
export function demandStock(f: Forecast, cell: number, horizon: number, z: number, chance = 1): number {
  const rate = horizonRate(f, cell, horizon) * chance;
  return stockFor(rate, rate > 0 ? (f.sd[cell] * rate) / f.rate[cell] : 0, horizon, z);
}

/** The days a service level is held over: a week, whatever the review period. */
export const SERVICE_WEEK_DAYS = 7;

/**
 * The service level's normal quantile for one review cycle of `reviewDays`: the chance of not running out within a
 * cycle is SL^(R/7), so that a week goes without running out with the chance SL however often the engine reviews.
 * A daily review held to 90 % a cycle would run out one week in two; held to 90 % a week it serves as a weekly one
 * does, with less on the shelf.
 */
export function cycleQuantile(serviceLevel: number, reviewDays: number): number {
  return normalQuantile(serviceLevel ** (reviewDays / SERVICE_WEEK_DAYS));
}

/** Why a cell has its target, by number in `Targets.basis`: none where the location does not carry the style. */
export const BASES = ['', 'client', 'demand', 'presentation', 'maximum', 'offSale', 'notSelling'] as const;
export type TargetBasis = (typeof BASES)[number];
const [, CLIENT, DEMAND, PRESENTATION, MAXIMUM, OFF_SALE, NOT_SELLING] = [0, 1, 2, 3, 4, 5, 6];

export interface Targets {
  target: Float64Array;
  /** Per cell, the index of its basis in BASES. */
  basis: Uint8Array;
  /** Per location × style (`l * styles + s`): 1 where a selling location carries the style (assortment.ts). */
  carried: Uint8Array;
  /** Per location × style: 1 where a store held the style and does not sell it (assortment.ts). */
  notSelling: Uint8Array;
  /** Per location × category: the chance a store carries a new style of the category (assortment.ts). */
  carries: Float64Array;
}

export const basisOf = (t: Targets, cell: number): TargetBasis => BASES[t.basis[cell]];

/** Each category's settings, by the category's number in the state (a state without categories files under 0). */
export function settingsByCategory(state: Pick<EngineState, 'categories'>, settings: Settings): CategorySettings[] {
  return Array.from({ length: Math.max(1, state.categories.ids.length) }, (_, c) =>
    categorySettings(settings, state.categories.ids[c]),
  );
}

/** `into`: arrays of an earlier review of the same state's cells to fill again (a replay reviews every week). */
export function targets(
  state: EngineState,
  f: Forecast,
  settings: Settings,
  { carried, notSelling, carries, chance, styleSales }: Assortment,
  into?: Pick<Targets, 'target' | 'basis'>,
): Targets {
  const L = state.locations.ids.length;
  const K = state.skus.ids.length;
  const S = state.styles.ids.length;
  const target = into ? into.target.fill(0) : new Float64Array(L * K);
  const basis = into ? into.basis.fill(0) : new Uint8Array(L * K);
  const byCategory = settingsByCategory(state, settings);
  const z = byCategory.map((cs) => cycleQuantile(cs.serviceLevel, coverDays(cs, settings)));
  const { clientTarget, clientMinimum, clientMaximum } = state;
  const selling = state.locations.kind.map((k) => k !== 'warehouse');
  const off = offSaleStyles(state, styleSales, sellingLocations(state), f);
  for (let s = 0; s < S; s++) {
    const cat = state.styles.category[s];
    const cs = byCategory[cat];
    for (let k = state.styles.styleStart[s]; k < state.styles.styleStart[s + 1]; k++) {
      for (let l = 0; l < L; l++) {
        if (!selling[l]) continue;
        const c = k * L + l;
        const horizon = coverDays(cs, settings) + planningLead(cs, state, l);
        if (!Number.isNaN(clientTarget[c])) {
          let t = clientTarget[c];
          if (!Number.isNaN(clientMinimum[c])) t = Math.max(t, clientMinimum[c]);
          if (!Number.isNaN(clientMaximum[c])) t = Math.min(t, clientMaximum[c]);
          target[c] = t;
          basis[c] = CLIENT;
          continue;
        }
        if (!carried[l * S + s]) {
          if (notSelling[l * S + s]) basis[c] = NOT_SELLING;
          continue;
        }
        if (off[s]) {
          basis[c] = OFF_SALE;
          continue;
        }
        const demand = demandStock(f, c, horizon, z[cat], chance[l * S + s]);
        let t = Math.max(cs.presentationMinimum, demand);
        basis[c] = demand >= cs.presentationMinimum ? DEMAND : PRESENTATION;
        if (cs.maximumStock !== undefined && t > cs.maximumStock) {
          t = cs.maximumStock;
          basis[c] = MAXIMUM;
        }
        target[c] = t;
      }
    }
  }
  return { target, basis, carried, notSelling, carries };
}
