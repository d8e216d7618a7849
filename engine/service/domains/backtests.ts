/**
 * Backtests: the engine replayed over a period of the workspace's days, the runs kept with their days, groups and
 * transfers, traced style by style on demand, compared and exported. Owns the kept runs and the background jobs
 * (a sweep's job is one of them).
 */
import { availableParallelism } from 'node:os';
import { RequestRejected } from '../../model/problems.js';
import { DEFAULT_SCENARIO, resolveSettings, type Settings, type SettingsOverride } from '../../recommend/settings.js';
import type { BacktestInput } from '../../simulate/input.js';
import { simulateInWorker } from '../../simulate/in-worker.js';
import { replayThreads } from '../../simulate/partitioned.js';
import { simulate, type SimulationOptions, type SimulationResult } from '../../simulate/simulate.js';
import { loadBacktestInput } from '../../inputs/backtest-input.js';
import { categorySettingsOf } from '../../inputs/engine-state.js';
import { BacktestJobs, type BacktestJob } from '../backtest-jobs.js';
import { styleDaySeries } from '../backtest-style-days.js';
import { StyleTraces } from '../backtest-trace.js';
import {
  backtestGroups,
  styleDifference,
  checkCoverage,
  compareReports,
  deleteBacktest,
  exportBacktest,
  getBacktest,
  labelBacktest,
  listBacktests,
  storeBacktest,
  type BacktestReport,
  type BacktestRun,
} from '../backtests.js';
import type { ExportFormat, ExportPart } from '../export-kinds.js';
import { clearTables, type ClearsOnReset, type ServiceContext } from './context.js';
import { KEPT_TRANSFER_TABLES } from '../../store/kept-transfers.js';
import type { ScenarioService } from './scenarios.js';

const MAX_BACKTEST_DAYS = 3660;

export interface BacktestRequest extends Pick<SimulationOptions, 'onProgress' | 'isCancelled'> {
  fromDay: number;
  toDay: number;
  scenario?: SettingsOverride;
  scenarioName?: string;
  reviewEveryDays?: number;
  /** Replay in this thread instead of a worker thread (the results are the same). */
  inProcess?: boolean;
  /** Threads serving the days, each a range of styles; default: one per core. */
  partitions?: number;
}

