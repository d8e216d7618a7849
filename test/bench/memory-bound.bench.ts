/**
 * bench:memory — whether this machine's cores share the replay's memory traffic: why two partitions replay the big
 * set little faster than one (issue 30). Three measures, in the same run:
 * - two threads that only compute against one, and two that stream a 256 MB array against one: the throughput two
 *   threads give (2 × one thread's time over the pair's);
 * - two whole one-partition replays at once, each in a worker thread of one process, against one alone: the most
 *   two partitions could give on this machine if splitting the replay cost nothing (bench:backtest prints what
 *   they give);
 * - one partition's replay of the big set (as bench:backtest measures it) alone, beside a process that computes
 *   and beside one that streams memory: how much each slows it.
 * Where two streaming threads give about 1 × and the replay slows beside the streaming one and not beside the
 * computing one, the replay is bound by memory traffic, and more threads help only as far as it touches less memory
 * per cell-day; where two whole replays give much more than two partitions, the split is what costs.
 */
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { BIG_WORKSPACE, prepareBigWorkspace } from './big-workspace.js';
import { runFresh } from './backtest-runs.js';
import { machine } from './machine.js';

/** A thread's work, as source: `compute` keeps to registers, `stream` reads and writes a 256 MB array. */
const WORK = {
  compute: `let x = 0; for (let i = 0; i < 3e8; i++) x = (x * 1103515245 + 12345) % 2147483647;`,
  stream: `const a = new Float64Array(1 << 25); let s = 0;
    for (let r = 0; r < 80; r++) for (let i = 0; i < a.length; i += 8) { s += a[i]; a[i] = s; }`,
};
type Kind = keyof typeof WORK;

const inThread = (kind: Kind) =>
  new Promise<void>((done, fail) => {
    const w = new Worker(`${WORK[kind]}; require('node:worker_threads').parentPort.postMessage(0);`, { eval: true });
    w.once('message', () => void w.terminate().then(() => done()));
    w.once('error', fail);
  });

async function throughput(kind: Kind): Promise<{ one: number; two: number }> {
  let t = performance.now();
  await inThread(kind);
  const one = performance.now() - t;
  t = performance.now();
  await Promise.all([inThread(kind), inThread(kind)]);
  return { one, two: performance.now() - t };
}

/** One partition's replay, beside a process doing `beside`'s work over and over until the replay ends. */
function replayBeside(beside?: Kind): number {
  const hog = beside && spawn(process.execPath, ['-e', `for (;;) { ${WORK[beside]} }`], { stdio: 'ignore' });
  try {
    return runFresh('--measure', BIG_WORKSPACE, 730, 1).simMs;
  } finally {
    hog?.kill();
  }
}

await prepareBigWorkspace();
// The period's days derived and kept once, as every measured run reads them.
runFresh('--first', BIG_WORKSPACE, 730);
console.log(machine());
for (const kind of ['compute', 'stream'] as const) {
  const { one, two } = await throughput(kind);
  console.log(
    `two threads that ${kind === 'compute' ? 'compute' : 'stream memory'}: ${(two / 1000).toFixed(1)} s against ` +
      `${(one / 1000).toFixed(1)} s for one, ${((2 * one) / two).toFixed(2)} × the throughput`,
  );
}
const pair = runFresh('--side-by-side', BIG_WORKSPACE, 730);
console.log(
  `two whole one-partition replays of the big set at once, each in a worker thread: ` +
    `${(pair.twoMs / 1000).toFixed(1)} s (CPU ${(pair.twoCpuMs / 1000).toFixed(1)} s) against ` +
    `${(pair.oneMs / 1000).toFixed(1)} s (CPU ${(pair.oneCpuMs / 1000).toFixed(1)} s) for one, ` +
    `${((2 * pair.oneMs) / pair.twoMs).toFixed(2)} × the throughput`,
);
const alone = replayBeside();
for (const beside of ['compute', 'stream'] as const) {
  const ms = replayBeside(beside);
  const doing = beside === 'compute' ? 'computes' : 'streams memory';
  console.log(
    `one partition's replay of the big set beside a process that ${doing}: ` +
      `${(ms / 1000).toFixed(1)} s against ${(alone / 1000).toFixed(1)} s alone, ${(ms / alone).toFixed(2)} ×`,
  );
}
