/** Runs `simulate` in a worker thread; the caller's thread stays free for requests and progress. */
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { Settings } from '../recommend/settings.js';
import type { BacktestInput } from './input.js';
import type { SimulationOptions, SimulationResult } from './simulate.js';
import { buffersOf } from './buffers.js';

export interface WorkerRequest {
  input: BacktestInput;
  settings: Settings;
  reviewEveryDays?: number;
  stopAfterDays?: number;
  trace?: SimulationOptions['trace'];
  /** Threads serving the days, each a range of styles (1: the worker alone). */
  partitions: number;
  /** Int32Array(1) over shared memory: 1 = cancel. */
  cancel: SharedArrayBuffer;
}

export type WorkerMessage =
  | { kind: 'progress'; daysDone: number; days: number }
  | { kind: 'result'; result: SimulationResult }
  | { kind: 'error'; message: string };

/**
 * How a replay in one thread is started. It builds millions of short-lived objects (decisions, moves, the closures
 * that would put them in words); with a larger young generation they die there instead of being copied and
 * promoted. On the big set, one partition in turn with V8's default: 0.96 × the time and 0.94 × the CPU (median of
 * six pairs), about 100 MB more at its peak. Parts in threads of their own keep V8's default: in two partitions
 * it bought nothing measurable and cost the run's peak up to 170 MB.
 */
const ONE_THREAD_REPLAY: WorkerOptions = { resourceLimits: { maxYoungGenerationSizeMb: 192 } };

/**
 * The input's buffers move to the worker (the input cannot be used afterwards) unless `keepInput` says it is used
 * again: then the worker shares what sits in shared memory and gets a copy of the rest. `isCancelled` is polled by
 * this thread and passed on through shared memory.
 */
export function simulateInWorker(
  input: BacktestInput,
  settings: Settings,
  options: SimulationOptions = {},
  partitions = 1,
  keepInput = false,
): Promise<SimulationResult> {
  const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), partitions > 1 ? {} : ONE_THREAD_REPLAY);
  const cancel = new SharedArrayBuffer(4);
  const flag = new Int32Array(cancel);
  const poll = setInterval(() => {
    if (options.isCancelled?.()) Atomics.store(flag, 0, 1);
  }, 50);
  return new Promise<SimulationResult>((resolve, reject) => {
    const done = () => {
      clearInterval(poll);
      void worker.terminate();
    };
    worker.on('message', (m: WorkerMessage) => {
      if (m.kind === 'progress') {
        if (options.isCancelled?.()) Atomics.store(flag, 0, 1);
        options.onProgress?.(m.daysDone, m.days);
      } else if (m.kind === 'result') {
        done();
        resolve(m.result);
      } else {
        done();
        reject(new Error(`backtest worker failed: ${m.message}`));
      }
    });
    worker.on('error', (e) => {
      done();
      reject(e);
    });
    const request: WorkerRequest = {
      input,
      settings,
      reviewEveryDays: options.reviewEveryDays,
      stopAfterDays: options.stopAfterDays,
      trace: options.trace,
      partitions,
      cancel,
    };
    worker.postMessage(request, keepInput ? [] : buffersOf(input));
  });
}
