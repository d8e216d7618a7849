// @vitest-environment happy-dom
/**
 * The Transfers screen's lines (use-transfers.ts): filtered, selected one by one, by a shift-click range and all
 * at once; its toolbar (TransfersToolbar.tsx) and the approval of a batch (ApproveBatch.tsx).
 */
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProposalRow } from '../../src-renderer/src/client';
import { namesOf } from '../../src-renderer/src/names';
import { ApproveBatch } from '../../src-renderer/src/screens/ApproveBatch';
import { TransfersToolbar } from '../../src-renderer/src/screens/TransfersToolbar';
import { filterTransfers, useTransfers, type TransferFilters } from '../../src-renderer/src/screens/use-transfers';

afterEach(cleanup);

const NAMES = namesOf({
  locations: [
    { id: 'ST-001', name: 'Nordvik Ede', kind: 'store' },
    { id: 'WH-01', name: 'Central', kind: 'warehouse' },
    { id: 'ST-002', name: 'Haven', kind: 'store' },
  ],
  styles: [],
  categories: [],
} as never);

const line = (
  referenceId: string,
  transferType: ProposalRow['transferType'],
  from: string,
  to: string,
  skuId: string,
  approvalBatchId?: string,
): ProposalRow => ({
  referenceId,
  runId: 'r1',
  transferType,
  fromLocationId: from,
  toLocationId: to,
  skuId,
  styleId: skuId.split('-').slice(0, 2).join('-'),
  quantity: 1,
  reason: `why ${referenceId}`,
  approvalBatchId,
});
const ROWS = [
  line('a', 'Replenishment', 'WH-01', 'ST-001', 'TEE-100-S'),
  line('b', 'Redistribution', 'ST-001', 'ST-002', 'TEE-100-M'),
  line('c', 'Replenishment', 'WH-01', 'ST-002', 'POLO-200-S', 'batch-1'),
  line('d', 'InitialDistribution', 'WH-01', 'ST-002', 'POLO-200-M'),
];
const ids = (rows: readonly ProposalRow[]) => rows.map((r) => r.referenceId);
const NONE: TransferFilters = { type: '', location: '', style: '' };

describe('filterTransfers', () => {
  it('keeps the lines of a type, from or to a location by id or name, of a style, in any case', () => {
    expect(ids(filterTransfers(ROWS, NONE, NAMES))).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(filterTransfers(ROWS, { ...NONE, type: 'Replenishment' }, NAMES))).toEqual(['a', 'c']);
    expect(ids(filterTransfers(ROWS, { ...NONE, location: 'nordvik' }, NAMES))).toEqual(['a', 'b']);
    expect(ids(filterTransfers(ROWS, { ...NONE, location: 'st-002' }, NAMES))).toEqual(['b', 'c', 'd']);
    expect(ids(filterTransfers(ROWS, { ...NONE, style: 'polo' }, NAMES))).toEqual(['c', 'd']);
    expect(ids(filterTransfers(ROWS, { type: 'Replenishment', location: 'haven', style: '' }, NAMES))).toEqual(['c']);
  });
});

describe('useTransfers', () => {
  const held = () => renderHook(() => useTransfers(ROWS, NAMES));

  it('counts the open lines shown, and narrows them by the filters set', () => {
    const { result } = held();
    expect(result.current.open).toBe(3);
    act(() => result.current.setFilter('style', 'polo'));
    expect(ids(result.current.shown)).toEqual(['c', 'd']);
    expect(result.current.open).toBe(1);
  });

  it('selects a line clicked, every open line between two with shift, and never an approved one', () => {
    const { result } = held();
    act(() => result.current.toggle(0, false));
    expect([...result.current.selected]).toEqual(['a']);
    act(() => result.current.toggle(3, true));
    expect([...result.current.selected].sort()).toEqual(['a', 'b', 'd']);
    expect(result.current.openSelected).toBe(3);
    // A shift-click on a selected line clears the range back to the line clicked before it.
    act(() => result.current.toggle(1, true));
    expect([...result.current.selected]).toEqual(['a']);
    act(() => result.current.clearSelection());
    expect(result.current.selected.size).toBe(0);
  });

  it('selects every open line shown at once, then clears them', () => {
    const { result } = held();
    act(() => result.current.setFilter('type', 'Replenishment'));
    act(() => result.current.toggleAll());
    expect([...result.current.selected]).toEqual(['a']);
    act(() => result.current.setFilter('type', ''));
    act(() => result.current.toggleAll());
    expect([...result.current.selected].sort()).toEqual(['a', 'b', 'd']);
    act(() => result.current.toggleAll());
    expect(result.current.selected.size).toBe(0);
  });
});

describe('TransfersToolbar', () => {
  it('hands back each filter typed or picked, the run and the export', () => {
    const did: string[] = [];
    render(
      <TransfersToolbar
        busy={false}
        filters={NONE}
        onFilter={(key, value) => did.push(`${key}=${value}`)}
        onRun={() => did.push('run')}
        onExport={() => did.push('export')}
        canExport
      />,
    );
    fireEvent.change(screen.getByRole('combobox', { name: 'Type' }), { target: { value: 'Redistribution' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Location' }), { target: { value: 'ST' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Style' }), { target: { value: 'TEE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run recommendations' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(did).toEqual(['type=Redistribution', 'location=ST', 'style=TEE', 'run', 'export']);
  });

  it('runs nothing while the engine works, and exports nothing while no line is shown', () => {
    render(
      <TransfersToolbar
        busy
        filters={NONE}
        onFilter={() => {}}
        onRun={() => {}}
        onExport={() => {}}
        canExport={false}
      />,
    );
    expect((screen.getByRole('button', { name: 'Working…' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('ApproveBatch', () => {
  const approveButton = () => screen.getByRole('button', { name: 'Approve selection' }) as HTMLButtonElement;

  it('hands back the description and planned dispatch day typed', () => {
    const did: [string, string][] = [];
    render(<ApproveBatch selected={2} busy={false} onApprove={(d, p) => did.push([d, p])} />);
    expect(screen.getByText('2 selected')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Description' }), { target: { value: 'Week 12' } });
    fireEvent.change(document.querySelector('input[name="dispatch"]')!, { target: { value: '2026-03-02' } });
    fireEvent.click(approveButton());
    expect(did).toEqual([['Week 12', '2026-03-02']]);
  });

  it('approves nothing while nothing is selected or the engine works', () => {
    render(<ApproveBatch selected={0} busy={false} onApprove={() => {}} />);
    expect(approveButton().disabled).toBe(true);
    cleanup();
    render(<ApproveBatch selected={3} busy onApprove={() => {}} />);
    expect(approveButton().disabled).toBe(true);
  });
});
