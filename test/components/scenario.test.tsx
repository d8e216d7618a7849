// @vitest-environment happy-dom
/**
 * The scenario the Settings screen edits (use-scenario.ts, use-opened-scenario.ts): opened from its draft or the
 * workbench, edited, saved, copied, renamed and deleted; settings typed as JSON (settings-text.ts).
 */
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WorkbenchError, type AdminClient } from '../../src-renderer/src/client';
import { parseSettings } from '../../src-renderer/src/screens/settings-text';
import { useScenario } from '../../src-renderer/src/screens/use-scenario';
import { useWorkbench } from '../../src-renderer/src/store';

afterEach(() => {
  cleanup();
  useWorkbench.setState({ settingsDrafts: {} });
  Reflect.deleteProperty(window, 'confirm');
});

/** A workbench keeping scenarios by name, refusing a negative service level and a rename to "taken". */
function workbench(kept: Record<string, Record<string, unknown>>) {
  const scenarios = { ...kept };
  const asked: string[] = [];
  const client = {
    call: async (route: string, opts?: { params: { name: string }; body?: Record<string, unknown> }) => {
      asked.push(opts ? `${route} ${opts.params.name}` : route);
      const name = opts?.params.name ?? '';
      switch (route) {
        case 'GET /scenarios':
          return { categories: [{ id: 'food' }] };
        case 'GET /scenarios/:name':
          if (!scenarios[name]) throw new WorkbenchError('no such scenario', 404);
          return { scenario: scenarios[name] };
        case 'PUT /scenarios/:name': {
          const level = (opts!.body!.defaults as { serviceLevel?: number } | undefined)?.serviceLevel;
          if (level !== undefined && level < 0)
            throw new WorkbenchError('refused', 400, [{ path: 'defaults.serviceLevel', message: 'at least 0' }]);
          scenarios[name] = opts!.body!;
          return { scenario: scenarios[name] };
        }
        case 'POST /scenarios/:name/rename': {
          const to = (opts!.body as unknown as { to: string }).to;
          if (to === 'taken') throw new Error('taken is taken');
          scenarios[to] = scenarios[name];
          delete scenarios[name];
          return {};
        }
        case 'DELETE /scenarios/:name':
          delete scenarios[name];
          return {};
      }
      throw new Error(`not asked of this test: ${route}`);
    },
  } as unknown as AdminClient;
  return { client, asked, scenarios };
}

function renderScenario(client: AdminClient, scenario: string, names: string[]) {
  const picked: string[] = [];
  const saved = vi.fn(async () => {});
  const hook = renderHook(
    ({ name }) => useScenario({ client, names, scenario: name, pick: (n) => picked.push(n), saved }),
    { initialProps: { name: scenario } },
  );
  return { ...hook, picked, saved };
}

const LEAN = { defaults: { serviceLevel: 0.9 } };

describe('parseSettings', () => {
  it('takes one JSON object, and says why anything else is not settings', () => {
    expect(parseSettings('{"a":1}')).toEqual({ value: { a: 1 } });
    expect(parseSettings('[1]')).toEqual({ error: 'The settings are one JSON object: { … }' });
    expect(parseSettings('null')).toEqual({ error: 'The settings are one JSON object: { … }' });
    expect(parseSettings('{')).toMatchObject({ error: expect.stringMatching(/^Not JSON: /) });
  });
});

