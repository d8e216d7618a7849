/**
 * A price cut under way (a promotion, the first days of a markdown) lifts demand now, and the estimate reads the
 * days before it (price-regime.ts), so the coming days' demand is that estimate times the cut's lift. The lift is
 * measured on the cut's own days so far: the units the style sold on them against those its cells sold on the same
 * weekdays one to three weeks before, at the old price and in stock — so a cut that began on a quiet weekday is not
 * read as a weak one. Summed over the style's cells across the network, and shrunk towards no lift by
 * LIFT_PRIOR_UNITS, so a few units on one day say little.
 *
 * How long the cut lasts is not in the data: it is taken for a promotion of `promotionDays` days (the setting). One
 * that has lasted longer is read as any young price was before it: its days count with the others
 * (price-regime.ts), until it has held long enough to be read from its own days alone (a markdown).
 */

import { demandBeyond, SOLD_OUT_ROUNDS } from './demand.js';

/** Units of evidence a lift needs to move away from 1 (added to both sides of the ratio). */
export const LIFT_PRIOR_UNITS = 10;
/** The most a cut is taken to multiply demand by. */
export const LIFT_MAX = 4;
/** Weeks back a cut day's weekday is compared with. */
const REFERENCE_WEEKS = 3;

/**
 * The lift of a cut of `cutDays` days (the window's newest) for the cells `c` of `cells`: each window
 * `sales[c * windowDays + (head + d) % windowDays]`, oldest day first, NaN on a day without stock, a sold-out day's
 * units negated (a lower bound, read as sold). `skip`: the window's days at other prices than the old one (the cut's
 * among them), never a reference.
 */
export function cutLift(
  sales: Float32Array,
  cells: readonly number[],
  windowDays: number,
  head: number,
  cutDays: number,
  skip: Uint8Array,
): number {
  let sold = 0;
  let before = 0;
  const soldOut: { units: number; before: number }[] = [];
  for (const c of cells) {
    const base = c * windowDays;
    const at = (d: number) => sales[base + ((head + d) % windowDays)];
    for (let d = Math.max(0, windowDays - cutDays); d < windowDays; d++) {
      const x = at(d);
      if (x !== x) continue;
      let sum = 0;
      let n = 0;
      for (let j = 1; j <= REFERENCE_WEEKS && d - 7 * j >= 0; j++) {
        const y = at(d - 7 * j);
        if (y !== y || skip[d - 7 * j]) continue;
        sum += Math.abs(y);
        n++;
      }
      if (n === 0) continue;
      before += sum / n;
      if (x < 0) soldOut.push({ units: -x, before: sum / n });
      else sold += x;
    }
  }
  // A day that sold out sold less than its demand: it is read as the demand expected beyond what it sold, at the
  // lift the round before gave (as the estimate reads its own sold-out days, demand.ts).
  const ratio = (cut: number) =>
    Math.min(LIFT_MAX, Math.max(1, (cut + LIFT_PRIOR_UNITS) / (before + LIFT_PRIOR_UNITS)));
  let lift = ratio(sold + soldOut.reduce((s, x) => s + x.units, 0));
  for (let round = 0; round < SOLD_OUT_ROUNDS && soldOut.length > 0; round++)
    lift = ratio(soldOut.reduce((s, x) => s + demandBeyond(x.before * lift, x.units), sold));
  return lift;
}

/**
 * The daily rate to plan a horizon of `horizon` days with, for a cell estimated at `rate` whose style's price cut
 * lifts demand by `lift` (1: none) for `daysLeft` more days.
 */
export function liftedRate(rate: number, lift: number, daysLeft: number, horizon: number): number {
  if (!(lift > 1) || daysLeft <= 0 || horizon <= 0) return rate;
  return rate * (1 + ((lift - 1) * Math.min(horizon, daysLeft)) / horizon);
}
