/**
 * The Electron app's bridge to the workbench, in plain Node: from the sources, and from the built main bundle,
 * which must carry the backtest's worker threads with it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBridge, type Bridge } from '../src-main/bridge';

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'workbench.mjs');
const dir = mkdtempSync(join(tmpdir(), 'wb-bridge-'));

beforeAll(() => {
  for (const ws of ['src', 'built']) execFileSync(process.execPath, [BIN, 'load', '-q', '-w', join(dir, ws), join(ROOT, 'samples', 'demo')]);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('desktop bridge', () => {
  it('answers the renderer\'s calls with the admin API\'s routes and refuses anything else', async () => {
    const bridge = await openBridge(join(dir, 'src'));
    try {
      const summary = await bridge.invoke({ method: 'GET', path: 'summary' });
      expect(summary.status).toBe(200);
      expect((summary.body as { dataset: string; live: number }[]).find((d) => d.dataset === 'Sales')?.live).toBe(10418);

      const bad = await bridge.invoke({ method: 'PUT', path: 'scenarios/lean', body: { defaults: { serviceLevel: 2 } } });
      expect(bad.status).toBe(400);
      expect((bad.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(['/defaults/serviceLevel']);
      expect((await bridge.invoke({ method: 'GET', path: 'scenarios/lean' })).status).toBe(404);
      // The UI learns the scenario runs use when none is named from the workbench, not from a constant of its own.
      expect((await bridge.invoke({ method: 'GET', path: 'scenarios' })).body).toMatchObject({ scenarios: [], defaultScenario: 'default' });
      // No port in the app: no address and no token command to show.
      const integration = (await bridge.invoke({ method: 'GET', path: 'integration' })).body as Record<string, unknown>;
      expect(integration).toMatchObject({ tenant: 'DEMO', clientId: 'workbench' });
      expect(integration).not.toHaveProperty('url');
      expect(integration).not.toHaveProperty('curl');

      for (const call of [
        { method: 'DELETE', path: 'state' },
        { method: 'GET', path: '../Token' },
        { method: 'POST', path: '%2e%2e/Items', body: { items: [] } },
        { method: 'POST', path: 'x/%2E%2E/%2e%2E/Token' },
        { method: 'GET', path: 'http://example.com/' },
        { method: 'GET' },
        null,
      ]) {
        const r = await bridge.invoke(call);
        expect(r.status, JSON.stringify(call)).toBe(400);
        expect((r.body as { detail: string }).detail).toMatch(/a call (is one of GET, POST, PUT|names a path)/);
      }
      expect((await bridge.invoke({ method: 'GET', path: 'summary' })).status).toBe(200);
      expect((await bridge.invoke({ method: 'GET', path: 'nothing-here' })).status).toBe(404);
    } finally {
      await bridge.close();
    }
    // Released: the workspace opens again.
    await (await openBridge(join(dir, 'src'))).close();
  });

  it('runs a backtest from the built main bundle, with its worker threads', async () => {
    const built = join(ROOT, 'out', 'main', 'bridge.mjs');
    if (!existsSync(built)) execFileSync(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: ROOT, stdio: 'ignore' });
    const { openBridge: openBuilt } = (await import(pathToFileURL(built).href)) as { openBridge: typeof openBridge };
    const bridge: Bridge = await openBuilt(join(dir, 'built'));
    try {
      const r = await bridge.invoke({ method: 'POST', path: 'backtests', body: { from: '2025-03-03', to: '2025-03-16' } });
      expect(r.status).toBe(200);
      const body = r.body as { run: { status: string }; daily: unknown[]; summary: { simulated: { activeDays: number } } };
      expect(body.run.status).toBe('completed');
      expect(body.daily).toHaveLength(14);
      expect(body.summary.simulated.activeDays).toBeGreaterThan(0);
    } finally {
      await bridge.close();
    }
  }, 120_000);
});
