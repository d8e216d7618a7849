/**
 * The backtest replay in a worker thread: the input arrives as transferred buffers, progress goes back as
 * messages, and a cancel is a flag in shared memory (the replay is one synchronous loop, so a message could
 * not reach it).
 */
import { parentPort } from 'node:worker_threads';
import { simulate } from './simulate.js';
import type { WorkerRequest, WorkerMessage } from './in-worker.js';

parentPort!.once('message', (req: WorkerRequest) => {
  const cancel = new Int32Array(req.cancel);
  const post = (m: WorkerMessage) => parentPort!.postMessage(m);
  try {
    const result = simulate(req.input, req.settings, {
      reviewEveryDays: req.reviewEveryDays,
      onProgress: (daysDone, days) => post({ kind: 'progress', daysDone, days }),
      isCancelled: () => Atomics.load(cancel, 0) === 1,
    });
    post({ kind: 'result', result });
  } catch (e) {
    post({ kind: 'error', message: (e as Error).stack ?? String(e) });
  }
});
