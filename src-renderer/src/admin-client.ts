/**
 * The one client of the admin API: `call` names a route of its table (`engine/server/admin`) and is typed by it;
 * a transport carries it (IPC in the desktop app, HTTP in a browser). Nothing here needs a page, so it runs in
 * plain Node too.
 */
import type {
  Method,
  ADMIN_PAGE_LIMIT,
  AdminInput,
  AdminReply,
  AdminRouteKey,
  ArrowRouteKey,
  ProposalRow,
  WorkspaceEntry,
} from '../../common/api-types';

/** How a call reaches the workbench's admin API: `path` is under /_workbench/. */
export type Transport = (
  method: Method,
  path: string,
  body?: unknown,
  /** A large table as Arrow columns (the body is then its bytes, `total` its row count in all). */
  accept?: 'arrow',
) => Promise<{ status: number; body: unknown; total?: number }>;

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

/** Largest page the admin API gives. */
const PAGE: typeof ADMIN_PAGE_LIMIT = 10_000;

/** The rows of a route's table: the elements of the array its JSON answer holds them in. */
type ArrowRow<K extends AdminRouteKey> = {
  [P in keyof AdminReply<K>]: AdminReply<K>[P] extends readonly (infer E)[] ? E : never;
}[keyof AdminReply<K>];
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

/** What a call to a route passes: nothing for a route that takes nothing, else its params, query and body. */
type CallArgs<K extends AdminRouteKey> = keyof AdminInput<K> extends never
  ? []
  : object extends AdminInput<K>
    ? [input?: AdminInput<K>]
    : [input: AdminInput<K>];

interface RawInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

/** `GET /backtests/:runId` and its input → the method and the path under /_workbench/, each segment encoded. */
export function routeRequest(key: string, input: RawInput = {}): { method: Method; path: string; body?: unknown } {
  const at = key.indexOf(' ');
  const method = key.slice(0, at) as Method;
  const params = input.params ?? {};
  const path = key
    .slice(at + 2)
    .split('/')
    // A `*` takes the rest of the path as the caller spelled it (its segments already encoded).
    .map((s) => (s === '*' ? params['*'] : s.startsWith(':') ? encodeURIComponent(params[s.slice(1)]) : s))
    .join('/');
  const query = Object.entries(input.query ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return { method, path: query ? `${path}?${query}` : path, body: input.body };
}

/** The one client: every call names a route of the admin API's table, over whichever transport the app has. */
export class AdminClient {
  constructor(private readonly transport: Transport) {}

  /** Calls a route; its answer as JSON, typed by the route. */
  async call<K extends AdminRouteKey>(key: K, ...[input]: CallArgs<K>): Promise<AdminReply<K>> {
    return (await this.send(key, input as RawInput | undefined)).body as AdminReply<K>;
  }

  /**
   * Calls a route that offers its table as Arrow columns: its rows (typed as the rows of its JSON answer), and how
   * many there are in all.
   */
  async arrow<K extends ArrowRouteKey>(
    key: K,
    ...[input]: CallArgs<K>
  ): Promise<{ rows: ArrowRow<K>[]; total: number }> {
    const res = await this.send(key, input as RawInput | undefined, 'arrow');
    // Arrow's reader comes with the first table read as Arrow: the first screen does without it.
    const [{ tableFromIPC }, { rowsFromArrow }] = await Promise.all([import('apache-arrow'), import('./arrow-rows')]);
    const rows = rowsFromArrow<ArrowRow<K>>(tableFromIPC(res.body as Uint8Array));
    return { rows, total: res.total ?? rows.length };
  }

  private async send(key: string, input: RawInput | undefined, accept?: 'arrow') {
    const { method, path, body } = routeRequest(key, input);
    const res = await this.transport(method, path, body, accept);
    if (res.status >= 400) {
      const problem = (res.body ?? {}) as { detail?: string; errors?: FieldProblem[] };
      throw new WorkbenchError(problem.detail ?? `the workbench answered ${res.status}`, res.status, problem.errors);
    }
    return res;
  }
}

/** Every open proposal and approved transfer, in the largest pages the server gives, as Arrow columns. */
export async function allProposals(client: AdminClient): Promise<ProposalRow[]> {
  const all: ProposalRow[] = [];
  // A large run's list comes at a fraction of its JSON and decodes without parsing.
  for (let offset = 0; ; offset += PAGE) {
    const { rows, total } = await client.arrow('GET /transfers', { query: { offset, limit: PAGE } });
    all.push(...rows);
    if (all.length >= total || rows.length === 0) return all;
  }
}

/** Moves to another workspace (a new one by name, or a known one by name or path); settles once it answers. */
export async function openWorkspace(
  client: AdminClient,
  target: { name?: string; path?: string; create?: boolean },
): Promise<WorkspaceEntry> {
  const { create, ...which } = target;
  const entry = create
    ? await client.call('POST /workspaces', { body: { name: which.name ?? '' } })
    : await client.call('POST /workspaces/open', { body: which });
  // Browser mode serves the next workspace on the same address after a moment: wait until it answers from there.
  const until = Date.now() + SWITCH_WAIT_MS;
  for (;;) {
    try {
      if ((await client.call('GET /workspaces')).current.path === entry.path) return entry;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > until)
      throw new WorkbenchError(`the workspace ${entry.name} did not open within ${SWITCH_WAIT_MS / 1000} s`, 504);
    await new Promise((r) => setTimeout(r, 200));
  }
}
