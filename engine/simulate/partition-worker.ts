/** One style range of a partitioned replay: serves each day when the coordinator says, over shared memory. */
import { parentPort, workerData } from 'node:worker_threads';
import { serveDay, type Accumulators, type ServeArrays } from './serve-day.js';
import { Sums } from './kpis.js';
import { DAY, DONE, FAILED, GEN, HEAD } from './barrier.js';

const { arrays, L, K, W, range, acc, control } = workerData as {
  arrays: ServeArrays;
  L: number;
  K: number;
  W: number;
  range: [number, number];
  acc: { sim: Sums['f']; act: Sums['f']; daily: Float64Array; lowest: Float64Array };
  control: Int32Array;
};
const accumulators: Accumulators = {
  sim: { f: acc.sim } as Sums,
  act: { f: acc.act } as Sums,
  daily: acc.daily,
  lowest: acc.lowest,
};
// The generation is read before saying ready: the coordinator may start the first day right after.
let generation = Atomics.load(control, GEN);
parentPort!.postMessage('ready');
for (;;) {
  Atomics.wait(control, GEN, generation);
  generation = Atomics.load(control, GEN);
  const day = Atomics.load(control, DAY);
  if (day < 0) break;
  try {
    serveDay(arrays, L, K, W, day, Atomics.load(control, HEAD), range[0], range[1], accumulators);
  } catch (e) {
    // The coordinator is blocked in the barrier and cannot hear an error event: say it in shared memory.
    Atomics.store(control, FAILED, 1);
    console.error(`partition worker for SKUs ${range[0]}…${range[1]} failed on day ${day}:`, e);
  }
  Atomics.add(control, DONE, 1);
  Atomics.notify(control, DONE);
}
