/**
 * bench:backtest — the backtest over the generated 100 stores × 5,000 SKUs × 730 days workspace, each part in a
 * fresh process of its own, so each peak RSS is its own:
 * - the first load of the period (the actual days derived from the workspace and kept);
 * - a run as every later one is: the kept days loaded, the replay in parts on every core, SKU-location-days per
 *   second, wall time and peak RSS;
 * - the same replay in one partition on one thread, against a bare loop on one thread that only applies the actual
 *   sales to stock over the same arrays (the floor): like with like, the ratio is the engine's own cost per
 *   cell-day; and the replay on every core against it, the speed-up the threads give. Each replays as
 *   `workbench backtest` does: in a worker thread, its parts in threads of their own when there are more than one;
 * - the run through the service (`workbench backtest`'s path: loaded, replayed, kept), then one of its styles
 *   traced location×SKU by location×SKU (the style with the most simulated lost sales), as the drill-down does.
 * Goals: through the service ≤ 15 s; the load ≤ 3 s, the replay ≤ 12 s, ≤ 2 GB; one partition / the floor ≤ 18;
 * on 2 cores or more, the replay on every core ≥ 1.6 × as fast as on one; a trace ≤ 5 s.
 * BENCH_BACKTEST_DAYS shortens the period for a quick look; BENCH_PARTITIONS sets the parts of the run on every core.
 */
import { availableParallelism } from 'node:os';
import { BIG_WORKSPACE, prepareBigWorkspace } from './big-workspace.js';
import { FROM, runFresh } from './backtest-runs.js';
import { machine } from './machine.js';

await prepareBigWorkspace();
const days = Number(process.env.BENCH_BACKTEST_DAYS ?? 730);
const cores = Number(process.env.BENCH_PARTITIONS ?? availableParallelism());
const cold = runFresh('--cold', BIG_WORKSPACE, days);
const m = runFresh('--measure', BIG_WORKSPACE, days, cores);
const one = cores > 1 ? runFresh('--measure', BIG_WORKSPACE, days, 1) : m;
const tr = runFresh('--trace', BIG_WORKSPACE, days);
const cellDays = m.cells * m.days;
const wall = (m.loadMs + m.simMs) / 1000;
console.log(machine());
console.log(
  `bench:backtest — ${m.days} days from ${FROM} over ${m.cells.toLocaleString('en')} location×SKU cells ` +
    `(${BIG_WORKSPACE})`,
);
console.log(
  `first load of the period (actual days derived from the workspace and kept): ` +
    `${(cold.coldLoadMs / 1000).toFixed(1)} s, peak RSS ${(cold.maxRssKb / 1024).toFixed(0)} MiB`,
);
console.log(
  `load (actual days kept in the workspace): ${(m.loadMs / 1000).toFixed(1)} s; ` +
    `simulation (${m.partitions} style partition${m.partitions === 1 ? '' : 's'}): ${(m.simMs / 1000).toFixed(1)} s; ` +
    `wall ${wall.toFixed(1)} s`,
);
console.log(`simulation: ${Math.round(cellDays / (m.simMs / 1000)).toLocaleString('en')} SKU-location-days/s`);
const perCellDay = (ms: number) => `${((ms * 1e6) / cellDays).toFixed(0)} ns per SKU-location-day`;
const ratio = one.simMs / one.floorMs;
const speedUp = one.simMs / m.simMs;
console.log(
  `one thread, like with like: simulation in 1 partition ${(one.simMs / 1000).toFixed(1)} s ` +
    `(${perCellDay(one.simMs)}), floor (bare loop applying actual sales to stock) ` +
    `${(one.floorMs / 1000).toFixed(2)} s (${perCellDay(one.floorMs)}); simulation / floor = ${ratio.toFixed(1)}`,
);
const sameTransfers = JSON.stringify(one.transfers) === JSON.stringify(m.transfers);
console.log(
  `${m.partitions} partitions against 1: ${(m.simMs / 1000).toFixed(1)} s against ` +
    `${(one.simMs / 1000).toFixed(1)} s, ${speedUp.toFixed(2)} × as fast` +
    `${sameTransfers ? ', the same transfers' : ' — the transfers DIFFER'}`,
);
if (!sameTransfers) process.exitCode = 1;
console.log(
  `in-stock rate simulated ${m.inStock[0]} vs actual ${m.inStock[1]}; transfers ${JSON.stringify(m.transfers)}`,
);
console.log(
  `kept per style and day: ${m.styles.toLocaleString('en')} styles × ${m.days} days, ` +
    `${m.styleDayRows.toLocaleString('en')} rows with anything in them ` +
    `(${(m.styleDayBytes / 2 ** 20).toFixed(0)} MiB in memory)`,
);
console.log(
  `lowest simulated stock of any cell at the end of any day: ${m.lowest} ` +
    `(physical stock: never below 0${m.lowest < 0 ? ' — BROKEN' : ''}); ` +
    `demand estimated ${(m.estimated[0] * 100).toFixed(1)} % simulated, ${(m.estimated[1] * 100).toFixed(1)} % actual`,
);
if (m.lowest < 0) process.exitCode = 1;
const rssMb = m.maxRssKb / 1024;
console.log(`peak RSS of the run ${rssMb.toFixed(0)} MiB`);
console.log(
  `through the service (loaded, replayed, kept): ${(tr.runMs / 1000).toFixed(1)} s; style ${tr.style} traced ` +
    `(${tr.cells} location×SKUs with anything): ${(tr.traceMs / 1000).toFixed(1)} s, then a location×SKU's days ` +
    `${tr.cellMs.toFixed(0)} ms; peak RSS ${(tr.maxRssKb / 1024).toFixed(0)} MiB`,
);
const goals: [string, boolean][] = [
  [`through the service ≤ 15 s (${(tr.runMs / 1000).toFixed(1)} s)`, tr.runMs <= 15000],
  [`load ≤ 3 s (${(m.loadMs / 1000).toFixed(1)} s)`, m.loadMs <= 3000],
  [`replay ≤ 12 s (${(m.simMs / 1000).toFixed(1)} s)`, m.simMs <= 12000],
  [`≤ 2 GB (${rssMb.toFixed(0)} MiB)`, rssMb <= 2048],
  [`1 partition / one-thread floor ≤ 18 (${ratio.toFixed(1)})`, ratio <= 18],
  ...(m.partitions > 1
    ? [[`${m.partitions} partitions ≥ 1.6 × as fast as 1 (${speedUp.toFixed(2)})`, speedUp >= 1.6] as [string, boolean]]
    : []),
  [`trace ≤ 5 s (${(tr.traceMs / 1000).toFixed(1)} s)`, tr.traceMs <= 5000],
];
for (const [goal, met] of goals) console.log(`goal ${goal}: ${met ? 'met' : 'NOT met'}`);
