/**
 * A replay whose parts beyond the first live in processes of their own, spoken to only in the plain messages of
 * partition-protocol.ts: the same split as the threads of partitioned.ts where memory cannot be shared (another
 * process here, another machine later), and the same run. A part's process is sent its own rows alone.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Settings } from '../recommend/settings.js';
import type { StyleRange } from '../recommend/slice.js';
import type { ActualDays, BacktestInput, OutDays } from './input.js';
import { replay, styleRanges, type SimulationOptions, type SimulationResult } from './simulate.js';
import { localLink, type FromPart, type PartLink, type ToPart } from './partition-protocol.js';
import { compactCopy } from './buffers.js';

/** A part in a child process. */
export function processLink(): PartLink {
  const entry = fileURLToPath(new URL('./partition-child-entry.mjs', import.meta.url));
  // Plain Node for the child, whatever flags started this process (a test runner's, an inspector).
  const child = fork(entry, [], {
    serialization: 'advanced',
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let waiting: { resolve: (a: FromPart) => void; reject: (e: Error) => void } | undefined;
  let failure: Error | undefined;
  const fail = (e: Error) => {
    failure = e;
    waiting?.reject(e);
    waiting = undefined;
  };
  child.on('message', (answer: FromPart) => {
    const w = waiting;
    waiting = undefined;
    w?.resolve(answer);
  });
  child.on('error', (e) => fail(new Error(`a part's process failed: ${e.message}`)));
  child.on('exit', (code, signal) => fail(new Error(`a part's process exited (${signal ?? `code ${code}`})`)));
  return {
    ask(message: ToPart) {
      if (failure) return Promise.reject(failure);
      return new Promise<FromPart>((resolve, reject) => {
        waiting = { resolve, reject };
        child.send(compactCopy(message));
      });
    },
    async close() {
      child.removeAllListeners('exit');
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        await gone;
      }
    },
  };
}

/** The rows of a range's cells alone (numbered as the replay's), day by day. */
function rowsOf<T extends { dayStart: Int32Array; cell: Int32Array }>(rows: T, from: number, to: number): T {
  const days = rows.dayStart.length - 1;
  const keep: number[] = [];
  const dayStart = new Int32Array(days + 1);
  for (let i = 0; i < days; i++) {
    dayStart[i] = keep.length;
    for (let j = rows.dayStart[i]; j < rows.dayStart[i + 1]; j++)
      if (rows.cell[j] >= from && rows.cell[j] < to) keep.push(j);
  }
  dayStart[days] = keep.length;
  const out: Record<string, unknown> = { dayStart };
  for (const [k, v] of Object.entries(rows)) {
    if (k === 'dayStart') continue;
    const a = v as Float64Array | Int32Array;
    const copy = new (a.constructor as new (n: number) => typeof a)(keep.length);
    keep.forEach((j, x) => (copy[x] = a[j]));
    out[k] = copy;
  }
  return out as T;
}

/** The input as a part's process needs it: the range's rows alone. */
function inputFor(input: BacktestInput, range: StyleRange): BacktestInput {
  const L = input.start.locations.ids.length;
  const [from, to] = [range.kFrom * L, range.kTo * L];
  return {
    ...input,
    actual: rowsOf<ActualDays>(input.actual, from, to),
    out: rowsOf<OutDays>(input.out, from, to),
  };
}

/**
 * The first part lives in this thread, each other in a process of its own (`link` makes the channel: a child
 * process unless told otherwise).
 */
export async function simulateAcrossProcesses(
  input: BacktestInput,
  settings: Settings,
  options: SimulationOptions,
  partitions: number,
  link: () => PartLink = processLink,
): Promise<SimulationResult> {
  const ranges = styleRanges(input, partitions);
  const links = ranges.map((_, p) => (p === 0 ? localLink() : link()));
  return replay(input, settings, options, ranges, links, (p) => (p === 0 ? input : inputFor(input, ranges[p])));
}
