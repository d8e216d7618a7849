/**
 * bench:backtest — the backtest over the generated 100 stores × 5,000 SKUs × 730 days workspace, measured in a
 * fresh process: SKU-location-days per second, wall time and peak RSS; and the same for a bare loop that only
 * applies the actual sales to stock over the same arrays (the floor), with the ratio.
 * Budget (issue 5): ≤ 60 s and ≤ 4 GB. BENCH_BACKTEST_DAYS shortens the period for a quick look.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Workbench } from '../../engine/service/workbench.js';
import { loadBacktestInput } from '../../engine/store/backtest-input.js';
import { resolveSettings } from '../../engine/recommend/settings.js';
import { simulate } from '../../engine/simulate/simulate.js';
import { simulatePartitioned } from '../../engine/simulate/partitioned.js';
import { availableParallelism } from 'node:os';
import type { BacktestInput } from '../../engine/simulate/input.js';
import { BIG_WORKSPACE, prepareBigWorkspace, ROOT } from './big-workspace.js';

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

if (process.argv[2] === '--measure') {
  const days = Number(process.argv[3]);
  const fromDay = Date.parse(`${FROM}T00:00:00Z`) / 86_400_000;
  const wb = await Workbench.open(BIG_WORKSPACE);
  const settings = resolveSettings({});
  // First as a new workspace would (the history derived and kept), then as every later run over the same data.
  rmSync(join(BIG_WORKSPACE, 'cache'), { recursive: true, force: true });
  let t = performance.now();
  if ((await loadBacktestInput(wb.workspace, fromDay, fromDay + days - 1, settings)).historyCached)
    throw new Error('the first load read a kept history');
  const coldLoadMs = performance.now() - t;
  t = performance.now();
  const input = await loadBacktestInput(wb.workspace, fromDay, fromDay + days - 1, settings);
  const loadMs = performance.now() - t;
  if (!input.historyCached) throw new Error('the second load did not read the kept history');
  t = performance.now();
  const partitions = Number(process.env.BENCH_PARTITIONS ?? availableParallelism());
  const result =
    partitions > 1 ? await simulatePartitioned(input, settings, {}, partitions) : await simulate(input, settings);
  const simMs = performance.now() - t;
  t = performance.now();
  bareLoop(input);
  const floorMs = performance.now() - t;
  await wb.close();
  // What a run keeps per style and day (the cells × days behind it are traced on demand, never kept).
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
      cells: input.start.onHand.length,
      partitions,
      coldLoadMs,
      loadMs,
      simMs,
      floorMs,
      maxRssKb: process.resourceUsage().maxRSS,
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

await prepareBigWorkspace();
const days = Number(process.env.BENCH_BACKTEST_DAYS ?? 730);
const r = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--measure', String(days)], {
  cwd: ROOT,
  encoding: 'utf8',
  env: process.env,
  maxBuffer: 1 << 26,
});
if (r.status !== 0) throw new Error(`measure run failed: ${r.stderr}`);
const m = JSON.parse(r.stdout);
const cellDays = m.cells * m.days;
const wall = (m.loadMs + m.simMs) / 1000;
console.log(
  `bench:backtest — ${m.days} days from ${FROM} over ${m.cells.toLocaleString('en')} location×SKU cells ` +
    `(${BIG_WORKSPACE})`,
);
console.log(
  `first load of the period (actual days derived from the workspace and kept): ${(m.coldLoadMs / 1000).toFixed(1)} s`,
);
console.log(
  `load (actual days kept in the workspace): ${(m.loadMs / 1000).toFixed(1)} s; ` +
    `simulation (${m.partitions} style partition${m.partitions === 1 ? '' : 's'}): ${(m.simMs / 1000).toFixed(1)} s; ` +
    `wall ${wall.toFixed(1)} s`,
);
console.log(`simulation: ${Math.round(cellDays / (m.simMs / 1000)).toLocaleString('en')} SKU-location-days/s`);
console.log(
  `floor (bare loop applying actual sales to stock): ${(m.floorMs / 1000).toFixed(2)} s, ` +
    `${Math.round(cellDays / (m.floorMs / 1000)).toLocaleString('en')} SKU-location-days/s; ` +
    `simulation / floor = ${(m.simMs / m.floorMs).toFixed(1)}`,
);
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
console.log(`peak RSS ${(m.maxRssKb / 1024).toFixed(0)} MiB`);
console.log(`budget ≤ 60 s and ≤ 4 GB: ${wall <= 60 && m.maxRssKb / 1024 <= 4096 ? 'met' : 'NOT met'}`);
