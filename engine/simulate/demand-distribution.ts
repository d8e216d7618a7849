/**
 * One location × SKU × day's demand: customers come at a rate, their number overdispersed as a negative binomial
 * (variance ν + φ·ν²; φ = 0 is Poisson), and each takes a number of units from the SKU's basket distribution (most
 * take one; where some take several at once, a day's units come in lumps). With every customer taking one unit it
 * is the plain negative binomial of the day's units.
 *
 * What the estimates need of it is the expected demand of a day that sold out: E[D | D ≥ s], the units sold being
 * a lower bound of what was wanted.
 */

/**
 * Units one customer takes: `pmf[x]` is the chance of x units (pmf[0] is 0), the last entry standing for itself
 * and everything above it in a geometric tail with the same chance of stopping (see `tail`).
 */
export interface Basket {
  pmf: Float64Array;
  /** The chance that a customer who took at least the last entry's units takes one more. */
  tail: number;
  /** E[B] and E[B²] / E[B] (1 when every customer takes one unit). */
  mean: number;
  kappa: number;
}

/** A basket whose chance of more than one unit is below this is one unit (the plain negative binomial). */
const SINGLE_UNIT = 1e-3;
/** Customers a day beyond which the day's units are a negative binomial with the same mean and variance. */
const MANY_CUSTOMERS = 25;
/** Terms summed beyond the sold-out units, at most. */
const MAX_TERMS = 20_000;

/** The basket of the pmf `p` over 1 … J (p[0] ignored), the tail continuing the last entry's chance of one more. */
export function basketOf(p: ArrayLike<number>, tail: number): Basket {
  const J = p.length - 1;
  const pmf = new Float64Array(J + 1);
  let total = 0;
  for (let x = 1; x <= J; x++) total += Math.max(0, p[x]);
  for (let x = 1; x <= J; x++) pmf[x] = total > 0 ? Math.max(0, p[x]) / total : x === 1 ? 1 : 0;
  // Moments with the tail: the last entry's mass spread geometrically over J, J + 1, … with ratio `tail`.
  let m1 = 0;
  let m2 = 0;
  for (let x = 1; x < J; x++) {
    m1 += x * pmf[x];
    m2 += x * x * pmf[x];
  }
  const q = Math.min(Math.max(tail, 0), 0.95);
  // E[X] and E[X²] of J + G, G geometric on 0, 1, … with P(G ≥ g) = q^g.
  const g1 = q / (1 - q);
  const g2 = (q * (1 + q)) / (1 - q) ** 2;
  m1 += pmf[J] * (J + g1);
  m2 += pmf[J] * (J * J + 2 * J * g1 + g2);
  return { pmf, tail: q, mean: m1, kappa: m1 > 0 ? m2 / m1 : 1 };
}

/** Every customer takes one unit. */
export const ONE_UNIT: Basket = basketOf([0, 1], 0);

/** Whether a basket is, for the estimates, one unit a customer. */
export const isSingle = (b: Basket | undefined): boolean => !b || 1 - b.pmf[1] < SINGLE_UNIT;

/** E[D | D ≥ s] and E[D² | D ≥ s]. */
export interface Moments {
  m1: number;
  m2: number;
}

/**
 * E[D | D ≥ s] for a day whose demand has mean `mu`: customers a negative binomial with overdispersion `invK`, each
 * taking units from `basket` (absent: one each).
 */
export function expectedGiven(s: number, mu: number, invK: number, basket?: Basket): number {
  return momentsGiven(s, mu, invK, basket).m1;
}

/** E[D | D ≥ s] and E[D² | D ≥ s] of the day's demand (see expectedGiven). */
export function momentsGiven(s: number, mu: number, invK: number, basket?: Basket): Moments {
  if (isSingle(basket)) return nbMoments(s, mu, invK);
  const b = basket!;
  const nu = mu / b.mean;
  // Many customers a day: their lumps are lost in the crowd; the same mean and variance as a negative binomial.
  if (nu > MANY_CUSTOMERS) return nbMoments(s, mu, invK + (b.kappa - 1) / mu);
  return compoundMoments(s, mu, invK, b);
}

/**
 * The moments given D ≥ s of the compound distribution, by Panjer's recursion: for customers in the (a, b, 0)
 * class, P(D = x) = Σ_j (a + b·j/x) f_j P(D = x − j). Summed upwards until the rest cannot matter.
 */
