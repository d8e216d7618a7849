/** How a screen reads from the workbench (use-fetch.ts): only the latest call's answer is shown. */
import { describe, expect, it } from 'vitest';
import { latestOnly } from '../src-renderer/src/use-fetch';

/** A call whose answer the test gives when it chooses. */
function pending<T>() {
  let answer!: (v: T) => void;
  let fail!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    answer = res;
    fail = rej;
  });
  return { promise, answer, fail };
}

describe("a screen's reads", () => {
  it('keep the answer of the latest call only, whichever answers first', async () => {
    const shown: unknown[] = [];
    const first = pending<string>();
    const second = pending<string>();
    const cancelFirst = latestOnly(
      () => first.promise,
      (o) => shown.push(o),
    );
    // The screen moves on (another run) before the first answer comes.
    cancelFirst();
    latestOnly(
      () => second.promise,
      (o) => shown.push(o),
    );
    second.answer('run B');
    await second.promise;
    first.answer('run A');
    await first.promise;
    await Promise.resolve();
    expect(shown).toEqual([{ data: 'run B' }]);
  });

  it("give the workbench's message when the call fails, and nothing once cancelled", async () => {
    const shown: unknown[] = [];
    const failing = pending<string>();
    latestOnly(
      () => failing.promise,
      (o) => shown.push(o),
    );
    failing.fail(new Error('no backtest run "bt-x"'));
    await failing.promise.catch(() => undefined);
    await Promise.resolve();
    expect(shown).toEqual([{ error: 'no backtest run "bt-x"' }]);

    const late = pending<string>();
    latestOnly(
      () => late.promise,
      (o) => shown.push(o),
    )();
    late.fail(new Error('too late'));
    await late.promise.catch(() => undefined);
    await Promise.resolve();
    expect(shown).toHaveLength(1);
  });
});
