/** A real server on port 0 in a temporary workspace, and a small client for the tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type ServeOptions } from '../engine/server/serve.js';
import { apiClient, type CallResult } from './serve-process.js';

export interface TestServer {
  server: RunningServer;
  url: string;
  token: (tenant?: string) => Promise<string>;
  call: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<CallResult>;
  close: () => Promise<void>;
}

export async function testServer(options: Partial<ServeOptions> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'wb-api-'));
  const server = await startServer({ workspace: dir, port: 0, clientSecret: 's3cret-value', ...options });
  const url = server.info.url;
  const { token, call } = apiClient(url, server.info);
  return {
    server,
    url,
    token,
    call,
    close: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
