// @vitest-environment happy-dom
/** A screen's reads through useFetch (use-fetch.ts), as a component sees them. */
import { act, cleanup, render, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useFetch } from '../../src-renderer/src/use-fetch';

afterEach(cleanup);

/** Calls whose answers the test gives when it chooses, by what they were asked for. */
function calls() {
  const asked: string[] = [];
  const answers = new Map<
    string,
    { answer: (v: string) => void; fail: (e: Error) => void; promise: Promise<string> }
  >();
  const load = (run: string) => {
    asked.push(run);
    let answer!: (v: string) => void;
    let fail!: (e: Error) => void;
    const promise = new Promise<string>((res, rej) => {
      answer = res;
      fail = rej;
    });
    answers.set(run, { answer, fail, promise });
    return promise;
  };
  return { asked, load, call: (run: string) => answers.get(run)! };
}

describe('useFetch', () => {
  it("shows the latest call's answer only, though an earlier one answers after it", async () => {
    const c = calls();
    const { result, rerender } = renderHook(({ run }) => useFetch(() => c.load(run), [run]), {
      initialProps: { run: 'A' },
    });
    expect(result.current).toEqual({ loading: true });
    rerender({ run: 'B' });
    expect(c.asked).toEqual(['A', 'B']);
    await act(async () => {
      c.call('B').answer('run B');
      await c.call('B').promise;
    });
    expect(result.current).toEqual({ data: 'run B', loading: false });
    await act(async () => {
      c.call('A').answer('run A');
      await c.call('A').promise;
    });
    expect(result.current).toEqual({ data: 'run B', loading: false });
  });

  it('drops the last answer while a new one is awaited; calls again only when what it depends on changes', async () => {
    const c = calls();
    const { result, rerender } = renderHook(({ run }) => useFetch(() => c.load(run), [run]), {
      initialProps: { run: 'A' },
    });
    await act(async () => {
      c.call('A').answer('run A');
      await c.call('A').promise;
    });
    expect(result.current.data).toBe('run A');
    rerender({ run: 'A' });
    expect(c.asked).toEqual(['A']);
    rerender({ run: 'B' });
    expect(result.current).toEqual({ loading: true });
  });

  it('never shows an answer in the render where what it was read for changes', async () => {
    const c = calls();
    const rendered: [string, string | undefined][] = [];
    function Reader({ run }: { run: string }) {
      const { data } = useFetch(() => c.load(run), [run]);
      rendered.push([run, data]);
      return null;
    }
    const { rerender } = render(<Reader run="A" />);
    await act(async () => {
      c.call('A').answer('run A');
      await c.call('A').promise;
    });
    expect(rendered.at(-1)).toEqual(['A', 'run A']);
    rendered.length = 0;
    rerender(<Reader run="B" />);
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.filter(([run, data]) => run === 'B' && data !== undefined)).toEqual([]);
  });

  it("gives the workbench's message when the call fails", async () => {
    const c = calls();
    const { result } = renderHook(() => useFetch(() => c.load('X'), []));
    c.call('X').fail(new Error('no backtest run "bt-x"'));
    await waitFor(() => expect(result.current).toEqual({ error: 'no backtest run "bt-x"', loading: false }));
  });

  it('reads nothing without a call, and starts when one is given', async () => {
    const c = calls();
    const { result, rerender } = renderHook(
      ({ run }: { run?: string }) => useFetch(run === undefined ? undefined : () => c.load(run), [run]),
      { initialProps: {} },
    );
    expect(result.current).toEqual({ loading: false });
    expect(c.asked).toEqual([]);
    rerender({ run: 'A' });
    expect(result.current.loading).toBe(true);
    expect(c.asked).toEqual(['A']);
  });
});
