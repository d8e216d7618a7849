/**
 * `workbench serve` in its own process, as an integrator's client reaches it, and a small client for it. Used by
 * the tests that kill the server or load it from many clients, and by the load benchmark.
 */
import { spawn, type ChildProcess } from 'node:child_process';

import { BIN } from './workbench-bin.js';

export { BIN };

export interface Credentials {
  tenant: string;
  clientId: string;
  clientSecret: string;
}

export interface ServeProcess {
  url: string;
  proc: ChildProcess;
  /** Everything the process printed so far. */
  output: () => string;
  /** Sends the signal and waits for the process to end; resolves to its exit code or signal. */
  stop: (signal: NodeJS.Signals) => Promise<string>;
}

export interface CallResult {
  status: number;
  json: any;
  text: string;
  headers: Headers;
}

/** Starts `workbench serve` on a workspace with a known secret and waits for its `listening on` line. */
export async function spawnServe(
  workspace: string,
  credentials: Credentials,
  extraArgs: string[] = [],
): Promise<ServeProcess> {
  const starting = launchServe(workspace, credentials, extraArgs);
  return { ...starting, url: await starting.listening };
}

/** Starts `workbench serve` and answers at once; `listening` resolves to its address once it serves. */
export function launchServe(
  workspace: string,
  credentials: Credentials,
  extraArgs: string[] = [],
): Omit<ServeProcess, 'url'> & { listening: Promise<string> } {
  const proc = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      '-w',
      workspace,
      '--port',
      '0',
      '--tenant',
      credentials.tenant,
      '--client-id',
      credentials.clientId,
      '--client-secret',
      credentials.clientSecret,
      ...extraArgs,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<string>((resolve) => proc.once('exit', (code, signal) => resolve(signal ?? String(code))));
  const listening = printed(proc, /listening on (http:\/\/\S+)/).then(
    (m) => m[1],
    (e: Error) => {
      throw new Error(`serve ${e.message}: ${out}`);
    },
  );
  // A server stopped before it listens is not an unhandled rejection; whoever awaits `listening` still sees it.
  listening.catch(() => undefined);
  return {
    listening,
    proc,
    output: () => out,
    stop: (signal) => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/**
 * The first match of `pattern` in what a process prints on stdout, once it prints it; a process that ends first
 * rejects. No time limit of its own: the test's bounds a process that never prints it.
 */
export function printed(proc: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += d;
      const m = pattern.exec(text);
      if (!m) return;
      proc.stdout!.off('data', onData);
      proc.off('close', onClose);
      resolve(m);
    };
    // 'close', not 'exit': by then everything it printed has been read.
    const onClose = (code: number | null, signal: string | null) =>
      reject(new Error(`ended (${signal ?? code}) before printing ${pattern}`));
    proc.stdout!.on('data', onData);
    proc.once('close', onClose);
  });
}

/** A client of the API at `url`: it asks for a token once and sends it with every call. */
export function apiClient(url: string, credentials: Credentials) {
  let cached: string | undefined;
  const token = async (tenant = credentials.tenant): Promise<string> => {
    const res = await fetch(`${url}/Token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-tenant': tenant },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      }),
    });
    if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<CallResult> => {
    cached ??= await token();
    const raw = body === undefined || typeof body === 'string' || body instanceof Uint8Array;
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${cached}`,
        'x-tenant': credentials.tenant,
        ...(raw ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: (body === undefined || raw ? body : JSON.stringify(body)) as RequestInit['body'],
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text, headers: res.headers };
  };
  return { token, call };
}
