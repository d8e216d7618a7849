/**
 * Security of the local API, each against a real server: loopback by default, tokens that expire, no secret or
 * token in any log, bounded log entries, workspaces isolated by tenant, and no path from a request that reaches
 * outside its folder.
 */
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Workbench } from '../engine/service/workbench.js';
import { BODY_EXCERPT_CHARS, LOGGED_TEXT_CHARS, MAX_LOGGED_PROBLEMS } from '../engine/service/request-log.js';
import { listen } from '../engine/server/serve.js';
import { REDACTED } from '../engine/server/auth.js';
import { openBridge } from '../src-main/bridge.js';
import { manualClock, useTempDirs } from './fixtures.js';
import { testServer, type TestServer } from './api-helpers.js';
import { apiClient, spawnServe } from './serve-process.js';

const tempDir = useTempDirs('wb-sec-');
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(options: Parameters<typeof testServer>[0] = {}): Promise<TestServer> {
  const s = await testServer(options);
  servers.push(s);
  return s;
}

/** A request sent byte for byte as written: no client-side clean-up of `..` or percent escapes. */
function rawGet(url: string, path: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: 'GET' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const tokenForm = (tenant: string, clientId: string, secret: string) =>
  new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }).toString();

describe('binding', () => {
  it('listens on the loopback interface only, unless told otherwise', async () => {
    const s = await serve();
    const address = s.server.app.server.address();
    expect(typeof address === 'object' && address?.address).toBe('127.0.0.1');
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = new URL(s.url).port;
    // From this machine's other addresses the port is closed.
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal && i.family === 'IPv4')
      .map((i) => i!.address);
    for (const ip of others) await expect(fetch(`http://${ip}:${port}/openapi.json`)).rejects.toThrow();
  });
});

describe('tokens', () => {
  it('expire after their lifetime by the workbench clock, and a fresh one works', async () => {
    const clock = manualClock();
    const wb = await Workbench.open(tempDir(), { clock });
    const served = await listen(wb, { port: 0, clientSecret: 'clock-secret-value', tokenLifetimeSeconds: 600 });
    try {
      const api = apiClient(served.info.url, served.info);
      const summary = (token: string) =>
        fetch(`${served.info.url}/_workbench/summary`, {
          headers: { authorization: `Bearer ${token}`, 'x-tenant': served.info.tenant },
        });
      const token = await api.token();
      clock.advanceMinutes(9);
      expect((await summary(token)).status).toBe(200);
      clock.advanceMinutes(1);
      const expired = await summary(token);
      expect(expired.status).toBe(401);
      expect(((await expired.json()) as { detail: string }).detail).toMatch(/expired/);
      // Expired stays expired, even on the next call.
      expect((await summary(token)).status).toBe(401);
      expect((await summary(await api.token())).status).toBe(200);
    } finally {
      await served.stop();
      await wb.close();
    }
  });
});

