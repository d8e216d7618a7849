/**
 * Commands that read a workspace (log, lint) reach it through its running server when one owns it, and
 * open it directly otherwise.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LintReport } from '../ingest/lint.js';
import type { RequestLogEntry } from '../model/request-log.js';
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

/**
 * The server the discovery file names, if its process lives. A server killed without stopping (SIGKILL, power
 * loss) leaves the file behind, and its pid may since belong to another process: the file is only a hint.
 */
function runningServer(dir: string): ServerInfo | undefined {
  let info: ServerInfo;
  try {
    info = JSON.parse(readFileSync(join(dir, SERVER_FILE), 'utf8')) as ServerInfo;
  } catch {
    return undefined; // absent, or unreadable: no server to reach
  }
  return typeof info.pid === 'number' && alive(info.pid) ? info : undefined;
}

async function remote(info: ServerInfo): Promise<WorkspaceReader> {
  const tokenRes = await fetch(`${info.url}/Token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tenant': info.tenant },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: info.clientId,
      client_secret: info.clientSecret,
    }),
  }).catch((e: Error) => {
    throw new Error(
      `the server ${SERVER_FILE} names (${info.url}, pid ${info.pid}) does not answer: ` +
        `${(e.cause as Error | undefined)?.message ?? e.message}`,
    );
  });
  if (!tokenRes.ok) throw new Error(`the server at ${info.url} refused a token (${tokenRes.status})`);
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${info.url}/_workbench/${path}`, {
      headers: { authorization: `Bearer ${access_token}`, 'x-tenant': info.tenant },
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    source: info.url,
    log: async (q) =>
      (
        await get<{ entries: RequestLogEntry[] }>(
          `log?${new URLSearchParams(
            Object.entries(q)
              .filter(([, v]) => v !== undefined)
              .map(([k, v]): [string, string] => [k, String(v)]),
          )}`,
        )
      ).entries,
    lint: () => get<LintReport>('lint'),
    close: async () => undefined,
  };
}

async function direct(dir: string): Promise<WorkspaceReader> {
  const wb = await Workbench.open(dir);
  return { source: wb.dir, log: (q) => wb.requestLog(q), lint: () => wb.lint(), close: () => wb.close() };
}

export async function openReader(dir: string): Promise<WorkspaceReader> {
  const info = existsSync(dir) ? runningServer(dir) : undefined;
  if (!info) return direct(dir);
  try {
    return await remote(info);
  } catch (unreachable) {
    // A stale file whose pid was reused: the workspace's own lock tells whether a server still owns it.
    try {
      return await direct(dir);
    } catch {
      throw unreachable;
    }
  }
}
