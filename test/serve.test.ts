import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sale } from './fixtures.js';
import { printed } from './serve-process.js';
import { SOURCE_BIN } from './workbench-bin.js';

// The command as shipped: `npx workbench serve` through tsx (workbench-bin.ts).
const BIN = SOURCE_BIN;
const run = promisify(execFile);
let dir: string;
let proc: ChildProcess;
let out = '';
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-serve-'));
  proc = spawn(process.execPath, [BIN, 'serve', '--workspace', join(dir, 'ws'), '--port', '0', '--tenant', 'ACME'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  url = (await printed(proc, /listening on (http:\/\/127\.0\.0\.1:\d+)/))[1];
});

afterAll(async () => {
  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
});

describe('workbench serve', () => {
  it('binds loopback, prints the generated secret, and serves the API', async () => {
    const secret = /client secret (\S+) \(kept in the workspace\)/.exec(out)?.[1];
    expect(secret).toBeDefined();
    expect(out).toContain(
      `try: curl -s -X POST ${url}/Token -H 'X-Tenant: ACME' ` +
        `-d grant_type=client_credentials -d client_id=workbench -d client_secret=${secret}`,
    );
    // The line runs as pasted: a shell gets a token with it.
    const tried = await run('bash', ['-c', /^try: (.*)$/m.exec(out)![1]], { encoding: 'utf8' });
    expect(JSON.parse(tried.stdout)).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
    const info = JSON.parse(readFileSync(join(dir, 'ws', 'server.json'), 'utf8'));
    expect(info).toMatchObject({ url, tenant: 'ACME', clientId: 'workbench', clientSecret: secret });
    const tok = await fetch(`${url}/Token`, {
      method: 'POST',
      headers: { 'x-tenant': 'ACME', 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_id=workbench&client_secret=${secret}`,
    });
    const { access_token } = (await tok.json()) as { access_token: string };
    const post = await fetch(`${url}/Sales`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'x-tenant': 'ACME', 'content-type': 'application/json' },
      body: JSON.stringify({ sales: [sale('CLI1'), sale('CLI2', undefined, { currencyCode: 'USD' })] }),
    });
    expect(post.status).toBe(200);
  });

  it('shows the request log and the lint of the served workspace', async () => {
    const log = await run(process.execPath, [BIN, 'log', '-w', join(dir, 'ws'), '-n', '5'], { encoding: 'utf8' });
    expect(log.stdout).toMatch(/200 POST {3}\/Sales .* — 2 records/);
    const lint = await run(process.execPath, [BIN, 'lint', '-w', join(dir, 'ws')], { encoding: 'utf8' });
    expect(lint.stdout).toMatch(/FAIL currency-not-local \(1\)/);
    expect(lint.stdout).toContain('Sales CLI2: currencyCode "USD"');
  });

  it('writes the OpenAPI document', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'openapi'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const doc = JSON.parse(stdout);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/Items'].post).toBeDefined();
    expect(doc.servers).toEqual([{ url: 'http://127.0.0.1:8080', description: 'This local API' }]);
    const at = await run(process.execPath, [BIN, 'openapi', '--url', 'http://localhost:9100'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(JSON.parse(at.stdout).servers[0].url).toBe('http://localhost:9100');
  });

  it('removes its discovery file when stopped', async () => {
    const other = mkdtempSync(join(tmpdir(), 'wb-serve2-'));
    const secret = 'chosen-by-the-user';
    const p = spawn(process.execPath, [BIN, 'serve', '-w', other, '--port', '0', '--client-secret', secret], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    p.stdout!.on('data', (d) => (text += d));
    await printed(p, /listening on/);
    // A secret given is not printed (the try: line asks for it instead).
    expect(text).not.toMatch(/client secret \S+ \(kept/);
    expect(text).not.toMatch(/\bgiven\b/);
    expect(text).toMatch(/^try: read -rs/m);
    expect(existsSync(join(other, 'server.json'))).toBe(true);
    p.kill('SIGINT');
    await new Promise((r) => p.once('exit', r));
    expect(existsSync(join(other, 'server.json'))).toBe(false);
    rmSync(other, { recursive: true, force: true });
  });
});
