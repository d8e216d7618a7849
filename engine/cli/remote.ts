/**
 * Commands that read a workspace (log, lint) reach it through its running server when one owns it, and
 * open it directly otherwise.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LintReport } from '../ingest/lint.js';
import type { RequestLogEntry } from '../service/request-log.js';
import { Workbench } from '../service/workbench.js';
import { SERVER_FILE, type ServerInfo } from '../server/serve.js';

export interface WorkspaceReader {
  log(query: { afterId?: number; limit?: number }): Promise<RequestLogEntry[]>;
  lint(): Promise<LintReport>;
  close(): Promise<void>;
  /** Where the data comes from, for the user. */
  source: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function runningServer(dir: string): ServerInfo | undefined {
  const file = join(dir, SERVER_FILE);
  if (!existsSync(file)) return undefined;
  const info = JSON.parse(readFileSync(file, 'utf8')) as ServerInfo;
  return alive(info.pid) ? info : undefined;
}

async function remote(info: ServerInfo): Promise<WorkspaceReader> {
  const tokenRes = await fetch(`${info.url}/Token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tenant': info.tenant },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: info.clientId, client_secret: info.clientSecret }),
  });
  if (!tokenRes.ok) throw new Error(`the server at ${info.url} refused a token (${tokenRes.status})`);
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${info.url}/_workbench/${path}`, { headers: { authorization: `Bearer ${access_token}`, 'x-tenant': info.tenant } });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    source: info.url,
    log: async (q) => (await get<{ entries: RequestLogEntry[] }>(`log?${new URLSearchParams(Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]))}`)).entries,
    lint: () => get<LintReport>('lint'),
    close: async () => undefined,
  };
}

export async function openReader(dir: string): Promise<WorkspaceReader> {
  const info = existsSync(dir) ? runningServer(dir) : undefined;
  if (info) return remote(info);
  const wb = await Workbench.open(dir);
  return { source: wb.dir, log: (q) => wb.requestLog(q), lint: () => wb.lint(), close: () => wb.close() };
}
