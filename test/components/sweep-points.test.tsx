// @vitest-environment happy-dom
/** A sweep's points (SweepPoints.tsx) sorted by their headings (sort.ts), as the Sweep screen lays them out. */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SweepReport } from '../../src-renderer/src/client';
import { useSort } from '../../src-renderer/src/sort';
import { sweepColumns, SweepPoints } from '../../src-renderer/src/screens/SweepPoints';

afterEach(cleanup);

type Row = SweepReport['runs'][number];
const row = (
  point: number,
  serviceLevel: number,
  lostSales: number,
  fillRate: number | null,
  frontier: boolean,
): Row => ({
  point,
  runId: `bt/${point}`,
  vary: { 'defaults.serviceLevel': serviceLevel },
  lostSales,
  fillRate,
  inventoryUnits: 1000 - lostSales,
  inventoryValue: null,
  inStockRate: null,
  trips: point * 2,
  lines: point * 3,
  units: 12345 * point,
  frontier,
});
const ROWS = [row(1, 0.9, 30, 0.9712, true), row(2, 0.95, 10, null, false), row(3, 0.97, 20, 0.9, true)];
const VARIED = ['defaults.serviceLevel'];

function Points({ picked }: { picked?: number }) {
  const { sorted, heading } = useSort(ROWS, sweepColumns(VARIED));
  return <SweepPoints rows={sorted} varied={VARIED} heading={heading} picked={picked} />;
}

const order = () => [...document.querySelectorAll('tbody tr')].map((tr) => Number(tr.getAttribute('data-point')));
const header = (name: string) => screen.getByRole('columnheader', { name });

describe('SweepPoints', () => {
  it('shows each point with the settings varied, its figures, the frontier and a link to its run', () => {
    render(<Points picked={3} />);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Point',
      'Service level',
      'Lost sales',
      'Fill rate',
      'Store stock',
      'Trips',
      'Units moved',
      'Frontier',
    ]);
    const first = within(document.querySelector<HTMLElement>('tr[data-point="1"]')!);
    expect(first.getAllByRole('cell').map((c) => c.textContent)).toEqual([
      '1',
      '0.9',
      '30',
      '97.12%',
      '970',
      '2',
      '12,345',
      'on it',
    ]);
    expect(first.getByRole('link', { name: '1' }).getAttribute('href')).toBe('#/backtest/bt%2F1');
    expect(document.querySelector('tr[data-point="2"] td:nth-child(4)')!.textContent).toBe('—');
    expect([...document.querySelectorAll('.row--picked')].map((tr) => tr.getAttribute('data-point'))).toEqual(['3']);
  });

  it('sorts by a heading clicked, and reverses on a second click', () => {
    render(<Points />);
    expect(order()).toEqual([1, 2, 3]);
    expect(header('Lost sales').getAttribute('aria-sort')).toBe('none');
    fireEvent.click(header('Lost sales'));
    expect(order()).toEqual([2, 3, 1]);
    expect(header('Lost sales').getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(header('Lost sales'));
    expect(order()).toEqual([1, 3, 2]);
    expect(header('Lost sales').getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(header('Service level'));
    expect(order()).toEqual([1, 2, 3]);
    expect(header('Lost sales').getAttribute('aria-sort')).toBe('none');
  });

  it('keeps a point without a figure last whichever way the column sorts', () => {
    render(<Points />);
    fireEvent.click(header('Fill rate'));
    expect(order()).toEqual([3, 1, 2]);
    fireEvent.click(header('Fill rate'));
    expect(order()).toEqual([1, 3, 2]);
  });
});
