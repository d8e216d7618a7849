/**
 * The application service: the one API every adapter (CLI, HTTP server, Electron main, browser mode) calls.
 * One Workbench owns one workspace; its writes are queued so they never interleave.
 */
import { DATASETS, getDataset, type DatasetDef } from '../model/datasets.js';
import { dayOf, dayText, formatIsoMicros, parseIsoMicros } from '../model/datetime.js';
import { Workspace } from '../store/workspace.js';
import { countRecords, readRecords } from '../store/read.js';
import { allTables, q, tablePlan } from '../store/table-plan.js';
import { monotonic, systemClock, type Clock } from '../ingest/clock.js';
import {
  ABANDON_AFTER_MICROS,
  discardStaged,
  stageCall,
  stagedLoad,
  stagedRecords,
  type StagedLoad,
} from '../ingest/full-load.js';
import { latestLevel, stampStockLevels, zeroStockNotSent } from '../ingest/stock-levels.js';
import { moveWarnings, softDeleteNotWrittenSince, softDeleteRecords, upsertRecords } from '../ingest/upsert.js';
import { recordKeyText, validateBatch, type JsonRecord, type ValidatedBatch } from '../ingest/validate.js';
import type { IngestOptions, IngestResult } from './ingest-result.js';
import { RequestRejected, ValidationFailed, type Problem } from '../ingest/problems.js';
import { lint, type LintReport } from '../ingest/lint.js';
import { datasetForFile } from '../ingest/file-dataset.js';
import { BacktestJobs, type BacktestJob, type JobHooks } from './backtest-jobs.js';
import {
  checkFiles,
  loadFiles,
  previewCsv,
  type BatchOutcome,
  type FileLoadOptions,
  type LoadFile,
  type LoadProgress,
  type LoadReport,
} from './file-load.js';
import { LoadJobs, type LoadJob } from './load-jobs.js';
import { pageOf, productDescriptions, tagsOf } from './product-descriptions.js';
import { sweepGrid, type SweepAxis, type SweepPoint } from './sweep-grid.js';
import { deleteSweep, getSweep, listSweeps, storeSweep, type SweepHeader, type SweepReport } from './sweeps.js';
import type { BacktestInput } from '../simulate/input.js';
import { sharedCopy } from '../simulate/buffers.js';
import { replayThreads } from '../simulate/partitioned.js';
import type { CsvPreview } from '../ingest/csv/preview.js';
import { styleDaySeries } from './backtest-style-days.js';
import { StyleTraces } from './backtest-trace.js';
import { RequestLog, type RequestLogEntry, type RequestLogInput } from './request-log.js';
import {
  approve,
  approvedTransfers,
  listProposals,
  storeRun,
  type ApprovalRequest,
  type ApprovalResult,
  type RunSummary,
} from './transfers.js';
import {
  engineRecommender,
  liveInputsStamp,
  type EngineRun,
  type Recommender,
  type RunOptions,
} from './recommender.js';
import { parseSettingsOverride, SettingsInvalid } from '../recommend/settings-schema.js';
import { explainCell } from '../forecast/forecast.js';
import {
  DEFAULT_SCENARIO,
  resolveSettings,
  type CategorySettings,
  type LocationKind,
  type Settings,
  type SettingsOverride,
} from '../recommend/settings.js';
import { categorySettingsOf, defaultAsOfDay, locationKindsOfData } from '../store/engine-state.js';
import { demoFiles } from './demo.js';
import { businessNames, workspaceCurrency, type BusinessNames } from './names.js';
import { cellOf } from '../recommend/state.js';
import { basisOf } from '../recommend/targets.js';
import { loadBacktestInput } from '../store/backtest-input.js';
import { simulate, type SimulationOptions, type SimulationResult } from '../simulate/simulate.js';
import { simulateInWorker } from '../simulate/in-worker.js';
import { availableParallelism } from 'node:os';
import {
  backtestGroups,
  checkCoverage,
  compareReports,
  exportBacktest,
  deleteBacktest,
  getBacktest,
  labelBacktest,
  listBacktests,
  storeBacktest,
  type BacktestReport,
  type BacktestRun,
} from './backtests.js';
import type { ExportFormat, ExportPart } from './export-kinds.js';
import { workspaceSummary, type DatasetSummary } from './summary.js';

export type { DatasetSummary };

export type { IngestOptions, IngestResult };

/** Largest page of records the service gives (the admin API's bound on every page it pages). */
export const PAGE_MAX = 10_000;

/** What a scenario may be called: it is a key in the workspace and a part of the screens' addresses. */
const SCENARIO_NAME = /^[\w.-]{1,80}$/;
const scenarioNameProblem = (name: string) =>
  `a scenario name is 1 to 80 letters, digits, ".", "-" or "_", got "${name.slice(0, 80)}"`;

export type PurchaseOrderStatus = 'open' | 'partiallyReceived' | 'closed' | 'deleted';

export interface OpenOptions {
  clock?: Clock;
  /** The recommendation engine (tests may stand in another). */
  recommender?: Recommender;
  /** Request log entries kept (default MAX_LOG_ENTRIES). */
  maxLogEntries?: number;
}

const SCENARIO_PREFIX = 'scenario:';
const MAX_BACKTEST_DAYS = 3660;

/** Log entries the lint reads for warnings such as unknown fields. */
const LINT_LOG_ENTRIES = 2000;
/** How long a listed run's pages are read from the same run while nothing it reads has changed. */
const LISTED_RUN_MICROS = 60_000_000;

