/**
 * What the UI asks of the workbench. Two implementations answer it: HTTP (browser mode, the /_workbench API)
 * and IPC (Electron); the UI never knows which. Types come from the engine; its code never does, bar pure
 * constants.
 */
import type { DatasetSummary } from '../../engine/service/workbench';
import type { LintReport } from '../../engine/ingest/lint';
import type { BacktestComparison, BacktestRun } from '../../engine/service/backtests';
import type { GroupKpis, SimulationResult } from '../../engine/simulate/simulate';
import type { ApprovalRequest, ApprovalResult, ProposalRow, RunSummary } from '../../engine/service/transfers';

import type { RequestLogEntry } from '../../engine/service/request-log';
import type { Settings, SettingsOverride } from '../../engine/recommend/settings';

export type { BacktestComparison, BacktestRun, GroupKpis, ProposalRow, RequestLogEntry, Settings, SettingsOverride };

export interface Integration {
  url?: string;
  tenant: string;
  clientId: string;
  clientSecret: string;
}

/** What a backtest run answers with: its run record, summary (simulated vs actual) and daily series. */
export interface BacktestResult {
  run: BacktestRun;
  summary: SimulationResult['summary'];
  daily: SimulationResult['daily'];
}

export interface WorkbenchClient {
  summary(): Promise<DatasetSummary[]>;
  lint(): Promise<LintReport>;
  /** Replays the period with a kept scenario's settings (the default scenario when absent). */
  runBacktest(from: string, to: string, scenario?: string): Promise<BacktestResult>;
  /** The kept backtest runs, newest first. */
  backtests(): Promise<BacktestRun[]>;
  /** A kept run's KPIs by location or by style, simulated and actual. */
  backtestGroups(runId: string, level: 'location' | 'style'): Promise<GroupKpis[]>;
  /** Two kept runs side by side: KPIs, daily series and b − a. */
  compareBacktests(a: string, b: string): Promise<BacktestComparison>;
  /** The names of the kept scenarios, and the engine's defaults they override. */
  scenarios(): Promise<{ scenarios: string[]; defaults: Settings }>;
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
}

/** Largest page the admin API gives. */
const PAGE = 10_000;

export interface FieldProblem {
  path: string;
  message: string;
}

export class WorkbenchError extends Error {
  constructor(message: string, readonly status: number, readonly errors: FieldProblem[] = []) {
    super(message);
  }
}

/** Browser mode: the page was opened with `#tenant=…&token=…`, kept for the session and taken out of the address bar. */
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

export class HttpWorkbenchClient implements WorkbenchClient {
  constructor(private readonly session: { tenant: string; token: string }, private readonly base = '') {}

  private async get<T>(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<T> {
    const res = await fetch(`${this.base}/_workbench/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.session.token}`, 'x-tenant': this.session.tenant,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) {
      const problem = (await res.json().catch(() => ({}))) as { detail?: string; errors?: FieldProblem[] };
      throw new WorkbenchError(problem.detail ?? `${res.status} ${res.statusText}`, res.status, problem.errors);
    }
    return (await res.json()) as T;
  }

  summary(): Promise<DatasetSummary[]> {
    return this.get('summary');
  }

  lint(): Promise<LintReport> {
    return this.get('lint');
  }

  runBacktest(from: string, to: string, scenario?: string): Promise<BacktestResult> {
    return this.get('backtests', { from, to, scenario });
  }

  async backtests(): Promise<BacktestRun[]> {
    return (await this.get<{ runs: BacktestRun[] }>('backtests')).runs;
  }

  async backtestGroups(runId: string, level: 'location' | 'style'): Promise<GroupKpis[]> {
    return (await this.get<{ groups: GroupKpis[] }>(`backtests/${encodeURIComponent(runId)}/groups/${level}`)).groups;
  }

  compareBacktests(a: string, b: string): Promise<BacktestComparison> {
    return this.get(`backtests/${encodeURIComponent(a)}/compare/${encodeURIComponent(b)}`);
  }

  scenarios(): Promise<{ scenarios: string[]; defaults: Settings }> {
    return this.get('scenarios');
  }

  async scenario(name: string): Promise<SettingsOverride> {
    return (await this.get<{ scenario: SettingsOverride }>(`scenarios/${encodeURIComponent(name)}`)).scenario;
  }

  async saveScenario(name: string, value: unknown): Promise<SettingsOverride> {
    return (await this.get<{ scenario: SettingsOverride }>(`scenarios/${encodeURIComponent(name)}`, value, 'PUT')).scenario;
  }

  runRecommendations(): Promise<RunSummary> {
    return this.get('recommendations/run', {});
  }

  async proposals(): Promise<ProposalRow[]> {
    const all: ProposalRow[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.get<{ proposals: ProposalRow[]; total: number }>(`transfers?offset=${offset}&limit=${PAGE}`);
      all.push(...page.proposals);
      if (all.length >= page.total || page.proposals.length === 0) return all;
    }
  }

  approve(request: ApprovalRequest): Promise<ApprovalResult> {
    return this.get('transfers/approve', request);
  }

  integration(): Promise<Integration> {
    return this.get('integration');
  }

  async requestLog(afterId?: number): Promise<RequestLogEntry[]> {
    const q = afterId === undefined ? 'limit=200' : `afterId=${afterId}&limit=1000`;
    return (await this.get<{ entries: RequestLogEntry[] }>(`log?${q}`)).entries;
  }
}
