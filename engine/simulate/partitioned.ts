/**
 * A replay whose parts beyond the first live in worker threads, one per core: each a range of styles serving its
 * own days (replay-part.ts), met by the coordinator at every review (simulate.ts). The actual days' rows sit in
 * shared memory, read by every thread, never copied; everything else a part changes is its own.
 */
import { Worker } from 'node:worker_threads';
import type { Settings } from '../recommend/settings.js';
import type { BacktestInput } from './input.js';
import { replay, styleRanges, type SimulationOptions, type SimulationResult } from './simulate.js';
import { localLink, type FromPart, type PartLink } from './partition-protocol.js';
import { compactCopy, sharedCopy } from './buffers.js';

/** A part in a worker thread of its own. */
export function threadLink(): PartLink {
  const worker = new Worker(new URL('./partition-worker-entry.mjs', import.meta.url));
  let waiting: { resolve: (a: FromPart) => void; reject: (e: Error) => void } | undefined;
  let failure: Error | undefined;
  const fail = (e: Error) => {
    failure = e;
    waiting?.reject(e);
    waiting = undefined;
  };
  worker.on('message', (answer: FromPart) => {
    const w = waiting;
    waiting = undefined;
    w?.resolve(answer);
  });
  worker.on('error', (e) => fail(new Error(`a part's thread failed: ${e.message}`)));
  worker.on('exit', (code) => fail(new Error(`a part's thread stopped (code ${code})`)));
  return {
    ask(message) {
      if (failure) return Promise.reject(failure);
      return new Promise<FromPart>((resolve, reject) => {
        waiting = { resolve, reject };
        // What the part gets is its own: views into the replay's arrays go as copies of their part alone.
        worker.postMessage(compactCopy(message));
      });
    },
    async close() {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}

export async function simulatePartitioned(
  input: BacktestInput,
  settings: Settings,
  options: SimulationOptions,
  partitions: number,
): Promise<SimulationResult> {
  const ranges = styleRanges(input.start.styles.styleStart, partitions);
  // The rows every part reads: in shared memory once (a no-op when they are there already).
  const shared = { ...input, actual: sharedCopy(input.actual), out: sharedCopy(input.out) };
  return replay(
    shared,
    settings,
    options,
    ranges,
    ranges.map((_, p) => (p === 0 ? localLink() : threadLink())),
  );
}
