/**
 * Initial distribution: a style no store carries yet, with warehouse stock, goes to the stores that sell comparable
 * styles (same category, else brand, else season, else all), each store × SKU given what a comparable SKU sells
 * there over the first-fill horizon at the service level, by the store's size curve; at most the warehouse's stock
 * less the holdback. The rest stays at the warehouse: the stores that got the style carry it now, and
 * replenishment sends more where it sells.
 *
 * Comparable styles may lie in any part of the network's styles, so their sales come from sums over the whole
 * network (`SalesSums`), which each range of styles adds to (see review.ts).
 */
import { exactUnits, type CategorySums } from '../forecast/forecast.js';
import { poissonTail } from '../forecast/poisson.js';
import { MaxHeap } from './heap.js';
import { decision, dayText, round2, type Decision } from './proposal.js';
import { purchaseOrderArrivals, type EngineState } from './state.js';
import { skuBlocked, warehouseAvailable, type Context } from './replenish.js';
import { cycleQuantile, stockFor } from './targets.js';
import { planningLead, type CategorySettings } from './settings.js';

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

/**
 * A comparable cell's demand a day at each selling location, for a new style of category `cat`: the category's units
 * per in-stock SKU-day there, else across the network, else every category's there, else across the network (the
 * first that sold anything: a category whose season has not begun sells nothing yet). What an average SKU of its
 * kind sells, before the style has sold anything of its own.
 */
function comparableRates(ctx: Context, network: CategorySums, cat: number): Float64Array {
  const { state } = ctx;
  const C = Math.max(1, state.categories.ids.length);
  const L = state.locations.ids.length;
  const sum = (ls: number[], cs: number[]) => {
    let units = 0;
    let days = 0;
    for (const l of ls)
      for (const c of cs) {
        units += network.units[l * C + c];
        days += network.days[l * C + c];
      }
    return units > 0 ? units / days : 0;
  };
  const all = [...Array(L).keys()];
  const every = [...Array(C).keys()];
  const networkOfCategory = sum(all, [cat]);
  const networkOfAll = sum(all, every);
  return Float64Array.from(
    { length: L },
    (_, l) => sum([l], [cat]) || networkOfCategory || sum([l], every) || networkOfAll,
  );
}

/**
 * `network`: the network's units and in-stock days per location × category (forecast.ts CategorySums). Each store
 * that sells comparable styles is given what a comparable SKU would sell over the first-fill horizon at the service
 * level, by its size curve; a warehouse short of that gives each unit where it most likely sells. What is left stays
 * at the warehouse for replenishment to send where the style sells.
 */
export function initialDistribution(ctx: Context, network: CategorySums, sales: SalesSums): Decision[] {
  const { state } = ctx;
  const L = state.locations.ids.length;
  const { styleStart } = state.styles;
  const S = state.styles.ids.length;
  const { warehouses, sellers: stores } = ctx;
  const out: Decision[] = [];
  const firstFill = ctx.settings.initialDistribution.firstFillDays;
  let poArriving: ReturnType<typeof purchaseOrderArrivals> | undefined;

  for (let s = 0; s < S; s++) {
    if (state.styles.excluded[s]) continue;
    // A style some store carries, or every store that held it stopped selling, is past its launch.
    if (stores.some((l) => ctx.targets.carried[l * S + s] || ctx.targets.notSelling[l * S + s])) continue;
    const skus: number[] = [];
    for (let k = styleStart[s]; k < styleStart[s + 1]; k++) if (!skuBlocked(state, k)) skus.push(k);
    if (skus.length === 0) continue;
    const cat = state.styles.category[s];
    const cs = ctx.byCategory[cat];
    // Purchase-order units that reach the warehouse before a transfer would: they can be planned now.
    poArriving ??= purchaseOrderArrivals(state);
    // (A transfer decided now reaches the stores as the warehouse's own transit goes: the network's.)
    const arrivalDay = state.asOfDay + planningLead(cs, state, warehouses[0] ?? 0);
    const arriving = (w: number, k: number) => poArriving!(k * L + w, arrivalDay);
    const available = (w: number, k: number) => warehouseAvailable(ctx, k * L + w, arriving(w, k));
    const onOrder = skus.map((k) => warehouses.reduce((sum, w) => sum + arriving(w, k), 0));
    const free = skus.map((k) => warehouses.reduce((sum, w) => sum + available(w, k), 0));
    const allocatable = free.map((x) => Math.floor(x * (1 - cs.holdbackPercentage / 100)));
    if (allocatable.every((x) => x === 0)) continue;
    const fill = firstFills(ctx, network, sales, skus, cat);
    const plan = skus.map((_, j) => allocate(fill, j, allocatable[j], firstFill));
    const style = { s, skus, cs, fill, plan, allocatable, free, onOrder, arrivalDay };
    send(ctx, style, available, out);
  }
  return out;
}

