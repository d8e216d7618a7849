/**
 * The Electron app's way to the workbench: the renderer's calls go over IPC to the admin API's own routes,
 * answered in process (`inject`, no port), so the app and browser mode share every rule and every error text.
 * No Electron here: this runs and is tested in plain Node.
 */
import { buildServer } from '../engine/server/app';
import { Desk } from '../engine/server/desk';
import { DEFAULT_CLIENT_ID, workspaceSecret } from '../engine/server/serve';
import { ARROW_STREAM, TOTAL_COUNT_HEADER } from '../engine/server/arrow';
import { WorkspaceHome } from '../engine/service/workspace-home';

export const BRIDGE_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
/** What the screens delete: a kept run, sweep or scenario. Never the workspace's data (`DELETE state`) from the app. */
const DELETABLE = /^(backtests|sweeps|scenarios)\/[^/?]+$/;
const CALLS = 'a call is one of GET, POST, PUT, or a DELETE of a kept run, sweep or scenario';

/** One call as the renderer sends it: a method and a path under the admin API. */
export interface BridgeRequest {
  method: (typeof BRIDGE_METHODS)[number];
  path: string;
  body?: unknown;
  /** A large table as Arrow columns rather than JSON, where the route offers it. */
  accept?: 'arrow';
}

export interface BridgeReply {
  status: number;
  /** Parsed JSON; an Arrow stream's bytes. */
  body: unknown;
  /** A paged table's row count in all, when the route tells it. */
  total?: number;
}

export interface Bridge {
  /** The workspace open now. */
  readonly workspace: string;
  tenant: string;
  invoke(request: unknown): Promise<BridgeReply>;
  /** A folder the user chose in the app's folder dialog. */
  openFolder(path: string): Promise<void>;
  close(): Promise<void>;
}

export interface BridgeOptions {
  /** Where the Workspaces screen creates and lists workspaces. */
  home: string;
  /** Where the recent list is kept (default: in the home folder). */
  recentFile?: string;
  tenant?: string;
  /** Told each time the screens move to a workspace (the window's title shows it). */
  opened?: (dir: string) => void;
}

/**
 * What a call's path and query may hold: printable ASCII (the client percent-encodes the rest),
 * no backslash or scheme.
 */
const PATH_PART = /^[\x21-\x7e]+$/;
const QUERY_PART = /^[A-Za-z0-9_\-.=&%]*$/;

/**
 * The URL under /_workbench/ a call names, or nothing when, however it is spelled (`..`, `%2e%2e`, a backslash the
 * URL rules read as a slash), it would reach anything but the admin routes. A record id may hold an encoded `/`
 * (`%2F`) or dots: the router does not split a segment on `%2F`.
 */
export function adminUrl(path: string): string | undefined {
  const at = path.indexOf('?');
  const [route, query] = at < 0 ? [path, ''] : [path.slice(0, at), path.slice(at + 1)];
  if (!PATH_PART.test(route) || /[\\#:]/.test(route) || !QUERY_PART.test(query)) return undefined;
  const url = new URL(`/_workbench/${route}`, 'http://app');
  if (url.host !== 'app' || !url.pathname.startsWith('/_workbench/')) return undefined;
  return url.pathname + (query ? `?${query}` : '');
}

function refused(message: string): BridgeReply {
  return { status: 400, body: { title: 'Refused by the app', status: 400, detail: message } };
}

export async function openBridge(workspace: string, options: BridgeOptions): Promise<Bridge> {
  const desk = await Desk.open(workspace, {
    home: new WorkspaceHome(options.home, options.recentFile),
    tenant: options.tenant,
    front: async (wb, d) => {
      const app = await buildServer({
        workbench: wb,
        tenant: d.tenant,
        clientId: DEFAULT_CLIENT_ID,
        clientSecret: await workspaceSecret(wb),
        publicUrl: () => undefined,
        desk: d,
        sessionToken: d.sessionToken,
      });
      await app.ready();
      options.opened?.(wb.dir);
      return { app, close: () => app.close() };
    },
  });
  return {
    get workspace() {
      return desk.workbench.dir;
    },
    tenant: desk.tenant,
    async invoke(request) {
      const r = request as Partial<BridgeRequest> | null;
      if (!r || typeof r !== 'object' || !BRIDGE_METHODS.includes(r.method as never)) return refused(CALLS);
      if (r.method === 'DELETE' && !(typeof r.path === 'string' && DELETABLE.test(r.path))) return refused(CALLS);
      const url = typeof r.path === 'string' ? adminUrl(r.path) : undefined;
      if (!url) return refused('a call names a path under the workbench API');
      // A call made while the screens move to another workspace is answered by the new one.
      await desk.ready();
      const res = await desk.front.app.inject({
        method: r.method!,
        url,
        headers: {
          authorization: `Bearer ${desk.sessionToken}`,
          'x-tenant': desk.tenant,
          ...(r.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(r.accept === 'arrow' ? { accept: ARROW_STREAM } : {}),
        },
        payload: r.body === undefined ? undefined : JSON.stringify(r.body),
      });
      const type = res.headers['content-type']?.toString() ?? '';
      const total = res.headers[TOTAL_COUNT_HEADER];
      return {
        status: res.statusCode,
        body: type.startsWith(ARROW_STREAM)
          ? new Uint8Array(res.rawPayload)
          : res.body && type.includes('json')
            ? JSON.parse(res.body)
            : res.body || undefined,
        ...(total === undefined ? {} : { total: Number(total) }),
      };
    },
    openFolder: (path) => desk.openFolder(path),
    close: () => desk.close(),
  };
}
