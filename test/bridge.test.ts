import { tableFromIPC } from 'apache-arrow';
/**
 * The Electron app's bridge to the workbench, in plain Node: from the sources, and from the built main bundle,
 * which must carry the backtest's worker threads with it.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspace } from './demo-workspace.js';
import { openBridge, type Bridge } from '../src-main/bridge';

const ROOT = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'wb-bridge-'));

beforeAll(() => {
  for (const ws of ['src', 'built']) demoWorkspace(join(dir, ws));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('desktop bridge', () => {
  it("answers the renderer's calls with the admin API's routes and refuses anything else", async () => {
    const bridge = await openBridge(join(dir, 'src'), { home: dir });
    try {
      const summary = await bridge.invoke({ method: 'GET', path: 'summary' });
      expect(summary.status).toBe(200);
      expect((summary.body as { dataset: string; live: number }[]).find((d) => d.dataset === 'Sales')?.live).toBe(
        10418,
      );

      const bad = await bridge.invoke({
        method: 'PUT',
        path: 'scenarios/lean',
        body: { defaults: { serviceLevel: 2 } },
      });
      expect(bad.status).toBe(400);
      expect((bad.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
        '/defaults/serviceLevel',
      ]);
      expect((await bridge.invoke({ method: 'GET', path: 'scenarios/lean' })).status).toBe(404);
      // The UI learns the scenario runs use when none is named from the workbench, not from a constant of its own.
      expect((await bridge.invoke({ method: 'GET', path: 'scenarios' })).body).toMatchObject({
        scenarios: [],
        defaultScenario: 'default',
      });
      // The transfers list as Arrow columns over IPC too: the same rows as its JSON, the total beside them.
      await bridge.invoke({ method: 'POST', path: 'recommendations/run', body: {} });
      const json = (await bridge.invoke({ method: 'GET', path: 'transfers?limit=50' })).body as {
        proposals: Record<string, unknown>[];
        total: number;
      };
      expect(json.proposals.length).toBeGreaterThan(0);
      const arrow = await bridge.invoke({ method: 'GET', path: 'transfers?limit=50', accept: 'arrow' });
      expect(arrow.body).toBeInstanceOf(Uint8Array);
      expect(arrow.total).toBe(json.total);
      const rows = tableFromIPC(arrow.body as Uint8Array)
        .toArray()
        .map((r) => Object.fromEntries(Object.entries(r.toJSON()).filter(([, v]) => v !== null)));
      expect(rows).toEqual(json.proposals.map((p) => ({ ...p, details: JSON.stringify(p.details) })));

      // No port in the app: no address and no token command to show.
      const integration = (await bridge.invoke({ method: 'GET', path: 'integration' })).body as Record<string, unknown>;
      expect(integration).toMatchObject({ tenant: 'DEMO', clientId: 'workbench' });
      expect(integration).not.toHaveProperty('url');
      expect(integration).not.toHaveProperty('curl');

      for (const call of [
        { method: 'DELETE', path: 'state' },
        { method: 'DELETE', path: 'backtests/../state' },
        { method: 'PATCH', path: 'summary' },
        { method: 'GET', path: '../Token' },
        { method: 'POST', path: '%2e%2e/Items', body: { items: [] } },
        { method: 'POST', path: 'x/%2E%2E/%2e%2E/Token' },
        { method: 'GET', path: 'http://example.com/' },
        { method: 'GET' },
        null,
      ]) {
        const r = await bridge.invoke(call);
        expect(r.status, JSON.stringify(call)).toBe(400);
        expect((r.body as { detail: string }).detail).toMatch(
          /a call (is one of GET, POST, PUT, or a DELETE of a kept run, sweep or scenario|names a path)/,
        );
      }
      expect((await bridge.invoke({ method: 'GET', path: 'summary' })).status).toBe(200);
      expect((await bridge.invoke({ method: 'GET', path: 'nothing-here' })).status).toBe(404);
      // A record id may hold a slash or dots: encoded as the client sends it, it stays one segment of the admin API.
      for (const id of ['L/1', 'L..2', '../up']) {
        const posted = await bridge.invoke({
          method: 'POST',
          path: 'load?file=Locations.json',
          body: { locations: [{ locationId: id, code: 'x', name: `Shop ${id}` }] },
        });
        expect(posted.status, id).toBe(200);
        const read = await bridge.invoke({ method: 'GET', path: `data/Locations/${encodeURIComponent(id)}` });
        expect(read, id).toMatchObject({ status: 200, body: { locationId: id } });
      }
    } finally {
      await bridge.close();
    }
    // Released: the workspace opens again.
    await (await openBridge(join(dir, 'src'), { home: dir })).close();
  });

  const workspacesTitle =
    "creates, lists and opens workspaces by name in its home folder only, and keeps the screens' key across a switch";
  it(workspacesTitle, async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-home-'));
    const opened: string[] = [];
    const bridge = await openBridge(join(dir, 'src'), {
      home,
      recentFile: join(home, 'recent.json'),
      opened: (d) => opened.push(d),
    });
    try {
      const call = async (method: 'GET' | 'POST', path: string, body?: unknown) =>
        bridge.invoke({ method, path, body });
      // Names only: nothing that climbs out of the home folder, or names a path.
      for (const name of ['..', '.', '../escape', 'a/b', '/etc', 'a\\b', '', 'x'.repeat(81), 42]) {
        const r = await call('POST', 'workspaces', { name });
        expect(r.status, String(name)).toBe(400);
        expect((r.body as { detail: string }).detail).toMatch(/a workspace name is 1 to 80 letters/);
      }
      expect(readdirSync(home).filter((f) => f !== 'recent.json')).toEqual([]);
      // A path is taken only when the app opened it before (chosen in its own folder dialog).
      expect((await call('POST', 'workspaces/open', { path: join(dir, 'built') })).status).toBe(400);
      expect((await call('POST', 'workspaces/open', { name: 'absent' })).status).toBe(404);

      const created = await call('POST', 'workspaces', { name: 'spring' });
      expect(created).toMatchObject({ status: 200, body: { name: 'spring', path: join(home, 'spring') } });
      // The next call is answered by the new, empty workspace.
      const summary = (await call('GET', 'summary')).body as { live: number }[];
      expect(summary.every((d) => d.live === 0)).toBe(true);
      expect(bridge.workspace).toBe(join(home, 'spring'));
      expect((await call('POST', 'workspaces', { name: 'spring' })).status).toBe(409);

      const view = (await call('GET', 'workspaces')).body as {
        home: string;
        current: { name: string; tenant: string };
        workspaces: { name: string; path: string; lastOpened?: string }[];
      };
      expect(view.home).toBe(home);
      expect(view.current).toMatchObject({ name: 'spring', tenant: 'DEMO' });
      // The one opened before, outside the home folder, is on the recent list, and opens again by its path.
      expect(view.workspaces.map((w) => w.path)).toEqual([join(home, 'spring'), join(dir, 'src')]);
      expect((await call('POST', 'workspaces/open', { path: join(dir, 'src') })).status).toBe(200);
      expect(
        ((await call('GET', 'summary')).body as { dataset: string; live: number }[]).find((d) => d.dataset === 'Sales')
          ?.live,
      ).toBe(10418);
      expect(opened).toEqual([join(dir, 'src'), join(home, 'spring'), join(dir, 'src')]);
    } finally {
      await bridge.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  const localApiTitle =
    "starts and stops a local API on loopback for an integrator's client, which writes to the open workspace";
  it(localApiTitle, async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-home-'));
    const bridge = await openBridge(join(dir, 'src'), { home });
    try {
      expect((await bridge.invoke({ method: 'GET', path: 'listener' })).body).toEqual({
        listening: false,
        tenant: 'DEMO',
        clientId: 'workbench',
      });
      expect((await bridge.invoke({ method: 'POST', path: 'listener/start', body: { port: 70_000 } })).status).toBe(
        400,
      );
      expect(
        (await bridge.invoke({ method: 'POST', path: 'listener/start', body: { port: 0, tenant: '../x' } })).status,
      ).toBe(400);
      const started = await bridge.invoke({
        method: 'POST',
        path: 'listener/start',
        body: { port: 0, tenant: 'ACME' },
      });
      expect(started.status).toBe(200);
      const api = started.body as {
        listening: boolean;
        url: string;
        tenant: string;
        clientId: string;
        clientSecret: string;
        curl: string;
      };
      expect(api).toMatchObject({ listening: true, tenant: 'ACME', clientId: 'workbench' });
      expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(api.curl).toContain(`${api.url}/Token -H 'X-Tenant: ACME'`);
      expect((await bridge.invoke({ method: 'POST', path: 'listener/start', body: { port: 0 } })).status).toBe(409);

      const token = (await (
        await fetch(`${api.url}/Token`, {
          method: 'POST',
          headers: { 'x-tenant': 'ACME', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: api.clientId,
            client_secret: api.clientSecret,
          }),
        })
      ).json()) as { access_token: string };
      const posted = await fetch(`${api.url}/Brands`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token.access_token}`,
          'x-tenant': 'ACME',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ brands: [{ brandId: 'BR-LISTENER', code: 'LST' }] }),
      });
      expect(posted.status).toBe(200);
      // The screens see the client's write and its request in the log.
      expect((await bridge.invoke({ method: 'GET', path: 'data/Brands/BR-LISTENER' })).status).toBe(200);
      const log = (await bridge.invoke({ method: 'GET', path: 'log?limit=20' })).body as {
        entries: { path: string; status: number }[];
      };
      expect(log.entries.some((e) => e.path === '/Brands' && e.status === 200)).toBe(true);

      expect((await bridge.invoke({ method: 'POST', path: 'listener/stop', body: {} })).body).toMatchObject({
        listening: false,
      });
      await expect(fetch(`${api.url}/openapi.json`)).rejects.toThrow();
    } finally {
      await bridge.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('runs a backtest from the built main bundle, with its worker threads', async () => {
    // Built from the sources as they are by the suite's global setup (build-stamp.ts).
    const built = join(ROOT, 'out', 'main', 'bridge.mjs');
    const { openBridge: openBuilt } = (await import(pathToFileURL(built).href)) as { openBridge: typeof openBridge };
    const bridge: Bridge = await openBuilt(join(dir, 'built'), { home: dir });
    try {
      const r = await bridge.invoke({
        method: 'POST',
        path: 'backtests',
        body: { from: '2025-03-03', to: '2025-03-16' },
      });
      expect(r.status).toBe(200);
      const body = r.body as {
        run: { status: string };
        daily: unknown[];
        summary: { simulated: { carriedDays: number } };
      };
      expect(body.run.status).toBe('completed');
      expect(body.daily).toHaveLength(14);
      expect(body.summary.simulated.carriedDays).toBeGreaterThan(0);
    } finally {
      await bridge.close();
    }
  });
});
