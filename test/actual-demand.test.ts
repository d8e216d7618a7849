/**
 * The history's demand: which days a location carried a SKU without stock, and what it would have sold on them and
 * beyond the sales of a day it sold out. Histories short and regular enough to work the answers out by hand.
 */
import { describe, expect, it } from 'vitest';
import { actualDemand, conditionalMean, type DemandLayout } from '../engine/simulate/actual-demand.js';
import { CellWalk } from '../engine/simulate/cell-walk.js';
import { fitDemand } from '../engine/simulate/demand-fit.js';
import { outageDemand } from '../engine/simulate/outage-demand.js';
import { readShelves, sellingOf } from '../engine/simulate/shelf-history.js';
import { rowsOf, type Day } from './history-rows.js';

/**
 * A one-size SKU selling `perDay` every day from a level it never runs out of, except on the days listed: there it
 * sells out (the day before `outFrom`) and has nothing until `outTo` (exclusive), when stock is back.
 */
function steady(perDay: number, days: number, outFrom: number, outTo: number, soldOutDaySales = perDay): Day[] {
  const out: Day[] = [];
  let level = 1000;
  for (let d = 0; d < days; d++) {
    if (d === outFrom - 1) {
      out.push({ d, end: 0, sold: soldOutDaySales, open: soldOutDaySales });
      level = 0;
    } else if (d >= outFrom && d < outTo) {
      // Nothing happens: no row, the level stays 0.
    } else {
      if (d === outTo) level = 1000;
      level -= perDay;
      out.push({ d, end: level, sold: perDay, open: level + perDay });
      level += perDay;
    }
  }
  return out;
}

/** L locations × the given styles (SKU counts), one category. */
function layout(locations: number, styleSizes: number[]): DemandLayout {
  const styleStart = new Int32Array(styleSizes.length + 1);
  styleSizes.forEach((n, s) => (styleStart[s + 1] = styleStart[s] + n));
  const skus = styleStart[styleSizes.length];
  const styleOf = new Int32Array(skus);
  styleSizes.forEach((_, s) => styleOf.fill(s, styleStart[s], styleStart[s + 1]));
  return {
    locations,
    skus,
    styleOf,
    styleStart,
    categoryOf: new Int32Array(styleSizes.length),
    categories: 1,
    fulfilled: new Uint8Array(locations),
  };
}

const range = (days: number, from = 0, to = days) => ({ days, firstDay: 20_000, periodFrom: from, periodTo: to });
const total = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0);

