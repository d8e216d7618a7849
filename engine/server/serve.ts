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

export const SERVER_FILE = 'server.json';
export const DEFAULT_TENANT = 'DEMO';
export const DEFAULT_CLIENT_ID = 'workbench';
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

export interface RunningServer {
  info: ServerInfo;
  app: FastifyInstance;
  workbench: Workbench;
  secretGenerated: boolean;
  stop: () => Promise<void>;
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

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const wb = await Workbench.open(options.workspace);
  try {
    const secretGenerated = !options.clientSecret;
    const secret = options.clientSecret ?? (await workspaceSecret(wb));
    const tenant = options.tenant ?? DEFAULT_TENANT;
    const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
    let url: string | undefined;
    const app = await buildServer({
      workbench: wb, tenant, clientId, clientSecret: secret, publicUrl: () => url,
      autoApprove: options.autoApprove, tokenLifetimeSeconds: options.tokenLifetimeSeconds, uiRoot: options.uiRoot,
    });
    const host = options.host ?? '127.0.0.1';
    await app.listen({ port: options.port, host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const info: ServerInfo = { url, pid: process.pid, tenant, clientId, clientSecret: secret };
    const file = join(wb.dir, SERVER_FILE);
    writeFileSync(file, JSON.stringify(info, null, 2), { mode: 0o600 });
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      rmSync(file, { force: true });
      await app.close();
      await wb.close();
    };
    return { info, app, workbench: wb, secretGenerated, stop };
  } catch (e) {
    await wb.close();
    throw e;
  }
}