/**
 * What each store × SKU of a new style of category `cat` would sell a day — a comparable SKU's rate there, by the
 * chance the store carries the style and its size curve — and the first fill that covers it (by store, then SKU).
 */
function firstFills(ctx: Context, network: CategorySums, sales: SalesSums, skus: number[], cat: number) {
  const { state } = ctx;
  const C = Math.max(1, state.categories.ids.length);
  const Z = Math.max(1, state.sizes.ids.length);
  const cs = ctx.byCategory[cat];
  const stores = ctx.sellers;
  const firstFill = ctx.settings.initialDistribution.firstFillDays;
  // The chance each store carries the style: the share of the category's styles it held within the year.
  const chance = stores.map((l) => ctx.targets.carries[l * C + cat]);
  // Size curve per store: the store's sales by size within the style's category, Laplace-smoothed.
  const curve = stores.map((l) => {
    const bySize = skus.map((k) => sales.size[(l * C + cat) * Z + state.skus.size[k]] + 1);
    const total = bySize.reduce((a, b) => a + b, 0);
    return bySize.map((x) => x / total);
  });
  const cellRate = comparableRates(ctx, network, cat);
  const z = cycleQuantile(cs.serviceLevel, firstFill);
  const rate = stores.map((l, i) => skus.map((_, j) => chance[i] * cellRate[l] * curve[i][j] * skus.length));
  const want = rate.map((byJ) =>
    byJ.map((r) => (r > 0 ? Math.max(cs.presentationMinimum, stockFor(r, 0, firstFill, z)) : 0)),
  );
  return { rate, want, curve };
}
type FirstFills = ReturnType<typeof firstFills>;

/** Each store's first fill of SKU j, or, where the warehouse is short, each unit where it most likely sells. */
function allocate({ rate, want }: FirstFills, j: number, allocatable: number, firstFill: number): number[] {
  const wanted = want.map((byJ) => byJ[j]);
  const total = wanted.reduce((a, b) => a + b, 0);
  if (total <= allocatable) return wanted;
  const given = wanted.map(() => 0);
  const heap = new MaxHeap<{ key: number }>();
  const value = (i: number) => poissonTail(rate[i][j] * firstFill, given[i] + 1);
  wanted.forEach((_, i) => {
    if (wanted[i] > 0) heap.push({ key: i }, value(i));
  });
  for (let left = allocatable; left > 0 && heap.size; left--) {
    const i = heap.pop()!.item.key;
    given[i]++;
    if (given[i] < wanted[i]) heap.push({ key: i }, value(i));
  }
  return given;
}

/** The planned first fills as transfers, from the warehouses holding most first, each with its reason. */
function send(
  ctx: Context,
  style: {
    s: number;
    skus: number[];
    cs: CategorySettings;
    fill: FirstFills;
    plan: number[][];
    allocatable: number[];
    free: number[];
    onOrder: number[];
    arrivalDay: number;
  },
  available: (w: number, k: number) => number,
  out: Decision[],
): void {
  const { state, warehouses, sellers: stores } = ctx;
  const L = state.locations.ids.length;
  const { s, skus, cs, fill, plan, allocatable, free, onOrder, arrivalDay } = style;
  const { rate, want, curve } = fill;
  const firstFill = ctx.settings.initialDistribution.firstFillDays;
  skus.forEach((k, j) => {
    stores.forEach((l, i) => {
      let left = plan[j][i];
      if (left < cs.minimumTransferQuantity) return;
      for (const w of [...warehouses].sort((a, b) => available(b, k) - available(a, k) || a - b)) {
        const take = Math.min(left, available(w, k));
        if (take <= 0) continue;
        ctx.promised[k * L + w] += take;
        ctx.incoming[k * L + l] += take;
        left -= take;
        out.push(
          decision(ctx.explain, 'InitialDistribution', w, l, k, take, () => ({
            reason:
              `new style ${state.styles.ids[s]}: ${take} units, what a SKU of its category sells there over ` +
              `${firstFill} days at ${cs.serviceLevel * 100}% service (${round2(rate[i][j])}/day by the ` +
              `store's size curve)` +
              (plan[j][i] < want[i][j] ? `; the warehouse is short (${allocatable[j]} allocatable)` : '') +
              (onOrder[j] > 0
                ? `; ${onOrder[j]} units on purchase orders arriving by ${dayText(arrivalDay)} counted`
                : ''),
            details: {
              demandPerDay: round2(rate[i][j]),
              firstFillDays: firstFill,
              wanted: want[i][j],
              sizeShare: round2(curve[i][j]),
              allocatable: allocatable[j],
              warehouseFree: free[j],
              arrivingOnPurchaseOrders: onOrder[j],
              holdbackPercentage: cs.holdbackPercentage,
            },
          })),
        );
        if (left === 0) break;
      }
    });
  });
}
