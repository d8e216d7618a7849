/**
 * The application service: the one API every adapter (CLI, HTTP server, Electron main, browser mode) calls.
 * One Workbench owns one workspace and wires the services of its domains (`domains/`, one per table of admin routes
 * in `server/admin/`), each owning its part of the workspace; the calls below hand each request to its domain. The
 * workspace's `exclusive` turns keep their work from interleaving.
 */
import { Workspace } from '../store/workspace.js';
import { monotonic, systemClock, type Clock } from '../ingest/clock.js';
import { engineRecommender, type Recommender } from './recommender.js';
import type { IngestOptions, IngestResult } from './ingest-result.js';
import type { ServiceContext } from './domains/context.js';
import { DatasetService } from './domains/datasets.js';
import { LoadService } from './domains/load.js';
import { ScenarioService } from './domains/scenarios.js';
import { RecommendationService } from './domains/recommendations.js';
import { TransferService } from './domains/transfers.js';
import { BacktestService } from './domains/backtests.js';
import { SweepService } from './domains/sweeps.js';
import { LogService } from './domains/log.js';

export type { IngestOptions, IngestResult };
export { PAGE_MAX, type DatasetSummary, type PurchaseOrderStatus } from './domains/datasets.js';

export interface OpenOptions {
  clock?: Clock;
  /** The recommendation engine (tests may stand in another). */
  recommender?: Recommender;
  /** Request log entries kept (default MAX_LOG_ENTRIES). */
  maxLogEntries?: number;
}

/** The domains' services, made once per workbench over its context. */
class Services {
  readonly datasets: DatasetService;
  readonly load: LoadService;
  readonly scenarios: ScenarioService;
  readonly recommendations: RecommendationService;
  readonly transfers: TransferService;
  readonly backtests: BacktestService;
  readonly sweeps: SweepService;
  readonly log: LogService;

  constructor(ctx: ServiceContext, recommender: Recommender, maxLogEntries?: number) {
    this.datasets = new DatasetService(ctx);
    this.load = new LoadService(this.datasets);
    this.scenarios = new ScenarioService(ctx);
    this.recommendations = new RecommendationService(ctx, this.scenarios, recommender);
    this.transfers = new TransferService(ctx);
    this.backtests = new BacktestService(ctx, this.scenarios);
    this.sweeps = new SweepService(ctx, this.scenarios, this.backtests);
    this.log = new LogService(ctx, maxLogEntries);
  }

  /** Each domain's part of the workspace that a reset empties; the request log stays. */
  get clearedOnReset() {
    return [this.datasets, this.sweeps, this.transfers, this.recommendations, this.backtests];
  }
}

type D = Services['datasets'];
type L = Services['load'];
type Sc = Services['scenarios'];
type R = Services['recommendations'];
type T = Services['transfers'];
type B = Services['backtests'];
type Sw = Services['sweeps'];
type Lg = Services['log'];

export class Workbench {
  private constructor(
    readonly workspace: Workspace,
    private readonly clock: Clock,
    private readonly s: Services,
  ) {}

  static async open(dir: string, options: OpenOptions = {}): Promise<Workbench> {
    const workspace = await Workspace.open(dir);
    const clock = options.clock ?? systemClock;
    const ctx: ServiceContext = { workspace, clock, stamp: monotonic(clock) };
    const services = new Services(ctx, options.recommender ?? engineRecommender, options.maxLogEntries);
    try {
      await services.log.init();
    } catch (e) {
      await workspace.close();
      throw e;
    }
    return new Workbench(workspace, clock, services);
  }

  /** Now, as the workbench's clock tells it (microseconds). */
  now(): number {
    return this.clock();
  }

  get dir(): string {
    return this.workspace.dir;
  }

  // Datasets (server/admin/datasets.ts, and the specification's endpoints).
  readonly datasets: D['datasets'] = () => this.s.datasets.datasets();
  readonly ingest: D['ingest'] = (...a) => this.s.datasets.ingest(...a);
  readonly ingestFile: D['ingestFile'] = (...a) => this.s.datasets.ingestFile(...a);
  readonly abandonFullLoad: D['abandonFullLoad'] = (...a) => this.s.datasets.abandonFullLoad(...a);
  readonly remove: D['remove'] = (...a) => this.s.datasets.remove(...a);
  readonly read: D['read'] = (...a) => this.s.datasets.read(...a);
  readonly list: D['list'] = (...a) => this.s.datasets.list(...a);
  readonly stock: D['stock'] = (...a) => this.s.datasets.stock(...a);
  readonly purchaseOrderStatus: D['purchaseOrderStatus'] = (...a) => this.s.datasets.purchaseOrderStatus(...a);
  readonly summary: D['summary'] = () => this.s.datasets.summary();
  readonly names: D['names'] = () => this.s.datasets.names();
  readonly currency: D['currency'] = () => this.s.datasets.currency();

  // File loads (server/admin/load.ts).
  readonly loadFiles: L['loadFiles'] = (...a) => this.s.load.loadFiles(...a);
  readonly startLoad: L['startLoad'] = (...a) => this.s.load.startLoad(...a);
  readonly startDemoLoad: L['startDemoLoad'] = (...a) => this.s.load.startDemoLoad(...a);
  readonly loadJob: L['loadJob'] = (...a) => this.s.load.loadJob(...a);
  readonly checkFiles: L['checkFiles'] = (...a) => this.s.load.checkFiles(...a);
  readonly previewCsv: L['previewCsv'] = (...a) => this.s.load.previewCsv(...a);