export class BacktestService implements ClearsOnReset {
  /** Backtests and sweeps running in the background. */
  readonly jobs = new BacktestJobs();
  private readonly traces = new StyleTraces();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly scenarios: ScenarioService,
  ) {}

  /**
   * Replays `fromDay` … `toDay` (days since 1970-01-01, inclusive) with the engine and keeps the run. The
   * workspace is read at the start and written at the end; the simulation itself holds no lock.
   */
  async runBacktest(
    request: BacktestRequest,
  ): Promise<{ run: BacktestRun; report: SimulationResult; settings: Settings }> {
    const { fromDay, toDay } = request;
    checkPeriod(fromDay, toDay);
    const { settings, input } = await this.inputOf(request);
    const started = this.ctx.clock();
    const t0 = performance.now();
    const partitions =
      request.partitions ?? replayThreads(input.start.onHand.length, toDay - fromDay + 1, availableParallelism());
    const report = await replay(input, settings, request, { inProcess: request.inProcess, partitions });
    const durationMs = performance.now() - t0;
    const ws = this.ctx.workspace;
    const run = await ws.exclusive(() =>
      ws.transaction(() =>
        storeBacktest(
          ws,
          `bt-${started.toString(36)}`,
          started,
          report,
          settings,
          request.scenario ? undefined : (request.scenarioName ?? DEFAULT_SCENARIO),
          durationMs,
          request.reviewEveryDays,
        ),
      ),
    );
    return { run, report, settings };
  }

  /**
   * Starts a backtest in the background and answers at once with its job; poll `backtestJob`, stop it with
   * `cancelBacktest`. A bad period or scenario is refused here, before anything starts.
   */
  async startBacktest(request: { fromDay: number; toDay: number; scenarioName?: string }): Promise<BacktestJob> {
    await this.checkRequest(request);
    return this.jobs.start(request.toDay - request.fromDay + 1, async (hooks) => {
      const { run, report } = await this.runBacktest({ ...request, ...hooks });
      return { status: run.status, runId: run.runId, daysDone: report.daysDone };
    });
  }

  /** Refuses a bad period, a kept scenario out of its bounds, or days the data does not cover, before a run. */
  async checkRequest(request: { fromDay: number; toDay: number; scenarioName?: string }): Promise<void> {
    checkPeriod(request.fromDay, request.toDay);
    const ws = this.ctx.workspace;
    await ws.exclusive(() => this.scenarios.keptSettings(request.scenarioName));
    await ws.exclusive(() => checkCoverage(ws, request.fromDay, request.toDay));
  }

  backtestJob(jobId: string): BacktestJob {
    return this.jobs.get(jobId);
  }

  cancelBacktest(jobId: string): BacktestJob {
    return this.jobs.cancel(jobId);
  }

  backtests() {
    const ws = this.ctx.workspace;
    return ws.exclusive(() => listBacktests(ws));
  }

  backtest(runId: string): Promise<BacktestReport | undefined> {
    const ws = this.ctx.workspace;
    return ws.exclusive(() => getBacktest(ws, runId));
  }

  /** Gives a kept run a label and a note; undefined when there is no such run. */
  labelBacktest(runId: string, change: { label?: string; note?: string }): Promise<BacktestRun | undefined> {
    const ws = this.ctx.workspace;
    return ws.exclusive(() => labelBacktest(ws, runId, change));
  }

  /** Deletes a kept run with its days, groups and transfers, all or nothing. */
  deleteBacktest(runId: string): Promise<boolean> {
    const ws = this.ctx.workspace;
    return ws.exclusive(() => ws.transaction(() => deleteBacktest(ws, runId)));
  }

  backtestGroups(runId: string, level: 'location' | 'style') {
    const ws = this.ctx.workspace;
    return ws.exclusive(() => backtestGroups(ws, runId, level));
  }

  /** One style of a run, day by day, simulated against actual (kept with the run). */
  backtestStyleDays(runId: string, styleId: string) {
    const ws = this.ctx.workspace;
    return ws.exclusive(() => styleDaySeries(ws, runId, styleId));
  }

  /** A style's location×SKUs over the run, most simulated lost sales first: the run replayed, tracing the style. */
  backtestStyleCells(runId: string, styleId: string) {
    return this.traces.cells(this.ctx.workspace, runId, styleId);
  }

  /** How far tracing a style of a run has got (the cells answer once it is ready). */
  backtestTraceProgress(runId: string, styleId: string) {
    return this.traces.progress(runId, styleId);
  }

  /** One location×SKU of a run, day by day, with the engine's transfers and their reasons (from the same trace). */
  backtestCellDays(runId: string, styleId: string, locationId: string, skuId: string) {
    return this.traces.cell(this.ctx.workspace, runId, styleId, locationId, skuId);
  }

  async compareBacktests(a: string, b: string) {
    const [ra, rb] = [await this.backtest(a), await this.backtest(b)];
    if (!ra || !rb) throw new RequestRejected(`no backtest run "${!ra ? a : b}"`, 404);
    const ws = this.ctx.workspace;
    const [ga, gb] = await ws.exclusive(async () => [
      await backtestGroups(ws, a, 'style'),
      await backtestGroups(ws, b, 'style'),
    ]);
    return compareReports(ra, rb, styleDifference(ga, gb));
  }

  exportBacktest(runId: string, part: ExportPart, file: string, format: ExportFormat): Promise<string> {
    const ws = this.ctx.workspace;
    return ws.exclusive(() => exportBacktest(ws, runId, part, file, format));
  }

  /** Every kept run (a sweep's too) and the traces replayed from them. */
  async clear(): Promise<void> {
    this.traces.forget();
    await clearTables(this.ctx, [
      'backtest_runs',
      'backtest_daily',
      'backtest_groups',
      ...KEPT_TRANSFER_TABLES,
      'backtest_style_days',
      'backtest_reviews',
    ]);
  }

  /** Cancels every running job and waits for each to end (before the workspace closes under them). */
  stopAll(): Promise<void> {
    return this.jobs.stopAll();
  }

  /** The settings a run resolves and the actual days it replays, read in one turn of the workspace. */
  private inputOf(request: BacktestRequest): Promise<{ settings: Settings; input: BacktestInput }> {
    const { fromDay, toDay } = request;
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => {
      await checkCoverage(ws, fromDay, toDay);
      const settings = resolveSettings(
        await categorySettingsOf(ws),
        request.scenario ?? (await this.scenarios.keptSettings(request.scenarioName)),
      );
      return { settings, input: await loadBacktestInput(ws, fromDay, toDay, settings) };
    });
  }
}

export function checkPeriod(fromDay: number, toDay: number): void {
  if (!Number.isInteger(fromDay) || !Number.isInteger(toDay) || toDay < fromDay)
    throw new RequestRejected('the period must run from a day to the same or a later day');
  if (toDay - fromDay + 1 > MAX_BACKTEST_DAYS)
    throw new RequestRejected(`a backtest covers at most ${MAX_BACKTEST_DAYS} days`);
}

/** Where a replay runs: in this thread, or in a worker thread serving the days with `partitions` threads. */
export interface ReplayPlace {
  inProcess?: boolean;
  partitions: number;
  /** The input stays usable for the next replay (a sweep's points share it). */
  keepInput?: boolean;
}

/** One replay of the days with the settings, where `place` says; the results are the same in either place. */
export function replay(
  input: BacktestInput,
  settings: Settings,
  options: SimulationOptions,
  place: ReplayPlace,
): Promise<SimulationResult> {
  const { reviewEveryDays, onProgress, isCancelled } = options;
  const only = { reviewEveryDays, onProgress, isCancelled };
  if (place.inProcess) return simulate(input, settings, only);
  return simulateInWorker(input, settings, only, Math.max(1, Math.floor(place.partitions)), place.keepInput);
}
