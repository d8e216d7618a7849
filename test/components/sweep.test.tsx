// @vitest-environment happy-dom
/** The Sweep screen's state (use-sweep.ts): the sweep shown and its picked point, a sweep run, deleted, kept. */
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminClient, BacktestJob, SweepHeader, SweepReport } from '../../src-renderer/src/client';
import { sweepCsv } from '../../src-renderer/src/screens/SweepResult';
import { useSweep } from '../../src-renderer/src/screens/use-sweep';

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(window, 'confirm');
  window.location.hash = '';
});

const row = (point: number, fillRate: number | null, inventoryUnits: number) => ({
  point,
  runId: `bt-${point}`,
  vary: { 'defaults.serviceLevel': 0.8 + point / 10 },
  lostSales: 10 * point,
  fillRate,
  inventoryUnits,
  inventoryValue: null,
  inStockRate: null,
  trips: point,
  lines: point,
  units: 100 * point,
  frontier: point !== 2,
});
const REPORT = {
  sweepId: 'sw-1',
  axes: [{ setting: 'defaults.serviceLevel', values: [0.9, 1] }],
  runs: [row(1, 0.95, 500), row(2, null, 700)],
  actual: { fillRate: 0.9, inventoryUnits: 600, inventoryValue: null, lostSales: 30, trips: 0 },
} as unknown as SweepReport;

type Opts = { params?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown };

/** A workbench keeping one sweep, whose jobs run for `polls` reads and then end as `ending`. */
function workbench({ polls = 0, ending = 'done' as BacktestJob['status'] } = {}) {
  let sweeps = [{ sweepId: 'sw-1' }] as SweepHeader[];
  const asked: string[] = [];
  let reads = 0;
  const job = (status: BacktestJob['status']) =>
    ({
      jobId: 'job-1',
      status,
      days: 10,
      daysDone: status === 'running' ? 5 : 10,
      sweepId: 'sw-2',
      error: 'no stock data',
    }) as BacktestJob;
  const client = {
    call: async (route: string, opts: Opts = {}) => {
      asked.push([route, JSON.stringify(opts.params ?? {}), JSON.stringify(opts.query ?? opts.body ?? {})].join(' '));
      switch (route) {
        case 'GET /sweeps/settings':
          return { settings: [], maxPoints: 50 };
        case 'GET /sweeps':
          return { sweeps };
        case 'GET /sweeps/:sweepId':
          if (opts.params!.sweepId !== 'sw-1') throw new Error('no such sweep');
          return REPORT;
        case 'GET /sweeps/:sweepId/pick': {
          const q = opts.query as { fillRateAtLeast?: number; inventoryAtMost?: string };
          if (q.inventoryAtMost === '1') throw new Error('too little');
          const meets = REPORT.runs.find((r) =>
            q.fillRateAtLeast !== undefined
              ? (r.fillRate ?? 0) >= q.fillRateAtLeast
              : r.inventoryUnits <= Number(q.inventoryAtMost),
          );
          return { point: meets?.point };
        }
        case 'POST /sweeps':
          return job(polls > 0 ? 'running' : ending);
        case 'GET /sweeps/jobs/:jobId':
          reads++;
          if (reads >= polls) sweeps = [...sweeps, { sweepId: 'sw-2' } as SweepHeader];
          return job(reads < polls ? 'running' : ending);
        case 'DELETE /sweeps/:sweepId':
          sweeps = sweeps.filter((s) => s.sweepId !== opts.params!.sweepId);
          return {};
        case 'POST /sweeps/:sweepId/points/:point/scenario':
          if ((opts.body as { name: string }).name === 'default') throw new Error('default is taken');
          return {};
      }
      throw new Error(`not asked of this test: ${route}`);
    },
  } as unknown as AdminClient;
  return { client, asked };
}

