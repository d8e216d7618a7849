/**
 * What a unit of each SKU is worth: its average selling price; where its sales say nothing (never sold, or sold
 * for nothing), its list price; else the average of its style's other sizes, else of its category; else 1.
 * A replay passes each SKU's price at the start as the list price, so a price there is always the SKU's own.
 */
import type { EngineState } from './state.js';

export function prices(
  state: Pick<EngineState, 'skus' | 'styles' | 'categories'>,
  units: Float64Array,
  value: Float64Array,
  list?: Float64Array,
): Float64Array {
  const K = state.skus.ids.length;
  const price = new Float64Array(K).fill(1);
  const known = new Uint8Array(K);
  for (let k = 0; k < K; k++) {
    let p = units[k] > 0 ? value[k] / units[k] : Number.NaN;
    if (!(p > 0)) p = list?.[k] ?? 0;
    if (Number.isFinite(p) && p > 0) {
      price[k] = p;
      known[k] = 1;
    }
  }
  const average = (groupOf: (k: number) => number, groups: number) => {
    const sum = new Float64Array(groups);
    const n = new Float64Array(groups);
    for (let k = 0; k < K; k++)
      if (known[k]) {
        sum[groupOf(k)] += price[k];
        n[groupOf(k)]++;
      }
    return (g: number) => (n[g] > 0 ? sum[g] / n[g] : 0);
  };
  const style = state.skus.style;
  const byStyle = average((k) => style[k], state.styles.ids.length);
  const byCategory = average((k) => state.styles.category[style[k]], Math.max(1, state.categories.ids.length));
  for (let k = 0; k < K; k++) {
    if (known[k]) continue;
    const p = byStyle(style[k]) || byCategory(state.styles.category[style[k]]);
    if (p > 0) price[k] = p;
  }
  return price;
}
