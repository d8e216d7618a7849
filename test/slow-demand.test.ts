/**
 * The rules the demand estimate uses for cells that sell on few days, each on its own: a customer's units read from
 * a slow SKU's days (a sold-out day only says "at least"), what a sold-out day wanted when customers come in lumps,
 * a thin cell's level borrowed from its SKU across the network and its location, and a long outage told from a
 * delisting by the location's counts of its empty shelves.
 */
import { describe, expect, it } from 'vitest';
import { BasketReader } from '../engine/simulate/baskets.js';
import { basketOf, expectedGiven } from '../engine/simulate/demand-distribution.js';
import { pooledLevels } from '../engine/simulate/pooled-levels.js';
import { actualDemand, type DemandLayout } from '../engine/simulate/actual-demand.js';
import { rowsOf, type Day } from './history-rows.js';

const oneStyle = { skus: 1, styleOf: new Int32Array(1), categoryOf: new Int32Array(1), styles: 1, categories: 1 };

/** A reader fed `n` one-customer days (a customer every ten days expected) of each of `units`, sold out or not. */
function read(days: { units: number; n: number; soldOut?: boolean }[]) {
  const reader = new BasketReader(oneStyle);
  for (const { units, n, soldOut } of days) for (let i = 0; i < n; i++) reader.day(0, units, !!soldOut, 0.1);
  return reader.baskets()[0];
}

describe("a customer's units, from a slow SKU's days", () => {
  it('reads lumps from the days a single customer came: half take one unit, a third two, the rest three', () => {
    const b = read([
      { units: 1, n: 300 },
      { units: 2, n: 180 },
      { units: 3, n: 120 },
    ]);
    expect(b).toBeDefined();
    // A few of those days saw two customers (about 5 % at 0.1 expected): taken out, the one-unit share rises a bit.
    expect(b!.pmf[1]).toBeGreaterThan(0.5);
    expect(b!.pmf[1]).toBeLessThan(0.56);
    expect(b!.mean).toBeGreaterThan(1.6);
    expect(b!.mean).toBeLessThan(1.7);
  });

  it('reads one unit a customer where the slow days sold one each', () => {
    expect(read([{ units: 1, n: 500 }])).toBeUndefined();
  });

  it('reads a sold-out day as "at least": the same days with their two-unit sales sold out make bigger baskets', () => {
    const known = read([
      { units: 1, n: 200 },
      { units: 2, n: 200 },
    ]);
    const censored = read([
      { units: 1, n: 200 },
      { units: 2, n: 200, soldOut: true },
    ]);
    expect(censored!.mean).toBeGreaterThan(known!.mean + 0.3);
  });

  it('ignores days with many customers expected: their units say nothing of one customer', () => {
    const reader = new BasketReader(oneStyle);
    for (let i = 0; i < 500; i++) reader.day(0, 3, false, 5);
    expect(reader.baskets()[0]).toBeUndefined();
  });
});

describe('what a sold-out day of a slow, lumpy SKU wanted', () => {
  it('is more than one unit a customer would give: the last customer may have wanted more than was left', () => {
    // A fifth of a customer a day; the day sold the one unit on the shelf.
    const single = expectedGiven(1, 0.2, 0);
    const lumpy = expectedGiven(1, 0.2, 0, basketOf([0, 0.5, 0.3, 0.2], 0));
    expect(single).toBeGreaterThan(1);
    expect(single).toBeLessThan(1.15);
    // At least one customer came, taking 1.7 units on average.
    expect(lumpy).toBeGreaterThan(1.7);
    expect(lumpy).toBeLessThan(1.9);
  });
});

