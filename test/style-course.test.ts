/**
 * A style's course across the network (day-index.ts): what its sizes wanted each day against what their pooled
 * levels expect, a sold-out day at its expected demand. Histories small enough to work the course out by hand: one
 * style in two sizes at two stores, beside a one-size style selling 50 a day in the same category that holds the
 * location and category indices at 1.
 */
import { describe, expect, it } from 'vitest';
import { CellWalk, type CellDayRows } from '../engine/simulate/cell-walk.js';
import { DayIndex } from '../engine/simulate/day-index.js';
import { rowsOf, type Day } from './history-rows.js';

const L = 2;
const DAYS = 60;
/** Sizes 0 and 1 of style 0, and SKU 2 (style 1, one size); cells are `sku × L + location`. */
const layout = {
  locations: L,
  skus: 3,
  styleOf: Int32Array.of(0, 0, 1),
  styleStart: Int32Array.of(0, 2, 3),
  categoryOf: Int32Array.of(0, 0),
  categories: 1,
};
const SURVIVOR = 0;
const STEADY = [4, 5];

/**
 * Every size of style 0 sells a unit a day until day 29, when all but the survivor (size 0 at store 0) sell out for
 * good. The survivor goes on: from stock that lasts, or (`soldOutDaily`) from one unit stamped each midnight that a
 * customer takes, a day sold out every day.
 */
function history(soldOutDaily: boolean): CellDayRows {
  const cells = [0, 1, 2, 3].map((c) => {
    const days: Day[] = [];
    for (let d = 0; d < 30; d++) days.push({ d, end: c !== SURVIVOR && d === 29 ? 0 : 999 - d, sold: 1 });
    if (c === SURVIVOR)
      for (let d = 30; d < DAYS; d++)
        days.push(soldOutDaily ? { d, end: 0, sold: 1, open: 1 } : { d, end: 999 - d, sold: 1 });
    return { cell: c, start: 1000, days };
  });
  for (const c of STEADY)
    cells.push({
      cell: c,
      start: 1e6,
      days: Array.from({ length: DAYS }, (_, d) => ({ d, end: 1e6 - 50 * (d + 1), sold: 50 })),
    });
  return rowsOf(cells);
}

/**
 * Style 0's course on each day, fitted with every cell at a level of 1 (the steady SKU at 50) and the survivor
 * judged against `survivorPooled`; a sold-out day of the survivor wanted `soldOutWants`.
 */
function course({ soldOutDaily = false, soldOutWants = 1, survivorPooled = 1 } = {}): Float64Array {
  const rows = history(soldOutDaily);
  const walk = new CellWalk(rows, DAYS, L * layout.skus);
  const index = new DayIndex(walk, layout, Uint8Array.of(1, 1), 0);
  const level = Float64Array.of(1, 1, 1, 1, 50, 50);
  const pooled = Float64Array.from(level);
  pooled[SURVIVOR] = survivorPooled;
  const want = Float64Array.from(rows.sold, (sold, j) =>
    rows.cell[j] === SURVIVOR && rows.soldOut[j] && rows.d[j] >= 30 ? soldOutWants : sold,
  );
  index.fit([0, 1, 2, 3, 4, 5], { want, level, pooled });
  return index.style.slice(0, DAYS);
}

describe("a style's course across the network", () => {
  it('stays at 1 while its sizes sell at their levels, before and after most of them sold out', () => {
    const c = course();
    expect(c[10]).toBeCloseTo(1, 2);
    expect(c[59]).toBeCloseTo(1, 2);
  });

  it("reads a sold-out day at its expected demand, not at its sales: the last sizes' sell-outs lift it", () => {
    expect(course({ soldOutDaily: true })[59]).toBeCloseTo(1, 2);
    // Each sold-out day wanted three: after thirty such days at a level of 1, the course is near 3 (read from its
    // sales, it would stay at 1).
    const lifted = course({ soldOutDaily: true, soldOutWants: 3 })[59];
    expect(lifted).toBeGreaterThan(2.7);
    expect(lifted).toBeLessThan(3);
  });

  it('reads the last size in stock against its pooled level: one selling half its due halves the course', () => {
    // The survivor sold a unit a day where its SKU across the network says two: once it is the only size in stock,
    // the style sells at half its course, and the course a style then keeps through its days sold out everywhere
    // comes out there rather than at the 1 its own mean would read.
    const halved = course({ survivorPooled: 2 });
    expect(halved[59]).toBeGreaterThan(0.5);
    expect(halved[59]).toBeLessThan(0.55);
    // Before, the other three sizes sold at their levels: four units where five were due.
    expect(halved[20]).toBeCloseTo(0.8, 1);
  });
});