export class Workbench {
  private readonly stamp: Clock;
  private readonly log: RequestLog;
  /** Request log entries waiting for the workspace's next turn (logRequest). */
  private readonly logWaiting: {
    entry: RequestLogInput;
    at: number;
    resolve: (id: number) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private readonly jobs = new BacktestJobs();
  private readonly loads = new LoadJobs();
  private readonly traces = new StyleTraces();
  /**
   * The live run the stock targets are listed from. A client pages through them one call at a time: the pages
   * come from one run (consistent, and a run on a large workspace takes seconds) while nothing it reads changes.
   */
  private listed?: { key: string; until: number; run: EngineRun };

  private constructor(
    readonly workspace: Workspace,
    private readonly clock: Clock,
    private readonly recommender: Recommender,
    maxLogEntries?: number,
  ) {
    this.stamp = monotonic(clock);
    this.log = new RequestLog(workspace, maxLogEntries);
  }

  static async open(dir: string, options: OpenOptions = {}): Promise<Workbench> {
    const ws = await Workspace.open(dir);
    const wb = new Workbench(
      ws,
      options.clock ?? systemClock,
      options.recommender ?? engineRecommender,
      options.maxLogEntries,
    );
    try {
      await wb.log.init();
    } catch (e) {
      await ws.close();
      throw e;
    }
    return wb;
  }

  /** Now, as the workbench's clock tells it (microseconds). */
  now(): number {
    return this.clock();
  }

  get dir(): string {
    return this.workspace.dir;
  }

  datasets(): readonly DatasetDef[] {
    return DATASETS;
  }

  /**
   * POST: validates the whole batch, then applies it in one transaction. Throws ValidationFailed (nothing
   * applied) when any record is invalid.
   */
  /** One file as a user picked it: its endpoint told by its name or body, then ingested like a call to it. */
  ingestFile(fileName: string, body: unknown): Promise<IngestResult> {
    return this.ingest(datasetForFile(fileName, body).name, body);
  }

  /** Files as picked, JSON or CSV, each dataset's batch whole or not at all (file-load.ts). */
  loadFiles(
    files: readonly LoadFile[],
    options: FileLoadOptions = {},
    onProgress?: (p: LoadProgress) => void,
  ): Promise<LoadReport> {
    return loadFiles(this, files, options, onProgress);
  }

  /** Starts loading files in the background and answers at once with its job; poll `loadJob`. */
  /**
   * Loads the demo retailer into this workspace in the background, as a picked folder of it would load. Only an
   * empty workspace takes it: the demo mixed into a retailer's own data would make neither readable.
   */
  async startDemoLoad(dir?: string): Promise<LoadJob> {
    const files = demoFiles(dir);
    if (!files?.length) throw new RequestRejected('the demo data (samples/demo) is not part of this build', 404);
    const held = (await this.summary()).filter((s) => s.live > 0).map((s) => s.dataset);
    if (held.length)
      throw new RequestRejected(
        `the workspace holds data already (${held.slice(0, 3).join(', ')}${held.length > 3 ? ', …' : ''}): ` +
          'the demo loads into an empty workspace; create one on the Workspace screen',
        409,
      );
    return this.startLoad(files);
  }

  startLoad(files: readonly LoadFile[], options: FileLoadOptions = {}): LoadJob {
    return this.loads.start(files.length, (onProgress) => loadFiles(this, files, options, onProgress));
  }

  loadJob(jobId: string): LoadJob {
    return this.loads.get(jobId);
  }

  /** What a load of these files would meet (every problem of every file), loading nothing. */
  checkFiles(files: readonly LoadFile[], options: FileLoadOptions = {}): Promise<BatchOutcome[]> {
    return checkFiles(files, options);
  }

  /** CSV files' levels, column mappings and first rows as they will load. */
  previewCsv(files: readonly LoadFile[], options: FileLoadOptions = {}): Promise<CsvPreview> {
    return previewCsv(files, options);
  }

  async ingest(datasetName: string, body: unknown, options: IngestOptions = {}): Promise<IngestResult> {
    const dataset = getDataset(datasetName);
    let batch: ValidatedBatch;
    try {
      batch = validateBatch(dataset, body, 'upsert');
    } catch (e) {
      throw await this.withOpenLoad(dataset, options, e);
    }
    const warnings = [...batch.warnings];
    let fullLoad = options.fullLoad === true;
    if (fullLoad && !dataset.fullLoad) {
      warnings.push({
        path: '',
        message:
          `fullLoad is not an option of /${dataset.name} in the spec; ` +
          `the records were upserted and nothing was deleted`,
      });
      fullLoad = false;
    }
    if (options.moreRecordsAvailable && !fullLoad) {
      warnings.push({ path: '', message: 'moreRecordsAvailable has no effect without fullLoad=true' });
    }
    const split = fullLoad && options.moreRecordsAvailable === true;

    return this.workspace.exclusive(async () => {
      const ws = this.workspace;
      if (fullLoad) {
        // A split load that went silent for an hour is over: its staged part is discarded (and that sticks), and
        // the call that meets it is refused, since it cannot tell whether it continues that load or starts one.
        const stale = await stagedLoad(ws, dataset.name);
        if (stale && this.clock() - stale.lastCallAt > ABANDON_AFTER_MICROS) {
          await discardStaged(ws, dataset.name);
          throw new RequestRejected(
            `the split full load of ${dataset.name} started ${formatIsoMicros(stale.startedAt)} ` +
              `had no call for over an hour and was abandoned: ` +
              'nothing of it was applied or deleted. Send the full load again from its first call.',
            409,
          );
        }
      }
      return this.workspace.transaction(async () => {
        const stamp = this.stamp();
        let records = batch.records;
        if (dataset.history) records = stampStockLevels(records, stamp);
        const result: IngestResult = {
          dataset: dataset.name,
          received: records.length,
          created: 0,
          updated: 0,
          deleted: 0,
          zeroed: 0,
          warnings,
        };

        const staged = fullLoad ? await stagedLoad(ws, dataset.name) : undefined;
        const startedAt = staged?.startedAt ?? stamp;

        if (split) {
          await stageCall(ws, dataset.name, records, startedAt, stamp, (staged?.calls ?? 0) + 1);
          result.staged = {
            calls: (staged?.calls ?? 0) + 1,
            records: (staged?.records ?? 0) + records.length,
            startedAt: formatIsoMicros(startedAt),
          };
          return result;
        }

        if (staged) {
          records = latestWins(dataset, [...(await stagedRecords(ws, dataset.name)), ...records]);
          await discardStaged(ws, dataset.name);
          result.completed = {
            calls: staged.calls + 1,
            records: records.length,
            startedAt: formatIsoMicros(startedAt),
          };
        }
        const { created, updated, moved } = await upsertRecords(ws, dataset, records, stamp);
        result.created = created;
        result.updated = updated;
        warnings.push(...moveWarnings(moved, dataset.envelope));
        if (fullLoad && dataset.history) {
          const at = latestLevel(records, parseIsoMicros);
          result.zeroed = await zeroStockNotSent(ws, startedAt, Number.isFinite(at) ? at : stamp, stamp);
        } else if (fullLoad) {
          result.deleted = await softDeleteNotWrittenSince(ws, dataset, startedAt, stamp);
        }
        return result;
      });
    });
  }

  /** Drops an unfinished split full load of a dataset: nothing of it is applied or deleted. Returns what it held. */
  abandonFullLoad(datasetName: string): Promise<StagedLoad | undefined> {
    const dataset = getDataset(datasetName);
    return this.workspace.exclusive(async () => {
      const open = await stagedLoad(this.workspace, dataset.name);
      await discardStaged(this.workspace, dataset.name);
      return open;
    });
  }

  /**
   * A refused call of a full load leaves a split load of its dataset open, so that the call sent again corrected
   * continues it: the refusal says so, and how to drop the load instead.
   */
  private async withOpenLoad(dataset: DatasetDef, options: IngestOptions, e: unknown): Promise<unknown> {
    if (!(e instanceof ValidationFailed) || !options.fullLoad || !dataset.fullLoad) return e;
    const open = await this.workspace.exclusive(() => stagedLoad(this.workspace, dataset.name));
    if (!open) return e;
    const note: Problem = {
      path: '',
      message:
        `the split full load of ${dataset.name} started ${formatIsoMicros(open.startedAt)} stays open ` +
        `(${open.calls} call${open.calls === 1 ? '' : 's'}, ${open.records} records): the next fullLoad=true call ` +
        `continues it, so send this call again corrected, or drop the load first with ` +
        `DELETE /_workbench/full-loads/${dataset.name}`,
    };
    return new ValidationFailed(e.dataset, e.errors, e.errorCount, [...e.warnings, note], e.countStopped);
  }

  /** DELETE: soft-deletes the records the body names by key. */
  async remove(datasetName: string, body: unknown): Promise<IngestResult> {
    const dataset = getDataset(datasetName);
    if (!dataset.deletable) throw new RequestRejected(`/${dataset.name} has no DELETE in the spec`, 405);
    const batch = validateBatch(dataset, body, 'delete');
    return this.workspace.exclusive(() =>
      this.workspace.transaction(async () => {
        const r = await softDeleteRecords(this.workspace, dataset, batch.records, this.stamp());
        const warnings = [...batch.warnings];
        if (r.notFoundCount) {
          warnings.push({
            path: `/${dataset.envelope}`,
            message:
              `${r.notFoundCount} record${r.notFoundCount === 1 ? ' was' : 's were'} not found or already deleted: ` +
              `${r.notFound.join(', ')}${r.notFoundCount > r.notFound.length ? ', …' : ''}`,
          });
        }
        return {
          dataset: dataset.name,
          received: batch.records.length,
          created: 0,
          updated: 0,
          deleted: r.deleted,
          zeroed: 0,
          warnings,
        };
      }),
    );
  }

  /** One stored record, or undefined when absent or soft-deleted. `id` is the key, composite keys as an array. */
  async read(datasetName: string, id: string | readonly string[]): Promise<JsonRecord | undefined> {
    const dataset = getDataset(datasetName);
    const ids = typeof id === 'string' ? [id] : id;
    if (ids.length !== dataset.key.length)
      throw new RequestRejected(`/${dataset.name} records are identified by ${dataset.key.join(' + ')}`);
    const key = Object.fromEntries(dataset.key.map((k, i) => [k, ids[i]]));
    if (dataset.history && parseIsoMicros(String(key.stockDateTime)) === undefined) return undefined;
    const [record] = await this.workspace.exclusive(() => readRecords(this.workspace, dataset, { keys: [key] }));
    return record;
  }

  /** Live records in key order. */
  async list(
    datasetName: string,
    page: { offset?: number; limit?: number } = {},
  ): Promise<{ records: JsonRecord[]; total: number; offset: number; limit: number }> {
    const dataset = getDataset(datasetName);
    const offset = Math.max(0, Math.floor(page.offset ?? 0));
    const limit = Math.min(PAGE_MAX, Math.max(0, Math.floor(page.limit ?? 100)));
    return this.workspace.exclusive(async () => {
      const records = await readRecords(this.workspace, dataset, { offset, limit });
      const { live } = await countRecords(this.workspace, dataset);
      return { records, total: live, offset, limit };
    });
  }

  /** Current on-hand of a location/SKU: its latest stock level plus the mutations after it. */
  async stock(
    locationId: string,
    skuId: string,
  ): Promise<{ locationId: string; skuId: string; quantity: number } | undefined> {
    const [row] = await this.workspace.exclusive(() =>
      this.workspace.rows<{ quantity: number }>(
        'SELECT quantity FROM current_stock WHERE locationId = $1 AND skuId = $2',
        [locationId, skuId],
      ),
    );
    return row ? { locationId, skuId, quantity: Number(row.quantity) } : undefined;
  }

  async purchaseOrderStatus(purchaseOrderId: string): Promise<PurchaseOrderStatus | undefined> {
    const [row] = await this.workspace.exclusive(() =>
      this.workspace.rows<{ status: PurchaseOrderStatus }>(
        'SELECT status FROM purchase_order_status WHERE purchaseOrderId = $1',
        [purchaseOrderId],
      ),
    );
    return row?.status;
  }

  /** Counts, date ranges, last write and open split loads per dataset. */
  summary(): Promise<DatasetSummary[]> {
    return workspaceSummary(this.workspace);
  }

  /** Empties every dataset, discards unfinished split loads and forgets runs and transfers. The request log stays. */
  reset(): Promise<void> {
    return this.workspace.exclusive(() =>
      this.workspace.transaction(async () => {
        for (const d of DATASETS)
          for (const t of allTables(tablePlan(d))) await this.workspace.run(`DELETE FROM ${q(t.table)}`);
        this.traces.forget();
        for (const t of [
          'full_load_staging',
          'record_moves',
          'sweeps',
          'sweep_points',
          'transfer_proposals',
          'recommendation_runs',
          'backtest_runs',
          'backtest_daily',
          'backtest_groups',
          'backtest_transfers',
          'backtest_style_days',
          'backtest_reviews',
        ]) {
          await this.workspace.run(`DELETE FROM ${t}`);
        }
      }),
    );
  }

  /**
   * Logs an answered request. Entries that arrive while the workspace is busy are written together, in one
   * transaction, when its turn comes: a flood of requests costs the log one write per turn, not one each, and
   * the calls queued behind it do not wait for thousands of writes.
   */
  logRequest(entry: RequestLogInput): Promise<number> {
    return new Promise((resolve, reject) => {
      this.logWaiting.push({ entry, at: this.stamp(), resolve, reject });
      if (this.logWaiting.length > 1) return;
      const write = async () => {
        const batch = this.logWaiting.splice(0);
        try {
          const ids = await this.log.appendAll(batch);
          batch.forEach((b, i) => b.resolve(ids[i]));
        } catch (e) {
          for (const b of batch) b.reject(e);
        }
      };
      this.workspace.exclusive(write).catch((e: unknown) => {
        for (const b of this.logWaiting.splice(0)) b.reject(e);
      });
    });
  }

  requestLog(query: { afterId?: number; limit?: number } = {}): Promise<RequestLogEntry[]> {
    return this.workspace.exclusive(() => this.log.read(query));
  }

  /** The spec's pitfalls found in the stored feed and in the recent requests. */
  lint(): Promise<LintReport> {
    return this.workspace.exclusive(async () =>
      lint(this.workspace, this.clock(), await this.log.read({ limit: LINT_LOG_ENTRIES })),
    );
  }

  /**
   * Runs the engine on the workspace as it is now; the proposals replace the open ones of earlier runs.
   * The scenario is the one given, else the named one kept in the workspace (default: "default").
   */
  runRecommendations(
    options: { autoApprove?: boolean; description?: string; scenarioName?: string } & RunOptions = {},
  ): Promise<RunSummary> {
    return this.workspace.exclusive(async () => {
      const started = this.stamp();
      const scenario = options.scenario ?? (await this.keptSettings(options.scenarioName));
      const run = await this.recommender(this.workspace, started, { asOfDay: options.asOfDay, scenario });
      return this.workspace.transaction(async () => {
        const summary = await storeRun(this.workspace, run.proposals, run.asOfMicros, started, this.stamp());
        if (options.autoApprove && summary.proposals > 0) {
          summary.autoApproved = await approve(
            this.workspace,
            { description: options.description ?? 'auto-approved' },
            this.stamp(),
          );
        }
        return summary;
      });
    });
  }

  /** Approves open proposals as one batch (one user action). */
  approveTransfers(request: ApprovalRequest): Promise<ApprovalResult> {
    return this.workspace.exclusive(() =>
      this.workspace.transaction(() => approve(this.workspace, request, this.stamp())),
    );
  }

  /** GET /Recommendations/transfers. */
  transfers(query: { offset: number; limit: number; fromConfirmedDateTime?: number }) {
    return this.workspace.exclusive(() => approvedTransfers(this.workspace, query));
  }

  proposals(query: { offset: number; limit: number; approved?: boolean }) {
    return this.workspace.exclusive(() => listProposals(this.workspace, query));
  }

  /** A live run under the stored scenario: the one listed last when nothing it reads has changed since. */
  private async listedRun(): Promise<EngineRun> {
    const now = this.clock();
    const scenario = await this.keptSettings();
    const key = JSON.stringify([await liveInputsStamp(this.workspace), scenario, dayOf(now)]);
    if (this.listed?.key === key && now < this.listed.until) return this.listed.run;
    const run = await this.recommender(this.workspace, now, { scenario });
    this.listed = { key, until: now + LISTED_RUN_MICROS, run };
    return run;
  }

  /**
   * GET /Recommendations/stockTargets: the target of every location/SKU that has one, the client's where sent. An
   * online location that sells from a warehouse's stock (`fulfilledFrom`) keeps its target there: `heldAt` says where.
   */
  stockTargets(query: { offset: number; limit: number }) {
    return this.workspace.exclusive(async () => {
      const { state, targets: t } = await this.listedRun();
      const L = state.locations.ids.length;
      const { ids, fulfilledFrom } = state.locations;
      const cells: number[] = [];
      for (let c = 0; c < t.target.length; c++) if (basisOf(t, c) !== '') cells.push(c);
      const { stockTargets, ...page } = pageOf('stockTargets', cells, query);
      return {
        stockTargets: stockTargets.map((c) => ({
          locationId: state.locations.ids[c % L],
          skuId: state.skus.ids[Math.floor(c / L)],
          targetQuantity: t.target[c],
          source: basisOf(t, c) === 'client' ? 'client' : 'engine',
          basis: basisOf(t, c),
          ...(fulfilledFrom[c % L] >= 0 ? { heldAt: ids[fulfilledFrom[c % L]] } : {}),
        })),
        ...page,
      };
    });
  }

  /** GET /Recommendations/productDescriptions: one per style, made from what the workspace holds. */
  productDescriptions(query: { offset: number; limit: number }) {
    return this.workspace.exclusive(async () =>
      pageOf('productDescriptions', await productDescriptions(this.workspace), query),
    );
  }

  /** GET /Recommendations/productDescriptions/tags: the tags those descriptions carry, with their style counts. */
  productTags(query: { offset: number; limit: number }) {
    return this.workspace.exclusive(async () =>
      pageOf('tags', tagsOf(await productDescriptions(this.workspace)), query),
    );
  }

  /**
   * Replays `fromDay` … `toDay` (days since 1970-01-01, inclusive) with the engine and keeps the run. The
   * workspace is read at the start and written at the end; the simulation itself holds no lock.
   */
  async runBacktest(
    request: {
      fromDay: number;
      toDay: number;
      scenario?: SettingsOverride;
      scenarioName?: string;
      reviewEveryDays?: number;
      /** Replay in this thread instead of a worker thread (the results are the same). */
      inProcess?: boolean;
      /** Threads serving the days, each a range of styles; default: one per core. */
      partitions?: number;
    } & Pick<SimulationOptions, 'onProgress' | 'isCancelled'>,
  ): Promise<{ run: BacktestRun; report: SimulationResult; settings: Settings }> {
    const { fromDay, toDay } = request;
    checkPeriod(fromDay, toDay);
    const { settings, input } = await this.workspace.exclusive(async () => {
      await checkCoverage(this.workspace, fromDay, toDay);
      const settings = resolveSettings(
        await categorySettingsOf(this.workspace),
        request.scenario ?? (await this.keptSettings(request.scenarioName)),
      );
      return { settings, input: await loadBacktestInput(this.workspace, fromDay, toDay, settings) };
    });
    const started = this.clock();
    const t0 = performance.now();
    const options = {
      reviewEveryDays: request.reviewEveryDays,
      onProgress: request.onProgress,
      isCancelled: request.isCancelled,
    };
    const report = request.inProcess
      ? await simulate(input, settings, options)
      : await simulateInWorker(
          input,
          settings,
          options,
          Math.max(
            1,
            Math.floor(
              request.partitions ??
                replayThreads(input.start.onHand.length, toDay - fromDay + 1, availableParallelism()),
            ),
          ),
        );
    const durationMs = performance.now() - t0;
    const runId = `bt-${started.toString(36)}`;
    const run = await this.workspace.exclusive(() =>
      this.workspace.transaction(() =>
        storeBacktest(
          this.workspace,
          runId,
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
    checkPeriod(request.fromDay, request.toDay);
    await this.workspace.exclusive(() => this.keptSettings(request.scenarioName));
    await this.workspace.exclusive(() => checkCoverage(this.workspace, request.fromDay, request.toDay));
    return this.jobs.start(request.toDay - request.fromDay + 1, async (hooks) => {
      const { run, report } = await this.runBacktest({ ...request, ...hooks });
      return { status: run.status, runId: run.runId, daysDone: report.daysDone };
    });
  }

  /**
   * Runs one backtest per point of a grid of settings over one period, the points side by side (see `slots`); the
   * actual days are loaded once for every point that reads them alike. A cancelled sweep keeps the points it
   * finished. The runs are kept with the sweep, out of the run list.
   */
  async runSweep(
    request: {
      fromDay: number;
      toDay: number;
      axes: SweepAxis[];
      scenarioName?: string;
      inProcess?: boolean;
      partitions?: number;
    } & Partial<JobHooks>,
  ): Promise<SweepReport> {
    const { fromDay, toDay } = request;
    checkPeriod(fromDay, toDay);
    const days = toDay - fromDay + 1;
    const { grid, fromWorkspace } = await this.workspace.exclusive(async () => {
      const grid = sweepGrid(request.axes, await this.keptSettings(request.scenarioName));
      await checkCoverage(this.workspace, fromDay, toDay);
      return { grid, fromWorkspace: await categorySettingsOf(this.workspace) };
    });
    const started = this.clock();
    const sweepId = `sw-${started.toString(36)}`;
    const t0 = performance.now();
    const inputs = new Map<string, Promise<BacktestInput>>();
    const kept: { point: number; runId: string; vary: SweepPoint }[] = [];
    const n = grid.points.length;
    // Points run side by side, one per core, each replay in one thread: the engine's reviews, which take one thread
    // whatever the partitions, then fill every core. Fewer points than cores split the cores between them.
    const cores = availableParallelism();
    const slots = request.inProcess ? 1 : Math.min(cores, n);
    const partitions = Math.max(1, Math.floor(request.partitions ?? cores / slots));
    const daysDone = new Array<number>(n).fill(0);
    let cancelled = false;
    let next = 0;
    const runPoint = async (i: number) => {
      const settings = resolveSettings(fromWorkspace, grid.scenarios[i]);
      // The actual days depend on a few settings only (the window, location kinds, lead times).
      const key = inputKeyOf(settings);
      let input = inputs.get(key);
      if (!input) {
        input = this.workspace
          .exclusive(() => loadBacktestInput(this.workspace, fromDay, toDay, settings))
          // In shared memory, every point's worker reads the one copy.
          .then((loaded) => (request.inProcess ? loaded : sharedCopy(loaded)));
        inputs.set(key, input);
      }
      const options: SimulationOptions = {
        onProgress: (done) => {
          daysDone[i] = done;
          request.onProgress?.(
            daysDone.reduce((x, y) => x + y, 0),
            days * n,
          );
        },
        isCancelled: () => cancelled || request.isCancelled?.() === true,
      };
      const t = performance.now();
      const report = request.inProcess
        ? await simulate(await input, settings, options)
        : await simulateInWorker(await input, settings, options, partitions, true);
      // A point cut off midway is not kept: its figures would not be those of its settings over the period.
      if (report.cancelled) {
        cancelled = true;
        return;
      }
      const runId = `${sweepId}-${i + 1}`;
      await this.workspace.exclusive(() =>
        this.workspace.transaction(() =>
          storeBacktest(
            this.workspace,
            runId,
            this.clock(),
            report,
            settings,
            request.scenarioName ?? DEFAULT_SCENARIO,
            performance.now() - t,
            undefined,
            sweepId,
          ),
        ),
      );
      kept.push({ point: i + 1, runId, vary: grid.points[i] });
    };
    const slot = async () => {
      while (next < n && !cancelled) {
        if (request.isCancelled?.()) cancelled = true;
        else await runPoint(next++);
      }
    };
    await Promise.all(Array.from({ length: slots }, slot));
    kept.sort((x, y) => x.point - y.point);
    const axes = Object.keys(grid.points[0]).map((setting) => ({
      setting,
      values: [...new Set(grid.points.map((p) => p[setting]))],
    }));
    return this.workspace.exclusive(async () => {
      await this.workspace.transaction(() =>
        storeSweep(
          this.workspace,
          {
            sweepId,
            createdAt: started,
            from: dayText(fromDay),
            to: dayText(toDay),
            scenario: request.scenarioName ?? DEFAULT_SCENARIO,
            axes,
            status: cancelled ? 'cancelled' : 'completed',
            durationMs: performance.now() - t0,
          },
          kept,
        ),
      );
      return (await getSweep(this.workspace, sweepId))!;
    });
  }

  /** Starts a sweep in the background; its job counts days over every point. A bad grid is refused here. */
  async startSweep(request: {
    fromDay: number;
    toDay: number;
    axes: SweepAxis[];
    scenarioName?: string;
  }): Promise<BacktestJob> {
    checkPeriod(request.fromDay, request.toDay);
    await this.workspace.exclusive(() => this.keptSettings(request.scenarioName));
    const { points } = sweepGrid(request.axes);
    await this.workspace.exclusive(() => checkCoverage(this.workspace, request.fromDay, request.toDay));
    const days = (request.toDay - request.fromDay + 1) * points.length;
    return this.jobs.start(days, async (hooks) => {
      const sweep = await this.runSweep({ ...request, ...hooks });
      return {
        status: sweep.status,
        sweepId: sweep.sweepId,
        daysDone: sweep.points * (request.toDay - request.fromDay + 1),
      };
    });
  }

  listSweeps(): Promise<SweepHeader[]> {
    return this.workspace.exclusive(() => listSweeps(this.workspace));
  }

  async getSweep(sweepId: string): Promise<SweepReport> {
    const sweep = await this.workspace.exclusive(() => getSweep(this.workspace, sweepId));
    if (!sweep) throw new RequestRejected(`no sweep "${sweepId.slice(0, 80)}"`, 404);
    return sweep;
  }

  /**
   * Keeps a sweep's point as a new scenario: the scenario the sweep started from with the point's values. A name
   * already kept is refused, so no scenario is overwritten by a click.
   */
  async saveSweepPoint(sweepId: string, point: number, name: string): Promise<SettingsOverride> {
    if (!SCENARIO_NAME.test(name)) throw new RequestRejected(scenarioNameProblem(name));
    const sweep = await this.getSweep(sweepId);
    const run = sweep.runs.find((r) => r.point === point);
    if (!run) throw new RequestRejected(`sweep ${sweepId} has no point ${point}`, 404);
    return this.workspace.exclusive(() =>
      this.workspace.transaction(async () => {
        const [taken] = await this.workspace.rows('SELECT 1 FROM workspace_settings WHERE key = $1', [
          SCENARIO_PREFIX + name,
        ]);
        if (taken) throw new RequestRejected(`a scenario "${name}" is kept already`, 409);
        const axes = Object.entries(run.vary).map(([setting, value]) => ({ setting, values: [value] }));
        const [scenario] = sweepGrid(axes, await this.keptSettings(sweep.scenario)).scenarios;
        await this.workspace.run('INSERT INTO workspace_settings VALUES ($1, $2)', [
          SCENARIO_PREFIX + name,
          JSON.stringify(scenario),
        ]);
        return scenario;
      }),
    );
  }

  async deleteSweep(sweepId: string): Promise<void> {
    const found = await this.workspace.exclusive(() =>
      this.workspace.transaction(() => deleteSweep(this.workspace, sweepId)),
    );
    if (!found) throw new RequestRejected(`no sweep "${sweepId.slice(0, 80)}"`, 404);
  }

  backtestJob(jobId: string): BacktestJob {
    return this.jobs.get(jobId);
  }

  cancelBacktest(jobId: string): BacktestJob {
    return this.jobs.cancel(jobId);
  }

  backtests() {
    return this.workspace.exclusive(() => listBacktests(this.workspace));
  }

  backtest(runId: string): Promise<BacktestReport | undefined> {
    return this.workspace.exclusive(() => getBacktest(this.workspace, runId));
  }

  /** Gives a kept run a label and a note; undefined when there is no such run. */
  labelBacktest(runId: string, change: { label?: string; note?: string }): Promise<BacktestRun | undefined> {
    return this.workspace.exclusive(() => labelBacktest(this.workspace, runId, change));
  }

  /** Deletes a kept run with its days, groups and transfers, all or nothing. */
  deleteBacktest(runId: string): Promise<boolean> {
    return this.workspace.exclusive(() => this.workspace.transaction(() => deleteBacktest(this.workspace, runId)));
  }

  backtestGroups(runId: string, level: 'location' | 'style') {
    return this.workspace.exclusive(() => backtestGroups(this.workspace, runId, level));
  }

  /** One style of a run, day by day, simulated against actual (kept with the run). */
  backtestStyleDays(runId: string, styleId: string) {
    return this.workspace.exclusive(() => styleDaySeries(this.workspace, runId, styleId));
  }

  /** A style's location×SKUs over the run, most simulated lost sales first: the run replayed, tracing the style. */
  backtestStyleCells(runId: string, styleId: string) {
    return this.traces.cells(this.workspace, runId, styleId);
  }

  /** How far tracing a style of a run has got (the cells answer once it is ready). */
  backtestTraceProgress(runId: string, styleId: string) {
    return this.traces.progress(runId, styleId);
  }

  /** One location×SKU of a run, day by day, with the engine's transfers and their reasons (from the same trace). */
  backtestCellDays(runId: string, styleId: string, locationId: string, skuId: string) {
    return this.traces.cell(this.workspace, runId, styleId, locationId, skuId);
  }

  async compareBacktests(a: string, b: string) {
    const [ra, rb] = [await this.backtest(a), await this.backtest(b)];
    if (!ra || !rb) throw new RequestRejected(`no backtest run "${!ra ? a : b}"`, 404);
    return compareReports(ra, rb);
  }

  exportBacktest(runId: string, part: ExportPart, file: string, format: ExportFormat): Promise<string> {
    return this.workspace.exclusive(() => exportBacktest(this.workspace, runId, part, file, format));
  }

  /**
   * What a scenario's settings sit on: the merchandise categories of the data, the settings the data gives them
   * (MerchandiseCategorySettings), which a scenario overrides, and the locations its per-location settings name,
   * each with the kind its sales give it.
   */
  async settingsContext(): Promise<{
    categories: { id: string; code?: string; description?: string }[];
    fromWorkspace: Record<string, Partial<CategorySettings>>;
    locations: { id: string; name: string; kind: LocationKind }[];
  }> {
    return this.workspace.exclusive(async () => {
      const rows = await this.workspace.rows<{ id: string; code: string; description: string | null }>(
        `SELECT merchandiseCategoryId AS id, code, description FROM merchandise_categories
         WHERE _deleted_at IS NULL ORDER BY code, merchandiseCategoryId`,
      );
      const fromWorkspace = await categorySettingsOf(this.workspace);
      const known = new Set(rows.map((r) => r.id));
      const categories = [
        ...rows.map((r) => ({
          id: r.id,
          code: r.code ?? undefined,
          description: r.description ?? undefined,
        })),
        ...Object.keys(fromWorkspace)
          .filter((id) => !known.has(id))
          .sort()
          .map((id) => ({ id })),
      ];
      const named = await this.workspace.rows<{ id: string; name: string }>(
        `SELECT locationId AS id, name FROM locations WHERE _deleted_at IS NULL ORDER BY locationId`,
      );
      const kinds = await locationKindsOfData(this.workspace, await defaultAsOfDay(this.workspace, this.clock()));
      const locations = named.map((l) => ({ ...l, kind: kinds.get(l.id) ?? 'warehouse' }));
      return { categories, fromWorkspace, locations };
    });
  }

  /** The business names beside the ids (locations, styles, categories) and the workspace's currency. */
  names(): Promise<BusinessNames> {
    return this.workspace.exclusive(async () =>
      businessNames(
        this.workspace,
        await locationKindsOfData(this.workspace, await defaultAsOfDay(this.workspace, this.clock())),
      ),
    );
  }

  /** The code the workspace's values are in (`LOCAL`, `EUR`), when its data says. */
  currency(): Promise<string | undefined> {
    return this.workspace.exclusive(() => workspaceCurrency(this.workspace));
  }

  /** A scenario kept in the workspace: overrides of the engine's defaults, by name. */
  scenario(name = DEFAULT_SCENARIO): Promise<SettingsOverride> {
    return this.workspace.exclusive(() => this.storedScenario(name));
  }

  /** The names of the scenarios kept in the workspace. */
  async scenarios(): Promise<string[]> {
    const rows = await this.workspace.exclusive(() =>
      this.workspace.rows<{ key: string }>(
        `SELECT key FROM workspace_settings WHERE key LIKE '${SCENARIO_PREFIX}%' ORDER BY key`,
      ),
    );
    return rows.map((r) => r.key.slice(SCENARIO_PREFIX.length));
  }

  /** Validates and keeps a scenario; a bad one is refused whole with every problem named. */
  async setScenario(value: unknown, name = DEFAULT_SCENARIO): Promise<SettingsOverride> {
    if (!SCENARIO_NAME.test(name)) throw new RequestRejected(scenarioNameProblem(name));
    const scenario = parseSettingsOverride(value);
    return this.workspace.exclusive(async () => {
      await this.workspace.run('INSERT OR REPLACE INTO workspace_settings VALUES ($1, $2)', [
        SCENARIO_PREFIX + name,
        JSON.stringify(scenario),
      ]);
      return scenario;
    });
  }

  /**
   * Deletes a kept scenario. The default one stays: it is what every run without a scenario uses (saving it empty
   * gives the engine's defaults back). Runs made with a deleted scenario keep the settings they ran with.
   */
  async deleteScenario(name: string): Promise<void> {
    if (name === DEFAULT_SCENARIO)
      throw new RequestRejected(
        `the "${DEFAULT_SCENARIO}" scenario is what runs use when none is named: it can be emptied, not deleted`,
        409,
      );
    return this.workspace.exclusive(async () => {
      await this.storedScenario(name);
      await this.workspace.run('DELETE FROM workspace_settings WHERE key = $1', [SCENARIO_PREFIX + name]);
    });
  }

  /** Gives a kept scenario another name that no scenario holds yet, in one step. */
  async renameScenario(name: string, to: string): Promise<void> {
    if (name === DEFAULT_SCENARIO)
      throw new RequestRejected(`the "${DEFAULT_SCENARIO}" scenario keeps its name: duplicate it instead`, 409);
    if (!SCENARIO_NAME.test(to)) throw new RequestRejected(scenarioNameProblem(to));
    return this.workspace.exclusive(() =>
      this.workspace.transaction(async () => {
        const scenario = await this.storedScenario(name);
        const [taken] = await this.workspace.rows('SELECT 1 FROM workspace_settings WHERE key = $1', [
          SCENARIO_PREFIX + to,
        ]);
        if (taken) throw new RequestRejected(`a scenario "${to}" is kept already`, 409);
        await this.workspace.run('DELETE FROM workspace_settings WHERE key = $1', [SCENARIO_PREFIX + name]);
        await this.workspace.run('INSERT INTO workspace_settings VALUES ($1, $2)', [
          SCENARIO_PREFIX + to,
          JSON.stringify(scenario),
        ]);
      }),
    );
  }

  /**
   * A kept scenario as a run reads it: checked against the settings' schema again, so one kept under looser bounds
   * than today's is refused with each field named, not run.
   */
  private async keptSettings(name = DEFAULT_SCENARIO): Promise<SettingsOverride> {
    const kept = await this.storedScenario(name);
    try {
      return parseSettingsOverride(kept);
    } catch (e) {
      if (!(e instanceof SettingsInvalid)) throw e;
      throw new SettingsInvalid(
        e.problems,
        `the kept scenario "${name}" holds settings out of their bounds; save it again within them`,
      );
    }
  }

  private async storedScenario(name = DEFAULT_SCENARIO): Promise<SettingsOverride> {
    const [row] = await this.workspace.rows<{ value: string }>('SELECT value FROM workspace_settings WHERE key = $1', [
      SCENARIO_PREFIX + name,
    ]);
    if (!row && name !== DEFAULT_SCENARIO) throw new RequestRejected(`no scenario "${name}" in this workspace`, 404);
    return row ? (JSON.parse(row.value) as SettingsOverride) : {};
  }

  /** The demand estimate and target of one location/SKU with every part, for explanation. */
  explainDemand(locationId: string, skuId: string, options: { asOfDay?: number; scenarioName?: string } = {}) {
    return this.workspace.exclusive(async () => {
      const run = await this.recommender(this.workspace, this.clock(), {
        asOfDay: options.asOfDay,
        scenario: await this.keptSettings(options.scenarioName),
      });
      const l = run.state.locations.ids.indexOf(locationId);
      const k = run.state.skus.ids.indexOf(skuId);
      if (l < 0 || k < 0) return undefined;
      const cell = cellOf(run.state, l, k);
      return {
        locationId,
        skuId,
        asOf: formatIsoMicros(run.asOfMicros),
        locationKind: run.state.locations.kind[l],
        onHand: run.state.onHand[cell],
        inTransit: run.state.inTransit[cell],
        demand: explainCell(run.forecast, cell),
        target: run.targets.target[cell],
        targetBasis: basisOf(run.targets, cell),
      };
    });
  }

  async setting(key: string): Promise<string | undefined> {
    const [row] = await this.workspace.exclusive(() =>
      this.workspace.rows<{ value: string }>('SELECT value FROM workspace_settings WHERE key = $1', [key]),
    );
    return row?.value;
  }

  setSetting(key: string, value: string): Promise<void> {
    return this.workspace.exclusive(async () => {
      await this.workspace.run('INSERT OR REPLACE INTO workspace_settings VALUES ($1, $2)', [key, value]);
    });
  }

  async close(): Promise<void> {
    await this.jobs.stopAll();
    await this.loads.settle();
    return this.workspace.close();
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

function checkPeriod(fromDay: number, toDay: number): void {
  if (!Number.isInteger(fromDay) || !Number.isInteger(toDay) || toDay < fromDay)
    throw new RequestRejected('the period must run from a day to the same or a later day');
  if (toDay - fromDay + 1 > MAX_BACKTEST_DAYS)
    throw new RequestRejected(`a backtest covers at most ${MAX_BACKTEST_DAYS} days`);
}

/** Records of a split load in call order: a record sent again later replaces its earlier copy. */
function latestWins(dataset: DatasetDef, records: JsonRecord[]): JsonRecord[] {
  const byKey = new Map<string, JsonRecord>();
  for (const r of records) {
    const k = recordKeyText(dataset, r);
    byKey.delete(k);
    byKey.set(k, r);
  }
  return [...byKey.values()];
}
