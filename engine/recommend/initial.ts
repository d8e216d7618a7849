/**
 * Initial distribution: a style no store carries yet, with warehouse stock, goes to the stores by the sales
 * share of comparable styles (same category, else brand, else season, else all) times each store's size
 * curve, keeping a holdback at the warehouse, and only to stores that can reach the presentation minimum.
 *
 * Comparable styles may lie in any part of the network's styles, so their sales come from sums over the whole
 * network (`SalesSums`), which each range of styles adds to (see review.ts).
 */
import { exactUnits } from '../forecast/forecast.js';
import { decision, dayText, round2, type Decision } from './proposal.js';
import { purchaseOrderArrivals, type EngineState } from './state.js';
import { skuBlocked, warehouseAvailable, type Context } from './replenish.js';

/**
 * Units sold over the window (exactUnits), per selling location × brand, season, and category × size (per
 * location × category they are the forecast's category sums).
 */
export interface SalesSums {
  /** `l * brands + brand` */
  brand: Float64Array;
  /** `l * seasons + season` */
  season: Float64Array;
  /** `(l * categories + category) * sizes + size` */
  size: Float64Array;
}

export function emptySalesSums(state: EngineState): SalesSums {
  const L = state.locations.ids.length;
  const C = Math.max(1, state.categories.ids.length);
  return {
    brand: new Float64Array(L * state.brands.ids.length),
    season: new Float64Array(L * state.seasons.ids.length),
    size: new Float64Array(L * C * Math.max(1, state.sizes.ids.length)),
  };
}

/** Adds what the state's styles sold (`units` per cell, from the forecast) to the sums. */
export function addSales(state: EngineState, units: Float64Array, sums: SalesSums): void {
  const L = state.locations.ids.length;
  const K = state.skus.ids.length;
  const C = Math.max(1, state.categories.ids.length);
  const B = state.brands.ids.length;
  const Se = state.seasons.ids.length;
  const Z = Math.max(1, state.sizes.ids.length);
  for (let k = 0; k < K; k++) {
    const s = state.skus.style[k];
    const cat = state.styles.category[s];
    const brand = state.styles.brand[s];
    const season = state.styles.season[s];
    const size = state.skus.size[k];
    for (let l = 0; l < L; l++) {
      const x = units[k * L + l];
      if (x === 0) continue;
      const u = exactUnits(x);
      if (brand >= 0) sums.brand[l * B + brand] += u;
      if (season >= 0) sums.season[l * Se + season] += u;
      sums.size[(l * C + cat) * Z + size] += u;
    }
  }
}

/** Largest-remainder rounding of `weights` scaled to `total` whole units. */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0 || total <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (w / sum) * total);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    out[i]++;
    left--;
  }
  return out;
}

