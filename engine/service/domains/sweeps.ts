/**
 * Sweeps: one backtest per point of a grid of settings over one period, kept with the sweep (out of the run list),
 * a point kept as a scenario on request. Owns the kept sweeps; the runs are backtests, their jobs the backtests'.
 */
import { availableParallelism } from 'node:os';
import { dayText } from '../../model/datetime.js';
import { RequestRejected } from '../../model/problems.js';
import {
  DEFAULT_SCENARIO,
  resolveSettings,
  type CategorySettings,
  type Settings,
  type SettingsOverride,
} from '../../recommend/settings.js';
import { sharedCopy } from '../../simulate/buffers.js';
import type { BacktestInput } from '../../simulate/input.js';
import type { SimulationOptions } from '../../simulate/simulate.js';
import { loadBacktestInput } from '../../inputs/backtest-input.js';
import { categorySettingsOf } from '../../inputs/engine-state.js';
import type { BacktestJob, JobHooks } from '../backtest-jobs.js';
import { checkCoverage, storeBacktest } from '../backtests.js';
import { sweepGrid, type SweepAxis, type SweepPoint } from '../sweep-grid.js';
import { deleteSweep, getSweep, listSweeps, storeSweep, type SweepHeader, type SweepReport } from '../sweeps.js';
import { checkPeriod, replay, type BacktestService } from './backtests.js';
import { clearTables, type ClearsOnReset, type ServiceContext } from './context.js';
import { checkScenarioName, type ScenarioService } from './scenarios.js';

export interface SweepRequest {
  fromDay: number;
  toDay: number;
  axes: SweepAxis[];
  scenarioName?: string;
}

type SweepRunRequest = SweepRequest & { inProcess?: boolean; partitions?: number } & Partial<JobHooks>;

/** A sweep's grid: each point's settings over those the scenario and the data give. */
interface Grid {
  points: SweepPoint[];
  scenarios: SettingsOverride[];
}

export class SweepService implements ClearsOnReset {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly scenarios: ScenarioService,
    private readonly backtests: BacktestService,
  ) {}

  /**
   * Runs one backtest per point of a grid of settings over one period, the points side by side (see `slots`); the
   * actual days are loaded once for every point that reads them alike. A cancelled sweep keeps the points it
   * finished. The runs are kept with the sweep, out of the run list.
   */
  async runSweep(request: SweepRunRequest): Promise<SweepReport> {
    checkPeriod(request.fromDay, request.toDay);
    const { grid, fromWorkspace } = await this.gridOf(request);
    const started = this.ctx.clock();
    const t0 = performance.now();
    const replays = new PointReplays(this.ctx, `sw-${started.toString(36)}`, request, grid, fromWorkspace);
    await replays.run();
    return this.keep(request, grid, replays, started, performance.now() - t0);
  }

  /** Starts a sweep in the background; its job counts days over every point. A bad grid is refused here. */
  async startSweep(request: SweepRequest): Promise<BacktestJob> {
    checkPeriod(request.fromDay, request.toDay);
    const ws = this.ctx.workspace;
    await ws.exclusive(() => this.scenarios.keptSettings(request.scenarioName));
    const { points } = sweepGrid(request.axes);
    await ws.exclusive(() => checkCoverage(ws, request.fromDay, request.toDay));
    const days = request.toDay - request.fromDay + 1;
    return this.backtests.jobs.start(days * points.length, async (hooks) => {
      const sweep = await this.runSweep({ ...request, ...hooks });
      return { status: sweep.status, sweepId: sweep.sweepId, daysDone: sweep.points * days };
    });
  }

  listSweeps(): Promise<SweepHeader[]> {
    const ws = this.ctx.workspace;
    return ws.exclusive(() => listSweeps(ws));
  }

  async getSweep(sweepId: string): Promise<SweepReport> {
    const ws = this.ctx.workspace;
    const sweep = await ws.exclusive(() => getSweep(ws, sweepId));
    if (!sweep) throw new RequestRejected(`no sweep "${sweepId.slice(0, 80)}"`, 404);
    return sweep;
  }

  /**
   * Keeps a sweep's point as a new scenario: the scenario the sweep started from with the point's values. A name
   * already kept is refused, so no scenario is overwritten by a click.
   */
  async saveSweepPoint(sweepId: string, point: number, name: string): Promise<SettingsOverride> {
    checkScenarioName(name);
    const sweep = await this.getSweep(sweepId);
    const run = sweep.runs.find((r) => r.point === point);
    if (!run) throw new RequestRejected(`sweep ${sweepId} has no point ${point}`, 404);
    const ws = this.ctx.workspace;
    return ws.exclusive(() =>
      ws.transaction(async () => {
        const axes = Object.entries(run.vary).map(([setting, value]) => ({ setting, values: [value] }));
        const [scenario] = sweepGrid(axes, await this.scenarios.keptSettings(sweep.scenario)).scenarios;
        await this.scenarios.keepNew(name, scenario);
        return scenario;
      }),
    );
  }

  async deleteSweep(sweepId: string): Promise<void> {
    const ws = this.ctx.workspace;
    const found = await ws.exclusive(() => ws.transaction(() => deleteSweep(ws, sweepId)));
    if (!found) throw new RequestRejected(`no sweep "${sweepId.slice(0, 80)}"`, 404);
  }

  /** Every kept sweep (its runs are backtests, cleared with them). */
  clear(): Promise<void> {
    return clearTables(this.ctx, ['sweeps', 'sweep_points']);
  }

  /** The grid over the scenario it starts from, and the settings the data gives the categories. */
  private gridOf(request: SweepRequest) {
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => {
      const grid: Grid = sweepGrid(request.axes, await this.scenarios.keptSettings(request.scenarioName));
      await checkCoverage(ws, request.fromDay, request.toDay);
      return { grid, fromWorkspace: await categorySettingsOf(ws) };
    });
  }

  /** Keeps the sweep with the points it finished, in point order, and reads it back as the screens show it. */
  private async keep(
    request: SweepRunRequest,
    grid: Grid,
    replays: PointReplays,
    started: number,
    durationMs: number,
  ): Promise<SweepReport> {
    const kept = [...replays.kept].sort((x, y) => x.point - y.point);
    const axes = Object.keys(grid.points[0]).map((setting) => ({
      setting,
      values: [...new Set(grid.points.map((p) => p[setting]))],
    }));
    const header = {
      sweepId: replays.sweepId,
      createdAt: started,
      from: dayText(request.fromDay),
      to: dayText(request.toDay),
      scenario: request.scenarioName ?? DEFAULT_SCENARIO,
      axes,
      status: replays.cancelled ? ('cancelled' as const) : ('completed' as const),
      durationMs,
    };
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => {
      await ws.transaction(() => storeSweep(ws, header, kept));
      return (await getSweep(ws, replays.sweepId))!;
    });
  }
}

