/**
 * Days sold at another price than today's say little about today's demand: a promotion lifts its week's sales, a
 * style marked down sells faster than before. The estimate reads a style's days at the price it sells at now — the
 * discount of its latest day with sales, across the network — and leaves out the days whose discount differs from
 * that by REGIME_STEP or more, as it leaves out the days without stock, once today's price has held for
 * REGIME_MIN_DAYS days with sales: a promotion's days no longer lift the weeks after it, and a markdown that has held
 * two weeks is read from its own days. A promotion under way is read with the days before it, as it always was.
 */

/** A discount this far from today's (a share of the list price) is another price regime. */
export const REGIME_STEP = 0.1;
/** Days with sales at today's price before the days at other prices are left out. */
export const REGIME_MIN_DAYS = 14;

/**
 * Writes into `skip` (the window's days, oldest first) 1 for each day style `s` sold at another price than on its
 * latest day with sales, 0 for the others; answers whether any day is skipped. `discount`: per style × window
 * slot (`s * windowDays + slot`, a ring with `head` as the oldest slot), NaN on a day the style did not sell.
 */
export function otherPriceDays(
  discount: Float32Array | undefined,
  s: number,
  windowDays: number,
  head: number,
  skip: Uint8Array,
): boolean {
  skip.fill(0);
  if (!discount) return false;
  const base = s * windowDays;
  const at = (d: number) => discount[base + ((head + d) % windowDays)];
  let now = Number.NaN;
  for (let d = windowDays - 1; d >= 0 && now !== now; d--) now = at(d);
  if (now !== now) return false;
  let any = false;
  let same = 0;
  for (let d = 0; d < windowDays; d++) {
    const x = at(d);
    if (x !== x) continue;
    if (Math.abs(x - now) >= REGIME_STEP) {
      skip[d] = 1;
      any = true;
    } else same++;
  }
  // A price that has held only a few days (a promotion under way) is not yet what the style sells at: its days
  // count with the others, as every day did before it.
  if (any && same < REGIME_MIN_DAYS) {
    skip.fill(0);
    return false;
  }
  return any;
}