describe('secrets in logs', () => {
  // A secret with every character that JSON, query strings and forms encode differently.
  const SECRET = 'Sx9+/=&q"w\\e%ZZ-long-secret-0123 !';

  const secretsTitle =
    'keeps the client secret and every token out of the request log, the stored log, the lint and the console';
  it(secretsTitle, async () => {
    const printed: string[] = [];
    const capture = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation(capture),
    );
    const s = await serve({ clientSecret: SECRET });
    try {
      const { tenant, clientId } = s.server.info;
      const formToken = await s.token();
      // A token asked for in JSON: the body as the client sends it, with `fields` in it (a wrong secret, say).
      const jsonTokenAsk = (fields: Record<string, string> = {}): RequestInit => ({
        method: 'POST',
        headers: { 'x-tenant': tenant, 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: SECRET,
          ...fields,
        }),
      });
      const jsonRes = await fetch(`${s.url}/token`, jsonTokenAsk());
      const jsonToken = ((await jsonRes.json()) as { access_token: string }).access_token;
      const auth = { authorization: `Bearer ${formToken}`, 'x-tenant': tenant };
      const enc = encodeURIComponent;
      const sent: { path: string; init?: RequestInit }[] = [
        // Token requests, spelled and encoded every way the router still takes them.
        {
          path: `/Token?client_secret=${enc(SECRET)}&client_id=${clientId}`,
          init: {
            method: 'POST',
            headers: { 'x-tenant': tenant, 'content-type': 'application/x-www-form-urlencoded' },
            body: tokenForm(tenant, clientId, SECRET),
          },
        },
        { path: '/%54oken', init: jsonTokenAsk() },
        { path: '/v1/T%6Fken/', init: jsonTokenAsk({ client_secret: `${SECRET}-wrong` }) },
        // A mistyped token path is a 404, whose body the log would keep.
        { path: '/Tokne', init: jsonTokenAsk({ password: 'hunter22' }) },
        // Secrets and tokens in query strings, under any name, and in the path.
        { path: `/Recommendations/transfers?access_token=${formToken}&Limit=5`, init: { headers: auth } },
        { path: `/Recommendations/transfers?q=${enc(SECRET)}&r=x${jsonToken}y`, init: { headers: auth } },
        { path: `/_workbench/data/Brands/${enc(SECRET)}`, init: { headers: auth } },
        { path: `/nothing/${jsonToken}`, init: { headers: auth } },
        // A path the router cannot read is answered and logged all the same.
        { path: `/%ff/${jsonToken}`, init: { headers: auth } },
        // The secret as the tenant, a token as a Basic credential.
        {
          path: '/Recommendations/transfers',
          init: { headers: { authorization: `Bearer ${formToken}`, 'x-tenant': SECRET } },
        },
        {
          path: '/Recommendations/transfers',
          init: {
            headers: {
              authorization: `Basic ${Buffer.from(`${clientId}:${SECRET}`).toString('base64')}`,
              'x-tenant': tenant,
            },
          },
        },
        // Secrets in JSON bodies of other endpoints: a field value quoted in an error, a token as a field name.
        {
          path: '/Sales',
          init: {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({
              sales: [{ salesId: 'S1', salesDateTime: SECRET.slice(0, 30), client_secret: SECRET }],
            }),
          },
        },
        {
          path: '/Brands',
          init: {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ brands: [{ brandId: 'B1', code: 'B', [jsonToken]: 1 }], [SECRET]: true }),
          },
        },
      ];
      for (const r of sent) {
        const res = await fetch(s.url + r.path, r.init);
        expect(res.status, r.path).toBeLessThan(500);
      }

      const secrets = [
        SECRET,
        enc(SECRET),
        new URLSearchParams({ s: SECRET }).toString().slice(2),
        JSON.stringify(SECRET).slice(1, -1),
        formToken,
        jsonToken,
        'hunter22',
      ];
      const logText = (await s.call('GET', '/_workbench/log?limit=10000')).text;
      const stored = JSON.stringify(await s.server.workbench.workspace.rows('SELECT * FROM request_log'), (_k, v) =>
        typeof v === 'bigint' ? Number(v) : v,
      );
      const lintText = (await s.call('GET', '/_workbench/lint')).text;
      for (const [where, text] of [
        ['request log', logText],
        ['stored log', stored],
        ['lint', lintText],
        ['console', printed.join('\n')],
      ] as const) {
        for (const secret of secrets)
          expect(text.includes(secret), `${where} holds ${secret.slice(0, 12)}…`).toBe(false);
      }
      // The log still tells what happened, with the secrets taken out.
      const entries = JSON.parse(logText).entries as {
        path: string;
        status: number;
        query?: string;
        bodyExcerpt?: string;
        responseExcerpt?: string;
        warnings: { message: string }[];
      }[];
      expect(entries.length).toBeGreaterThanOrEqual(sent.length);
      expect(
        entries.find((e) => e.path === '/Recommendations/transfers' && e.query?.startsWith('access_token='))?.query,
      ).toBe(`access_token=${REDACTED}&Limit=5`);
      expect(entries.find((e) => e.path === '/Tokne')?.bodyExcerpt).toContain(`"client_secret":"${REDACTED}"`);
      expect(entries.find((e) => e.path === `/nothing/${REDACTED}`)).toBeDefined();
      expect(entries.find((e) => e.path === `/%ff/${REDACTED}`)).toMatchObject({ status: 400 });
      expect(entries.find((e) => e.path === '/Brands')?.warnings.map((w) => w.message)).toContain(
        `unknown field "${REDACTED}" ignored`,
      );
      expect(
        entries
          .filter((e) => /^\/(v1\/)?(token|%54oken|T%6Fken)/i.test(e.path))
          .every((e) => e.bodyExcerpt === undefined && e.query === undefined && e.responseExcerpt === undefined),
      ).toBe(true);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('keeps an expired token out of the log too', async () => {
    const clock = manualClock();
    const wb = await Workbench.open(tempDir(), { clock });
    const served = await listen(wb, { port: 0, clientSecret: 'clock-secret-value', tokenLifetimeSeconds: 60 });
    try {
      const token = await apiClient(served.info.url, served.info).token();
      clock.advanceMinutes(2);
      const res = await fetch(`${served.info.url}/Recommendations/transfers?t=${token}`, {
        headers: { authorization: `Bearer ${token}`, 'x-tenant': served.info.tenant },
      });
      expect(res.status).toBe(401);
      const log = await wb.requestLog({ limit: 100 });
      expect(log.at(-1)?.query).toBe(`t=${REDACTED}`);
      expect(JSON.stringify(log)).not.toContain(token);
    } finally {
      await served.stop();
      await wb.close();
    }
  });

  it('prints no secret or token from `workbench serve` while it answers', async () => {
    const credentials = { tenant: 'DEMO', clientId: 'workbench', clientSecret: 'cli-secret-0123456789-abcdef' };
    const proc = await spawnServe(tempDir(), credentials);
    try {
      // Loopback unless told otherwise, from the command line too.
      expect(proc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const api = apiClient(proc.url, credentials);
      const token = await api.token();
      expect(
        (await api.call('GET', `/Recommendations/transfers?client_secret=${credentials.clientSecret}&x=${token}`))
          .status,
      ).toBe(200);
      expect(
        (
          await api.call('POST', '/Brands', `{"brands":[{"brandId":"${token}"}]}`, {
            'content-type': 'application/json',
          })
        ).status,
      ).toBe(400);
      expect((await api.call('GET', '/%ff')).status).toBe(400);
      expect(proc.output()).toMatch(/listening on/);
      // The try: line asks for a secret its user chose rather than printing it, and still runs as pasted.
      const tryLine = /^try: (.*)$/m.exec(proc.output())![1];
      const tried = spawnSync('bash', ['-c', tryLine], { input: `${credentials.clientSecret}\n`, encoding: 'utf8' });
      expect(JSON.parse(tried.stdout.trim())).toMatchObject({ token_type: 'Bearer' });
      expect(proc.output()).not.toContain(credentials.clientSecret);
      expect(proc.output()).not.toContain(token);
    } finally {
      await proc.stop('SIGTERM');
    }
  });
});

