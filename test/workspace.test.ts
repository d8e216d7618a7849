import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { Workbench } from '../engine/service/workbench.js';
import { DATABASE_FILE } from '../engine/store/workspace.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../engine/store/migrations.js';
import { item, useTempDirs } from './fixtures.js';

const tempDir = useTempDirs('wb-ws-');

/** Changes a closed workspace's file directly, as an older or newer release would have left it. */
async function tamper(dir: string, sql: string): Promise<void> {
  const inst = await DuckDBInstance.create(join(dir, DATABASE_FILE));
  const conn = await inst.connect();
  await conn.run(sql);
  conn.closeSync();
  inst.closeSync();
}

/** Opens the workspace at `dir` from a child process: what it prints, `opened` or the reason it could not. */
function openInAnotherProcess(dir: string): string {
  const script =
    `import { Workbench } from './engine/service/workbench.ts';
    try { await Workbench.open(${JSON.stringify(dir)}); console.log('opened'); ` +
    '} catch (e) { console.log(e.message); }';
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: process.cwd(),
    encoding: 'utf8',
  });
}

describe('workspace', () => {
  it('applies the migrations once and records them', async () => {
    const dir = tempDir();
    const wb = await Workbench.open(dir);
    const rows = await wb.workspace.rows('SELECT version, description FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await wb.workspace.schemaVersion()).toBe(SCHEMA_VERSION);
    await wb.close();
    const again = await Workbench.open(dir);
    expect((await again.workspace.rows('SELECT count(*)::INTEGER AS n FROM schema_migrations'))[0].n).toBe(
      MIGRATIONS.length,
    );
    await again.close();
  });

  it('keeps what was written across close and reopen', async () => {
    const dir = tempDir();
    const wb = await Workbench.open(dir);
    await wb.ingest('Items', { items: [item('I1', ['A', 'B'])] });
    await wb.close();
    const again = await Workbench.open(dir);
    expect((await again.read('Items', 'I1'))!.skus).toHaveLength(2);
    await again.close();
  });

  it('writes its log into its tables once it falls idle, not within a call, and stays open', async () => {
    const dir = tempDir();
    const wb = await Workbench.open(dir);
    const wal = join(dir, `${DATABASE_FILE}.wal`);
    const walBytes = () => (existsSync(wal) ? statSync(wal).size : 0);
    await wb.ingest('Items', { items: [item('I1', ['A', 'B'])] });
    // Nothing can have run between the call's answer and this line: the call left its log for the idle moment.
    expect(walBytes()).toBeGreaterThan(0);
    await vi.waitFor(() => expect(walBytes()).toBe(0), { timeout: 60_000, interval: 20 });
    await wb.ingest('Items', { items: [item('I2', ['C'])] });
    expect((await wb.read('Items', 'I1'))!.skus).toHaveLength(2);
    await wb.close();
    const again = await Workbench.open(dir);
    expect((await again.read('Items', 'I2'))!.skus).toHaveLength(1);
    await again.close();
  });

  it('has exactly one owner inside a process', async () => {
    const dir = tempDir();
    const wb = await Workbench.open(dir);
    await expect(Workbench.open(dir)).rejects.toThrow(/already open in this process/);
    await expect(Workbench.open(join(dir, '.', '..', dir.split('/').pop()!))).rejects.toThrow(/already open/);
    await wb.close();
    const again = await Workbench.open(dir);
    await again.close();
  });

  it('has exactly one owner across processes', async () => {
    const dir = tempDir();
    const wb = await Workbench.open(dir);
    const out = openInAnotherProcess(dir);
    expect(out).toMatch(/in use by another process/);
    await wb.close();
  });

  it('refuses a workspace written by a newer release', async () => {
    const dir = tempDir();
    await (await Workbench.open(dir)).close();
    await tamper(dir, `INSERT INTO schema_migrations VALUES (${SCHEMA_VERSION + 1}, 'future', now()::TIMESTAMP)`);
    await expect(Workbench.open(dir)).rejects.toThrow(/newer than this release/);
    // A refused open leaves the workspace free for the next owner, in another process too: its lock is let go.
    const out = openInAnotherProcess(dir);
    expect(out).toMatch(/newer than this release/);
    await tamper(dir, `DELETE FROM schema_migrations WHERE version > ${SCHEMA_VERSION}`);
    await (await Workbench.open(dir)).close();
  });

  it('refuses a workspace whose tables do not match the schemas', async () => {
    const dir = tempDir();
    await (await Workbench.open(dir)).close();
    await tamper(dir, 'ALTER TABLE sales__salesLines DROP COLUMN costPrice');
    await expect(Workbench.open(dir)).rejects.toThrow(
      /sales__salesLines\.costPrice: the schemas changed without a migration/,
    );
  });

  it("refuses a workspace whose backtest tables lack a KPI's column, or hold it out of order", async () => {
    const dir = tempDir();
    await (await Workbench.open(dir)).close();
    await tamper(dir, 'ALTER TABLE backtest_groups DROP COLUMN estimatedSales');
    await expect(Workbench.open(dir)).rejects.toThrow(
      /backtest_groups\.estimatedSales: the schemas changed without a migration/,
    );
    // Added back at the end, out of the order runs are written in by position.
    await tamper(dir, 'ALTER TABLE backtest_groups ADD COLUMN estimatedSales DOUBLE');
    await expect(Workbench.open(dir)).rejects.toThrow(
      /backtest_groups\.estimatedSales elsewhere than this release writes it \(after fillRate\)/,
    );
  });

  it('serialises concurrent writes: no batch is lost or interleaved', async () => {
    const dir = tempDir();
    const wb = await Workbench.open(dir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => wb.ingest('Items', { items: [item(`I${i}`, [`I${i}-a`, `I${i}-b`])] })),
    );
    expect((await wb.list('Items', { limit: 100 })).total).toBe(20);
    const [row] = await wb.workspace.rows('SELECT count(*)::INTEGER AS n FROM items__skus');
    expect(row.n).toBe(40);
    await wb.close();
  });
});
