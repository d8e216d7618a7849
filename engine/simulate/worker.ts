/**
 * The backtest replay in a worker thread: the input arrives as transferred buffers (or in shared memory), progress
 * goes back as messages, and a cancel is a flag in shared memory, read between the replay's weeks (a part in this
 * thread works a week through without yielding, so a message could wait that long).
 */
import { parentPort } from 'node:worker_threads';
import { simulate } from './simulate.js';
import { simulatePartitioned } from './partitioned.js';
import type { WorkerRequest, WorkerMessage } from './in-worker.js';
import { buffersOf } from './buffers.js';

parentPort!.once('message', async (req: WorkerRequest) => {
  const cancel = new Int32Array(req.cancel);
  // The result's arrays (a run's figures per style and day, a trace) are handed over, not copied.
  const post = (m: WorkerMessage) => parentPort!.postMessage(m, m.kind === 'result' ? buffersOf(m.result) : []);
  try {
    const options = {
      reviewEveryDays: req.reviewEveryDays,
      stopAfterDays: req.stopAfterDays,
      trace: req.trace,
      onProgress: (daysDone: number, days: number) => post({ kind: 'progress', daysDone, days }),
      isCancelled: () => Atomics.load(cancel, 0) === 1,
    };
    const result =
      req.partitions > 1
        ? await simulatePartitioned(req.input, req.settings, options, req.partitions)
        : await simulate(req.input, req.settings, options);
    post({ kind: 'result', result });
  } catch (e) {
    post({ kind: 'error', message: (e as Error).stack ?? String(e) });
  }
});