describe('log bounds', () => {
  it('keeps at most the excerpt of a 10 MB body, and bounded problems however long the ids and names', async () => {
    const s = await serve();
    const pad = 'p'.repeat(10 << 20);
    const huge = await s.call('POST', '/Brands', `{"brands":[{"brandId":null,"pad":"${pad}"}]}`, {
      'content-type': 'application/json',
    });
    expect(huge.status).toBe(400);
    const mb = 'i'.repeat(1 << 20);
    const ids = await s.call(
      'POST',
      '/Items',
      JSON.stringify({
        items: [{ itemId: mb, skus: Array.from({ length: 500 }, () => ({})) }],
        [mb.replace(/i/g, 'k')]: 1,
      }),
      { 'content-type': 'application/json' },
    );
    expect(ids.status).toBe(400);
    expect(ids.json.errorCount).toBeGreaterThan(MAX_LOGGED_PROBLEMS);

    const [first, second] = (await s.call('GET', '/_workbench/log?limit=2')).json.entries as {
      bodyExcerpt: string;
      errors: unknown[];
      warnings: unknown[];
      errorCount: number;
    }[];
    expect(first.bodyExcerpt.length).toBe(BODY_EXCERPT_CHARS);
    expect(pad.startsWith(first.bodyExcerpt.slice('{"brands":[{"brandId":null,"pad":"'.length))).toBe(true);
    // Every kept text is cut to its bound (plus the note of how long it was); the count stays exact.
    const textBound = LOGGED_TEXT_CHARS + ' (1048576 characters)…'.length + 20;
    expect(second.errorCount).toBe(ids.json.errorCount);
    expect(second.errors).toHaveLength(MAX_LOGGED_PROBLEMS);
    for (const p of [...second.errors, ...second.warnings] as Record<string, string>[]) {
      for (const text of Object.values(p)) expect(text.length).toBeLessThanOrEqual(textBound);
    }
    const entryBound = BODY_EXCERPT_CHARS + 2 * MAX_LOGGED_PROBLEMS * 3 * (textBound + 20) + 2000;
    expect(JSON.stringify(second).length).toBeLessThan(entryBound);
    const [row] = await s.server.workbench.workspace.rows(
      'SELECT length(errors) + length(warnings) + length(bodyExcerpt) AS n FROM request_log ORDER BY id DESC LIMIT 1',
    );
    expect(Number(row.n)).toBeLessThan(entryBound);
  });
});

