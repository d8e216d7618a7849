/**
 * What the UI asks of the workbench. Two implementations answer it: HTTP (browser mode, the /_workbench API)
 * and IPC (Electron); the UI never knows which. Types come from the engine; its code never does.
 */
import type { DatasetSummary, IngestResult, Workbench } from '../../engine/service/workbench';
import type { LintReport } from '../../engine/ingest/lint';
import type { BacktestComparison, BacktestRun } from '../../engine/service/backtests';
import type { GroupKpis, SimulationResult } from '../../engine/simulate/simulate';
import type { SideKpis } from '../../engine/simulate/kpis';
import { tableFromIPC } from 'apache-arrow';
import type { ArrowStream, TOTAL_COUNT_HEADER } from '../../engine/server/arrow';
import type { ApprovalRequest, ApprovalResult, ProposalRow, RunSummary } from '../../engine/service/transfers';

import type { RequestLogEntry } from '../../engine/service/request-log';
import type { ServerContext } from '../../engine/server/context';
import type { BacktestJob } from '../../engine/service/backtest-jobs';
import type { StyleDaySeries } from '../../engine/service/backtest-style-days';
import type {
  CellDays,
  CellTotals,
  CellTransfer,
  StyleCells,
  TraceProgress,
} from '../../engine/service/backtest-trace';
import type { Settings, SettingsOverride } from '../../engine/recommend/settings';
import type { ListenerStatus, WorkspacesView } from '../../engine/server/desk';
import type { WorkspaceEntry } from '../../engine/service/workspace-home';
import type { BatchOutcome, LoadReport } from '../../engine/service/file-load';
import type { LoadJob } from '../../engine/service/load-jobs';
import type { CsvFilePreview, CsvPreview } from '../../engine/ingest/csv/preview';
import type { CsvMapping, FileMapping } from '../../engine/ingest/csv/mapping';
import type { CsvTarget } from '../../engine/ingest/csv/levels';
import type { Problem } from '../../engine/ingest/problems';

export type { IngestResult };
export type {
  BatchOutcome,
  CsvFilePreview,
  CsvMapping,
  CsvPreview,
  CsvTarget,
  FileMapping,
  LoadJob,
  LoadReport,
  Problem,
};

/** A file as the user picked it: its name (or path in a picked folder) and its text. */
export interface PickedFile {
  name: string;
  text: string;
}
export type { ListenerStatus, WorkspaceEntry, WorkspacesView };
export type {
  BacktestComparison,
  BacktestJob,
  BacktestRun,
  GroupKpis,
  ProposalRow,
  RequestLogEntry,
  Settings,
  SettingsOverride,
  SideKpis,
};
export type { CellDays, CellTotals, CellTransfer, StyleCells, StyleDaySeries, TraceProgress };

/**
 * What the settings screen works from: the kept scenarios' names, the one runs use when none is named, the
 * engine's defaults, the settings' JSON Schema, and the merchandise categories with the settings the data gives them.
 */
export type ScenarioContext = {
  scenarios: string[];
  defaultScenario: string;
  defaults: Settings;
  schema: unknown;
} & Awaited<ReturnType<Workbench['categoryContext']>>;

/** How a client reaches the local API, as the workbench describes it. */
export type Integration = ReturnType<ServerContext['integration']>;

/** What a backtest run answers with: its run record, summary (simulated vs actual) and daily series. */
export interface BacktestResult {
  run: BacktestRun;
  summary: SimulationResult['summary'];
  daily: SimulationResult['daily'];
}

