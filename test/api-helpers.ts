/** A real server on port 0 in a temporary workspace, and a small client for the tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type ServeOptions } from '../engine/server/serve.js';

export interface TestServer {
  server: RunningServer;
  url: string;
  token: (tenant?: string) => Promise<string>;
  call: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; json: any; text: string; headers: Headers }>;
  close: () => Promise<void>;
}

export async function testServer(options: Partial<ServeOptions> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'wb-api-'));
  const server = await startServer({ workspace: dir, port: 0, clientSecret: 's3cret-value', ...options });
  const url = server.info.url;
  let cached: string | undefined;
  const token = async (tenant = server.info.tenant) => {
    const res = await fetch(`${url}/Token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-tenant': tenant },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: server.info.clientId, client_secret: server.info.clientSecret }),
    });
    if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const call: TestServer['call'] = async (method, path, body, headers = {}) => {
    cached ??= await token();
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${cached}`, 'x-tenant': server.info.tenant,
        ...(body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array) ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: (body === undefined ? undefined : typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body)) as BodyInit | undefined,
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
  return {
    server, url, token, call,
    close: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
