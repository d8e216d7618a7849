/**
 * The days a webshop selling from a warehouse's stock carries a style (fulfilled-days.ts): from the style's first
 * sale anywhere to the last day the network still lists it — its last sale, or later where the stores and the
 * warehouse go on counting its empty shelves (counted-listing.ts). Hand-written history: store 0 and warehouse 1
 * holding their own stock, the webshop 2 selling from the warehouse; style 0 in two sizes (SKUs 0 and 1), and
 * style 1 (SKU 2) the store counts empty every week, so that the store is one that counts its empty shelves.
 */
import { describe, expect, it } from 'vitest';
import { onSale } from '../engine/simulate/fulfilled-days.js';
import type { HistoryRows } from '../engine/simulate/history-range.js';
import { rowsOf, type Day } from './history-rows.js';

const L = 3;
const DAYS = 140;
const [STORE, WAREHOUSE, WEBSHOP] = [0, 1, 2];
const layout = {
  locations: L,
  skus: 3,
  styleOf: Int32Array.of(0, 0, 1),
  styleStart: Int32Array.of(0, 2, 3),
  categoryOf: Int32Array.of(0, 0),
  categories: 1,
  fulfilled: Uint8Array.of(0, 0, 1),
};
const range = { days: DAYS, firstDay: 20000, periodFrom: 0, periodTo: DAYS };
const cellOf = (k: number, l: number) => k * L + l;
/** The store's weekly count days. */
const MONDAYS = Array.from({ length: DAYS / 7 }, (_, i) => 7 * i);

/** Levels of 0 counted on the given days, for a cell without stock. */
const emptyCounts = (days: number[]): Day[] => days.map((d) => ({ d, end: 0, open: 0 }));

/**
 * Style 0 sells at the store from day 0 to day 9, when size 0 sells its last unit (size 1 never came). The store
 * goes on counting both sizes at 0 every week until `countedTo`; `leftOver` keeps a unit of size 0 on its shelf
 * unsold from day 10, taken away by the count of day `countedTo` + 7. The webshop's own rows say nothing of it.
 */
function history({ countedTo = 63, leftOver = false, countedWeeks = MONDAYS, warehouseTo = -1 } = {}): HistoryRows {
  const counts = (from: number) => countedWeeks.filter((d) => d >= from && d <= countedTo);
  const size0: Day[] = Array.from({ length: 10 }, (_, d) => ({ d, end: (leftOver ? 10 : 9) - d, sold: 1 }));
  if (leftOver) size0.push({ d: countedTo + 7, end: 0, open: 0 });
  else size0.push(...emptyCounts(counts(14)));
  const rows = rowsOf([
    { cell: cellOf(0, STORE), start: 10, days: size0 },
    { cell: cellOf(1, STORE), days: emptyCounts(counts(0)) },
    { cell: cellOf(2, STORE), days: emptyCounts(countedWeeks) },
    // The warehouse, when it counts its empty shelves of every SKU until `warehouseTo`.
    ...[0, 1, 2].map((k) => ({
      cell: cellOf(k, WAREHOUSE),
      days: emptyCounts(MONDAYS.filter((d) => d <= warehouseTo)),
    })),
    // The warehouse's level as the webshop sees it, counted at 0 long after: its own rows are not the network's.
    { cell: cellOf(0, WEBSHOP), days: emptyCounts(MONDAYS) },
  ]);
  const n = rows.cell.length;
  return { ...rows, mutations: new Float64Array(n), revenue: new Float64Array(n) };
}

const span = (rows: HistoryRows) => {
  const sale = onSale(rows, range, layout);
  return [sale.first[0], sale.last[0]];
};

describe("a webshop's days of a style sold out everywhere", () => {
  it('go on while the store counts its empty shelves of the style, until its next count would have come', () => {
    // The last count of 0 is on day 63, the store counts weekly: the style is listed until day 69.
    expect(span(history())).toEqual([0, 69]);
    expect(span(history({ countedTo: 98 }))).toEqual([0, 104]);
  });

  it('go on while the warehouse counts its empty shelves of the style after the stores stopped', () => {
    expect(span(history({ warehouseTo: 77 }))).toEqual([0, 83]);
  });

  it('are not lengthened by a count that took stock away: leftovers sent back, not a listing', () => {
    // Size 0's unit left over is taken away by the count of day 70; size 1 was last counted empty on day 63.
    expect(span(history({ leftOver: true }))).toEqual([0, 69]);
  });

  it('end at the last sale where the store does not count its empty shelves (too few levels of 0 to tell)', () => {
    expect(span(history({ countedWeeks: [0, 7, 14, 21] }))).toEqual([0, 9]);
  });

  it("take a count as lasting the store's usual week, though one of its counts came two weeks after the last", () => {
    // The last count of 0, on day 70, lists the style until day 76.
    const weeks = MONDAYS.filter((d) => d !== 63);
    expect(span(history({ countedTo: 70, countedWeeks: weeks }))).toEqual([0, 76]);
  });
});
