/**
 * `workbench serve`: the local API on a workspace. The process owns the workspace while it runs, so it leaves
 * a discovery file (`server.json`, readable by the user only) for commands such as `workbench log` to reach it.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Workbench } from '../service/workbench.js';
import { buildServer } from './app.js';
import type { DeskControls } from './desk-controls.js';
import { RequestRejected } from '../model/problems.js';
import { DEFAULT_CLIENT_ID, DEFAULT_TENANT } from './defaults.js';

export { DEFAULT_CLIENT_ID, DEFAULT_TENANT };

export const SERVER_FILE = 'server.json';
const SECRET_SETTING = 'clientSecret';

export interface ServeOptions {
  workspace: string;
  port: number;
  host?: string;
  tenant?: string;
  clientId?: string;
  clientSecret?: string;
  autoApprove?: boolean;
  tokenLifetimeSeconds?: number;
  /** Browser mode: the built renderer to serve at /. */
  uiRoot?: string;
}

export interface ServerInfo {
  url: string;
  pid: number;
  tenant: string;
  clientId: string;
  clientSecret: string;
}

export interface RunningServer extends Listening {
  workbench: Workbench;
}

/** The workspace's client secret, made once and kept, so an integrator's configuration survives restarts. */
export async function workspaceSecret(wb: Workbench): Promise<string> {
  let secret = await wb.setting(SECRET_SETTING);
  if (!secret) {
    secret = randomBytes(24).toString('base64url');
    await wb.setSetting(SECRET_SETTING, secret);
  }
  return secret;
}

export interface ListenOptions extends Omit<ServeOptions, 'workspace'> {
  /** Leave `server.json` in the workspace for commands that read it (log, lint) while this process owns it. */
  discoverable?: boolean;
  /** The workspace switching and API listener of the app this server answers (browser mode). */
  desk?: DeskControls;
  /** A UI session key that outlives this server (browser mode keeps it across workspace switches). */
  sessionToken?: string;
}

export interface Listening {
  info: ServerInfo;
  app: FastifyInstance;
  secretGenerated: boolean;
  /** Stops listening; the workbench stays open for its owner. */
  stop: () => Promise<void>;
}

/** Serves an open workbench on a port: its owner opened it and closes it. */
export async function listen(wb: Workbench, options: ListenOptions): Promise<Listening> {
  const secretGenerated = !options.clientSecret;
  const secret = options.clientSecret ?? (await workspaceSecret(wb));
  const tenant = options.tenant ?? DEFAULT_TENANT;
  const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
  let url: string | undefined;
  const app = await buildServer({
    workbench: wb,
    tenant,
    clientId,
    clientSecret: secret,
    publicUrl: () => url,
    autoApprove: options.autoApprove,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds,
    uiRoot: options.uiRoot,
    desk: options.desk,
    sessionToken: options.sessionToken,
  });
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ port: options.port, host });
  } catch (e) {
    await app.close();
    throw (e as NodeJS.ErrnoException).code === 'EADDRINUSE'
      ? new RequestRejected(`port ${options.port} on ${host} is taken by another program: choose another port`, 409)
      : e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const info: ServerInfo = { url, pid: process.pid, tenant, clientId, clientSecret: secret };
  const file = join(wb.dir, SERVER_FILE);
  if (options.discoverable) writeFileSync(file, JSON.stringify(info, null, 2), { mode: 0o600 });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (options.discoverable) rmSync(file, { force: true });
    await app.close();
  };
  return { info, app, secretGenerated, stop };
}

/** `workbench serve`: opens the workspace, serves it, and closes it when stopped. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const wb = await Workbench.open(options.workspace);
  try {
    const served = await listen(wb, { ...options, discoverable: true });
    return {
      ...served,
      workbench: wb,
      stop: async () => {
        await served.stop();
        await wb.close();
      },
    };
  } catch (e) {
    await wb.close();
    throw e;
  }
}
