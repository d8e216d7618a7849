/**
 * A style on the shelves before it goes on sale (sent to the stores ahead of its launch) sells nothing anywhere,
 * and those days say nothing of its demand: read as in-stock days without a sale they hold a new style's estimate
 * at a fraction of what it sells once launched, for weeks. So the window's leading days before the style's first
 * sale anywhere in the network are left out, when that many days without a sale anywhere are too many to be
 * chance at the rate the style has sold on since (below NOT_CHANCE): a slow style's quiet days still count.
 */

/** The chance under which a run of days without a sale anywhere is not the style's own quiet. */
export const NOT_CHANCE = 0.01;

/**
 * Marks in `skip` (the window's days, oldest first; days already marked stay so) the days before the style's launch,
 * when its window opens with days before it went on sale; answers whether it marked any. `sold`: per window day, 1
 * where the style sold anywhere in the network (soldDays).
 */
export function beforeLaunch(sold: Uint8Array, skip: Uint8Array): boolean {
  const windowDays = sold.length;
  const first = sold.indexOf(1);
  if (first <= 0) return false;
  let days = 0;
  for (let d = first; d < windowDays; d++) days += sold[d];
  const quiet = 1 - days / (windowDays - first);
  if (quiet ** first >= NOT_CHANCE) return false;
  for (let d = 0; d < first; d++) skip[d] = 1;
  return true;
}

/**
 * Per window day (oldest first), 1 where style `s` sold anywhere in the network: its discount ring is a number on
 * those days (EngineState.styleDiscount); without one, or where it holds no day (lines without prices), read off
 * its selling cells' windows (`cellsOf`; NaN: no stock; a sold-out day's units negated), passing over the cells that
 * sold on no day (`salesDays`) or had stock on none (`inStockDays`).
 */
export function soldDays(
  state: {
    sales: Float32Array;
    windowDays: number;
    windowHead: number;
    styleDiscount?: Float32Array;
    salesDays?: Int32Array;
    inStockDays?: Int32Array;
  },
  s: number,
  cellsOf: () => readonly number[],
  into: Uint8Array,
): Uint8Array {
  const { sales, windowDays: W, windowHead: head, styleDiscount, salesDays, inStockDays } = state;
  into.fill(0);
  if (styleDiscount) {
    let any = false;
    for (let d = 0; d < W; d++) {
      const x = styleDiscount[s * W + ((head + d) % W)];
      if (x === x) {
        into[d] = 1;
        any = true;
      }
    }
    // A feed whose lines carry no prices leaves the ring empty: the cells tell.
    if (any) return into;
  }
  for (const c of cellsOf()) {
    if ((salesDays && salesDays[c] === 0) || (inStockDays && inStockDays[c] === 0)) continue;
    for (let d = 0; d < W; d++) {
      const x = sales[c * W + ((head + d) % W)];
      if (x === x && x !== 0) into[d] = 1;
    }
  }
  return into;
}
