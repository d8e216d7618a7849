/**
 * The backtest benchmarks' measured runs, each in a fresh process of its own so that each peak RSS is its own (the
 * replay's threads are the process's: its peak covers them). Run as a script, this file is that process:
 * `backtest-runs.ts MODE WORKSPACE DAYS [PARTITIONS]`, printing its figures as JSON:
 * - `--cold`: the first load of the period, the actual days derived from the workspace and kept; `--first` the
 *   same, unless an earlier run kept them: then it reads them;
 * - `--measure`: a run as every later one is: the kept days loaded, the bare loop (the floor), then the replay in
 *   PARTITIONS parts, in a worker thread as `workbench backtest` replays;
 * - `--trace`: the run through the service (loaded, replayed, kept), then its style with the most simulated lost
 *   sales traced location×SKU by location×SKU, as the drill-down does;
 * - `--side-by-side`: the kept days loaded once, then a whole one-partition replay alone and two at once, each in a
 *   worker thread of its own reading the same input: what two threads of one process give when nothing is split.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Workbench } from '../../engine/service/workbench.js';
import { loadBacktestInput } from '../../engine/inputs/backtest-input.js';
import { resolveSettings } from '../../engine/recommend/settings.js';
import { simulateInWorker } from '../../engine/simulate/in-worker.js';
import type { BacktestInput } from '../../engine/simulate/input.js';
import { ROOT } from './big-workspace.js';

export const FROM = '2024-01-01';
const fromDay = Date.parse(`${FROM}T00:00:00Z`) / 86_400_000;
const rss = () => process.resourceUsage().maxRSS;
/** CPU time (user and system, every thread of the process) since `from`: what a busy machine's wait leaves out. */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(from);
  return (user + system) / 1000;
};

/** What `--cold` and `--first` print. */
export interface ColdRun {
  coldLoadMs: number;
  maxRssKb: number;
  /** The days were kept already (`--first` only): the load read them. */
  historyCached: boolean;
}

/** What `--measure` prints. */
export interface MeasuredRun {
  styles: number;
  styleDayRows: number;
  styleDayBytes: number;
  days: number;
  cells: number;
  partitions: number;
  loadMs: number;
  simMs: number;
  floorMs: number;
  /** CPU time of the load and of the replay, its threads' included. */
  loadCpuMs: number;
  simCpuMs: number;
  maxRssKb: number;
  transfers: unknown;
  inStock: [number | null, number | null];
  lowest: number;
  estimated: [number, number];
}

/** What `--trace` prints. */
export interface TracedRun {
  runMs: number;
  traceMs: number;
  cellMs: number;
  style: string;
  cells: number;
  maxRssKb: number;
}

/** What `--side-by-side` prints: wall and CPU time of one whole replay alone, and of two at once. */
export interface SideBySideRun {
  oneMs: number;
  oneCpuMs: number;
  twoMs: number;
  twoCpuMs: number;
}