/** `categoryUnits`: the network's units sold per location × category (forecast.ts CategorySums). */
export function initialDistribution(ctx: Context, categoryUnits: Float64Array, network: SalesSums): Decision[] {
  const { state } = ctx;
  const L = state.locations.ids.length;
  const { styleStart } = state.styles;
  const S = state.styles.ids.length;
  const C = Math.max(1, state.categories.ids.length);
  const B = state.brands.ids.length;
  const Se = state.seasons.ids.length;
  const Z = Math.max(1, state.sizes.ids.length);
  const { warehouses, sellers: stores } = ctx;
  const out: Decision[] = [];
  const units = ctx.forecast.units;
  let poArriving: ReturnType<typeof purchaseOrderArrivals> | undefined;

  for (let s = 0; s < S; s++) {
    if (state.styles.excluded[s]) continue;
    if (stores.some((l) => ctx.targets.carried[l * S + s])) continue;
    const skus: number[] = [];
    for (let k = styleStart[s]; k < styleStart[s + 1]; k++) if (!skuBlocked(state, k)) skus.push(k);
    if (skus.length === 0) continue;
    const cat = state.styles.category[s];
    const cs = ctx.byCategory[cat];
    // Purchase-order units that reach the warehouse before a transfer would: they can be planned now.
    poArriving ??= purchaseOrderArrivals(state);
    const arrivalDay = state.asOfDay + cs.leadTimeDays;
    const arriving = (w: number, k: number) => poArriving!(k * L + w, arrivalDay);
    const available = (w: number, k: number) => warehouseAvailable(ctx, k * L + w, arriving(w, k));
    const onOrder = skus.map((k) => warehouses.reduce((sum, w) => sum + arriving(w, k), 0));
    const free = skus.map((k) => warehouses.reduce((sum, w) => sum + available(w, k), 0));
    const allocatable = free.map((x) => Math.floor(x * (1 - cs.holdbackPercentage / 100)));
    if (allocatable.every((x) => x === 0)) continue;

    // Store weights: sales of comparable styles, the network's group less the style's own.
    const own = stores.map((l) => {
      let u = 0;
      for (let k = styleStart[s]; k < styleStart[s + 1]; k++) u += exactUnits(units[k * L + l]);
      return u;
    });
    const brand = state.styles.brand[s];
    const season = state.styles.season[s];
    const comparables: [string, (l: number) => number][] = [
      ['category', (l) => categoryUnits[l * C + cat]],
      ['brand', (l) => (brand >= 0 ? network.brand[l * B + brand] : 0)],
      ['season', (l) => (season >= 0 ? network.season[l * Se + season] : 0)],
      [
        'all styles',
        (l) => {
          let u = 0;
          for (let c = 0; c < C; c++) u += categoryUnits[l * C + c];
          return u;
        },
      ],
    ];
    let basis = 'equal shares (no comparable sales)';
    let weight = stores.map(() => 1);
    for (const [name, group] of comparables) {
      const w = stores.map((l, i) => group(l) - own[i]);
      if (w.some((x) => x > 0)) {
        weight = w;
        basis = `sales share of comparable styles (${name})`;
        break;
      }
    }
    // Size curve per store: the store's sales by size within the style's category, Laplace-smoothed.
    const curve = stores.map((l) => {
      const bySize = skus.map((k) => network.size[(l * C + cat) * Z + state.skus.size[k]] + 1);
      const total = bySize.reduce((a, b) => a + b, 0);
      return bySize.map((x) => x / total);
    });

    // The most stores, strongest first, among which every one reaches the presentation minimum on every size.
    const ranked = stores
      .map((_, i) => i)
      .filter((i) => weight[i] > 0 || weight.every((x) => x === 0))
      .sort((a, b) => weight[b] - weight[a] || a - b);
    const rank = new Int32Array(stores.length).fill(-1);
    ranked.forEach((i, r) => (rank[i] = r));
    const allocate = (n: number) =>
      skus.map((_, j) =>
        apportion(
          allocatable[j],
          stores.map((_, i) => (rank[i] >= 0 && rank[i] < n ? weight[i] * curve[i][j] : 0)),
        ),
      );
    const feasible = (plan: number[][], n: number) =>
      ranked.slice(0, n).every((i) => skus.every((_, j) => plan[j][i] >= cs.presentationMinimum));
    let lo = 0;
    let hi = ranked.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (feasible(allocate(mid), mid)) lo = mid;
      else hi = mid - 1;
    }
    if (lo === 0) continue;
    const plan = allocate(lo);
    const active = stores.map((_, i) => rank[i] >= 0 && rank[i] < lo);

    skus.forEach((k, j) => {
      stores.forEach((l, i) => {
        let left = plan[j][i];
        if (!active[i] || left < cs.minimumTransferQuantity) return;
        for (const w of [...warehouses].sort((a, b) => available(b, k) - available(a, k) || a - b)) {
          const take = Math.min(left, available(w, k));
          if (take <= 0) continue;
          ctx.promised[k * L + w] += take;
          ctx.incoming[k * L + l] += take;
          left -= take;
          out.push(
            decision(ctx.explain, 'InitialDistribution', w, l, k, take, () => ({
              reason:
                `new style ${state.styles.ids[s]}: ${take} of ${allocatable[j]} allocatable units` +
                (onOrder[j] > 0
                  ? ` (${onOrder[j]} of them on purchase orders arriving by ${dayText(arrivalDay)})`
                  : '') +
                ` by ${basis} and the store's size curve; ${cs.holdbackPercentage}% held back at the warehouse`,
              details: {
                storeShare: round2(weight[i] / weight.reduce((a, b, x) => a + (active[x] ? b : 0), 0)),
                sizeShare: round2(curve[i][j]),
                allocatable: allocatable[j],
                warehouseFree: free[j],
                arrivingOnPurchaseOrders: onOrder[j],
                holdbackPercentage: cs.holdbackPercentage,
                basis,
              },
            })),
          );
          if (left === 0) break;
        }
      });
    });
  }
  return out;
}
