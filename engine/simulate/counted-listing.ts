/**
 * How long a style stays listed by the stock counts of the locations holding their own stock. A location that
 * counts its empty shelves posts a level of 0 for a SKU it has none of as long as it lists the SKU, whether or not
 * anyone holds any of it: such a count says the style is still in the range on that day and until the next count
 * would come. A count that takes stock away (leftovers sent back, shrinkage found) says nothing of the kind.
 *
 * An online location selling from a warehouse's stock sells a style as long as the network lists it, also after
 * its last units sold everywhere (fulfilled-days.ts): these counts are what tells how long that is.
 */
import { openingOr, type CellDayRows } from './cell-walk.js';
import type { DemandLayout, HistoryRange } from './history-range.js';
import { countCadence, EMPTY_COUNTS } from './outage-demand.js';

/**
 * Per style: the last day of the history read a location holding its own stock listed it by counting its empty
 * shelf — the day of its last such count and the days until its next count would have come — or −1.
 */
export function countedListing(rows: CellDayRows, range: HistoryRange, layout: DemandLayout): Int32Array {
  const { days } = range;
  const L = layout.locations;
  const S = layout.styleStart.length - 1;
  const countedOn = new Uint8Array(L * days);
  const emptyCounts = new Int32Array(L);
  const lastEmpty = new Int32Array(L * S).fill(-1);
  const n = rows.cell.length;
  for (let j = 0; j < n;) {
    const cell = rows.cell[j];
    const l = cell % L;
    const s = layout.styleOf[Math.floor(cell / L)];
    let level = 0;
    for (; j < n && rows.cell[j] === cell; j++) {
      const d = rows.d[j];
      const start = level;
      level = rows.endLevel[j];
      if (d < 0 || d >= days || layout.fulfilled[l] === 1 || !rows.counted[j]) continue;
      countedOn[l * days + d] = 1;
      const empty = start <= 0 && openingOr(rows.opening[j], start) <= 0 && level <= 0 && !(rows.sold[j] > 0);
      if (!empty) continue;
      emptyCounts[l]++;
      if (d > lastEmpty[l * S + s]) lastEmpty[l * S + s] = d;
    }
  }
  const until = new Int32Array(S).fill(-1);
  for (let l = 0; l < L; l++) {
    if (emptyCounts[l] < EMPTY_COUNTS) continue;
    const every = countEvery(countedOn.subarray(l * days, (l + 1) * days));
    for (let s = 0; s < S; s++) {
      const d = lastEmpty[l * S + s];
      if (d >= 0) until[s] = Math.max(until[s], Math.min(days - 1, d + every - 1));
    }
  }
  return until;
}

/** A location's usual days between two days it posted levels. */
function countEvery(countedOn: Uint8Array): number {
  const gaps: number[] = [];
  let last = -1;
  for (let d = 0; d < countedOn.length; d++) {
    if (!countedOn[d]) continue;
    if (last >= 0) gaps.push(d - last);
    last = d;
  }
  return countCadence(gaps);
}
