/**
 * A style's course across the network (day-index.ts): what its sizes wanted each day against what their pooled
 * levels expect, a sold-out day at its expected demand. Histories small enough to work the course out by hand: one
 * style in two sizes at two stores, beside a one-size style selling 50 a day in the same category that holds the
 * location and category indices at 1.
 */
import { describe, expect, it } from 'vitest';
import { CellWalk, SOLD_OUT_TAIL_DAYS, type CellDayRows } from '../engine/simulate/cell-walk.js';
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
 * good. The survivor goes on selling `survivorSells` a day: from stock that lasts, or (`soldOutDaily`) from one unit
 * stamped each midnight that a customer takes, a day sold out every day.
 */
function history(soldOutDaily: boolean, survivorSells: number, days: number): CellDayRows {
  const cells = [0, 1, 2, 3].map((c) => {
    const list: Day[] = [];
    for (let d = 0; d < 30; d++) list.push({ d, end: c !== SURVIVOR && d === 29 ? 0 : 9999 - d, sold: 1 });
    if (c === SURVIVOR)
      for (let d = 30; d < days; d++)
        list.push(
          soldOutDaily
            ? { d, end: 0, sold: 1, open: 1 }
            : { d, end: 9970 - survivorSells * (d - 29), sold: survivorSells },
        );
    return { cell: c, start: 10000, days: list };
  });
  for (const c of STEADY)
    cells.push({
      cell: c,
      start: 1e6,
      days: Array.from({ length: days }, (_, d) => ({ d, end: 1e6 - 50 * (d + 1), sold: 50 })),
    });
  return rowsOf(cells);
}

/**
 * Style 0's course on each day, fitted with every cell at a level of 1 (the steady SKU at 50) and the survivor
 * judged against `survivorPooled`; a sold-out day of the survivor wanted `soldOutWants`.
 */
function course({
  soldOutDaily = false,
  soldOutWants = 1,
  survivorPooled = 1,
  survivorSells = 1,
  days = DAYS,
} = {}): Float64Array {
  const rows = history(soldOutDaily, survivorSells, days);
  const walk = new CellWalk(rows, days, L * layout.skus);
  const index = new DayIndex(walk, layout, Uint8Array.of(1, 1), 0);
  const level = Float64Array.of(1, 1, 1, 1, 50, 50);
  const pooled = Float64Array.from(level);
  pooled[SURVIVOR] = survivorPooled;
  const want = Float64Array.from(rows.sold, (sold, j) =>
    rows.cell[j] === SURVIVOR && rows.soldOut[j] && rows.d[j] >= 30 ? soldOutWants : sold,
  );
  index.fit([0, 1, 2, 3, 4, 5], { want, level, pooled });
  return index.style.slice(0, days);
}

describe("a style's course across the network", () => {
  it('stays at 1 while its sizes sell at their levels, before and after most of them sold out', () => {
    const c = course();
    expect(c[10]).toBeCloseTo(1, 2);
    expect(c[59]).toBeCloseTo(1, 2);
  });

  it("reads a sold-out day at its expected demand, not at its sales: the last sizes' sell-outs lift it", () => {
    expect(course({ soldOutDaily: true })[59]).toBeCloseTo(1, 2);
    // Each sold-out day wanted three: after thirty such days at a level of 1, held by the three sizes sold out as well,
    // the course is most of the way to 3 (3 − 2 × (13/14)^30 ≈ 2.78, less what the category's index takes); read
    // from its sales, it would stay at 1.
    const lifted = course({ soldOutDaily: true, soldOutWants: 3 })[59];
    expect(lifted).toBeGreaterThan(2.6);
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

  it('holds a day to the day before by what its carried sizes without stock would have sold', () => {
    // From day 30 the survivor sells two a day where one is due. Its day weighs 1 unit against 10 pseudo-units and
    // the 3 units its sold-out sizes would have sold: ten days on, the course is 2 − (13/14)^10, not the
    // 2 − (10/11)^10 ≈ 1.61 the survivor alone would make it. Past SOLD_OUT_TAIL_DAYS after their last day in
    // stock (day 29) the sold-out sizes are no longer carried, and the course goes the survivor's way.
    const c = course({ survivorSells: 2, days: 120 });
    expect(c[39]).toBeCloseTo(2 - (13 / 14) ** 10, 1);
    expect(c[39]).toBeLessThan(1.58);
    expect(c[29 + SOLD_OUT_TAIL_DAYS + 20]).toBeCloseTo(2, 1);
  });
});
