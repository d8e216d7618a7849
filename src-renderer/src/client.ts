/**
 * How the UI reaches the workbench: the admin client (`admin-client.ts`), and what a page adds to it: the browser
 * mode's session and HTTP transport, and the desktop bridge when the page runs in Electron. Also the engine's
 * types the screens use, as types only: the engine's code never reaches the page.
 */
import type { ArrowStream, PROBLEM_COLUMNS, TOTAL_COUNT_HEADER } from '../../common/api-types';
import type { DesktopBridge, Transport } from './admin-client';

export * from './admin-client';

/** The columns of an errors file, as the command line writes them. */
export type ProblemColumns = typeof PROBLEM_COLUMNS;

export type {
  BacktestComparison,
  BacktestJob,
  BacktestResult,
  BacktestRun,
  BatchOutcome,
  CellDays,
  CellTotals,
  CellTransfer,
  CsvFilePreview,
  CsvMapping,
  CsvPreview,
  CsvTarget,
  FileMapping,
  GroupKpis,
  IngestResult,
  Integration,
  KeptRun,
  ListenerStatus,
  LoadJob,
  LoadReport,
  Problem,
  ProposalRow,
  RequestLogEntry,
  ScenarioContext,
  Settings,
  SettingsOverride,
  SideKpis,
  StyleCells,
  StyleDaySeries,
  SweepHeader,
  SweepReport,
  Sweepable,
  TraceProgress,
  WorkspaceEntry,
  WorkspacesView,
} from '../../common/api-types';

/**
 * A file as the user picked it: its name (or path in a picked folder) and its text, or for a Parquet or Arrow file
 * its bytes in base64.
 */
export type PickedFile = { name: string; text: string } | { name: string; base64: string };

/**
 * Browser mode: the page was opened with `#tenant=…&token=…` (and `&view=/backtest/…` to open on a view),
 * kept for the session and taken out of the address bar.
 */
export function sessionFromLocation(): { tenant: string; token: string } | undefined {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const tenant = params.get('tenant');
  const token = params.get('token');
  if (tenant && token) {
    sessionStorage.setItem('workbench.session', JSON.stringify({ tenant, token }));
    // `view` is the address to open on (`workbench demo` opens on its run); the key leaves the address bar.
    const view = params.get('view');
    history.replaceState(null, '', `${window.location.pathname}${view ? `#${view}` : ''}`);
    // The screens follow the address by its hashchange, which replaceState does not send.
    if (view) window.dispatchEvent(new HashChangeEvent('hashchange'));
  }
  const kept = sessionStorage.getItem('workbench.session');
  return kept ? (JSON.parse(kept) as { tenant: string; token: string }) : undefined;
}

/** The Arrow stream's media type, checked against the server's own. */
const ARROW_STREAM: ArrowStream = 'application/vnd.apache.arrow.stream';
const TOTAL_COUNT: typeof TOTAL_COUNT_HEADER = 'x-total-count';

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

/** The desktop bridge when the page runs inside the Electron app. */
export function desktopBridge(): DesktopBridge | undefined {
  return (window as unknown as { workbench?: DesktopBridge }).workbench;
}