export interface WorkbenchClient {
  summary(): Promise<DatasetSummary[]>;
  lint(): Promise<LintReport>;
  /** What picked CSV files will load as: each one's level, column mapping and first rows. */
  previewCsv(files: PickedFile[], mapping: CsvMapping): Promise<CsvPreview>;
  /** Starts loading picked JSON and CSV files in the background, each dataset's batch whole or not at all. */
  startLoad(files: PickedFile[], options: { mapping: CsvMapping; fullLoad: boolean }): Promise<LoadJob>;
  loadJob(jobId: string): Promise<LoadJob>;
  /** Starts replaying the period in the background with a kept scenario's settings (the default when absent). */
  startBacktest(from: string, to: string, scenario?: string): Promise<BacktestJob>;
  backtestJob(jobId: string): Promise<BacktestJob>;
  cancelBacktest(jobId: string): Promise<BacktestJob>;
  /** A kept run: its record, summary and daily series. */
  backtest(runId: string): Promise<BacktestResult>;
  /** The kept backtest runs, newest first. */
  backtests(): Promise<BacktestRun[]>;
  /** A kept run's KPIs by location or by style, simulated and actual. */
  backtestGroups(runId: string, level: 'location' | 'style'): Promise<GroupKpis[]>;
  /** Two kept runs side by side: KPIs, daily series and b − a. */
  compareBacktests(a: string, b: string): Promise<BacktestComparison>;
  /** One style of a kept run, day by day, simulated against actual. */
  backtestStyleDays(runId: string, styleId: string): Promise<StyleDaySeries>;
  /** A style's location×SKUs over a kept run, most simulated lost sales first (the run is replayed to trace them). */
  backtestStyleCells(runId: string, styleId: string): Promise<StyleCells>;
  /** How far tracing a style has got, while `backtestStyleCells` waits for it. */
  backtestTraceProgress(runId: string, styleId: string): Promise<TraceProgress>;
  /** One location×SKU of a kept run, day by day, with the engine's transfers and their reasons. */
  backtestCellDays(runId: string, styleId: string, locationId: string, skuId: string): Promise<CellDays>;
  /** The names of the kept scenarios, the one runs use when none is named, and the engine's defaults they override. */
  scenarios(): Promise<ScenarioContext>;
  scenario(name: string): Promise<SettingsOverride>;
  /** Validated whole by the workbench: a bad one is refused with every problem in `WorkbenchError.errors`. */
  saveScenario(name: string, value: unknown): Promise<SettingsOverride>;
  runRecommendations(): Promise<RunSummary>;
  /** Every open proposal and approved transfer, in pages the server allows. */
  proposals(): Promise<ProposalRow[]>;
  approve(request: ApprovalRequest): Promise<ApprovalResult>;
  integration(): Promise<Integration>;
  /** Request log entries after `afterId` (the newest when absent), oldest first. */
  requestLog(afterId?: number): Promise<RequestLogEntry[]>;
  /** The workspace open now, and the others the app knows. */
  workspaces(): Promise<WorkspacesView>;
  /** Moves to another workspace (a new one by name, or a known one by name or path); settles once it answers. */
  openWorkspace(target: { name?: string; path?: string; create?: boolean }): Promise<WorkspaceEntry>;
  /** The local API the app runs for an integrator's client. */
  listener(): Promise<ListenerStatus>;
  startListener(port: number, tenant?: string): Promise<ListenerStatus>;
  stopListener(): Promise<ListenerStatus>;
  /** The OpenAPI 3.1 document of the local API. */
  openApi(): Promise<unknown>;
  /** A stored record as it was sent, by dataset and key. */
  record(dataset: string, id: string): Promise<unknown>;
}

/** Largest page the admin API gives. */
const PAGE = 10_000;
const TOTAL_COUNT: typeof TOTAL_COUNT_HEADER = 'x-total-count';

/** An Arrow page of the transfers list as the rows the screen reads: absent fields left out, details parsed. */
function proposalRows(bytes: Uint8Array): ProposalRow[] {
  return tableFromIPC(bytes)
    .toArray()
    .map((r) => {
      const row: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(r.toJSON() as Record<string, unknown>)) {
        if (v !== null) row[k] = k === 'details' ? JSON.parse(v as string) : v;
      }
      return row as unknown as ProposalRow;
    });
}
/** How long a workspace switch may take before the app says it failed. */
const SWITCH_WAIT_MS = 30_000;

export interface FieldProblem {
  path: string;
  message: string;
  /** The record a data problem is in. */
  recordId?: string;
}

export class WorkbenchError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: FieldProblem[] = [],
  ) {
    super(message);
  }
}

/**
 * Browser mode: the page was opened with `#tenant=…&token=…`,
 * kept for the session and taken out of the address bar.
 */
export function sessionFromLocation(): { tenant: string; token: string } | undefined {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const tenant = params.get('tenant');
  const token = params.get('token');
  if (tenant && token) {
    sessionStorage.setItem('workbench.session', JSON.stringify({ tenant, token }));
    history.replaceState(null, '', window.location.pathname);
  }
  const kept = sessionStorage.getItem('workbench.session');
  return kept ? (JSON.parse(kept) as { tenant: string; token: string }) : undefined;
}

