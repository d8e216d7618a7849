/**
 * Target stock per SKU×location: max(presentation minimum, demand over review period + lead time + safety
 * stock for the service level), capped where a maximum is set; the client's StockTargets override it.
 */
import type { Forecast } from '../forecast/forecast.js';
import { categorySettings, type Settings } from './settings.js';
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

export interface Targets {
  target: Float64Array;
  /** Why: 'client', 'demand', 'presentation', 'maximum', or '' where the location does not carry the style. */
  basis: string[];
  /** Per location × style (`l * styles + s`): 1 where a selling location carries the style (see carriesStyle). */
  carried: Uint8Array;
}

/** Whether a selling location carries a style: it has sold or held any of its SKUs before the decision day. */
export function carriesStyle(state: EngineState, location: number, style: number): boolean {
  const L = state.locations.ids.length;
  for (let i = state.styles.styleStart[style]; i < state.styles.styleStart[style + 1]; i++) {
    const c = state.styles.skuIndex[i] * L + location;
    if (state.everActive[c] || state.onHand[c] > 0 || state.inTransit[c] > 0) return true;
  }
  return false;
}

export function targets(state: EngineState, f: Forecast, settings: Settings): Targets {
  const L = state.locations.ids.length;
  const K = state.skus.ids.length;
  const S = state.styles.ids.length;
  const target = new Float64Array(L * K);
  const basis = new Array<string>(L * K).fill('');
  const carriedAt = new Uint8Array(L * S);
  // Per category (a state without categories files its styles under 0).
  const z = Array.from({ length: Math.max(1, state.categories.ids.length) }, (_, c) =>
    normalQuantile(categorySettings(settings, state.categories.ids[c]).serviceLevel),
  );
  for (let l = 0; l < L; l++) {
    if (state.locations.kind[l] === 'warehouse') continue;
    for (let s = 0; s < S; s++) {
      const carried = carriesStyle(state, l, s);
      carriedAt[l * S + s] = carried ? 1 : 0;
      const cs = categorySettings(settings, state.categories.ids[state.styles.category[s]]);
      const horizon = cs.reviewPeriodDays + cs.leadTimeDays;
      for (let i = state.styles.styleStart[s]; i < state.styles.styleStart[s + 1]; i++) {
        const c = state.styles.skuIndex[i] * L + l;
        if (!Number.isNaN(state.clientTarget[c])) {
          let t = state.clientTarget[c];
          if (!Number.isNaN(state.clientMinimum[c])) t = Math.max(t, state.clientMinimum[c]);
          if (!Number.isNaN(state.clientMaximum[c])) t = Math.min(t, state.clientMaximum[c]);
          target[c] = t;
          basis[c] = 'client';
          continue;
        }
        if (!carried) continue;
        const rate = f.rate[c];
        const sdDaily = Math.max(f.sd[c], Math.sqrt(rate));
        const demand = Math.ceil(rate * horizon + z[state.styles.category[s]] * sdDaily * Math.sqrt(horizon) - 1e-9);
        let t = Math.max(cs.presentationMinimum, demand);
        basis[c] = demand >= cs.presentationMinimum ? 'demand' : 'presentation';
        if (cs.maximumStock !== undefined && t > cs.maximumStock) {
          t = cs.maximumStock;
          basis[c] = 'maximum';
        }
        target[c] = t;
      }
    }
  }
  return { target, basis, carried: carriedAt };
}
