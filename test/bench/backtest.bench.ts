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
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Workbench } from '../../engine/service/workbench.js';
import { loadBacktestInput } from '../../engine/inputs/backtest-input.js';
import { resolveSettings } from '../../engine/recommend/settings.js';
import { simulateInWorker } from '../../engine/simulate/in-worker.js';
import { availableParallelism } from 'node:os';
import type { BacktestInput } from '../../engine/simulate/input.js';
import { BIG_WORKSPACE, prepareBigWorkspace, ROOT } from './big-workspace.js';
import { machine } from './machine.js';

const FROM = '2024-01-01';

/** The floor: walk the same days and cells, applying only the actual net sales and mutations to a stock array. */
function bareLoop(input: BacktestInput): number {
  const stock = Float64Array.from(input.start.onHand);
  const cells = stock.length;
  let j = 0;
  let sum = 0;
  for (let i = 0; i < input.days; i++) {
    const end = input.actual.dayStart[i + 1];
    for (let c = 0; c < cells; c++) {
      if (j < end && input.actual.cell[j] === c) {
        stock[c] += input.actual.mutations[j] - input.actual.net[j];
        j++;
      }
      sum += stock[c];
    }
  }
  return sum;
}

const fromDay = Date.parse(`${FROM}T00:00:00Z`) / 86_400_000;
const rss = () => process.resourceUsage().maxRSS;

if (process.argv[2] === '--cold') {
  const days = Number(process.argv[3]);
  const wb = await Workbench.open(BIG_WORKSPACE);
  rmSync(join(BIG_WORKSPACE, 'cache'), { recursive: true, force: true });
  const t = performance.now();
  if ((await loadBacktestInput(wb.workspace, fromDay, fromDay + days - 1, resolveSettings({}))).historyCached)
    throw new Error('the first load read a kept history');
  const coldLoadMs = performance.now() - t;
  await wb.close();
  process.stdout.write(JSON.stringify({ coldLoadMs, maxRssKb: rss() }));
  process.exit(0);
}

if (process.argv[2] === '--measure') {
  const days = Number(process.argv[3]);
  const wb = await Workbench.open(BIG_WORKSPACE);
  const settings = resolveSettings({});
  let t = performance.now();
  const input = await loadBacktestInput(wb.workspace, fromDay, fromDay + days - 1, settings);
  const loadMs = performance.now() - t;
  if (!input.historyCached) throw new Error('the load did not read the kept history');
  // The floor first: the replay takes the input's buffers to its worker thread.
  t = performance.now();
  bareLoop(input);
  const floorMs = performance.now() - t;
  const cells = input.start.onHand.length;
  // As `workbench backtest` replays: in a worker thread, the parts in threads of their own when more than one.
  t = performance.now();
  const partitions = Number(process.argv[4]);
  const result = await simulateInWorker(input, settings, {}, partitions);
  const simMs = performance.now() - t;
  const maxRssKb = rss();
  await wb.close();
  // What a run keeps per style and day (the cells × days behind them are traced on demand, never kept).
  const sd = result.styleDays;
  const F = sd.values.length / (sd.styles * sd.days);
  let styleDayRows = 0;
  for (let x = 0; x < sd.values.length; x += F) if (sd.values.subarray(x, x + F).some((v) => v !== 0)) styleDayRows++;
  process.stdout.write(
    JSON.stringify({
      styles: sd.styles,
      styleDayRows,
      styleDayBytes: sd.values.byteLength,
      days,
      cells,
      partitions,
      loadMs,
      simMs,
      floorMs,
      maxRssKb,
      transfers: result.summary.simulated.transfers,
      inStock: [result.summary.simulated.inStockRate, result.summary.actual.inStockRate],
      lowest: result.lowestSimulatedStock,
      estimated: [
        result.summary.simulated.estimatedDemand / result.summary.simulated.demand,
        result.summary.actual.estimatedDemand / result.summary.actual.demand,
      ],
    }),
  );
  process.exit(0);
}

if (process.argv[2] === '--trace') {
  const days = Number(process.argv[3]);
  const wb = await Workbench.open(BIG_WORKSPACE);
  let t = performance.now();
  const { run, report } = await wb.runBacktest({ fromDay, toDay: fromDay + days - 1 });
  const runMs = performance.now() - t;
  const worst = report.byStyle.reduce((a, b) => (b.simulated.lostSales > a.simulated.lostSales ? b : a));
  t = performance.now();
  const cells = await wb.backtestStyleCells(run.runId, worst.id);
  const traceMs = performance.now() - t;
  t = performance.now();
  await wb.backtestCellDays(run.runId, worst.id, cells.cells[0].locationId, cells.cells[0].skuId);
  const cellMs = performance.now() - t;
  await wb.deleteBacktest(run.runId);
  await wb.close();
  process.stdout.write(
    JSON.stringify({ runMs, traceMs, cellMs, style: worst.id, cells: cells.cells.length, maxRssKb: rss() }),
  );
  process.exit(0);
}

await prepareBigWorkspace();
const days = Number(process.env.BENCH_BACKTEST_DAYS ?? 730);
/** One measurement in a fresh process: its JSON. */
const measure = (what: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, what, String(days), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: process.env,
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${what} run failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
};
const cores = Number(process.env.BENCH_PARTITIONS ?? availableParallelism());
const cold = measure('--cold');
const m = measure('--measure', String(cores));
const one = cores > 1 ? measure('--measure', '1') : m;
const tr = measure('--trace');
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
