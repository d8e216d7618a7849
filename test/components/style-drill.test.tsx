// @vitest-environment happy-dom
/**
 * The Style drill's parts: its location × SKUs found and sorted (use-cell-rows.ts) in their table
 * (StyleCellTable.tsx), and the replay's progress asked for while they are traced (use-style-cells.ts).
 */
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminClient, CellTotals, StyleCells, TraceProgress } from '../../src-renderer/src/client';
import { namesOf } from '../../src-renderer/src/names';
import { SHOWN_CELLS, StyleCellTable } from '../../src-renderer/src/screens/StyleCellTable';
import { useCellRows } from '../../src-renderer/src/screens/use-cell-rows';
import { TRACE_POLL_MS, useStyleCells } from '../../src-renderer/src/screens/use-style-cells';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const NAMES = namesOf({
  locations: [
    { id: 'ST-001', name: 'Nordvik Ede', kind: 'store' },
    { id: 'ST-002', name: 'Haven', kind: 'store' },
    { id: 'WH-01', name: 'Central', kind: 'warehouse' },
  ],
  styles: [],
  categories: [],
} as never);

const cell = (locationId: string, skuId: string, lostSales: number, sales: number): CellTotals => ({
  locationId,
  locationKind: locationId.startsWith('WH') ? 'warehouse' : 'store',
  skuId,
  sizeId: skuId.split('-').at(-1)!,
  simulated: { sales, lostSales, stockOutDays: 0 },
  actual: { sales, lostSales: lostSales + 1, stockOutDays: 0 },
  carriedDays: 10,
  demand: sales + lostSales,
  estimatedDemand: 0,
  receipts: 0,
  transfersIn: 0,
  transfersOut: 0,
});
const CELLS: StyleCells = {
  runId: 'bt-1',
  styleId: 'TEE-100',
  replayMs: 1200,
  cells: [cell('ST-001', 'TEE-100-S', 9, 3), cell('ST-002', 'TEE-100-M', 5, 7), cell('WH-01', 'TEE-100-S', 2, 5)],
};
const keys = (rows: readonly CellTotals[]) => rows.map((c) => `${c.locationId}/${c.skuId}`);

describe('useCellRows', () => {
  it("finds cells by a location's name or id or a SKU, in any case, and keeps them in the order read", () => {
    const { result } = renderHook(() => useCellRows(CELLS, NAMES));
    expect(keys(result.current.rows)).toEqual(['ST-001/TEE-100-S', 'ST-002/TEE-100-M', 'WH-01/TEE-100-S']);
    act(() => result.current.setFilter('  nordvik  '));
    expect(keys(result.current.rows)).toEqual(['ST-001/TEE-100-S']);
    act(() => result.current.setFilter('wh-01'));
    expect(keys(result.current.rows)).toEqual(['WH-01/TEE-100-S']);
    act(() => result.current.setFilter('-s'));
    expect(keys(result.current.rows)).toEqual(['ST-001/TEE-100-S', 'WH-01/TEE-100-S']);
  });
});

function Table({ cells = CELLS, opened = [] as string[] }) {
  const shown = useCellRows(cells, NAMES);
  return (
    <StyleCellTable
      runId={cells.runId}
      styleId={cells.styleId}
      cells={cells}
      shown={shown}
      names={NAMES}
      openCell={(c) => opened.push(`${c.locationId}/${c.skuId}`)}
    />
  );
}
const drawn = () => [...document.querySelectorAll('tbody tr')].map((tr) => tr.getAttribute('data-cell'));
const count = () => screen.getByTestId('cell-count').textContent;

describe('StyleCellTable', () => {
  it('sorts by a heading clicked and says by which; opens a cell by its name', () => {
    const opened: string[] = [];
    render(<Table opened={opened} />);
    expect(count()).toBe('3 of 3 location × SKUs, most lost sales first (traced by replaying the run in 1.2 s)');
    fireEvent.click(screen.getByRole('columnheader', { name: 'Sales' }));
    expect(drawn()).toEqual(['ST-001/TEE-100-S', 'WH-01/TEE-100-S', 'ST-002/TEE-100-M']);
    expect(count()).toMatch(/^3 of 3 location × SKUs, sorted by Sales /);
    fireEvent.click(screen.getByRole('columnheader', { name: 'Sales' }));
    expect(drawn()).toEqual(['ST-002/TEE-100-M', 'WH-01/TEE-100-S', 'ST-001/TEE-100-S']);
    fireEvent.click(screen.getByRole('button', { name: 'ST-002 · Haven · TEE-100-M' }));
    expect(opened).toEqual(['ST-002/TEE-100-M']);
    expect(screen.getByText('(warehouse)', { exact: false }).closest('tr')!.getAttribute('data-cell')).toBe(
      'WH-01/TEE-100-S',
    );
  });

  it('draws the first cells found, counts them all, and exports nothing when none is found', () => {
    const many = { ...CELLS, cells: Array.from({ length: 130 }, (_, i) => cell('ST-001', `TEE-100-${i}`, 130 - i, 1)) };
    render(<Table cells={many} />);
    expect(drawn()).toHaveLength(SHOWN_CELLS);
    expect(count()).toMatch(/^100 of 130 location × SKUs/);
    fireEvent.change(screen.getByRole('textbox', { name: 'Find' }), { target: { value: 'TEE-100-12' } });
    expect(drawn()).toEqual(['ST-001/TEE-100-12', ...Array.from({ length: 10 }, (_, i) => `ST-001/TEE-100-12${i}`)]);
    fireEvent.change(screen.getByRole('textbox', { name: 'Find' }), { target: { value: 'nothing' } });
    expect(count()).toMatch(/^0 of 0 /);
    expect((screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('useStyleCells', () => {
  it('asks how far the trace got while the cells are awaited, and stops once they come', async () => {
    vi.useFakeTimers();
    let answer!: (cells: StyleCells) => void;
    const asked: string[] = [];
    let done = 0;
    const client = {
      call: (route: string, { params }: { params: { runId: string; styleId: string } }) => {
        asked.push(`${route} ${params.runId} ${params.styleId}`);
        if (route.endsWith('/cells')) return new Promise<StyleCells>((resolve) => (answer = resolve));
        done += 10;
        return Promise.resolve<TraceProgress>({ status: 'replaying', daysDone: done, days: 100 });
      },
    } as unknown as AdminClient;
    const { result } = renderHook(() => useStyleCells(client, 'bt-1', 'TEE-100'));
    expect(result.current.waiting).toBe(true);
    expect(result.current.progress).toBeUndefined();
    await act(() => vi.advanceTimersByTimeAsync(TRACE_POLL_MS));
    expect(result.current.progress).toEqual({ status: 'replaying', daysDone: 10, days: 100 });
    await act(() => vi.advanceTimersByTimeAsync(TRACE_POLL_MS));
    expect(result.current.progress?.daysDone).toBe(20);
    await act(async () => answer(CELLS));
    expect(result.current.waiting).toBe(false);
    expect(result.current.cells).toBe(CELLS);
    const polls = asked.length;
    await act(() => vi.advanceTimersByTimeAsync(TRACE_POLL_MS * 4));
    expect(asked.length).toBe(polls);
    expect(asked).toEqual([
      'GET /backtests/:runId/styles/:styleId/cells bt-1 TEE-100',
      'GET /backtests/:runId/styles/:styleId/trace bt-1 TEE-100',
      'GET /backtests/:runId/styles/:styleId/trace bt-1 TEE-100',
    ]);
  });
});
