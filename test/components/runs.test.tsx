// @vitest-environment happy-dom
/** The kept runs (use-kept-runs.ts): chosen in pairs to compare, labelled and deleted; a run's label form. */
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminClient, KeptRun } from '../../src-renderer/src/client';
import { RunLabelForm } from '../../src-renderer/src/screens/RunLabelForm';
import { useKeptRuns } from '../../src-renderer/src/screens/use-kept-runs';

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(window, 'confirm');
});

const run = (runId: string, label?: string) => ({ runId, label, createdAt: '2026-03-01T10:00:00Z' }) as KeptRun;

/** A workbench keeping runs, newest first, that labels and deletes them as asked. */
function workbench(ids: string[]) {
  let runs = ids.map((id) => run(id));
  const asked: string[] = [];
  const client = {
    call: async (route: string, opts?: { params: { runId: string }; body?: { label: string } }) => {
      asked.push(opts ? `${route} ${opts.params.runId}` : route);
      if (route === 'GET /backtests') return { runs };
      if (route === 'DELETE /backtests/:runId') {
        if (opts!.params.runId === 'locked') throw new Error('The run is being compared');
        runs = runs.filter((r) => r.runId !== opts!.params.runId);
        return {};
      }
      if (route === 'PUT /backtests/:runId/label') {
        runs = runs.map((r) => (r.runId === opts!.params.runId ? { ...r, label: opts!.body!.label || undefined } : r));
        return runs.find((r) => r.runId === opts!.params.runId);
      }
      throw new Error(`not asked of this test: ${route}`);
    },
  } as unknown as AdminClient;
  return { client, asked };
}

describe('useKeptRuns', () => {
  it('compares the two runs chosen last, the older one first', async () => {
    const { client } = workbench(['bt-3', 'bt-2', 'bt-1']);
    const { result } = renderHook(() => useKeptRuns(client));
    await waitFor(() => expect(result.current.runs).toHaveLength(3));
    act(() => result.current.choose('bt-2', true));
    expect(result.current.pair()).toBeUndefined();
    act(() => result.current.choose('bt-1', true));
    act(() => result.current.choose('bt-3', true));
    expect(result.current.chosen).toEqual(['bt-1', 'bt-3']);
    expect(result.current.pair()).toEqual(['bt-1', 'bt-3']);
    act(() => result.current.choose('bt-1', false));
    expect(result.current.chosen).toEqual(['bt-3']);
    expect(result.current.pair()).toBeUndefined();
    act(() => result.current.choose('bt-2', true));
    expect(result.current.chosen).toEqual(['bt-3', 'bt-2']);
    expect(result.current.pair()).toEqual(['bt-2', 'bt-3']);
  });

  it('deletes a run only once confirmed, lists the runs again and says so; a refusal is said', async () => {
    const { client, asked } = workbench(['bt-2', 'bt-1', 'locked']);
    // The user declines the first time, then confirms.
    const confirm = vi.fn<(message?: string) => boolean>().mockReturnValueOnce(false).mockReturnValue(true);
    window.confirm = confirm;
    const { result } = renderHook(() => useKeptRuns(client));
    await waitFor(() => expect(result.current.runs).toHaveLength(3));
    act(() => result.current.choose('bt-1', true));
    await act(() => result.current.remove('bt-1'));
    expect(asked).not.toContain('DELETE /backtests/:runId bt-1');
    await act(() => result.current.remove('bt-1'));
    expect(confirm.mock.calls.at(-1)).toEqual(['Delete run bt-1 with its days, breakdowns and transfers?']);
    expect(result.current.runs!.map((r) => r.runId)).toEqual(['bt-2', 'locked']);
    expect(result.current.chosen).toEqual([]);
    expect(result.current.notice).toBe('Deleted run bt-1');
    await act(() => result.current.remove('locked'));
    expect(result.current.error).toBe('Run locked was not deleted: The run is being compared');
  });

  it('labels a run, stops editing it and says what it is called now', async () => {
    const { client } = workbench(['bt-1']);
    const { result } = renderHook(() => useKeptRuns(client));
    await waitFor(() => expect(result.current.runs).toHaveLength(1));
    act(() => result.current.setEditing('bt-1'));
    await act(() => result.current.relabel('bt-1', { label: 'spring', note: '' }));
    expect(result.current.runs![0].label).toBe('spring');
    expect(result.current.editing).toBeUndefined();
    expect(result.current.notice).toBe('Run bt-1 is labelled spring');
    await act(() => result.current.relabel('bt-1', { label: '', note: '' }));
    expect(result.current.notice).toBe('Run bt-1 has no label');
  });
});

describe('RunLabelForm', () => {
  it("starts from the run's label and note, and hands back what was typed", () => {
    const saved: unknown[] = [];
    let cancelled = false;
    render(
      <RunLabelForm
        run={{ ...run('bt-1', 'spring'), note: 'first try' }}
        save={(c) => saved.push(c)}
        cancel={() => (cancelled = true)}
      />,
    );
    expect((screen.getByRole('textbox', { name: 'Label' }) as HTMLInputElement).value).toBe('spring');
    fireEvent.change(screen.getByRole('textbox', { name: 'Note' }), { target: { value: 'second try' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(saved).toEqual([{ label: 'spring', note: 'second try' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(cancelled).toBe(true);
  });
});