describe('the demand of days without stock', () => {
  it("estimates a steady seller's days out at its rate, and the demand beyond a sold-out day's sales", () => {
    // 4 a day for 60 days, sold out on day 29 (having sold 4), nothing on days 30–34, back on day 35; nine more SKUs
    // of the store sell 4 a day throughout and tell how the days sold (a lone SKU's sold-out day would tell its own
    // day's index, and read it a little high).
    const others = Array.from({ length: 9 }, (_, i) => ({ cell: i + 1, start: 1000, days: steady(4, 90, 0, 0) }));
    const r = actualDemand(
      rowsOf([{ cell: 0, start: 1000, days: steady(4, 90, 30, 35) }, ...others]),
      range(90),
      layout(1, Array(10).fill(1)),
    );
    expect(Array.from(r.out.day)).toEqual([30, 31, 32, 33, 34]);
    // Four a day, and one day that sold out at four ("at least four"): a little over four.
    const level = r.out.demand[0];
    for (const q of r.out.demand) expect(q).toBeCloseTo(level, 3);
    expect(level).toBeGreaterThan(4);
    expect(level).toBeLessThan(4.1);
    // Constant sales show no overdispersion: the sold-out day's demand is Poisson given at least 4.
    expect(r.dispersion[0]).toBe(0);
    const soldOutRow = 29 + 1; // the start row, then one row a day
    expect(Math.abs(r.extra[soldOutRow] - (conditionalMean(4, level, 0) - 4))).toBeLessThan(0.1);
    expect(total(r.extra)).toBeCloseTo(r.extra[soldOutRow], 12);
    expect(r.selling[0]).toBe(1);
  });

  it("takes a negative binomial's heavier tail, and the Poisson limit, for a sold-out day", () => {
    // E[D | D ≥ s] for Poisson(4), s = 2: 4 · P(D ≥ 1) / P(D ≥ 2).
    const p0 = Math.exp(-4);
    expect(conditionalMean(2, 4, 0)).toBeCloseTo((4 * (1 - p0)) / (1 - p0 - 4 * p0), 9);
    expect(conditionalMean(0, 4, 0)).toBe(4);
    expect(conditionalMean(8, 4, 0.5)).toBeGreaterThan(conditionalMean(8, 4, 0));
    expect(conditionalMean(3, 4, 1e-12)).toBeCloseTo(conditionalMean(3, 4, 0), 6);
    // Far below a big mean, and far above a small one.
    expect(conditionalMean(1, 2000, 0)).toBeCloseTo(2000, 6);
    expect(conditionalMean(50, 0.1, 0)).toBeGreaterThanOrEqual(50);
  });

  it('uses the days on both sides of an outage: a level that changed across it is met halfway', () => {
    // 2 a day before the outage, 6 a day after: the days out sit between the two.
    const days: Day[] = [];
    for (let d = 0; d < 80; d++) {
      if (d >= 40 && d < 44) continue;
      const sold = d < 40 ? 2 : 6;
      days.push({ d, end: d === 39 ? 0 : 500, sold, open: 500 + sold });
    }
    const r = actualDemand(rowsOf([{ cell: 0, start: 500, days }]), range(80), layout(1, [1]));
    expect(r.out.day.length).toBe(4);
    for (const q of r.out.demand) {
      expect(q).toBeGreaterThan(3);
      expect(q).toBeLessThan(5);
    }
  });

  it('is the same for a day whatever the period around it, as long as the history read reaches as far', () => {
    const rows = rowsOf([{ cell: 0, start: 1000, days: steady(3, 120, 50, 56) }]);
    const whole = actualDemand(rows, range(120), layout(1, [1]));
    const part = actualDemand(rows, range(120, 52, 70), layout(1, [1]));
    expect(Array.from(part.out.day)).toEqual([0, 1, 2, 3]);
    expect(Array.from(part.out.demand)).toEqual(Array.from(whole.out.demand).slice(2));
  });
});