/**
 * The replays of one sweep's points. Points run side by side, one per core, each replay in one thread: the engine's
 * reviews, which take one thread whatever the partitions, then fill every core. Fewer points than cores split the
 * cores between them.
 */
class PointReplays {
  readonly kept: { point: number; runId: string; vary: SweepPoint }[] = [];
  cancelled = false;
  private readonly inputs = new Map<string, Promise<BacktestInput>>();
  private readonly daysDone: number[];
  private readonly slots: number;
  private readonly partitions: number;
  private next = 0;

  constructor(
    private readonly ctx: ServiceContext,
    readonly sweepId: string,
    private readonly request: SweepRunRequest,
    private readonly grid: Grid,
    private readonly fromWorkspace: Record<string, Partial<CategorySettings>>,
  ) {
    const n = grid.points.length;
    const cores = availableParallelism();
    this.slots = request.inProcess ? 1 : Math.min(cores, n);
    this.partitions = Math.max(1, Math.floor(request.partitions ?? cores / this.slots));
    this.daysDone = new Array<number>(n).fill(0);
  }

  /** Every point, or those before a cancel; each slot takes the next point when it is done with one. */
  async run(): Promise<void> {
    const slot = async () => {
      while (this.next < this.grid.points.length && !this.cancelled) {
        if (this.request.isCancelled?.()) this.cancelled = true;
        else await this.runPoint(this.next++);
      }
    };
    await Promise.all(Array.from({ length: this.slots }, slot));
  }

  private async runPoint(i: number): Promise<void> {
    const settings = resolveSettings(this.fromWorkspace, this.grid.scenarios[i]);
    const t = performance.now();
    const report = await replay(await this.inputFor(settings), settings, this.hooksOf(i), {
      inProcess: this.request.inProcess,
      partitions: this.partitions,
      keepInput: true,
    });
    // A point cut off midway is not kept: its figures would not be those of its settings over the period.
    if (report.cancelled) {
      this.cancelled = true;
      return;
    }
    const runId = `${this.sweepId}-${i + 1}`;
    const ws = this.ctx.workspace;
    const scenario = this.request.scenarioName ?? DEFAULT_SCENARIO;
    const durationMs = performance.now() - t;
    await ws.exclusive(() =>
      ws.transaction(() =>
        storeBacktest(ws, runId, this.ctx.clock(), report, settings, scenario, durationMs, undefined, this.sweepId),
      ),
    );
    this.kept.push({ point: i + 1, runId, vary: this.grid.points[i] });
  }

  /**
   * The actual days a point replays. They depend on a few settings only (the window, location kinds, lead times):
   * points alike in those share one load, in shared memory, so that every point's worker reads the one copy.
   */
  private inputFor(settings: Settings): Promise<BacktestInput> {
    const key = inputKeyOf(settings);
    let input = this.inputs.get(key);
    if (!input) {
      const ws = this.ctx.workspace;
      const { fromDay, toDay, inProcess } = this.request;
      input = ws
        .exclusive(() => loadBacktestInput(ws, fromDay, toDay, settings))
        .then((loaded) => (inProcess ? loaded : sharedCopy(loaded)));
      this.inputs.set(key, input);
    }
    return input;
  }

  /** A point's progress counted into the sweep's days over every point; a cancel of the sweep reaches every point. */
  private hooksOf(i: number): SimulationOptions {
    const days = this.request.toDay - this.request.fromDay + 1;
    return {
      onProgress: (done) => {
        this.daysDone[i] = done;
        this.request.onProgress?.(
          this.daysDone.reduce((x, y) => x + y, 0),
          days * this.grid.points.length,
        );
      },
      isCancelled: () => this.cancelled || this.request.isCancelled?.() === true,
    };
  }
}

/** What of the settings the actual days are read with: two settings alike here share one load. */
function inputKeyOf(settings: Settings): string {
  return JSON.stringify([
    settings.demandWindowDays,
    settings.locationKinds,
    settings.fulfilledFrom,
    settings.transitDays,
    settings.defaults.leadTimeDays,
    Object.entries(settings.categories).map(([id, c]) => [id, c.leadTimeDays]),
  ]);
}
