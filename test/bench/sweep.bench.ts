/**
 * bench:sweep — a 12-point sweep (service level × trip cost) over a year of the demo, against one backtest of the
 * same year; then, unless BENCH_SWEEP_BIG=0, a 4-point sweep over two years of the generated big set against one
 * backtest there. Goals (issue 16): the demo sweep under 15 s; the big sweep under 4 × one backtest.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbench } from '../../engine/service/workbench.js';
import { parseVary } from '../../engine/service/sweep-grid.js';
import { BIG_WORKSPACE, prepareBigWorkspace, ROOT } from './big-workspace.js';
import { machine } from './machine.js';

const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function measure(label: string, ws: string, from: string, to: string, vary: string[]) {
  const wb = await Workbench.open(ws);
  try {
    const period = { fromDay: day(from), toDay: day(to) };
    let t = performance.now();
    const one = await wb.runBacktest(period);
    const oneMs = performance.now() - t;
    t = performance.now();
    const sweep = await wb.runSweep({ ...period, axes: vary.map(parseVary) });
    const sweepMs = performance.now() - t;
    console.log(`${label}: ${from} … ${to}, ${sweep.points} points (${vary.join(' × ')})`);
    console.log(
      `  one backtest ${seconds(oneMs)}; the sweep ${seconds(sweepMs)} ` +
        `(${seconds(sweepMs / sweep.points)} a point), ${(sweepMs / oneMs).toFixed(2)} × one backtest`,
    );
    const range = (pick: (r: (typeof sweep.runs)[number]) => number) =>
      `${Math.min(...sweep.runs.map(pick))}–${Math.max(...sweep.runs.map(pick))}`;
    console.log(
      `  frontier: ${sweep.runs.filter((r) => r.frontier).length} of ${sweep.points} points; ` +
        `lost sales ${range((r) => r.lostSales)}, store stock ${range((r) => r.inventoryUnits)}; ` +
        `actual ${sweep.actual.lostSales} lost, ${sweep.actual.inventoryUnits} in stock`,
    );
    await wb.deleteSweep(sweep.sweepId);
    await wb.deleteBacktest(one.run.runId);
    return { sweepMs, oneMs, points: sweep.points };
  } finally {
    await wb.close();
  }
}

console.log(machine());
const dir = mkdtempSync(join(tmpdir(), 'wb-bench-sweep-'));
try {
  const demo = join(dir, 'demo');
  execFileSync(process.execPath, [
    join(ROOT, 'bin', 'workbench.mjs'),
    'load',
    '-q',
    '-w',
    demo,
    join(ROOT, 'samples', 'demo'),
  ]);
  const d = await measure('demo', demo, '2025-01-01', '2025-12-30', [
    'serviceLevel=0.85,0.9,0.95,0.99',
    'redistribution.tripCost=20,40,80',
  ]);
  console.log(`  goal: 12 points under 15 s: ${d.sweepMs <= 15_000 ? 'met' : 'NOT met'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (process.env.BENCH_SWEEP_BIG !== '0') {
  await prepareBigWorkspace();
  const b = await measure('big set', BIG_WORKSPACE, '2024-01-01', '2025-12-30', ['serviceLevel=0.85,0.9,0.95,0.99']);
  console.log(`  goal: under ${b.points} × one backtest: ${b.sweepMs < b.points * b.oneMs ? 'met' : 'NOT met'}`);
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