  // Scenarios (server/admin/scenarios.ts).
  readonly settingsContext: Sc['settingsContext'] = () => this.s.scenarios.settingsContext();
  readonly scenario: Sc['scenario'] = (...a) => this.s.scenarios.scenario(...a);
  readonly scenarios: Sc['scenarios'] = () => this.s.scenarios.scenarios();
  readonly setScenario: Sc['setScenario'] = (...a) => this.s.scenarios.setScenario(...a);
  readonly deleteScenario: Sc['deleteScenario'] = (...a) => this.s.scenarios.deleteScenario(...a);
  readonly renameScenario: Sc['renameScenario'] = (...a) => this.s.scenarios.renameScenario(...a);

  // Recommendations (server/admin/recommendations.ts, and GET /Recommendations/*).
  readonly runRecommendations: R['runRecommendations'] = (...a) => this.s.recommendations.runRecommendations(...a);
  readonly explainDemand: R['explainDemand'] = (...a) => this.s.recommendations.explainDemand(...a);
  readonly stockTargets: R['stockTargets'] = (...a) => this.s.recommendations.stockTargets(...a);
  readonly productDescriptions: R['productDescriptions'] = (...a) => this.s.recommendations.productDescriptions(...a);
  readonly productTags: R['productTags'] = (...a) => this.s.recommendations.productTags(...a);

  // Transfers (server/admin/transfers.ts, and GET /Recommendations/transfers).
  readonly approveTransfers: T['approveTransfers'] = (...a) => this.s.transfers.approveTransfers(...a);
  readonly transfers: T['transfers'] = (...a) => this.s.transfers.transfers(...a);
  readonly proposals: T['proposals'] = (...a) => this.s.transfers.proposals(...a);

  // Backtests (server/admin/backtests.ts).
  readonly runBacktest: B['runBacktest'] = (...a) => this.s.backtests.runBacktest(...a);
  readonly startBacktest: B['startBacktest'] = (...a) => this.s.backtests.startBacktest(...a);
  readonly backtestJob: B['backtestJob'] = (...a) => this.s.backtests.backtestJob(...a);
  readonly cancelBacktest: B['cancelBacktest'] = (...a) => this.s.backtests.cancelBacktest(...a);
  readonly backtests: B['backtests'] = () => this.s.backtests.backtests();
  readonly backtest: B['backtest'] = (...a) => this.s.backtests.backtest(...a);
  readonly labelBacktest: B['labelBacktest'] = (...a) => this.s.backtests.labelBacktest(...a);
  readonly deleteBacktest: B['deleteBacktest'] = (...a) => this.s.backtests.deleteBacktest(...a);
  readonly backtestGroups: B['backtestGroups'] = (...a) => this.s.backtests.backtestGroups(...a);
  readonly backtestStyleDays: B['backtestStyleDays'] = (...a) => this.s.backtests.backtestStyleDays(...a);
  readonly backtestStyleCells: B['backtestStyleCells'] = (...a) => this.s.backtests.backtestStyleCells(...a);
  readonly backtestTraceProgress: B['backtestTraceProgress'] = (...a) => this.s.backtests.backtestTraceProgress(...a);
  readonly backtestCellDays: B['backtestCellDays'] = (...a) => this.s.backtests.backtestCellDays(...a);
  readonly compareBacktests: B['compareBacktests'] = (...a) => this.s.backtests.compareBacktests(...a);
  readonly exportBacktest: B['exportBacktest'] = (...a) => this.s.backtests.exportBacktest(...a);

  // Sweeps (server/admin/sweeps.ts).
  readonly runSweep: Sw['runSweep'] = (...a) => this.s.sweeps.runSweep(...a);
  readonly startSweep: Sw['startSweep'] = (...a) => this.s.sweeps.startSweep(...a);
  readonly listSweeps: Sw['listSweeps'] = () => this.s.sweeps.listSweeps();
  readonly getSweep: Sw['getSweep'] = (...a) => this.s.sweeps.getSweep(...a);
  readonly saveSweepPoint: Sw['saveSweepPoint'] = (...a) => this.s.sweeps.saveSweepPoint(...a);
  readonly deleteSweep: Sw['deleteSweep'] = (...a) => this.s.sweeps.deleteSweep(...a);

  // The request log and the lint (server/admin/log.ts).
  readonly logRequest: Lg['logRequest'] = (...a) => this.s.log.logRequest(...a);
  readonly requestLog: Lg['requestLog'] = (...a) => this.s.log.requestLog(...a);
  readonly lint: Lg['lint'] = () => this.s.log.lint();

  /** Empties every dataset, discards unfinished split loads and forgets runs and transfers. The request log stays. */
  reset(): Promise<void> {
    const ws = this.workspace;
    return ws.exclusive(() =>
      ws.transaction(async () => {
        for (const domain of this.s.clearedOnReset) await domain.clear();
      }),
    );
  }

  /** A value the workbench keeps in the workspace beside the scenarios (the server's client secret). */
  async setting(key: string): Promise<string | undefined> {
    const ws = this.workspace;
    const [row] = await ws.exclusive(() =>
      ws.rows<{ value: string }>('SELECT value FROM workspace_settings WHERE key = $1', [key]),
    );
    return row?.value;
  }

  setSetting(key: string, value: string): Promise<void> {
    const ws = this.workspace;
    return ws.exclusive(async () => {
      await ws.run('INSERT OR REPLACE INTO workspace_settings VALUES ($1, $2)', [key, value]);
    });
  }

  async close(): Promise<void> {
    await this.s.backtests.stopAll();
    await this.s.load.settle();
    return this.workspace.close();
  }
}
