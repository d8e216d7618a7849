/**
 * bench:growth — how a backtest's cost grows with the retailer: the big set (BENCH_STORES × BENCH_SKUS × BENCH_DAYS)
 * at 1×, 2× and 4× its stores and at 4× its SKUs, each workspace prepared once under .workspaces/. Each size's
 * period is loaded once first (its actual days derived and kept, unless an earlier run kept them), then backtested
 * as bench:backtest's run on every core, in a fresh process (its peak RSS its own): the load, the replay, the wall
 * time, the peak RSS and the cost per location×SKU-day, in wall and in CPU time (which a busy machine moves less),
 * against the big set's, with the bare loop's (the floor) per location×SKU-day beside it.
 * Goal: the cost per location×SKU-day does not rise with size. A size that cannot be prepared or run (not enough
 * memory) is said so in its row. BENCH_GROWTH_SIZES picks sizes (1x,2x,4x,4x-skus); BENCH_BACKTEST_DAYS and
 * BENCH_PARTITIONS as for bench:backtest.
 */
import { availableParallelism } from 'node:os';
import { BIG, prepareWorkspace } from './big-workspace.js';
import { FROM, runFresh } from './backtest-runs.js';
import {
  costPerCellDay,
  cpuPerCellDay,
  growthSizes,
  growthTable,
  pickedSizes,
  type GrowthRow,
  type MeasuredRow,
} from './growth-table.js';
import { machine } from './machine.js';

const days = Number(process.env.BENCH_BACKTEST_DAYS ?? BIG.days);
const cores = Number(process.env.BENCH_PARTITIONS ?? availableParallelism());
const sizes = pickedSizes(process.env.BENCH_GROWTH_SIZES, growthSizes(BIG));

const rows: GrowthRow[] = [];
for (const size of sizes) {
  try {
    const workspace = await prepareWorkspace(size.size);
    const first = runFresh('--first', workspace, days);
    const m = runFresh('--measure', workspace, days, cores);
    if (m.lowest < 0) throw new Error(`simulated stock below 0 (${m.lowest})`);
    const firstLoad = first.historyCached ? {} : { firstLoadMs: first.coldLoadMs, firstLoadRssKb: first.maxRssKb };
    rows.push({ ...size, ...m, ...firstLoad });
  } catch (e) {
    console.error(`${size.key}: ${(e as Error).message}`);
    rows.push({ ...size, failed: `did not run: ${(e as Error).message.split('\n')[0]}` });
  }
}

console.log(machine());
console.log(
  `bench:growth — the backtest of ${days} days from ${FROM}, the kept days loaded then replayed in ${cores} ` +
    `partition${cores === 1 ? '' : 's'}, each size in a fresh process:`,
);
console.log(growthTable(rows));
const ran = rows.filter((r): r is MeasuredRow => !('failed' in r));
const first = ran[0] === rows[0] ? ran[0] : undefined;
if (first && ran.length > 1) {
  // Wall time moves with whatever else the machine runs; the CPU time a run takes much less.
  for (const [what, cost] of [
    ['wall', costPerCellDay],
    ['CPU', cpuPerCellDay],
  ] as const) {
    const worst = Math.max(...ran.map((r) => cost(r) / cost(first)));
    console.log(
      `goal: ${what} time per cell-day does not rise with size (at most ${worst.toFixed(2)} × the first size's, ` +
        `10 % allowed for noise): ${worst <= 1.1 ? 'met' : 'NOT met'}`,
    );
  }
}
if (ran.length < rows.length) process.exitCode = 1;
