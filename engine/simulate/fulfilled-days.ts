/**
 * The days of an online location that sells from a warehouse's stock (settings.fulfilledFrom). Its rows, as the
 * daily levels read them, are the warehouse's level and its own sales. But a warehouse holds a style before it goes
 * on sale (deliveries ahead of a launch) and after (stock taken back from the stores, waiting for clearance), and
 * runs out of it by shipping its last units to the stores as often as by selling them online.
 *
 * So such a location lists a style from the first day any location sold it in the history read to the last day the
 * network still listed it: its last sale anywhere, or later where the stores or the warehouse went on counting their
 * empty shelves of it (counted-listing.ts) — a style sold out everywhere is still on sale online, its customers
 * finding none. Its days there are the warehouse's level, its days outside are without stock and not carried. A day
 * of the span without stock is a day it carried the style and could not sell it (actual-demand.ts estimates its
 * demand as for any other).
 */
import type { DemandLayout, HistoryRange, HistoryRows, OnSale } from './actual-demand.js';
import { countedListing } from './counted-listing.js';

export function onSale(rows: HistoryRows, range: HistoryRange, layout: DemandLayout): OnSale {
  const S = layout.styleStart.length - 1;
  const first = new Int32Array(S).fill(range.days);
  const last = new Int32Array(S).fill(-1);
  for (let j = 0; j < rows.cell.length; j++) {
    const d = rows.d[j];
    if (!(rows.sold[j] > 0) || d < 0 || d >= range.days) continue;
    const s = layout.styleOf[Math.floor(rows.cell[j] / layout.locations)];
    if (d < first[s]) first[s] = d;
    if (d > last[s]) last[s] = d;
  }
  const listed = countedListing(rows, range, layout);
  for (let s = 0; s < S; s++) if (last[s] >= first[s]) last[s] = Math.max(last[s], listed[s]);
  return { first, last };
}

const COLUMNS = ['cell', 'd', 'endLevel', 'opening', 'soldOut', 'counted', 'sold', 'net', 'mutations', 'revenue'];

/**
 * The rows with the days of each location selling from a warehouse's stock cut to its styles' spans: outside, no
 * stock. Such a cell has a row the day its style's span opens (the level the warehouse holds then), the day after it
 * closes, and the period's first day, each starting with the level it holds: a level never carries over a span's
 * edge, and the period does not start from one it does not read.
 */
export function fulfilledRows(rows: HistoryRows, range: HistoryRange, layout: DemandLayout, sale: OnSale): HistoryRows {
  const L = layout.locations;
  const n = rows.cell.length;
  const out: Record<string, number[]> = Object.fromEntries(COLUMNS.map((c) => [c, []]));
  const src = rows as unknown as Record<string, ArrayLike<number>>;
  for (let j = 0; j < n;) {
    const cell = rows.cell[j];
    let to = j;
    while (to < n && rows.cell[to] === cell) to++;
    const own = layout.fulfilled[cell % L] === 0;
    const s = layout.styleOf[Math.floor(cell / L)];
    const [first, last] = [sale.first[s], sale.last[s]];
    const listed = (d: number) => d >= first && d <= last;
    const marks = own
      ? []
      : [...new Set(last >= first ? [first, last + 1, range.periodFrom] : [range.periodFrom])]
          .filter((d) => d >= 0 && d < range.days)
          .sort((a, b) => a - b);
    /** The warehouse's level held, as the rows read it. */
    let held = 0;
    let m = 0;
    for (; j <= to; j++) {
      const d = j < to ? rows.d[j] : range.days;
      // A mark before this row's day (or this cell's last row) gets a row of its own: nothing happened but the edge.
      for (; m < marks.length && marks[m] < d; m++) {
        const level = listed(marks[m]) ? held : 0;
        for (const c of COLUMNS) out[c].push(0);
        const at = out.cell.length - 1;
        out.cell[at] = cell;
        out.d[at] = marks[m];
        out.endLevel[at] = level;
        out.opening[at] = level;
      }
      if (j === to) break;
      for (const c of COLUMNS) out[c].push(src[c][j]);
      if (own) continue;
      const at = out.cell.length - 1;
      const edge = m < marks.length && marks[m] === d;
      if (edge) m++;
      if (!listed(d)) {
        out.endLevel[at] = 0;
        out.opening[at] = 0;
      } else if (edge && Number.isNaN(rows.opening[j])) {
        // On an edge, the day starts with what the warehouse held, whatever the row before it said.
        out.opening[at] = held;
      }
      held = rows.endLevel[j];
    }
  }
  return {
    cell: Int32Array.from(out.cell),
    d: Int32Array.from(out.d),
    endLevel: Float64Array.from(out.endLevel),
    opening: Float64Array.from(out.opening),
    soldOut: Int32Array.from(out.soldOut),
    counted: Int32Array.from(out.counted),
    sold: Float64Array.from(out.sold),
    net: Float64Array.from(out.net),
    mutations: Float64Array.from(out.mutations),
    revenue: Float64Array.from(out.revenue),
  };
}
