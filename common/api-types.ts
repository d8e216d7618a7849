/**
 * The engine's types as the renderer sees them: every answer, input and route of the admin API it uses, in one
 * module. Types only (lint rules), so the page gets none of the engine's code, and the renderer imports this rather
 * than reaching into the engine's folders: a move inside the engine changes one line here.
 */
export type { Method } from '../engine/server/admin/route';
export type { ADMIN_PAGE_LIMIT } from '../engine/server/admin/schemas';
export type { AdminInput, AdminReply, AdminRouteKey, ArrowRouteKey } from '../engine/server/admin/table';
export type { BacktestResult } from '../engine/server/admin/backtests';
export type { ScenarioContext } from '../engine/server/admin/scenarios';
export type { Integration } from '../engine/server/admin/log';
export type { ArrowStream, JSON_COLUMNS_KEY, TOTAL_COUNT_HEADER } from '../engine/server/arrow';
export type { ListenerStatus, WorkspacesView } from '../engine/server/desk-controls';

export type { Problem, PROBLEM_COLUMNS } from '../engine/model/problems';
export type { RequestLogEntry } from '../engine/model/request-log';
export type { Settings, SettingsOverride } from '../engine/recommend/settings';
export type { SideKpis } from '../engine/simulate/kpis';
export type { GroupKpis } from '../engine/simulate/simulate';
export type { LintReport } from '../engine/ingest/lint';
export type { CsvTarget } from '../engine/ingest/csv/levels';
export type { CsvMapping, FileMapping } from '../engine/ingest/csv/mapping-file';
export type { CsvFilePreview, CsvPreview } from '../engine/ingest/csv/preview';

export type { DatasetSummary } from '../engine/service/domains/datasets';
export type { IngestResult } from '../engine/service/ingest-result';
export type { BatchOutcome, LoadReport } from '../engine/service/file-load';
export type { LoadJob } from '../engine/service/load-jobs';
export type { BusinessNames } from '../engine/service/names';
export type { ProposalRow } from '../engine/service/transfers';
export type { WorkspaceEntry } from '../engine/service/workspace-home';
export type { BacktestJob } from '../engine/service/backtest-jobs';
export type { BacktestComparison, BacktestRun, KeptRun } from '../engine/service/backtests';
export type { StyleDaySeries } from '../engine/service/backtest-style-days';
export type { CellDays, CellTotals, CellTransfer, StyleCells, TraceProgress } from '../engine/service/backtest-trace';
export type { SweepHeader, SweepReport } from '../engine/service/sweeps';
export type { Sweepable } from '../engine/service/sweep-grid';
