/**
 * A replay whose style ranges beyond the first are served by processes of their own, spoken to only in the plain
 * messages of partition-protocol.ts. On one machine the threads of partitioned.ts are faster (they share memory
 * and exchange nothing); this is the same split where memory cannot be shared, and it gives the same run.
 */
import { receiveMessageOnPort, MessageChannel, Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type { Settings } from '../recommend/settings.js';
import type { BacktestInput } from './input.js';
import { accumulators, DAY_FIELDS, serveDay, totalOf, type Accumulators } from './serve-day.js';
import { serveArrays, simulate, type DayExecutor, type SimulationOptions, type SimulationResult } from './simulate.js';
import { partitionShape, STALL_MS } from './partitioned.js';
import {
  gather,
  rangeArrays,
  scatter,
  scatterSlots,
  type FromPartition,
  type SkuRange,
  type ToPartition,
} from './partition-protocol.js';
import { FIELDS } from './kpis.js';

/** A partition at the other end of a channel: messages in order, answers awaited one at a time. */
export interface PartitionLink {
  send(message: ToPartition): void;
  /** The next answer, waited for synchronously (the replay is one synchronous loop). */
  receive(): FromPartition;
  close(): Promise<void>;
}

/** A partition in a child process, reached through a relay thread (see partition-relay.mjs). */
export function processLink(): PartitionLink {
  const { port1, port2 } = new MessageChannel();
  const counter = new SharedArrayBuffer(4);
  const answers = new Int32Array(counter);
  const relay = new Worker(new URL('./partition-relay.mjs', import.meta.url), {
    workerData: { port: port2, counter, entry: fileURLToPath(new URL('./partition-child-entry.mjs', import.meta.url)) },
    transferList: [port2],
  });
  let failure: Error | undefined;
  relay.on('error', (e) => (failure = e));
  return {
    send: (message) => port1.postMessage(message),
    receive() {
      const since = Date.now();
      for (;;) {
        // The counter is read before the port: an answer posted in between wakes the wait at once.
        const seen = Atomics.load(answers, 0);
        const got = receiveMessageOnPort(port1);
        if (got) return got.message as FromPartition;
        if (failure) throw new Error(`a partition's relay failed: ${failure.message}`);
        if (Date.now() - since > STALL_MS)
          throw new Error(`a partition process did not answer within ${STALL_MS / 1000} s`);
        Atomics.wait(answers, 0, seen, 1000);
      }
    },
    async close() {
      port1.postMessage('close');
      port1.close();
      await relay.terminate();
    },
  };
}

/** The answer of the kind asked for, or the partition's failure as an error. */
function expect<K extends FromPartition['kind']>(
  answer: FromPartition,
  kind: K,
  range: SkuRange,
): Extract<FromPartition, { kind: K }> {
  if (answer.kind === kind) return answer as Extract<FromPartition, { kind: K }>;
  const why = answer.kind === 'failed' ? answer.message : `it answered '${answer.kind}'`;
  throw new Error(`the partition of SKUs ${range[0]}…${range[1]} did not answer '${kind}': ${why}`);
}

/**
 * The first style range is served in this thread, each other by a process of its own (`link` makes the channel:
 * a child process unless told otherwise).
 */
export async function simulateAcrossProcesses(
  input: BacktestInput,
  settings: Settings,
  options: SimulationOptions,
  partitions: number,
  link: () => PartitionLink = processLink,
): Promise<SimulationResult> {
  const { L, K, W, Sg, ranges } = partitionShape(input, partitions);
  if (ranges.length < 2) return simulate(input, settings, options);
  const a = serveArrays(input, undefined, options.trace);
  const remote = ranges.slice(1).map((range) => ({ range, link: link() }));
  // A remote range's sums as its last answer gave them: the coordinator reads every range's sums between days.
  const accs: Accumulators[] = ranges.map(() => accumulators(L, Sg, input.days));
  /** Every remote range is asked at once, then each answer is awaited. */
  const ask = <Kind extends FromPartition['kind']>(message: (range: SkuRange) => ToPartition, kind: Kind) => {
    for (const r of remote) r.link.send(message(r.range));
    return remote.map((r) => expect(r.link.receive(), kind, r.range));
  };
  try {
    ask((range) => ({ kind: 'init', arrays: rangeArrays(a, L, K, W, range), L, W, styles: Sg }), 'ready');
    const executor: DayExecutor = {
      arrays: a,
      parts: accs,
      serve(i, head) {
        for (const { range, link } of remote) {
          link.send({
            kind: 'serve',
            day: i,
            head,
            sim: gather(a.sim, L, K, range),
            selling: a.selling,
            ...(a.trace ? { rate: gather(a.rate, L, K, range) } : {}),
          });
        }
        // This thread serves its own range while the processes serve theirs.
        serveDay(a, L, K, W, i, head, ranges[0][0], ranges[0][1], accs[0]);
        const n = DAY_FIELDS.length;
        remote.forEach(({ range, link }, r) => {
          const served = expect(link.receive(), 'served', range);
          scatter(a.sim, served.sim, L, K, range);
          const mirror = accs[r + 1];
          for (const k of FIELDS) {
            mirror.sim.f[k].set(served.sums.sim[k]);
            mirror.act.f[k].set(served.sums.act[k]);
          }
          mirror.daily.set(served.daily, i * n);
          mirror.lowest[0] = served.lowest;
        });
      },
      beforeReview() {
        ask(() => ({ kind: 'state' }), 'state').forEach((s, r) => {
          const { range } = remote[r];
          scatterSlots(a.windowSales, s.windowSales, L, K, range, W, s.heads);
          scatterSlots(a.windowInStock, s.windowInStock, L, K, range, W, s.heads);
          scatter(a.inStockDays, s.inStockDays, L, K, range);
          scatter(a.everActive, s.everActive, L, K, range);
          a.soldUnits.set(s.soldUnits, range[0]);
          a.soldValue.set(s.soldValue, range[0]);
        });
      },
      accumulators() {
        ask(() => ({ kind: 'finish' }), 'finished').forEach((f, r) => {
          scatter(a.actLevel, f.actLevel, L, K, remote[r].range);
          // The partition wrote the served fields of the traced cells, this thread the rest: each is 0 in the other.
          if (f.trace) for (let j = 0; j < f.trace.length; j++) a.trace!.values[j] += f.trace[j];
        });
        return totalOf(accs, L, Sg, input.days);
      },
    };
    return simulate(input, settings, options, executor);
  } finally {
    await Promise.all(remote.map((r) => r.link.close()));
  }
}
