// @vitest-environment happy-dom
/**
 * The Compare screen's parts: the pair compared by default (use-comparison.ts), both runs' days on one axis
 * (compare-charts.ts), the picker of the two runs (ComparePicker.tsx) and the styles behind the difference
 * (StylesDifference.tsx).
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BacktestComparison, BacktestRun } from '../../src-renderer/src/client';
import { comparisonCharts } from '../../src-renderer/src/screens/compare-charts';
import { ComparePicker } from '../../src-renderer/src/screens/ComparePicker';
import { StylesDifference } from '../../src-renderer/src/screens/StylesDifference';
import { defaultPair } from '../../src-renderer/src/screens/use-comparison';

afterEach(cleanup);

const run = (runId: string, from: string, to: string, scenario = 'default', label?: string) =>
  ({ runId, from, to, scenario, label, createdAt: '', status: 'completed', durationMs: 1 }) as BacktestRun;

describe('defaultPair', () => {
  it('compares the newest run with the newest earlier one over its period, else the one before it', () => {
    const spring = run('bt-3', '2025-03-01', '2025-05-31');
    expect(
      defaultPair([spring, run('bt-2', '2025-01-01', '2025-12-31'), run('bt-1', '2025-03-01', '2025-05-31')]),
    ).toEqual({ a: 'bt-1', b: 'bt-3' });
    expect(defaultPair([spring, run('bt-2', '2025-01-01', '2025-12-31')])).toEqual({ a: 'bt-2', b: 'bt-3' });
    expect(defaultPair([spring])).toEqual({ a: 'bt-3', b: 'bt-3' });
    expect(defaultPair([])).toBeUndefined();
  });
});

describe('comparisonCharts', () => {
  const day = (date: string, stockOutDays: number, actual: number) => ({
    date,
    simulated: { stockOutDays, inventoryUnits: stockOutDays * 10.4 },
    actual: { stockOutDays: actual },
  });
  const comparison = (scenarioB: string) =>
    ({
      a: { run: run('bt-1', '2025-03-01', '2025-03-02'), daily: [day('2025-03-01', 1, 5), day('2025-03-02', 2, 6)] },
      b: {
        run: run('bt-2', '2025-03-02', '2025-03-03', scenarioB),
        daily: [day('2025-03-02', 3, 6), day('2025-03-03', 4, 7)],
      },
    }) as unknown as BacktestComparison;

  it('puts every date of either run on one axis, with a gap where a run has no day, and the actual figures', () => {
    const chart = comparisonCharts(comparison('lean'));
    expect(chart.dates).toEqual(['2025-03-01', '2025-03-02', '2025-03-03']);
    expect(chart.stockOuts).toEqual([
      { name: 'a: default', values: [1, 2, null] },
      { name: 'b: lean', values: [null, 3, 4] },
      { name: 'actual', values: [5, 6, 7] },
    ]);
    expect(chart.inventory.map((s) => s.values)).toEqual([
      [10, 21, null],
      [null, 31, 42],
    ]);
  });

  it('names the runs by their ids too when both ran one scenario', () => {
    expect(comparisonCharts(comparison('default')).stockOuts.map((s) => s.name)).toEqual([
      'a: default (bt-1)',
      'b: default (bt-2)',
      'actual',
    ]);
  });
});

describe('ComparePicker', () => {
  const RUNS = [run('bt-2', '2025-01-01', '2025-06-30', 'lean', 'spring'), run('bt-1', '2025-01-01', '2025-06-30')];

  function renderPicker(picked: { a: string; b: string }, busy = false) {
    const did: unknown[] = [];
    render(
      <ComparePicker
        runs={RUNS}
        picked={picked}
        busy={busy}
        onPick={(p) => did.push(['pick', p])}
        onCompare={(p) => did.push(['compare', p])}
      />,
    );
    return did;
  }

  it('offers each run by its name, scenario and period, and hands back a pick and the pair compared', () => {
    const did = renderPicker({ a: 'bt-1', b: 'bt-2' });
    const a = screen.getByRole('combobox', { name: 'Run a' }) as HTMLSelectElement;
    expect([...a.options].map((o) => o.textContent)).toEqual([
      'spring (bt-2) · lean · 2025-01-01 … 2025-06-30',
      'bt-1 · default · 2025-01-01 … 2025-06-30',
    ]);
    fireEvent.change(screen.getByRole('combobox', { name: 'Run b' }), { target: { value: 'bt-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Compare' }));
    expect(did).toEqual([
      ['pick', { a: 'bt-1', b: 'bt-1' }],
      ['compare', { a: 'bt-1', b: 'bt-2' }],
    ]);
  });

  it('compares nothing without a pair, or while a comparison is read', () => {
    renderPicker({ a: '', b: '' });
    expect((screen.getByRole('button', { name: 'Compare' }) as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    renderPicker({ a: 'bt-1', b: 'bt-2' }, true);
    expect((screen.getByRole('button', { name: 'Comparing…' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('StylesDifference', () => {
  const result = (styles: BacktestComparison['styles']['styles']) =>
    ({
      a: { run: run('bt-1', '2025-03-01', '2025-05-31'), daily: [] },
      b: { run: run('bt-2', '2025-03-01', '2025-05-31'), daily: [] },
      styles: { lostSales: -13, namedLostSales: styles.reduce((t, s) => t + s.lostSales, 0), styles },
    }) as unknown as BacktestComparison;

  it('lists the styles whose lost sales moved most, each opening its drill in run b', () => {
    render(
      <StylesDifference
        result={result([
          { id: 'TEE', lostSales: -40, sales: 40, inventoryUnits: 5, warehouseUnits: -5 },
          { id: 'JEANS', lostSales: 25, sales: -25, inventoryUnits: -1, warehouseUnits: 28 },
        ])}
      />,
    );
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-style'))).toEqual(['TEE', 'JEANS']);
    expect(rows[0].textContent).toBe('TEE−40+40+5−5');
    expect(screen.getByRole('link', { name: 'JEANS' }).getAttribute('href')).toBe('#/backtest/bt-2/style/JEANS');
    expect(screen.getByTestId('styles-difference').textContent).toBe(
      'Lost sales b − a: −13 units over every style; −15 from the 2 styles below.',
    );
  });

  it('says so when no style moved', () => {
    render(<StylesDifference result={result([])} />);
    expect(screen.getByTestId('styles-difference').textContent).toBe(
      'No style lost more or fewer sales in b than in a.',
    );
    expect(screen.queryByRole('table')).toBeNull();
  });
});