/** One measured run in a fresh process: its figures. */
export function runFresh(mode: '--cold' | '--first', workspace: string, days: number): ColdRun;
export function runFresh(mode: '--measure', workspace: string, days: number, partitions: number): MeasuredRun;
export function runFresh(mode: '--trace', workspace: string, days: number): TracedRun;
export function runFresh(mode: '--side-by-side', workspace: string, days: number): SideBySideRun;
export function runFresh(mode: string, workspace: string, days: number, partitions?: number): unknown {
  const args = [import.meta.filename, mode, workspace, String(days), ...(partitions ? [String(partitions)] : [])];
  const r = spawnSync(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: process.env,
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${mode} run on ${workspace} failed (${r.signal ?? r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

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

/** The period's first load; `keptToo`: a load that finds the days kept already reads them (and says so). */
async function cold(workspace: string, days: number, keptToo: boolean): Promise<ColdRun> {
  const wb = await Workbench.open(workspace);
  if (!keptToo) rmSync(join(workspace, 'cache'), { recursive: true, force: true });
  const t = performance.now();
  const { historyCached } = await loadBacktestInput(wb.workspace, fromDay, fromDay + days - 1, resolveSettings({}));
  if (historyCached && !keptToo) throw new Error('the first load read a kept history');
  const coldLoadMs = performance.now() - t;
  await wb.close();
  return { coldLoadMs, maxRssKb: rss(), historyCached: !!historyCached };
}

async function measure(workspace: string, days: number, partitions: number): Promise<MeasuredRun> {
  const wb = await Workbench.open(workspace);
  const settings = resolveSettings({});
  let t = performance.now();
  let cpu = process.cpuUsage();
  const input = await loadBacktestInput(wb.workspace, fromDay, fromDay + days - 1, settings);
  const loadMs = performance.now() - t;
  const loadCpuMs = cpuMs(cpu);
  if (!input.historyCached) throw new Error('the load did not read the kept history');
  // The floor first: the replay takes the input's buffers to its worker thread.
  t = performance.now();
  bareLoop(input);
  const floorMs = performance.now() - t;
  const cells = input.start.onHand.length;
  // As `workbench backtest` replays: in a worker thread, the parts in threads of their own when more than one.
  t = performance.now();
  cpu = process.cpuUsage();
  const result = await simulateInWorker(input, settings, {}, partitions);
  const simMs = performance.now() - t;
  const simCpuMs = cpuMs(cpu);
  const maxRssKb = rss();
  await wb.close();
  // What a run keeps per style and day (the cells × days behind them are traced on demand, never kept).
  const sd = result.styleDays;
  const F = sd.values.length / (sd.styles * sd.days);
  let styleDayRows = 0;
  for (let x = 0; x < sd.values.length; x += F) if (sd.values.subarray(x, x + F).some((v) => v !== 0)) styleDayRows++;
  return {
    styles: sd.styles,
    styleDayRows,
    styleDayBytes: sd.values.byteLength,
    days,
    cells,
    partitions,
    loadMs,
    simMs,
    floorMs,
    loadCpuMs,
    simCpuMs,
    maxRssKb,
    transfers: result.summary.simulated.transfers,
    inStock: [result.summary.simulated.inStockRate, result.summary.actual.inStockRate],
    lowest: result.lowestSimulatedStock,
    estimated: [
      result.summary.simulated.estimatedDemand / result.summary.simulated.demand,
      result.summary.actual.estimatedDemand / result.summary.actual.demand,
    ],
  };
}

async function sideBySide(workspace: string, days: number): Promise<SideBySideRun> {
  const wb = await Workbench.open(workspace);
  const settings = resolveSettings({});
  const input = await loadBacktestInput(wb.workspace, fromDay, fromDay + days - 1, settings);
  await wb.close();
  const replays = async (n: number) => {
    const t = performance.now();
    const cpu = process.cpuUsage();
    // keepInput: each thread reads the shared days where they lie and gets a copy of the rest.
    await Promise.all(Array.from({ length: n }, () => simulateInWorker(input, settings, {}, 1, true)));
    return [performance.now() - t, cpuMs(cpu)];
  };
  const [oneMs, oneCpuMs] = await replays(1);
  const [twoMs, twoCpuMs] = await replays(2);
  return { oneMs, oneCpuMs, twoMs, twoCpuMs };
}

async function trace(workspace: string, days: number): Promise<TracedRun> {
  const wb = await Workbench.open(workspace);
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
  return { runMs, traceMs, cellMs, style: worst.id, cells: cells.cells.length, maxRssKb: rss() };
}

if (process.argv[1] === import.meta.filename) {
  const [mode, workspace, days, partitions] = process.argv.slice(2);
  const run =
    mode === '--cold' || mode === '--first'
      ? cold(workspace, Number(days), mode === '--first')
      : mode === '--measure'
        ? measure(workspace, Number(days), Number(partitions))
        : mode === '--trace'
          ? trace(workspace, Number(days))
          : mode === '--side-by-side'
            ? sideBySide(workspace, Number(days))
            : Promise.reject(new Error(`no mode "${mode}": --cold, --first, --measure, --trace or --side-by-side`));
  process.stdout.write(JSON.stringify(await run));
  process.exit(0);
}