describe("a thin cell's level", () => {
  // Two SKUs at four stores, one category. SKU 1 sells 1 a day at stores 0–2 and 2 a day at store 3; SKU 0 sells
  // half a unit a day at stores 0–2, and store 3 had it in stock for three days and sold none.
  const L = 4;
  const units = new Float64Array(8);
  const exposure = new Float64Array(8);
  for (let l = 0; l < L; l++) {
    exposure[1 * L + l] = 200;
    units[1 * L + l] = l === 3 ? 400 : 200;
    exposure[0 * L + l] = l === 3 ? 3 : 200;
    units[0 * L + l] = l === 3 ? 0 : 100;
  }
  const fit = pooledLevels({
    locations: L,
    skus: 2,
    categories: 1,
    catOf: () => 0,
    stocked: [0, 1, 2, 3, 4, 5, 6, 7],
    units,
    exposure,
    spread: () => 1,
  });

  it('borrows from its SKU across the network, scaled by how its location sells the category', () => {
    expect(fit.pooled[3]).toBeGreaterThan(0.9);
    expect(fit.pooled[3]).toBeLessThan(1.1);
    // Three days without a sale say little against that: it stays near the pooled level, not at 0.
    expect(fit.level[3]).toBeGreaterThan(0.8);
  });

  it('keeps a cell with a long history at its own rate', () => {
    expect(fit.level[1 * L + 3]).toBeCloseTo(2, 1);
    expect(fit.level[0]).toBeCloseTo(0.5, 1);
  });
});

describe('a long outage or a delisting', () => {
  const layout: DemandLayout = {
    locations: 2,
    skus: 4,
    styleOf: Int32Array.from([0, 1, 2, 3]),
    styleStart: Int32Array.from([0, 1, 2, 3, 4]),
    categoryOf: new Int32Array(4),
    categories: 1,
    fulfilled: new Uint8Array(2),
  };
  const E = 300;
  /** Sells 2 a day from a full shelf over `on` days, sells out the day before `outFrom`; `counts`: levels of 0. */
  function cell(outFrom: number, backOn: number, counts: number[]): Day[] {
    const rows: Day[] = [];
    for (let d = 0; d < E; d++) {
      if (d === outFrom - 1) rows.push({ d, end: 0, sold: 2 });
      else if (d >= outFrom && d < backOn) {
        if (counts.includes(d)) rows.push({ d, end: 0, sold: 0, open: 0 });
      } else rows.push({ d, end: 100, sold: 2, open: d === backOn ? 102 : undefined });
    }
    return rows;
  }
  const weekly = (from: number, to: number) =>
    Array.from({ length: E }, (_, d) => d).filter((d) => d >= from && d < to && d % 7 === 0);
  /** Store 1 sells every SKU throughout (the styles are on sale in the network); the cells of store 0 as given. */
  const run = (store0: Day[][]) => {
    const full = cell(E, E, []);
    // Cell = SKU × 2 + location.
    const cells = store0.flatMap((rows) => [rows, full]);
    return actualDemand(
      rowsOf(cells.map((days, c) => ({ cell: c, start: 100, days }))),
      { days: E, firstDay: 20_000, periodFrom: 0, periodTo: E },
      layout,
    );
  };
  const outDays = (r: ReturnType<typeof actualDemand>, c: number) =>
    Array.from(r.out.day).filter((_, i) => r.out.cell[i] === c);

  it('carries an outage of five months while the store goes on counting the SKU at 0', () => {
    // SKU 0 sells out on day 59 and is back on day 210; the store counts it every week meanwhile (21 counts).
    const r = run([cell(60, 210, weekly(60, 210)), cell(E, E, []), cell(E, E, []), cell(E, E, [])]);
    expect(outDays(r, 0)).toEqual(Array.from({ length: 150 }, (_, i) => 60 + i));
  });

  it('carries nothing after a count took the stock away, however long the store goes on counting it at 0', () => {
    // SKU 0's shelf is counted empty on day 59 with 100 on it the night before: taken away, not sold out.
    const taken = cell(E, E, []).filter((x) => x.d < 59);
    taken.push({ d: 59, end: 0, sold: 0, open: 0 });
    for (const d of weekly(60, E)) taken.push({ d, end: 0, sold: 0, open: 0 });
    const r = run([taken, cell(E, E, []), cell(E, E, []), cell(E, E, [])]);
    expect(outDays(r, 0)).toEqual([]);
  });

  it('stops carrying a SKU the day the store counted its empty shelves and left this one out: delisted', () => {
    // SKUs 1–3 sell out on day 59 too and are counted every week; SKU 0 is never counted again.
    const r = run([
      cell(60, E, []),
      cell(60, E, weekly(60, E)),
      cell(60, E, weekly(60, E)),
      cell(60, E, weekly(60, E)),
    ]);
    // Day 63 is the first weekly count: SKU 0 was carried to the day before.
    expect(outDays(r, 0)).toEqual([60, 61, 62]);
    // The counted ones stay carried.
    expect(outDays(r, 2).length).toBeGreaterThan(150);
  });
});
