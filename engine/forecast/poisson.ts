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