describe('carried or not', () => {
  it("counts nothing before a SKU's first stock or sale: not yet launched there", () => {
    const days = steady(4, 60, 0, 0).filter((x) => x.d >= 20);
    const r = actualDemand(rowsOf([{ cell: 0, days }]), range(60), layout(1, [1]));
    expect(r.out.day.length).toBe(0);
  });

  it('counts nothing after stock was taken away rather than sold: phased out there', () => {
    // Sells 4 a day from 1000, then on day 40 the level is counted at 0 (a return to the warehouse), never back.
    const days = steady(4, 40, 0, 0);
    days.push({ d: 40, end: 0, open: 0 });
    const r = actualDemand(rowsOf([{ cell: 0, start: 1000, days }]), range(120), layout(1, [1]));
    expect(r.out.day.length).toBe(0);
  });

  it('counts a sold-out SKU that never comes back as carried for eight weeks ("sold shortly before"), then not', () => {
    // Store 0 sells out on day 39; store 1 goes on selling it to day 99.
    const days = steady(4, 40, 0, 0);
    days[39] = { d: 39, end: 0, sold: 4, open: 4 };
    const r = actualDemand(
      rowsOf([
        { cell: 0, start: 1000, days },
        { cell: 1, start: 1000, days: steady(4, 100, 0, 0) },
      ]),
      range(120),
      layout(2, [1]),
    );
    expect(Array.from(r.out.day)).toEqual(Array.from({ length: 56 }, (_, i) => 40 + i));
  });

  it('counts nothing after a SKU left every shelf at once: delisted, not sold out', () => {
    // Store 0 sells out on day 39; on day 41 store 1's stock goes back to the warehouse and the SKU is gone.
    const days = steady(4, 40, 0, 0);
    days[39] = { d: 39, end: 0, sold: 4, open: 4 };
    const other = steady(4, 41, 0, 0);
    other.push({ d: 41, end: 0, open: 0 });
    const r = actualDemand(
      rowsOf([
        { cell: 0, start: 1000, days },
        { cell: 1, start: 1000, days: other },
      ]),
      range(120),
      layout(2, [1]),
    );
    expect(Array.from(r.out.day)).toEqual([40]);
  });

  const outageTitle =
    'counts an outage between two spells in stock as carried up to eight weeks long, ' +
    'and a longer one by its start only';
  it(outageTitle, () => {
    const short = actualDemand(
      rowsOf([{ cell: 0, start: 1000, days: steady(2, 250, 60, 116) }]),
      range(250),
      layout(1, [1]),
    );
    expect(short.out.day.length).toBe(56);
    // Sold out into it: the first eight weeks ("sold shortly before"), then not: a location that stopped carrying it.
    const long = actualDemand(
      rowsOf([{ cell: 0, start: 1000, days: steady(2, 250, 60, 160) }]),
      range(250),
      layout(1, [1]),
    );
    expect(Array.from(long.out.day)).toEqual(Array.from({ length: 56 }, (_, i) => 60 + i));
    // Emptied by a count rather than by selling, and away longer than eight weeks: no sign it was still on sale.
    const days = steady(2, 250, 60, 117);
    days[59] = { d: 59, end: 0, open: 0 };
    const counted = actualDemand(rowsOf([{ cell: 0, start: 1000, days }]), range(250), layout(1, [1]));
    expect(counted.out.day.length).toBe(0);
  });

  it('keeps a size carried while its style still sells at the location (a broken size run)', () => {
    // Size 0 sells 2 a day and sells out on day 19 for good; size 1 sells 3 a day to day 79.
    const a = steady(2, 20, 0, 0);
    a[19] = { d: 19, end: 0, sold: 2, open: 2 };
    const b = steady(3, 80, 0, 0);
    const r = actualDemand(
      rowsOf([
        { cell: 0, start: 1000, days: a },
        { cell: 1, start: 1000, days: b },
      ]),
      range(120),
      layout(1, [2]),
    );
    expect(r.out.day[0]).toBe(20);
    expect(r.out.day.at(-1)).toBe(79);
    expect(r.out.day.length).toBe(60);
  });

  it('counts no demand on a day the location sold nothing at all where it sells dozens: closed', () => {
    // Ten SKUs selling 3 a day each; on day 45 nothing sells anywhere. SKU 0 is out on days 44–46.
    const cells = Array.from({ length: 10 }, (_, k) => ({
      cell: k,
      start: 1000,
      days: (k === 0 ? steady(3, 90, 44, 47) : steady(3, 90, 0, 0))
        .filter((x) => x.d !== 45)
        .concat(k === 0 ? [] : [{ d: 45, end: 1000 - 3 * 45, open: 1000 - 3 * 45 }]),
    }));
    const r = actualDemand(rowsOf(cells), range(90), layout(1, Array(10).fill(1)));
    expect(Array.from(r.out.day)).toEqual([44, 46]);
  });

  it('counts no demand on a day small stores all sold nothing, each of which sells two a day: closed together', () => {
    // Four stores, each with two SKUs selling 1 a day; on day 45 the stores in `quiet` sell nothing. SKU 0 at store
    // 0 is out on days 44–46. A store alone expecting two units says little by selling none; four together do.
    const outDays = (quiet: number[]) => {
      const L = 4;
      const cells = [0, 1].flatMap((k) =>
        Array.from({ length: L }, (_, l) => ({
          cell: k * L + l,
          start: 1000,
          days: (k === 0 && l === 0 ? steady(1, 90, 44, 47) : steady(1, 90, 0, 0))
            .filter((x) => !(x.d === 45 && quiet.includes(l)))
            .concat(k === 0 && l === 0 ? [] : quiet.includes(l) ? [{ d: 45, end: 955, open: 955 }] : []),
        })),
      );
      const r = actualDemand(rowsOf(cells), range(90), layout(L, [1, 1]));
      return Array.from(r.out.day);
    };
    expect(outDays([0, 1, 2, 3])).toEqual([44, 46]);
    expect(outDays([0])).toEqual([44, 45, 46]);
    expect(outDays([0, 1])).toEqual([44, 45, 46]);
  });

  it('has no demand at a location that never sells: a warehouse', () => {
    const days: Day[] = [
      { d: 10, end: 0, open: 0 },
      { d: 20, end: 50, open: 50 },
    ];
    const r = actualDemand(rowsOf([{ cell: 0, start: 50, days }]), range(40), layout(1, [1]));
    expect(r.selling[0]).toBe(0);
    expect(r.out.day.length).toBe(0);
  });
});