describe('useScenario', () => {
  it('opens a kept scenario, its draft first, and a name not saved yet as empty', async () => {
    const { client } = workbench({ lean: LEAN });
    const { result, rerender } = renderScenario(client, 'lean', ['default', 'lean']);
    await waitFor(() => expect(result.current.value).toEqual(LEAN));
    expect(result.current.text).toBe(JSON.stringify(LEAN, null, 2));
    await waitFor(() => expect(result.current.category).toBe('food'));
    act(() => result.current.edit({ defaults: { serviceLevel: 0.8 } }));
    expect(useWorkbench.getState().settingsDrafts.lean.value).toEqual({ defaults: { serviceLevel: 0.8 } });
    rerender({ name: 'fresh' });
    await waitFor(() => expect(result.current.name).toBe('fresh'));
    await waitFor(() => expect(result.current.text).toBe('{}'));
    rerender({ name: 'lean' });
    await waitFor(() => expect(result.current.value).toEqual({ defaults: { serviceLevel: 0.8 } }));
    act(() => result.current.discard());
    await waitFor(() => expect(result.current.value).toEqual(LEAN));
    expect(useWorkbench.getState().settingsDrafts.lean).toBeUndefined();
  });

  it('reopens a draft that is no JSON yet in the JSON view, and will not leave it or save it until it is', async () => {
    const { client, asked } = workbench({ lean: LEAN });
    useWorkbench.setState({ settingsDrafts: { lean: { value: LEAN, text: '{ "defaults": ' } } });
    const { result } = renderScenario(client, 'lean', ['default', 'lean']);
    await waitFor(() => expect(result.current.view).toBe('json'));
    expect(result.current.text).toBe('{ "defaults": ');
    act(() => result.current.switchView('form'));
    expect(result.current.view).toBe('json');
    expect(result.current.message?.text).toMatch(/^Not JSON: /);
    await act(() => result.current.save());
    expect(asked.some((a) => a.startsWith('PUT'))).toBe(false);
    act(() => result.current.edit({ defaults: { serviceLevel: 0.7 } }, '{"defaults":{"serviceLevel":0.7}}'));
    act(() => result.current.switchView('form'));
    expect(result.current.view).toBe('form');
    expect(result.current.text).toBe(JSON.stringify({ defaults: { serviceLevel: 0.7 } }, null, 2));
  });

  it('saves the scenario, and leaves each refused value’s problem to show where it was typed', async () => {
    const { client, scenarios } = workbench({ lean: LEAN });
    const { result, saved } = renderScenario(client, 'lean', ['default', 'lean']);
    await waitFor(() => expect(result.current.value).toEqual(LEAN));
    act(() => result.current.edit({ defaults: { serviceLevel: -1 } }));
    await act(() => result.current.save());
    expect(result.current.problems).toEqual([{ path: 'defaults.serviceLevel', message: 'at least 0' }]);
    expect(result.current.message).toEqual({ kind: 'error', text: 'Not saved: one value was refused.' });
    expect(useWorkbench.getState().settingsDrafts.lean).toBeDefined();
    act(() => result.current.edit({ defaults: { serviceLevel: 0.95 } }));
    await act(() => result.current.save());
    expect(scenarios.lean).toEqual({ defaults: { serviceLevel: 0.95 } });
    expect(result.current.problems).toEqual([]);
    expect(result.current.message).toEqual({ kind: 'notice', text: 'Saved scenario lean' });
    expect(useWorkbench.getState().settingsDrafts.lean).toBeUndefined();
    expect(saved).toHaveBeenCalledTimes(1);
    expect(result.current.busy).toBe(false);
  });

  it('copies, renames and starts scenarios under a name given, and says why a name or rename is refused', async () => {
    const { client, scenarios } = workbench({ lean: LEAN });
    const { result, picked } = renderScenario(client, 'lean', ['default', 'lean']);
    await waitFor(() => expect(result.current.value).toEqual(LEAN));
    await act(() => result.current.named({ action: 'duplicate', text: 'lean' }));
    expect(result.current.message?.kind).toBe('error');
    await act(() => result.current.named({ action: 'duplicate', text: 'lean2' }));
    expect(scenarios.lean2).toEqual(LEAN);
    expect(picked).toEqual(['lean2']);
    expect(result.current.message).toEqual({ kind: 'notice', text: 'Copied lean as lean2' });
    act(() => result.current.edit({ defaults: { serviceLevel: 0.5 } }));
    await act(() => result.current.named({ action: 'rename', text: 'lean3' }));
    expect(Object.keys(scenarios)).toEqual(['lean', 'lean3']);
    expect(result.current.name).toBe('lean3');
    expect(useWorkbench.getState().settingsDrafts).toEqual({ lean3: expect.anything() });
    expect(result.current.message).toEqual({ kind: 'notice', text: 'Renamed lean2 to lean3' });
    await act(() => result.current.named({ action: 'rename', text: 'taken' }));
    expect(result.current.message).toEqual({ kind: 'error', text: 'Not renamed: taken is taken' });
    await act(() => result.current.named({ action: 'new', text: 'fresh' }));
    expect(picked.at(-1)).toBe('fresh');
    expect(useWorkbench.getState().settingsDrafts.fresh).toEqual({ value: {}, text: '{}' });
  });

  it('deletes the scenario only once confirmed, and opens the first', async () => {
    const { client, scenarios } = workbench({ default: {}, lean: LEAN });
    window.confirm = vi.fn<(message?: string) => boolean>().mockReturnValueOnce(false).mockReturnValue(true);
    const { result, picked } = renderScenario(client, 'lean', ['default', 'lean']);
    await waitFor(() => expect(result.current.value).toEqual(LEAN));
    await act(() => result.current.remove());
    expect(scenarios.lean).toEqual(LEAN);
    await act(() => result.current.remove());
    expect(scenarios.lean).toBeUndefined();
    expect(result.current.name).toBe('default');
    expect(picked).toEqual(['default']);
    expect(result.current.message).toEqual({ kind: 'notice', text: 'Deleted scenario lean' });
  });
});
