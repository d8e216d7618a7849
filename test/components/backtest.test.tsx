// @vitest-environment happy-dom
/** The Backtest screen's form: the period it starts with and keeps (use-backtest-form.ts), and its toolbar. */
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatasetSummary } from '../../common/api-types';
import { useWorkbench } from '../../src-renderer/src/store';
import { BacktestToolbar } from '../../src-renderer/src/screens/BacktestToolbar';
import { defaultForm, useBacktestForm } from '../../src-renderer/src/screens/use-backtest-form';

afterEach(() => {
  cleanup();
  useWorkbench.setState({ backtestForm: undefined });
});

const SALES = [
  { dataset: 'Items', live: 3, deleted: 0, fullLoad: true },
  {
    dataset: 'Sales',
    live: 10,
    deleted: 0,
    from: '2024-01-01T08:00:00Z',
    to: '2025-12-30T18:00:00Z',
    fullLoad: false,
  },
] as DatasetSummary[];

describe('defaultForm', () => {
  it("spans the workspace's sales, else the last quarter", () => {
    expect(defaultForm(SALES, 'lean', new Date('2026-03-31T12:00:00Z'))).toEqual({
      from: '2024-01-01',
      to: '2025-12-30',
      scenario: 'lean',
    });
    expect(defaultForm(SALES.slice(0, 1), 'lean', new Date('2026-03-31T12:00:00Z'))).toEqual({
      from: '2025-12-31',
      to: '2026-03-31',
      scenario: 'lean',
    });
  });
});

describe('useBacktestForm', () => {
  it('keeps what the user changed beyond the screen, and gives a scenario no longer kept up for the first', () => {
    const { result, rerender } = renderHook(({ scenarios }) => useBacktestForm(SALES, scenarios), {
      initialProps: { scenarios: ['default', 'lean'] },
    });
    expect(result.current).toMatchObject({ from: '2024-01-01', to: '2025-12-30', scenario: 'default' });
    act(() => result.current.edit({ scenario: 'lean' }));
    act(() => result.current.edit({ from: '2025-01-01' }));
    expect(useWorkbench.getState().backtestForm).toEqual({ from: '2025-01-01', to: '2025-12-30', scenario: 'lean' });
    expect(result.current).toMatchObject({ from: '2025-01-01', scenario: 'lean' });
    rerender({ scenarios: ['default', 'rich'] });
    expect(result.current.scenario).toBe('default');
  });
});

describe('BacktestToolbar', () => {
  function renderToolbar(running: boolean) {
    const did: unknown[] = [];
    render(
      <BacktestToolbar
        form={{ from: '2025-01-01', to: '2025-06-30', scenario: 'lean' }}
        scenarios={['default', 'lean']}
        running={running}
        onEdit={(change) => did.push(change)}
        onRun={(...args) => did.push(args)}
        onCancel={() => did.push('cancel')}
      />,
    );
    return did;
  }

  it('hands back each change and runs over the period and scenario shown', () => {
    const did = renderToolbar(false);
    fireEvent.change(document.querySelector('input[name="from"]')!, { target: { value: '2025-02-01' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Scenario' }), { target: { value: 'default' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run backtest' }));
    expect(did).toEqual([{ from: '2025-02-01' }, { scenario: 'default' }, ['2025-01-01', '2025-06-30', 'lean']]);
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('runs nothing more while a run goes on, and cancels it', () => {
    const did = renderToolbar(true);
    expect((screen.getByRole('button', { name: 'Running…' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(did).toEqual(['cancel']);
  });
});
