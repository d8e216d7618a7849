/**
 * Initial distribution: a style no store carries yet, with warehouse stock, goes to the stores by the sales
 * share of comparable styles (same category, else brand, else season, else all) times each store's size
 * curve, keeping a holdback at the warehouse, and only to stores that can reach the presentation minimum.
 */
import { categorySettings } from './settings.js';
import { dayText, proposal, round2, type Proposal } from './proposal.js';
import { purchaseOrderArrivals } from './state.js';
import { skuBlocked, warehouseAvailable, type Context } from './replenish.js';

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

export function initialDistribution(ctx: Context): Proposal[] {
  const { state, settings } = ctx;
  const L = state.locations.ids.length;
  const { styleStart, skuIndex } = state.styles;
  const S = state.styles.ids.length;
  const warehouses = [...Array(L).keys()].filter(
    (l) => state.locations.kind[l] === 'warehouse' && !state.locations.excluded[l],
  );
  const stores = [...Array(L).keys()].filter(
    (l) => state.locations.kind[l] !== 'warehouse' && !state.locations.excluded[l],
  );
  const out: Proposal[] = [];

  // Units sold per location × style, and per store × category × size, over the window (from the forecast's sums).
  const units = ctx.forecast.units;
  const sold = new Float64Array(L * S);
  // Sizes by number: sizeSales[(l * categories + category) * sizes + size].
  const sizeNumber = new Map<string, number>();
  const sizeOf = Int32Array.from(state.skus.sizeId, (id) => {
    let n = sizeNumber.get(id);
    if (n === undefined) sizeNumber.set(id, (n = sizeNumber.size));
    return n;
  });
  const Z = Math.max(1, sizeNumber.size);
  const C = Math.max(1, state.categories.ids.length);
  const sizeSales = new Float64Array(L * C * Z);
  const sizeAt = (l: number, category: number, k: number) => (l * C + category) * Z + sizeOf[k];
  for (let o = 0; o < S; o++) {
    for (const l of stores) {
      let u = 0;
      for (let i = styleStart[o]; i < styleStart[o + 1]; i++) {
        const k = skuIndex[i];
        const x = units[k * L + l];
        if (x === 0) continue;
        u += x;
        sizeSales[sizeAt(l, state.styles.category[o], k)] += x;
      }
      sold[l * S + o] = u;
    }
  }
  // Sales per store of each category, brand and season (and of all styles), so a style's comparables are
  // its group's total less its own sales.
  const groupTotals = (groupOf: (style: number) => number) => {
    const totals = new Map<number, Float64Array>();
    for (let o = 0; o < S; o++) {
      const g = groupOf(o);
      if (g < 0) continue;
      let t = totals.get(g);
      if (!t) totals.set(g, (t = new Float64Array(L)));
      for (const l of stores) t[l] += sold[l * S + o];
    }
    return (style: number, l: number) => {
      const g = groupOf(style);
      const t = g < 0 ? undefined : totals.get(g);
      return t ? t[l] - sold[l * S + style] : 0;
    };
  };
  const poArriving = purchaseOrderArrivals(state);
  const comparables: [string, (style: number, l: number) => number][] = [
    ['category', groupTotals((o) => state.styles.category[o])],
    ['brand', groupTotals((o) => state.styles.brand[o])],
    ['season', groupTotals((o) => state.styles.season[o])],
    ['all styles', groupTotals(() => 0)],
  ];

  for (let s = 0; s < S; s++) {
    if (state.styles.excluded[s]) continue;
    if (stores.some((l) => ctx.targets.carried[l * S + s])) continue;
    const skus = [...skuIndex.subarray(styleStart[s], styleStart[s + 1])].filter((k) => !skuBlocked(state, k));
    if (skus.length === 0) continue;
    const cs = categorySettings(settings, state.categories.ids[state.styles.category[s]]);
    // Purchase-order units that reach the warehouse before a transfer would: they can be planned now.
    const arrivalDay = state.asOfDay + cs.leadTimeDays;
    const arriving = (w: number, k: number) => poArriving(k * L + w, arrivalDay);
    const available = (w: number, k: number) => warehouseAvailable(ctx, k * L + w, arriving(w, k));
    const onOrder = skus.map((k) => warehouses.reduce((sum, w) => sum + arriving(w, k), 0));
    const free = skus.map((k) => warehouses.reduce((sum, w) => sum + available(w, k), 0));
    const allocatable = free.map((x) => Math.floor(x * (1 - cs.holdbackPercentage / 100)));
    if (allocatable.every((x) => x === 0)) continue;

    // Store weights: sales of comparable styles.
    let basis = 'equal shares (no comparable sales)';
    let weight = stores.map(() => 1);
    for (const [name, comparableSales] of comparables) {
      const w = stores.map((l) => comparableSales(s, l));
      if (w.some((x) => x > 0)) {
        weight = w;
        basis = `sales share of comparable styles (${name})`;
        break;
      }
    }
    // Size curve per store: the store's sales by sizeId within the style's category, Laplace-smoothed.
    const cat = state.styles.category[s];
    const curve = stores.map((l) => {
      const bySize = skus.map((k) => sizeSales[sizeAt(l, cat, k)] + 1);
      const total = bySize.reduce((a, b) => a + b, 0);
      return bySize.map((x) => x / total);
    });

    // The most stores, strongest first, among which every one reaches the presentation minimum on every size.
    const ranked = stores
      .map((_, i) => i)
      .filter((i) => weight[i] > 0 || weight.every((x) => x === 0))
      .sort((a, b) => weight[b] - weight[a] || a - b);
    const allocate = (n: number) => {
      const inPlan = new Set(ranked.slice(0, n));
      return skus.map((_, j) =>
        apportion(
          allocatable[j],
          stores.map((_, i) => (inPlan.has(i) ? weight[i] * curve[i][j] : 0)),
        ),
      );
    };
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
    const active = stores.map((_, i) => ranked.indexOf(i) >= 0 && ranked.indexOf(i) < lo);

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
            proposal(state, ctx, 'InitialDistribution', w, l, k, take, () => ({
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
