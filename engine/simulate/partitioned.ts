/**
 * A replay whose days are served by several threads, each for a contiguous range of styles (and so of SKUs:
 * the SKUs of a style are contiguous). Cells of different SKUs share nothing while a day is served — a SKU's
 * warehouse stock is its own cells too — so the ranges run at once over shared memory. What couples styles
 * (the engine: category pooling, comparable styles, redistribution trips) runs between days, in one thread, on
 * the whole state: the decisions are exactly those of the single-threaded replay. A barrier per day keeps the
 * threads in step; KPI sums are kept per range and added up at the end.
 */
import { Worker } from 'node:worker_threads';
import type { Settings } from '../recommend/settings.js';
import type { BacktestInput } from './input.js';
import { accumulators, serveDay, totalOf, type Accumulators, type ServeArrays } from './serve-day.js';
import {
  serveArrays,
  simulate,
  type Alloc,
  type DayExecutor,
  type SimulationOptions,
  type SimulationResult,
} from './simulate.js';
import { Sums } from './kpis.js';
import { CONTROL_WORDS, DAY, DONE, FAILED, GEN, HEAD } from './barrier.js';

const shared: Alloc = (make, n) => {
  const probe = make(0);
  const Ctor = probe.constructor as new (buffer: SharedArrayBuffer) => typeof probe;
  return new Ctor(new SharedArrayBuffer(n * probe.BYTES_PER_ELEMENT)) as typeof probe;
};

/** Contiguous SKU ranges on style boundaries, about equal in SKUs. */
export function styleRanges(styleStart: Int32Array, partitions: number): [number, number][] {
  const S = styleStart.length - 1;
  const K = styleStart[S];
  const ranges: [number, number][] = [];
  let from = 0;
  let s = 0;
  for (let p = 1; p <= partitions; p++) {
    const goal = Math.round((K * p) / partitions);
    while (s < S && styleStart[s + 1] <= goal) s++;
    const to = p === partitions ? K : styleStart[s];
    if (to > from) ranges.push([from, to]);
    from = to;
  }
  return ranges;
}

/** The sizes a split replay works with (locations, SKUs, window days, styles) and its style ranges. */
export function partitionShape(input: BacktestInput, partitions: number) {
  const S0 = input.start;
  return {
    L: S0.locations.ids.length,
    K: S0.skus.ids.length,
    W: S0.windowDays,
    Sg: S0.styles.ids.length,
    ranges: styleRanges(S0.styles.styleStart, partitions),
  };
}

function sharedAccumulators(L: number, styles: number, days: number): Accumulators {
  const acc = accumulators(L, styles, days);
  const share = (x: Float64Array) => shared((n) => new Float64Array(n), x.length);
  for (const side of [acc.sim, acc.act])
    for (const k of Object.keys(side.f) as (keyof Sums['f'])[]) side.f[k] = share(side.f[k]);
  acc.daily = share(acc.daily);
  acc.lowest = share(acc.lowest);
  return acc;
}

/** A day not finished by every worker within this long means one died. */
export const STALL_MS = 120_000;

export async function simulatePartitioned(
  input: BacktestInput,
  settings: Settings,
  options: SimulationOptions,
  partitions: number,
): Promise<SimulationResult> {
  const { L, K, W, Sg, ranges } = partitionShape(input, partitions);
  if (ranges.length < 2) return simulate(input, settings, options);
  const arrays: ServeArrays = serveArrays(input, shared, options.trace);
  const control = new Int32Array(new SharedArrayBuffer(4 * CONTROL_WORDS));
  const accs = ranges.map(() => sharedAccumulators(L, Sg, input.days));
  const workers = ranges.slice(1).map(
    (range, w) =>
      new Worker(new URL('./partition-worker-entry.mjs', import.meta.url), {
        workerData: {
          arrays,
          L,
          K,
          W,
          range,
          acc: { sim: accs[w + 1].sim.f, act: accs[w + 1].act.f, daily: accs[w + 1].daily, lowest: accs[w + 1].lowest },
          control,
        },
      }),
  );
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            worker.once('message', () => resolve());
            worker.once('error', reject);
          }),
      ),
    );
    const executor: DayExecutor = {
      arrays,
      parts: accs,
      serve(i, head) {
        Atomics.store(control, DONE, 0);
        Atomics.store(control, DAY, i);
        Atomics.store(control, HEAD, head);
        Atomics.add(control, GEN, 1);
        Atomics.notify(control, GEN);
        serveDay(arrays, L, K, W, i, head, ranges[0][0], ranges[0][1], accs[0]);
        const since = Date.now();
        let done: number;
        while ((done = Atomics.load(control, DONE)) < workers.length) {
          if (Date.now() - since > STALL_MS)
            throw new Error(`a partition worker did not finish day ${i} within ${STALL_MS / 1000} s`);
          Atomics.wait(control, DONE, done, 1000);
        }
        if (Atomics.load(control, FAILED))
          throw new Error(`a partition worker failed on day ${i} (see its error above)`);
      },
      accumulators: () => totalOf(accs, L, Sg, input.days),
    };
    return simulate(input, settings, options, executor);
  } finally {
    Atomics.store(control, DAY, -1);
    Atomics.add(control, GEN, 1);
    Atomics.notify(control, GEN);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
