/**
 * The Electron app's way to the workbench: the renderer's calls go over IPC to the admin API's own routes,
 * answered in process (`inject`, no port), so the app and browser mode share every rule and every error text.
 * No Electron here: this runs and is tested in plain Node.
 */
import { Workbench } from '../engine/service/workbench';
import { buildServer } from '../engine/server/app';
import { DEFAULT_CLIENT_ID, DEFAULT_TENANT, workspaceSecret } from '../engine/server/serve';

export const BRIDGE_METHODS = ['GET', 'POST', 'PUT'] as const;

/** One call as the renderer sends it: a method and a path under the admin API. */
export interface BridgeRequest {
  method: (typeof BRIDGE_METHODS)[number];
  path: string;
  body?: unknown;
}

export interface BridgeReply {
  status: number;
  body: unknown;
}

export interface Bridge {
  workspace: string;
  tenant: string;
  invoke(request: unknown): Promise<BridgeReply>;
  close(): Promise<void>;
}

/**
 * Paths under /_workbench/ only: no way up, plain or percent-encoded (the router would resolve `%2e%2e/`), no
 * scheme, nothing but the admin routes.
 */
const PATH = /^(?!.*\.\.)(?!.*%(2e|2f|5c))[A-Za-z0-9_\-./%]+(\?[A-Za-z0-9_\-.=&%]*)?$/i;

function refused(message: string): BridgeReply {
  return { status: 400, body: { title: 'Refused by the app', status: 400, detail: message } };
}

export async function openBridge(workspace: string, tenant = DEFAULT_TENANT): Promise<Bridge> {
  const wb = await Workbench.open(workspace);
  try {
    const app = await buildServer({ workbench: wb, tenant, clientId: DEFAULT_CLIENT_ID, clientSecret: await workspaceSecret(wb), publicUrl: () => undefined });
    await app.ready();
    const token = app.issueSessionToken();
    return {
      workspace: wb.dir,
      tenant,
      async invoke(request) {
        const r = request as Partial<BridgeRequest> | null;
        if (!r || typeof r !== 'object' || !BRIDGE_METHODS.includes(r.method as never)) return refused(`a call is one of ${BRIDGE_METHODS.join(', ')}`);
        if (typeof r.path !== 'string' || !PATH.test(r.path)) return refused('a call names a path under the workbench API');
        const res = await app.inject({
          method: r.method!, url: `/_workbench/${r.path}`,
          headers: { authorization: `Bearer ${token}`, 'x-tenant': tenant, ...(r.body === undefined ? {} : { 'content-type': 'application/json' }) },
          payload: r.body === undefined ? undefined : JSON.stringify(r.body),
        });
        return { status: res.statusCode, body: res.body && res.headers['content-type']?.toString().includes('json') ? JSON.parse(res.body) : res.body || undefined };
      },
      async close() {
        await app.close();
        await wb.close();
      },
    };
  } catch (e) {
    await wb.close();
    throw e;
  }
}
