/** The screens' own arithmetic, in plain Node: weeks of a chart, a style's selling life. */
import { describe, expect, it } from 'vitest';
import { byWeek } from '../src-renderer/src/weeks';
import { sellingLife } from '../src-renderer/src/selling-life';
import { STYLE_DAY_FIELDS } from '../engine/simulate/style-days';
import type { StyleDaySeries } from '../engine/service/backtest-style-days';

describe('weeks of a chart', () => {
  // Sunday 2025-03-02, then Monday 2025-03-03 to Tuesday 2025-03-11.
  const dates = Array.from({ length: 10 }, (_, i) => new Date(Date.UTC(2025, 2, 2 + i)).toISOString().slice(0, 10));
  const flow = { name: 'simulated sales', values: dates.map((_, i) => i + 1) };
  const level = { name: 'actual', values: dates.map((_, i) => (i === 5 ? null : 10 * (i + 1))) };

  it('adds a flow up over each week, labelled by its Monday, and averages a level over the days it has', () => {
    const sums = byWeek(dates, [flow], false);
    expect(sums.dates).toEqual(['2025-02-24', '2025-03-03', '2025-03-10']);
    expect(sums.series[0].values).toEqual([1, 2 + 3 + 4 + 5 + 6 + 7 + 8, 9 + 10]);
    const means = byWeek(dates, [level], true);
    // The week of 3 March misses its fifth value (null): the mean of the six it has, to a tenth (290 / 6).
    expect(means.series[0].values).toEqual([10, 48.3, 95]);
  });

  it('leaves a week with no value empty', () => {
    expect(byWeek(dates.slice(0, 1), [{ name: 'x', values: [null] }], true).series[0].values).toEqual([null]);
  });
});

describe("a style's selling life", () => {
  const series = (days: number, live: (field: string, i: number) => number): StyleDaySeries => ({
    runId: 'r',
    styleId: 's',
    dates: Array.from({ length: days }, (_, i) => `2025-01-${String(i + 1).padStart(2, '0')}`),
    series: Object.fromEntries(
      STYLE_DAY_FIELDS.map((f) => [f, Array.from({ length: days }, (_, i) => live(f, i))]),
    ) as StyleDaySeries['series'],
  });

  it('spans the days from its first receipt to its last sale, every series cut alike', () => {
    const d = series(10, (f, i) => (f === 'receipts' && i === 2 ? 12 : f === 'actSales' && i === 6 ? 1 : 0));
    const life = sellingLife(d);
    expect(life.dates).toEqual(['2025-01-03', '2025-01-04', '2025-01-05', '2025-01-06', '2025-01-07']);
    expect(life.series.receipts).toEqual([12, 0, 0, 0, 0]);
    expect(life.series.actSales).toEqual([0, 0, 0, 0, 1]);
  });

  it('keeps the whole run when it lived through it, or never lived in it', () => {
    const always = series(4, (f) => (f === 'carriedDays' ? 3 : 0));
    expect(sellingLife(always)).toBe(always);
    const never = series(4, () => 0);
    expect(sellingLife(never)).toBe(never);
  });
});
