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
 * Marks in `skip` (the window's days, oldest first; days already marked stay so) the days before style's launch,
 * when its window opens with days before it went on sale; answers whether it marked any. `cells`: the style's
 * selling cells, each window `sales[c * windowDays + (head + d) % windowDays]`, NaN on a day without stock.
 */
export function beforeLaunch(
  sales: Float32Array,
  cells: readonly number[],
  windowDays: number,
  head: number,
  skip: Uint8Array,
): boolean {
  let first = windowDays;
  const sold = new Uint8Array(windowDays);
  for (const c of cells) {
    const base = c * windowDays;
    for (let d = 0; d < windowDays; d++) {
      const x = sales[base + ((head + d) % windowDays)];
      if (x === x && x !== 0) {
        sold[d] = 1;
        if (d < first) first = d;
      }
    }
  }
  if (first === 0 || first === windowDays) return false;
  let days = 0;
  for (let d = first; d < windowDays; d++) days += sold[d];
  const quiet = 1 - days / (windowDays - first);
  if (quiet ** first >= NOT_CHANCE) return false;
  for (let d = 0; d < first; d++) skip[d] = 1;
  return true;
}