describe('two workspaces served at once', () => {
  const tenantsTitle =
    'are isolated by tenant: a token of one is refused by the other, and data sent to one is absent in the other';
  it(tenantsTitle, async () => {
    const acme = await serve({ tenant: 'ACME', clientSecret: 'acme-secret-value' });
    const globex = await serve({ tenant: 'GLOBEX', clientSecret: 'globex-secret-value' });
    const acmeToken = await acme.token();
    const globexToken = await globex.token();
    for (const [tenant, token] of [
      ['ACME', acmeToken],
      ['GLOBEX', acmeToken],
      ['ACME', globexToken],
    ] as const) {
      const server = token === acmeToken ? globex : acme;
      const res = await fetch(`${server.url}/_workbench/summary`, {
        headers: { authorization: `Bearer ${token}`, 'x-tenant': tenant },
      });
      expect(res.status, `${tenant} token on the other server`).toBe(401);
    }
    // Each server's client secret is its own: ACME's does not get a GLOBEX token.
    const cross = await fetch(`${globex.url}/Token`, {
      method: 'POST',
      headers: { 'x-tenant': 'GLOBEX', 'content-type': 'application/x-www-form-urlencoded' },
      body: tokenForm('GLOBEX', 'workbench', 'acme-secret-value'),
    });
    expect(cross.status).toBe(401);

    expect((await acme.call('POST', '/Brands', { brands: [{ brandId: 'ACME-ONLY', code: 'A' }] })).status).toBe(200);
    expect((await globex.call('POST', '/Brands', { brands: [{ brandId: 'GLOBEX-ONLY', code: 'G' }] })).status).toBe(
      200,
    );
    expect((await acme.call('GET', '/_workbench/data/Brands/ACME-ONLY')).status).toBe(200);
    expect((await globex.call('GET', '/_workbench/data/Brands/ACME-ONLY')).status).toBe(404);
    expect((await acme.call('GET', '/_workbench/data/Brands/GLOBEX-ONLY')).status).toBe(404);
    expect(
      (await globex.call('GET', '/_workbench/data/Brands')).json.records.map((b: { brandId: string }) => b.brandId),
    ).toEqual(['GLOBEX-ONLY']);
    // Nor does one's request log show the other's calls.
    const acmeLog = (await acme.call('GET', '/_workbench/log')).json.entries as { tenant?: string }[];
    expect(acmeLog.length).toBeGreaterThan(0);
    expect(acmeLog.every((e) => e.tenant !== 'GLOBEX')).toBe(true);
  });
});