describe('useSweep', () => {
  it('shows the sweep opened, starts on a fill rate some point meets, and asks which point meets a goal', async () => {
    const { client, asked } = workbench();
    const { result } = renderHook(() => useSweep(client, 'sw-1', () => {}));
    await waitFor(() => expect(result.current.picked).toBe(1));
    expect(result.current.report).toBe(REPORT);
    expect(result.current.constraint).toEqual({ kind: 'fillRate', value: '90' });
    expect(asked).toContain('GET /sweeps/:sweepId/pick {"sweepId":"sw-1"} {"fillRateAtLeast":0.9}');
    act(() => result.current.setConstraint({ kind: 'stock', value: '650' }));
    await waitFor(() =>
      expect(asked).toContain('GET /sweeps/:sweepId/pick {"sweepId":"sw-1"} {"inventoryAtMost":"650"}'),
    );
    await waitFor(() => expect(result.current.picked).toBe(1));
    act(() => result.current.setConstraint({ kind: 'stock', value: '1' }));
    await waitFor(() => expect(result.current.picked).toBeNull());
    const before = asked.length;
    act(() => result.current.setConstraint({ kind: 'stock', value: ' ' }));
    expect(result.current.picked).toBeUndefined();
    expect(asked.slice(before)).toEqual([]);
  });

  it('says when the sweep opened cannot be read', async () => {
    const { client } = workbench();
    const { result } = renderHook(() => useSweep(client, 'sw-9', () => {}));
    await waitFor(() => expect(result.current.error).toBe('Sweep sw-9 could not be read: no such sweep'));
    expect(result.current.report).toBeUndefined();
    expect(result.current.settings).toEqual([]);
    expect(result.current.maxPoints).toBe(50);
  });

  it('follows a sweep’s job until it ends, then lists the sweeps again and opens the new one', async () => {
    const { client, asked } = workbench({ polls: 2 });
    const { result } = renderHook(() => useSweep(client, undefined, () => {}));
    await waitFor(() => expect(result.current.kept).toHaveLength(1));
    // Started outside act so that the job's progress is seen while it runs.
    const running = result.current.start({ from: '2025-01-06', to: '2025-03-30', scenario: 'default', vary: [] });
    await waitFor(() => expect(result.current.job?.daysDone).toBe(5));
    await act(() => running);
    expect(asked.filter((a) => a.startsWith('GET /sweeps/jobs/:jobId'))).toHaveLength(2);
    expect(result.current.job).toBeUndefined();
    expect(result.current.kept!.map((s) => s.sweepId)).toEqual(['sw-1', 'sw-2']);
    expect(window.location.hash).toBe('#/sweep/sw-2');
    expect(result.current.error).toBeUndefined();
  });

  it('says why a sweep did not run', async () => {
    const { client } = workbench({ ending: 'failed' });
    const { result } = renderHook(() => useSweep(client, undefined, () => {}));
    await act(() => result.current.start({ from: '2025-01-06', to: '2025-03-30', scenario: 'default', vary: [] }));
    expect(result.current.error).toBe('The sweep did not run: no stock data');
    expect(result.current.job).toBeUndefined();
    expect(window.location.hash).toBe('');
  });

  it('deletes a sweep only once confirmed, and leaves it when it was the one shown', async () => {
    const { client, asked } = workbench();
    window.location.hash = '#/sweep/sw-1';
    window.confirm = vi.fn<(message?: string) => boolean>().mockReturnValueOnce(false).mockReturnValue(true);
    const { result } = renderHook(() => useSweep(client, 'sw-1', () => {}));
    await waitFor(() => expect(result.current.kept).toHaveLength(1));
    await act(() => result.current.remove('sw-1'));
    expect(asked.some((a) => a.startsWith('DELETE'))).toBe(false);
    await act(() => result.current.remove('sw-1'));
    expect(window.confirm).toHaveBeenLastCalledWith('Delete sweep sw-1 with its runs?');
    expect(result.current.kept).toEqual([]);
    expect(window.location.hash).toBe('#/sweep');
    expect(result.current.notice).toBe('Deleted sweep sw-1');
  });

  it('keeps the point picked as a scenario under the name typed, and says when it is refused', async () => {
    const { client, asked } = workbench();
    const saved = vi.fn();
    const { result } = renderHook(() => useSweep(client, 'sw-1', saved));
    await waitFor(() => expect(result.current.picked).toBe(1));
    act(() => result.current.setName('tuned'));
    await act(() => result.current.save());
    expect(asked).toContain(
      'POST /sweeps/:sweepId/points/:point/scenario {"sweepId":"sw-1","point":1} {"name":"tuned"}',
    );
    expect(saved).toHaveBeenCalledTimes(1);
    expect(result.current.notice).toBe('Kept point 1 as scenario tuned');
    act(() => result.current.setName('default'));
    await act(() => result.current.save());
    expect(saved).toHaveBeenCalledTimes(1);
    expect(result.current.error).toBe('The scenario was not kept: default is taken');
  });
});

describe('sweepCsv', () => {
  it('writes each point in the order given, with the settings varied and the frontier', () => {
    expect(sweepCsv(REPORT, [REPORT.runs[1], REPORT.runs[0]]).trim().split(/\r?\n/)).toEqual([
      'point,defaults.serviceLevel,lostSales,fillRate,inventoryUnits,trips,units,frontier,runId',
      '2,1,20,,700,2,200,,bt-2',
      '1,0.9,10,0.95,500,1,100,yes,bt-1',
    ]);
  });
});
