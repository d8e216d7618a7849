/**
 * Each location × SKU cell's level (units per day at a day index of 1), read from its whole history and drawn
 * towards what its SKU across the network and its location's category say (empirical Bayes).
 *
 * A cell's own mean is noisy — a slow mover's few units over a year — and its noise is not neutral for the days the
 * estimates are for: a cell whose customers happened to come more often sold out more often, so the days without
 * stock belong mostly to cells whose own means read high. Drawn towards the pooled level by as much as the cells
 * differ beyond their noise, the levels of the cells that ran out are as right as those of the cells that did not.
 * A cell never in stock (a size a store never got) takes the pooled level.
 */

export interface LevelInput {
  locations: number;
  skus: number;
  categories: number;
  catOf: (k: number) => number;
  /** The cells ever in stock at a selling location. */
  stocked: ArrayLike<number>;
  /** Per cell: the demand of its days in stock (sold-out days at their expected demand) and their summed index. */
  units: Float64Array;
  exposure: Float64Array;
  /** Per cell, at its pooled level m: the variance of a day's demand per unit of its mean (1 for Poisson). */
  spread: (c: number, m: number) => number;
}

export interface PooledLevels {
  /** Per cell: its level drawn towards the pooled one (the pooled one where it was never in stock; 0: unknown). */
  level: Float64Array;
  /** Per cell: the pooled level, the SKU's across the network × its location's for the category. */
  pooled: Float64Array;
  /** Per category: the cells' spread around the pooled level beyond their noise, as a squared coefficient. */
  spread: Float64Array;
}

/** Rounds of the SKU × location fit. */
const FIT_ROUNDS = 6;
/** Cells with at least this many index-days in stock tell how much cells differ. */
const SPREAD_MIN_EXPOSURE = 28;
/** Bounds of the squared coefficient of the cells' spread: never a pooled level taken whole, nor one ignored. */
const MIN_SPREAD = 0.01;
const MAX_SPREAD = 100;

export function pooledLevels(input: LevelInput): PooledLevels {
  const { locations: L, skus: K, categories: C, catOf, stocked, units, exposure } = input;
  const sku = new Float64Array(K);
  const loc = new Float64Array(L * C).fill(1);
  const num = new Float64Array(Math.max(K, L * C));
  const den = new Float64Array(Math.max(K, L * C));
  // One half of a round: per group (an SKU, or a location's category), the units of its cells over their exposure
  // times the other side's level; `none` where the group has no exposure.
  const fitHalf = (
    groups: number,
    groupOf: (l: number, k: number) => number,
    other: (l: number, k: number) => number,
    out: Float64Array,
    none: number,
  ) => {
    num.fill(0);
    den.fill(0);
    for (let i = 0; i < stocked.length; i++) {
      const c = stocked[i];
      const l = c % L;
      const k = (c - l) / L;
      const g = groupOf(l, k);
      num[g] += units[c];
      den[g] += exposure[c] * other(l, k);
    }
    for (let g = 0; g < groups; g++) out[g] = den[g] > 0 ? num[g] / den[g] : none;
  };
  for (let round = 0; round < FIT_ROUNDS; round++) {
    fitHalf(
      K,
      (_, k) => k,
      (l, k) => loc[l * C + catOf(k)],
      sku,
      0,
    );
    fitHalf(
      L * C,
      (l, k) => l * C + catOf(k),
      (_, k) => sku[k],
      loc,
      1,
    );
  }
  const pooled = new Float64Array(L * K);
  for (let k = 0; k < K; k++) for (let l = 0; l < L; l++) pooled[k * L + l] = sku[k] * loc[l * C + catOf(k)];

  // How much cells differ beyond their noise, per category: E[(r − m)² − noise] / E[m²].
  const vNum = new Float64Array(C);
  const vDen = new Float64Array(C);
  for (let i = 0; i < stocked.length; i++) {
    const c = stocked[i];
    const x = exposure[c];
    const m = pooled[c];
    if (x < SPREAD_MIN_EXPOSURE || !(m > 0)) continue;
    const cat = catOf((c - (c % L)) / L);
    const r = units[c] / x;
    vNum[cat] += (r - m) ** 2 - (m * input.spread(c, m)) / x;
    vDen[cat] += m * m;
  }
  const spread = new Float64Array(C);
  for (let cat = 0; cat < C; cat++)
    spread[cat] = vDen[cat] > 0 ? Math.min(MAX_SPREAD, Math.max(MIN_SPREAD, vNum[cat] / vDen[cat])) : MAX_SPREAD;

  // Gamma prior of mean m and squared coefficient v (shape 1/v) against the cell's counts, thinned by their
  // spread per unit: the posterior mean.
  const level = Float64Array.from(pooled);
  for (let i = 0; i < stocked.length; i++) {
    const c = stocked[i];
    const m = pooled[c];
    const x = exposure[c];
    if (!(m > 0)) {
      level[c] = x > 0 ? units[c] / x : 0;
      continue;
    }
    const shape = 1 / spread[catOf((c - (c % L)) / L)];
    const rho = Math.max(1, input.spread(c, m));
    level[c] = (units[c] / rho + shape) / (x / rho + shape / m);
  }
  return { level, pooled, spread };
}
