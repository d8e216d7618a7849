/**
 * A replay whose parts live in worker threads, one thread per core: each part a range of styles serving its own
 * days (replay-part.ts), met by the coordinator at every review (simulate.ts), which keeps the run's transfers in
 * its own thread meanwhile. The actual days' rows sit in shared memory, read by every thread, never copied;
 * everything else a part changes is its own.
 *
 * A style's work cannot be known before its days are replayed (the engine's own stock, sitting where the history
 * had none, is most of it), so the styles are cut into several parts per thread, dealt out in turn: each thread
 * gets old and new styles alike, and the threads finish their weeks together.
 */
import { Worker } from 'node:worker_threads';
import type { Settings } from '../recommend/settings.js';
import type { BacktestInput } from './input.js';
import { replay, styleRanges, type SimulationOptions, type SimulationResult } from './simulate.js';
import type { FromPart, PartLink, ToPart } from './partition-protocol.js';
import { compactCopy, sharedCopy } from './buffers.js';

/** Parts per thread: enough for the styles' work to even out between threads. */
export const PARTS_PER_THREAD = 4;

/**
 * Replays up to this many location×SKU-days take well under a second in one thread, less than starting threads for
 * them takes (each compiles the engine): they are replayed whole, in one part.
 */
export const SMALL_REPLAY_CELL_DAYS = 2_000_000;

/** The threads a replay of these many cells and days is worth: one per core, or one for a small replay. */
export const replayThreads = (cells: number, days: number, cores: number): number =>
  cells * days <= SMALL_REPLAY_CELL_DAYS ? 1 : Math.max(1, cores);

/** A worker thread hosting parts, each reached through a link of its own (messages carry the part's number). */
export class PartThread {
  private readonly worker = new Worker(new URL('./partition-worker-entry.mjs', import.meta.url));
  private readonly waiting = new Map<number, { resolve: (a: FromPart) => void; reject: (e: Error) => void }>();
  private failure?: Error;
  private parts = 0;

  constructor() {
    const fail = (e: Error) => {
      this.failure = e;
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    this.worker.on('message', ({ part, answer }: { part: number; answer: FromPart }) => {
      const w = this.waiting.get(part);
      this.waiting.delete(part);
      w?.resolve(answer);
    });
    this.worker.on('error', (e) => fail(new Error(`a replay thread failed: ${e.message}`)));
    this.stopped = (code: number) => fail(new Error(`a replay thread stopped (code ${code})`));
    this.worker.on('exit', this.stopped);
  }

  /** A thread that stops before it is closed fails the parts it hosts. */
  private stopped: (code: number) => void;

  /** A link to a new part in this thread. */
  link(): PartLink {
    const part = this.parts++;
    return {
      ask: (message: ToPart) => {
        if (this.failure) return Promise.reject(this.failure);
        return new Promise<FromPart>((resolve, reject) => {
          this.waiting.set(part, { resolve, reject });
          // What the part gets is its own: views into the replay's arrays go as copies of their part alone.
          this.worker.postMessage({ part, message: compactCopy(message) });
        });
      },
      close: () => this.close(),
    };
  }

  private closing?: Promise<number>;
  /** Closes the thread (once, whichever of its parts' links asks first). */
  close(): Promise<void> {
    if (!this.closing) {
      this.worker.off('exit', this.stopped);
      this.closing = this.worker.terminate();
    }
    return this.closing.then(() => undefined);
  }
}

export async function simulatePartitioned(
  input: BacktestInput,
  settings: Settings,
  options: SimulationOptions,
  threads: number,
): Promise<SimulationResult> {
  const ranges = styleRanges(input, threads * PARTS_PER_THREAD);
  const hosts = Array.from({ length: Math.min(threads, ranges.length) }, () => new PartThread());
  // The rows every part reads: in shared memory once (where the workspace's loader put them already).
  const shared = { ...input, actual: sharedCopy(input.actual), out: sharedCopy(input.out) };
  return replay(
    shared,
    settings,
    options,
    ranges,
    ranges.map((_, p) => hosts[p % hosts.length].link()),
  );
}
