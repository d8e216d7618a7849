/** Poisson tail probabilities: the chance the k-th unit held over a horizon gets sold. */

/** P(D ≥ n) for D ~ Poisson(mean), n ≥ 0. */
export function poissonTail(mean: number, n: number): number {
  if (n <= 0) return 1;
  if (mean <= 0) return 0;
  // Sum the pmf below n in log space for stability at larger means.
  let term = Math.exp(-mean);
  let cdf = term;
  for (let k = 1; k < n; k++) {
    term *= mean / k;
    cdf += term;
    if (term < 1e-16 && k > mean) break;
  }
  return Math.max(0, 1 - cdf);
}

/** E[(D − q)+]: expected units of demand beyond q units held (0 where q is far above the mean). */
export function expectedShortage(mean: number, q: number): number {
  if (mean <= 0) return 0;
  if (q <= 0) return mean - q;
  if (q > mean + 8 * Math.sqrt(mean) + 8) return 0;
  // E[(D − q)+] = mean − Σ_{k=1..q} P(D ≥ k), the tail summed as the pmf runs.
  let pmf = Math.exp(-mean);
  let below = pmf;
  let sold = 0;
  const whole = Math.floor(q);
  for (let k = 1; k <= whole; k++) {
    sold += 1 - below;
    pmf *= mean / k;
    below += pmf;
  }
  // A fractional unit held sells as the next whole one would, in part.
  sold += (q - whole) * (1 - below);
  return Math.max(0, mean - sold);
}

/** E[min(D, q)]: expected units sold from q units held. */
export function expectedSales(mean: number, q: number): number {
  let s = 0;
  for (let k = 1; k <= q; k++) {
    const p = poissonTail(mean, k);
    s += p;
    if (p < 1e-9) break;
  }
  return s;
}
