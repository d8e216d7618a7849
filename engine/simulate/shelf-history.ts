/**
 * The first pass over the history: each selling cell's days in stock, and what its style did at each location and
 * across the network — the facts that tell which days without stock a location still carried a SKU.
 */
import { IN, OUT, SOLD_OUT, type CellDayRows, type CellWalk } from './cell-walk.js';
import type { DemandLayout } from './history-range.js';

export interface Shelves {
  /** Per cell: its days with stock (sold-out days included). */
  fullDays: Int32Array;
  /** Per location × style: the first day the style was on a shelf there (`days` where never). */
  styleFirst: Int32Array;
  /** Per location × style: the last day the style was on sale there for sure (sold, came in, or left over since). */
  styleLastActive: Int32Array;
  /** Per location × style: the last day it was on a shelf there, and whether it left it by selling out. */
  styleLast: Int32Array;
  styleSoldOut: Uint8Array;
  /** Per style: the last day any selling location sold it or received it. */
  styleNetLast: Int32Array;
  /** Per cell: 1 when it ever held stock. */
  everIn: Uint8Array;
  /** Per cell: 1 with a day sold out or without stock (the only cells with anything to estimate). */
  gappy: Uint8Array;
  /** Per location: levels of 0 posted for a SKU it had none of (it counts its empty shelves). */
  emptyCounts: Int32Array;
  /** Per location × day: levels of 0 posted for SKUs it had none of that day (a day it counted its empty shelves). */
  emptyAt: Uint16Array;
  /** The cells ever in stock at a selling location. */
  stocked: number[];
}

/** Which locations sell (anything, anywhere in the history read): a store or webshop, else a warehouse. */
export function sellingOf(rows: CellDayRows, locations: number): Uint8Array {
  const selling = new Uint8Array(locations);
  for (let j = 0; j < rows.cell.length; j++) if (rows.sold[j] > 0) selling[rows.cell[j] % locations] = 1;
  return selling;
}

/** One walk of each cell's rows gives every fact above, so they are read in one function. */
export function readShelves(
  rows: CellDayRows,
  days: number,
  layout: DemandLayout,
  cellWalk: CellWalk,
  selling: Uint8Array,
): Shelves {
  const { locations: L, skus, styleOf, styleStart } = layout;
  const styles = styleStart.length - 1;
  const cells = L * skus;
  const sh: Shelves = {
    fullDays: new Int32Array(cells),
    styleFirst: new Int32Array(L * styles).fill(days),
    styleLastActive: new Int32Array(L * styles).fill(-1),
    styleLast: new Int32Array(L * styles).fill(-1),
    styleSoldOut: new Uint8Array(L * styles),
    styleNetLast: new Int32Array(styles).fill(-1),
    everIn: new Uint8Array(cells),
    gappy: new Uint8Array(cells),
    emptyCounts: new Int32Array(L),
    emptyAt: new Uint16Array(L * days),
    stocked: [],
  };
  for (let l = 0; l < L; l++) {
    if (!selling[l]) continue;
    const ownStock = layout.fulfilled[l] === 0;
    for (let k = 0; k < skus; k++) {
      const c = k * L + l;
      const [j0, j1] = cellWalk.rowsOf(c);
      if (j0 === j1) continue;
      const s = styleOf[k];
      let full = 0;
      let first = days;
      let last = -1;
      let lastSoldOut = false;
      let gaps = false;
      // The last day it was on sale for sure: it sold or came in, or stock left over since then was taken away the
      // next day (a style's days on sale end with the last of these anywhere; a customer's return sitting on a
      // shelf emptied before says nothing of it).
      let lastActive = -1;
      let leftOver = false;
      cellWalk.walk(
        c,
        (a, b, inStock) => {
          if (!inStock) {
            gaps = true;
            leftOver = false;
            return;
          }
          full += b - a;
          first = Math.min(first, a);
          last = Math.max(last, b - 1);
          lastSoldOut = false;
        },
        (e, j, status, start) => {
          const sold = rows.sold[j];
          const end = rows.endLevel[j];
          if (sold > 0 || (ownStock && end - start + rows.net[j] > 0)) lastActive = e;
          else if (ownStock && leftOver && start - end - rows.net[j] > 0) lastActive = Math.max(lastActive, e - 1);
          leftOver = (leftOver || lastActive === e) && end > 0;
          if (ownStock && rows.counted[j] && status === OUT && start <= 0 && end <= 0) {
            sh.emptyCounts[l]++;
            if (sh.emptyAt[l * days + e] < 65535) sh.emptyAt[l * days + e]++;
          }
          if (status !== IN) gaps = true;
          if (status === OUT) return;
          first = Math.min(first, e);
          last = Math.max(last, e);
          lastSoldOut = status === SOLD_OUT;
          full++;
        },
      );
      if (last < 0) continue;
      sh.everIn[c] = 1;
      sh.stocked.push(c);
      const ls = l * styles + s;
      sh.styleNetLast[s] = Math.max(sh.styleNetLast[s], lastActive);
      sh.styleLastActive[ls] = Math.max(sh.styleLastActive[ls], lastActive);
      sh.gappy[c] = gaps ? 1 : 0;
      sh.styleFirst[ls] = Math.min(sh.styleFirst[ls], first);
      if (last > sh.styleLast[ls]) {
        sh.styleLast[ls] = last;
        sh.styleSoldOut[ls] = lastSoldOut ? 1 : 0;
      } else if (last === sh.styleLast[ls] && lastSoldOut) sh.styleSoldOut[ls] = 1;
      sh.fullDays[c] = full;
    }
  }
  return sh;
}
