// @vitest-environment happy-dom
/** Setting up a sweep (SweepSetup.tsx) and picking its point (SweepPick.tsx). */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SweepReport, Sweepable } from '../../src-renderer/src/client';
import { reachableFillRate, SweepPick, type Constraint } from '../../src-renderer/src/screens/SweepPick';
import { SweepSetup, type SweepRequest } from '../../src-renderer/src/screens/SweepSetup';

afterEach(cleanup);

const SETTINGS = [
  { path: 'defaults.serviceLevel', description: 'The share of demand to serve from stock.' },
  { path: 'redistribution.tripCost', description: 'What a trip costs.' },
  { path: 'defaults.reviewDays', description: 'Days between reviews.' },
] as Sweepable[];
const SUMMARY = [{ dataset: 'Sales', from: '2025-01-06T00:00:00Z', to: '2025-03-30T00:00:00Z' }] as never;

function renderSetup(maxPoints = 50, running = false) {
  const started: SweepRequest[] = [];
  render(
    <SweepSetup
      settings={SETTINGS}
      maxPoints={maxPoints}
      scenarios={['default', 'lean']}
      summary={SUMMARY}
      running={running}
      onStart={(r) => started.push(r)}
    />,
  );
  return started;
}

const run = () => screen.getByRole('button', { name: /^Run sweep/ }) as HTMLButtonElement;
const values = (i: number) => screen.getByRole('textbox', { name: `Values of setting ${i}` });

describe('SweepSetup', () => {
  it('counts the points of the grid as typed, and runs it as numbers over the sales period', () => {
    const started = renderSetup();
    expect(run().textContent).toBe('Run sweep (12 points)');
    fireEvent.change(values(2), { target: { value: '20 40' } });
    expect(run().textContent).toBe('Run sweep (8 points)');
    fireEvent.change(screen.getByRole('combobox', { name: 'Setting 2' }), { target: { value: 'defaults.reviewDays' } });
    fireEvent.click(run());
    expect(started).toEqual([
      {
        from: '2025-01-06',
        to: '2025-03-30',
        scenario: 'default',
        vary: [
          { setting: 'defaults.serviceLevel', values: [0.85, 0.9, 0.95, 0.99] },
          { setting: 'defaults.reviewDays', values: [20, 40] },
        ],
      },
    ]);
  });

  it('varies three settings at the most, and none is not a sweep', () => {
    renderSetup();
    fireEvent.click(screen.getByRole('button', { name: 'Vary another setting' }));
    expect(screen.queryByRole('button', { name: 'Vary another setting' })).toBeNull();
    expect((screen.getByRole('combobox', { name: 'Setting 3' }) as HTMLSelectElement).value).toBe(
      'defaults.serviceLevel',
    );
    fireEvent.change(values(3), { target: { value: '0.8,0.9' } });
    expect(run().textContent).toBe('Run sweep (24 points)');
    for (const i of [3, 2, 1]) fireEvent.click(screen.getByRole('button', { name: `Remove setting ${i}` }));
    expect(run().textContent).toBe('Run sweep (1 point)');
    expect(run().disabled).toBe(true);
  });

  it('runs no grid past the limit, and none while a sweep runs', () => {
    renderSetup(10);
    expect(run().disabled).toBe(true);
    expect(screen.getByText('at most 10 points')).toBeTruthy();
    fireEvent.change(values(1), { target: { value: '0.9, 0.95' } });
    expect(run().disabled).toBe(false);
    expect(screen.queryByText(/at most/)).toBeNull();
    cleanup();
    renderSetup(50, true);
    expect(run().disabled).toBe(true);
  });
});

const REPORT = {
  sweepId: 'sw-1',
  runs: [{ fillRate: 0.96 }, { fillRate: 0.9812 }, { fillRate: null }],
  actual: { fillRate: 0.9734, inventoryUnits: 1234.6, inventoryValue: null, lostSales: 10, trips: 0 },
} as unknown as SweepReport;

describe('SweepPick', () => {
  it('starts a fill-rate goal on the history’s own when some point reaches it, else on the best reached', () => {
    expect(reachableFillRate(REPORT)).toBe('97.3');
    expect(reachableFillRate({ ...REPORT, actual: { ...REPORT.actual, fillRate: 0.99 } })).toBe('98.1');
    expect(reachableFillRate({ ...REPORT, actual: { ...REPORT.actual, fillRate: null } })).toBe('98.1');
  });

  function renderPick(picked: number | null | undefined, name = '') {
    const did: string[] = [];
    render(
      <SweepPick
        report={REPORT}
        measure="lostSales"
        onMeasure={(m) => did.push(`measure ${m}`)}
        stock="inventoryUnits"
        onStock={(s) => did.push(`stock ${s}`)}
        constraint={{ kind: 'fillRate', value: '97.3' }}
        onConstraint={(c: Constraint) => did.push(`${c.kind} ${c.value}`)}
        picked={picked}
        name={name}
        onName={(n) => did.push(`name ${n}`)}
        onSave={() => did.push('save')}
      />,
    );
    return did;
  }

  it('switches the constraint to a goal the history meets, and hands back what is typed and chosen', () => {
    const did = renderPick(4, 'tuned');
    const kind = screen.getByRole('combobox', { name: 'Constraint' });
    fireEvent.change(kind, { target: { value: 'stock' } });
    fireEvent.change(kind, { target: { value: 'fillRate' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Constraint value' }), { target: { value: '95' } });
    fireEvent.click(screen.getByRole('button', { name: 'Fill rate' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Scenario name' }), { target: { value: 'tuned2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save as scenario' }));
    expect(did).toEqual(['stock 1235', 'fillRate 97.3', 'fillRate 95', 'measure fillRate', 'name tuned2', 'save']);
    expect(screen.getByTestId('picked').textContent).toBe('point 4');
  });

  it('keeps nothing without a point picked or a name, and tells when no point meets the goal', () => {
    renderPick(null, 'tuned');
    expect(screen.getByTestId('picked').textContent).toBe('no point meets it');
    expect(screen.getByRole('button', { name: 'Save as scenario' })).toHaveProperty('disabled', true);
    cleanup();
    renderPick(2, '');
    expect(screen.getByRole('button', { name: 'Save as scenario' })).toHaveProperty('disabled', true);
  });

  it('offers stock in value only where the SKUs have cost prices', () => {
    renderPick(undefined);
    expect(screen.getByTestId('picked').textContent).toBe('');
    const value = screen.getByRole('button', { name: 'Value' }) as HTMLButtonElement;
    expect(value.disabled).toBe(true);
    expect(value.title).toBe('no cost prices: value n/a');
  });
});