/** How a call reaches the workbench's admin API: `path` is under /_workbench/. */
export type Transport = (
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  /** A large table as Arrow columns (the body is then its bytes, `total` its row count in all). */
  accept?: 'arrow',
) => Promise<{ status: number; body: unknown; total?: number }>;

/** The Arrow stream's media type, checked against the server's own. */
const ARROW_STREAM: ArrowStream = 'application/vnd.apache.arrow.stream';

/** Browser mode: fetch, with the session's key. */
export function httpTransport(session: { tenant: string; token: string }, base = ''): Transport {
  return async (method, path, body, accept) => {
    const res = await fetch(`${base}/_workbench/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${session.token}`,
        'x-tenant': session.tenant,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(accept === 'arrow' ? { accept: ARROW_STREAM } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.headers.get('content-type')?.startsWith(ARROW_STREAM)) {
      const total = res.headers.get(TOTAL_COUNT);
      return {
        status: res.status,
        body: new Uint8Array(await res.arrayBuffer()),
        ...(total === null ? {} : { total: Number(total) }),
      };
    }
    return { status: res.status, body: await res.json().catch(() => undefined) };
  };
}

/** What the Electron preload puts on the page: one allow-listed call into the main process, and its folder dialog. */
export interface DesktopBridge {
  invoke(request: {
    method: string;
    path: string;
    body?: unknown;
    accept?: 'arrow';
  }): Promise<{ status: number; body: unknown; total?: number }>;
  /** Opens (or makes) a workspace in a folder the user picks; true when the app moved to it. */
  chooseWorkspace?(): Promise<boolean>;
}

/** The Electron app: the same calls over IPC, answered by the same routes in the main process. */
export function ipcTransport(bridge: DesktopBridge): Transport {
  return (method, path, body, accept) => bridge.invoke({ method, path, body, ...(accept ? { accept } : {}) });
}

/** The desktop bridge when the page runs inside the Electron app. */
export function desktopBridge(): DesktopBridge | undefined {
  return (window as unknown as { workbench?: DesktopBridge }).workbench;
}

/** The one client: every call is a request to the admin API, over whichever transport the app has. */
export class ApiWorkbenchClient implements WorkbenchClient {
  constructor(private readonly transport: Transport) {}

  /** A call answered with JSON: a GET without a body, a POST with one unless another method is named. */
  private async request<T>(
    path: string,
    body?: unknown,
    method: 'GET' | 'POST' | 'PUT' = body === undefined ? 'GET' : 'POST',
  ): Promise<T> {
    return (await this.call(method, path, body)).body as T;
  }

  private async call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, accept?: 'arrow') {
    const res = await this.transport(method, path, body, accept);
    if (res.status >= 400) {
      const problem = (res.body ?? {}) as { detail?: string; errors?: FieldProblem[] };
      throw new WorkbenchError(problem.detail ?? `the workbench answered ${res.status}`, res.status, problem.errors);
    }
    return res;
  }

  summary(): Promise<DatasetSummary[]> {
    return this.request('summary');
  }

  lint(): Promise<LintReport> {
    return this.request('lint');
  }

  previewCsv(files: PickedFile[], mapping: CsvMapping): Promise<CsvPreview> {
    return this.request('load/preview', { files, mapping });
  }

  startLoad(files: PickedFile[], options: { mapping: CsvMapping; fullLoad: boolean }): Promise<LoadJob> {
    return this.request('load/jobs', { files, ...options });
  }

  loadJob(jobId: string): Promise<LoadJob> {
    return this.request(`load/jobs/${encodeURIComponent(jobId)}`);
  }

  startBacktest(from: string, to: string, scenario?: string): Promise<BacktestJob> {
    return this.request('backtests/jobs', { from, to, scenario });
  }

  backtestJob(jobId: string): Promise<BacktestJob> {
    return this.request(`backtests/jobs/${encodeURIComponent(jobId)}`);
  }

  cancelBacktest(jobId: string): Promise<BacktestJob> {
    return this.request(`backtests/jobs/${encodeURIComponent(jobId)}/cancel`, {});
  }

  backtest(runId: string): Promise<BacktestResult> {
    return this.request(`backtests/${encodeURIComponent(runId)}`);
  }

  async backtests(): Promise<BacktestRun[]> {
    return (await this.request<{ runs: BacktestRun[] }>('backtests')).runs;
  }

  async backtestGroups(runId: string, level: 'location' | 'style'): Promise<GroupKpis[]> {
    return (await this.request<{ groups: GroupKpis[] }>(`backtests/${encodeURIComponent(runId)}/groups/${level}`))
      .groups;
  }

  compareBacktests(a: string, b: string): Promise<BacktestComparison> {
    return this.request(`backtests/${encodeURIComponent(a)}/compare/${encodeURIComponent(b)}`);
  }

  backtestStyleDays(runId: string, styleId: string): Promise<StyleDaySeries> {
    return this.request(`backtests/${encodeURIComponent(runId)}/styles/${encodeURIComponent(styleId)}/days`);
  }

  backtestStyleCells(runId: string, styleId: string): Promise<StyleCells> {
    return this.request(`backtests/${encodeURIComponent(runId)}/styles/${encodeURIComponent(styleId)}/cells`);
  }

  backtestTraceProgress(runId: string, styleId: string): Promise<TraceProgress> {
    return this.request(`backtests/${encodeURIComponent(runId)}/styles/${encodeURIComponent(styleId)}/trace`);
  }

  backtestCellDays(runId: string, styleId: string, locationId: string, skuId: string): Promise<CellDays> {
    const e = encodeURIComponent;
    return this.request(`backtests/${e(runId)}/styles/${e(styleId)}/cells/${e(locationId)}/${e(skuId)}`);
  }

  scenarios(): Promise<ScenarioContext> {
    return this.request('scenarios');
  }

  async scenario(name: string): Promise<SettingsOverride> {
    return (await this.request<{ scenario: SettingsOverride }>(`scenarios/${encodeURIComponent(name)}`)).scenario;
  }

  async saveScenario(name: string, value: unknown): Promise<SettingsOverride> {
    return (await this.request<{ scenario: SettingsOverride }>(`scenarios/${encodeURIComponent(name)}`, value, 'PUT'))
      .scenario;
  }

  runRecommendations(): Promise<RunSummary> {
    return this.request('recommendations/run', {});
  }

  async proposals(): Promise<ProposalRow[]> {
    const all: ProposalRow[] = [];
    // Pages as Arrow columns: a large run's list comes at a fraction of its JSON and decodes without parsing.
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.call('GET', `transfers?offset=${offset}&limit=${PAGE}`, undefined, 'arrow');
      const rows = proposalRows(page.body as Uint8Array);
      all.push(...rows);
      if (all.length >= (page.total ?? 0) || rows.length === 0) return all;
    }
  }

  approve(request: ApprovalRequest): Promise<ApprovalResult> {
    return this.request('transfers/approve', request);
  }

  integration(): Promise<Integration> {
    return this.request('integration');
  }

  workspaces(): Promise<WorkspacesView> {
    return this.request('workspaces');
  }

  async openWorkspace(target: { name?: string; path?: string; create?: boolean }): Promise<WorkspaceEntry> {
    const { create, ...which } = target;
    const entry = await this.request<WorkspaceEntry>(create ? 'workspaces' : 'workspaces/open', which);
    // Browser mode serves the next workspace on the same address after a moment: wait until it answers from there.
    const until = Date.now() + SWITCH_WAIT_MS;
    for (;;) {
      try {
        if ((await this.workspaces()).current.path === entry.path) return entry;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > until)
        throw new WorkbenchError(`the workspace ${entry.name} did not open within ${SWITCH_WAIT_MS / 1000} s`, 504);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  listener(): Promise<ListenerStatus> {
    return this.request('listener');
  }

  startListener(port: number, tenant?: string): Promise<ListenerStatus> {
    return this.request('listener/start', { port, tenant });
  }

  stopListener(): Promise<ListenerStatus> {
    return this.request('listener/stop', {});
  }

  openApi(): Promise<unknown> {
    return this.request('openapi');
  }

  record(dataset: string, id: string): Promise<unknown> {
    return this.request(`data/${dataset}/${encodeURIComponent(id)}`);
  }

  async requestLog(afterId?: number): Promise<RequestLogEntry[]> {
    const q = afterId === undefined ? 'limit=200' : `afterId=${afterId}&limit=1000`;
    return (await this.request<{ entries: RequestLogEntry[] }>(`log?${q}`)).entries;
  }
}
