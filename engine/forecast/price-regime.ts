/**
 * Days sold at another price than today's say little about today's demand: a promotion lifts its week's sales, a
 * style marked down sells faster than before. The estimate reads a style's days at the price it sells at now — the
 * discount of its latest day with sales, across the network — and leaves out the days whose discount differs from
 * that by REGIME_STEP or more, as it leaves out the days without stock, once today's price has held for
 * REGIME_MIN_DAYS days with sales: a promotion's days no longer lift the weeks after it, and a markdown that has held
 * two weeks is read from its own days. A promotion under way is read from the days before it, and its lift sized
 * apart (promotion.ts).
 */

/** A discount this far from today's (a share of the list price) is another price regime. */
export const REGIME_STEP = 0.1;
/** Days with sales at today's price before the days at other prices are left out. */
export const REGIME_MIN_DAYS = 14;

/** What `otherPriceDays` found of a style's prices. */
export interface PriceDays {
  /** Whether any day of the window is left out. */
  skipping: boolean;
  /**
   * A price cut under way: the calendar days since the style's price fell REGIME_STEP or more below its other days'
   * (1: its latest day was the first), while fewer than REGIME_MIN_DAYS days have sold at it; 0: none. Its days are
   * left out, and the days before it are what the estimate reads (promotion.ts sizes the cut's lift apart).
   */
  cutDays: number;
}

const NONE: PriceDays = { skipping: false, cutDays: 0 };

/**
 * Writes into `skip` (the window's days, oldest first) 1 for each day style `s` sold at another price than on its
 * latest day with sales, 0 for the others. `discount`: per style × window slot (`s * windowDays + slot`, a ring with
 * `head` as the oldest slot), NaN on a day the style did not sell.
 *
 * A price that has held only a few days is not yet what the style sells at. When it is dearer than the other days
 * (a promotion just ended) every day counts, as before the promotion; when it is a cut (a promotion under way, the
 * first days of a markdown) younger than `promotionDays`, the days at it and below are left out instead, and `cutDays`
 * says how long it has run.
 */
export function otherPriceDays(
  discount: Float32Array | undefined,
  s: number,
  windowDays: number,
  head: number,
  skip: Uint8Array,
  promotionDays: number,
): PriceDays {
  skip.fill(0);
  if (!discount) return NONE;
  const base = s * windowDays;
  const at = (d: number) => discount[base + ((head + d) % windowDays)];
  let latest = windowDays - 1;
  while (latest >= 0 && at(latest) !== at(latest)) latest--;
  if (latest < 0) return NONE;
  const now = at(latest);
  let same = 0;
  let dearer = 0;
  let cheaper = 0;
  let start = 0;
  for (let d = 0; d < windowDays; d++) {
    const x = at(d);
    if (x !== x) continue;
    if (Math.abs(x - now) >= REGIME_STEP) {
      skip[d] = 1;
      if (x < now) dearer++;
      else cheaper++;
      start = d + 1;
    } else same++;
  }
  const any = dearer + cheaper > 0;
  if (!any || same >= REGIME_MIN_DAYS) return { skipping: any, cutDays: 0 };
  const cutDays = windowDays - start;
  if (dearer === 0 || dearer < cheaper || cutDays >= promotionDays) {
    skip.fill(0);
    return NONE;
  }
  for (let d = 0; d < windowDays; d++) {
    const x = at(d);
    skip[d] = x === x && x > now - REGIME_STEP ? 1 : 0;
  }
  return { skipping: true, cutDays };
}