export function compoundMoments(s: number, mu: number, invK: number, basket: Basket): Moments {
  const from = Math.ceil(s);
  if (!(mu > 0)) return { m1: s, m2: s * s };
  if (from <= 0) return { m1: mu, m2: mu * basket.kappa + invK * mu * mu + mu * mu };
  const nu = mu / basket.mean;
  const poisson = invK <= 1e-9;
  // Customers: Poisson(ν), or negative binomial with r = 1/φ and β = φ·ν.
  const beta = poisson ? 0 : invK * nu;
  const a = poisson ? 0 : beta / (1 + beta);
  const bb = poisson ? nu : (1 / invK - 1) * a;
  const p0 = poisson ? Math.exp(-nu) : Math.pow(1 + beta, -1 / invK);
  if (!(p0 > 0)) return nbMoments(s, mu, invK + (basket.kappa - 1) / mu);
  const { pmf, tail } = basket;
  const J = pmf.length - 1;
  /** f_x, the geometric tail beyond J written out as far as the sum reaches. */
  const f: number[] = Array.from(pmf);
  f[J] = pmf[J] * (1 - tail);
  const p: number[] = [p0];
  let below = p0;
  let mass = 0;
  let first = 0;
  let second = 0;
  for (let x = 1; x < from + MAX_TERMS; x++) {
    if (x > J) f.push(f[x - 1] * tail);
    let px = 0;
    for (let j = 1; j <= x; j++) {
      const fj = f[j];
      if (fj > 0) px += (a + (bb * j) / x) * fj * p[x - j];
    }
    p.push(px);
    if (x < from) {
      below += px;
      continue;
    }
    mass += px;
    first += x * px;
    second += x * x * px;
    // Past the mean and the units sold, once a term is negligible the rest is too (tails fall off geometrically).
    if (x > from + 2 && x > 2 * mu && px < 1e-12 * mass) break;
  }
  // Too little mass at or above s to weigh in doubles: barely more than s.
  if (!(mass > 1e-300) || below >= 1) return { m1: s, m2: s * s };
  const m1 = first / mass;
  return m1 < s ? { m1: s, m2: s * s } : { m1, m2: second / mass };
}

/**
 * E[D | D ≥ s] for daily demand D with mean `mu`, negative binomial with overdispersion `invK` (variance
 * mu + invK·mu²), Poisson when invK is 0: the expected demand of a day that sold out after selling s.
 */
export function conditionalMean(s: number, mu: number, invK: number): number {
  return nbMoments(s, mu, invK).m1;
}

/** E[D | D ≥ s] and E[D² | D ≥ s] of the negative binomial (see conditionalMean). */
export function nbMoments(s: number, mu: number, invK: number): Moments {
  if (!(mu > 0)) return { m1: s, m2: s * s };
  const from = Math.ceil(s);
  if (from <= 0) return { m1: mu, m2: mu + invK * mu * mu + mu * mu };
  // Summed upwards from s: p(x+1) = p(x)·(x+k)/(x+1)·mu/(k+mu), Poisson's limit mu/(x+1).
  const poisson = invK <= 1e-9;
  const k = poisson ? 0 : 1 / invK;
  let logP: number;
  if (poisson) logP = from * Math.log(mu) - mu - logGamma(from + 1);
  else
    logP =
      logGamma(from + k) -
      logGamma(k) -
      logGamma(from + 1) +
      k * Math.log(k / (k + mu)) +
      from * Math.log(mu / (k + mu));
  let p = Math.exp(logP);
  // Too far from the mean to weigh in doubles: below it, nearly every day sells at least s; above, barely more.
  if (!(p > 0)) return from < mu ? { m1: mu, m2: mu + invK * mu * mu + mu * mu } : { m1: s, m2: s * s };
  let mass = 0;
  let first = 0;
  let second = 0;
  const ratio = poisson ? 0 : mu / (k + mu);
  for (let x = from; x < from + 100_000; x++) {
    mass += p;
    first += x * p;
    second += x * x * p;
    const next = poisson ? (p * mu) / (x + 1) : (p * (x + k) * ratio) / (x + 1);
    if (x > mu && next < 1e-12 * mass) break;
    p = next;
  }
  if (!(mass > 0) || first / mass < s) return { m1: s, m2: s * s };
  return { m1: first / mass, m2: second / mass };
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const g = 7;
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  x -= 1;
  let a = c[0];
  const t = x + g + 0.5;
  for (let i = 1; i < g + 2; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}