describe('the passes, one by one', () => {
  // Cell 0: 4 a day, sold out on day 29, out 30–34, back on 35. Cells 1–9: 4 a day throughout. Cell 10: a store that
  // sold nothing (layout of 2 locations: cell = sku × 2 + location).
  const days = 60;
  const cells = [
    { cell: 0, start: 1000, days: steady(4, days, 30, 35) },
    ...Array.from({ length: 9 }, (_, i) => ({ cell: (i + 1) * 2, start: 1000, days: steady(4, days, 0, 0) })),
    { cell: 1, start: 5, days: [{ d: 10, end: 5 }] },
  ];
  const rows = rowsOf(cells);
  const lay = layout(2, Array(10).fill(1));
  const walk = new CellWalk(rows, days, 2 * 10);

  it('tells the locations that sell by their sales alone', () => {
    expect(Array.from(sellingOf(rows, 2))).toEqual([1, 0]);
  });

  it("reads each selling cell's days in stock, its gaps and its style's days on sale", () => {
    const sh = readShelves(rows, days, lay, walk, sellingOf(rows, 2));
    expect(sh.stocked).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    // Cell 0 was out five days of sixty; the others never.
    expect(sh.fullDays[0]).toBe(days - 5);
    expect(sh.fullDays[2]).toBe(days);
    expect([sh.gappy[0], sh.gappy[2]]).toEqual([1, 0]);
    // Style 0 at location 0: on a shelf from the first day to the last, on sale to the last.
    expect([sh.styleFirst[0], sh.styleLast[0], sh.styleLastActive[0], sh.styleNetLast[0]]).toEqual([0, 59, 59, 59]);
    // The location selling nothing holds no stocked cell.
    expect(sh.everIn[1]).toBe(0);
  });

  it('fits the levels and day indices to what was wanted: a steady seller at its rate', () => {
    const selling = sellingOf(rows, 2);
    const sh = readShelves(rows, days, lay, walk, selling);
    const fit = fitDemand(rows, range(days), lay, walk, selling, sh);
    // Every day alike: each steady cell's level times its days' indices comes to its four a day, within a few %.
    for (const c of [2, 4, 18]) {
      let wanted = 0;
      for (let e = 0; e < days; e++) wanted += fit.judged[c] * fit.index.at(0, c / 2, e);
      expect(Math.abs(wanted / days - 4)).toBeLessThan(0.2);
    }
    expect(fit.dispersion[0]).toBeGreaterThanOrEqual(0);
  });

  it("estimates the outage's days from the fit, and nothing for the cells without a gap", () => {
    const selling = sellingOf(rows, 2);
    const sh = readShelves(rows, days, lay, walk, selling);
    const fit = fitDemand(rows, range(days), lay, walk, selling, sh);
    const o = outageDemand(rows, range(days), lay, walk, selling, sh, fit, fit.index.closed);
    expect(Array.from(o.out.cell)).toEqual([0, 0, 0, 0, 0]);
    expect(Array.from(o.out.day)).toEqual([30, 31, 32, 33, 34]);
    for (const q of o.out.demand) expect(q).toBeGreaterThan(3.5);
    // The sold-out day's demand beyond its four: some, on its row alone.
    const beyond = Array.from(o.extra).filter((x) => x > 0);
    expect(beyond).toHaveLength(1);
  });
});