describe('paths from requests', () => {
  it('load?file=NAME takes the name to pick the endpoint and never opens a file', async () => {
    const s = await serve();
    const outside = tempDir();
    // A file an escaping name would reach, holding records that must never load.
    writeFileSync(join(outside, 'Brands.json'), JSON.stringify({ brands: [{ brandId: 'LEAKED', code: 'L' }] }));
    const rel = join('..', '..', '..', '..', '..', '..', outside, 'Brands.json');
    for (const name of [
      join(outside, 'Brands.json'),
      rel,
      rel.replace(/\//g, '\\'),
      `file://${join(outside, 'Brands.json')}`,
    ]) {
      const empty = await s.call('POST', `/_workbench/load?file=${encodeURIComponent(name)}`, {});
      // The name says Brands (or, with Windows separators, nothing); the body holds none: refused, and nothing
      // read from the file named.
      expect(empty.status, name).toBe(400);
      expect(empty.json.detail, name).toMatch(/brands: is required|cannot tell which endpoint/);
    }
    const fromBody = await s.call('POST', `/_workbench/load?file=${encodeURIComponent(rel)}`, {
      brands: [{ brandId: 'FROM-BODY', code: 'B' }],
    });
    expect(fromBody.status).toBe(200);
    expect(fromBody.json).toMatchObject({ dataset: 'Brands', received: 1 });
    for (const name of ['../../../../etc/passwd', '/etc/passwd', '..%2F..%2Fetc%2Fpasswd', 'C:\\Windows\\win.ini']) {
      const r = await s.call('POST', `/_workbench/load?file=${encodeURIComponent(name)}`, {});
      expect(r.status, name).toBe(400);
      expect(r.json.detail, name).toMatch(/cannot tell which endpoint/);
      expect(r.text).not.toMatch(/root:|\[fonts\]/);
    }
    expect(
      (await s.call('GET', '/_workbench/data/Brands')).json.records.map((b: { brandId: string }) => b.brandId),
    ).toEqual(['FROM-BODY']);
  });

  it('browser mode serves nothing outside the renderer folder, however the path is spelled', async () => {
    const base = tempDir();
    const ui = join(base, 'renderer');
    mkdirSync(join(ui, 'assets'), { recursive: true });
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>ui</title>');
    writeFileSync(join(ui, 'assets', 'app.js'), 'console.log("ui")');
    writeFileSync(join(base, 'secret.txt'), 'TOP-SECRET-OUTSIDE');
    // A sibling whose name starts like the renderer folder's.
    mkdirSync(join(base, 'renderer-evil'));
    writeFileSync(join(base, 'renderer-evil', 'x.txt'), 'TOP-SECRET-SIBLING');
    const s = await serve({ uiRoot: ui });
    expect((await rawGet(s.url, '/assets/app.js')).status).toBe(200);
    const escapes = [
      '/assets/../../secret.txt',
      '/assets/../secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/%2E%2E%2F%2E%2E%2Fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/assets/..\\..\\secret.txt',
      '/assets/%252e%252e/%252e%252e/secret.txt',
      '/assets/....//....//secret.txt',
      `/assets/${encodeURIComponent(join(base, 'secret.txt'))}`,
      `/assets//${join(base, 'secret.txt').slice(1)}`,
      '/assets/../../renderer-evil/x.txt',
      '/assets/..%2f..%2frenderer-evil%2fx.txt',
      '/assets/%2e%2e%2f%2e%2e%2frenderer-evil%2fx.txt',
      '/assets/%00../../secret.txt',
      '/assets/..%00/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%c0%ae%c0%ae/secret.txt',
    ];
    for (const path of escapes) {
      const r = await rawGet(s.url, path);
      expect([400, 404], path).toContain(r.status);
      expect(r.text, path).not.toMatch(/TOP-SECRET/);
    }
  });

  it('the desktop bridge refuses every way out of the admin API', async () => {
    const home = tempDir();
    const bridge = await openBridge(join(home, 'ws'), { home });
    try {
      expect((await bridge.invoke({ method: 'GET', path: 'summary' })).status).toBe(200);
      // openapi.json answers 200 to anyone outside /_workbench/: reaching it would show.
      const ways = [
        '../openapi.json',
        '.%2e/openapi.json',
        '%2e./openapi.json',
        '%2E%2E/openapi.json',
        '..%2fopenapi.json',
        'x/..%2F..%2Fopenapi.json',
        '..\\openapi.json',
        '%5c..%5copenapi.json',
        '.\t./openapi.json',
        './../openapi.json',
        'data/%2e%2e/%2e%2e/openapi.json',
        'summary/../../openapi.json',
        'summary?x=/../../openapi.json',
        '%252e%252e/openapi.json',
        '//localhost/openapi.json',
        'http://localhost/openapi.json',
        '\u2025/openapi.json',
        '\uff0e\uff0e/openapi.json',
        '../Token',
        '%2e%2e/Token',
      ];
      for (const path of ways) {
        const r = await bridge.invoke({ method: 'GET', path });
        const body = r.body as { title?: string; instance?: string; openapi?: string };
        expect(body?.openapi, path).toBeUndefined();
        if (r.status === 400) expect(body.title, path).toBe('Refused by the app');
        else {
          expect(r.status, path).toBe(404);
          expect(body.instance, path).toMatch(/^\/_workbench\//);
        }
      }
    } finally {
      await bridge.close();
    }
  });
});
