/**
 * The screens' own arithmetic, in plain Node: weeks of a chart, a style's selling life, where a chart's axis ends,
 * names beside ids, a KPI against the actual one.
 */
import { describe, expect, it } from 'vitest';
import { byWeek } from '../src-renderer/src/weeks';
import { sellingLife } from '../src-renderer/src/selling-life';
import { spikeCap } from '../src-renderer/src/chart-scale';
import { namesOf } from '../src-renderer/src/names';
import { KPIS, versusActual } from '../src-renderer/src/kpis';
import type { SideKpis } from '../engine/simulate/kpis';
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

describe("a chart's value axis", () => {
  const days = (values: number[]) => [{ name: 'receipts', values }];

  it('ends lower when one day dwarfs the others, at a round figure above the most of them', () => {
    const sales = Array.from({ length: 60 }, (_, i) => (i % 7) + 1);
    // One delivery of 561 among days of 1 to 7: the axis ends at 20, the round figure above twice the usual 7.
    expect(spikeCap(days([...sales, 561]))).toBe(20);
  });

  it('keeps the whole range when no day stands out, or too few days say what is usual', () => {
    expect(spikeCap(days(Array.from({ length: 60 }, (_, i) => (i % 7) + 1)))).toBeUndefined();
    expect(spikeCap(days([1, 2, 500]))).toBeUndefined();
  });
});

describe('names beside ids', () => {
  const names = namesOf({
    currency: 'LOCAL',
    locations: [{ id: 'ST-005', name: 'Nordvik Ede', kind: 'store' }],
    styles: [{ id: 'TEE-WHT', description: 'Basic tee', color: 'White', categoryId: 'TOPS', category: 'Tops' }],
    categories: [{ id: 'TOPS', name: 'Tops' }],
  });

  it('reads a store by its name and a style by its description and colour, and an unknown id as itself', () => {
    expect(names.location('ST-005')).toBe('ST-005 · Nordvik Ede');
    expect(names.style('TEE-WHT')).toBe('TEE-WHT · Basic tee, White');
    expect(names.styleCategory('TEE-WHT')).toBe('Tops');
    expect(names.location('ST-999')).toBe('ST-999');
    expect(names.words('style', 'NONE')).toBe('');
  });
});

describe('a KPI against the actual one', () => {
  const kpi = (key: string) => KPIS.find((k) => k.key === key)!;
  const side = (fillRate: number, lostSales: number) => ({ fillRate, lostSales }) as unknown as SideKpis;

  it('tells a rate in percentage points and a count signed, better or worse by which way is better', () => {
    expect(versusActual(kpi('fillRate'), side(0.8364, 0), side(0.8142, 0))).toEqual({
      text: '+2.2 pp',
      tone: 'better',
    });
    expect(versusActual(kpi('lostSales'), side(0, 1303), side(0, 1480))).toEqual({ text: '−177', tone: 'better' });
    expect(versusActual(kpi('lostSales'), side(0, 1480.2), side(0, 1480))).toEqual({ text: '±0', tone: 'same' });
  });
});
