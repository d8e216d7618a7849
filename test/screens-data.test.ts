/**
 * What the screens read beside the figures, through the admin API: the demo loaded into an empty workspace, the
 * business names beside the ids with the workspace's currency, and a run's label and note kept with it.
 */
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Workbench } from '../engine/service/workbench.js';
import { DATABASE_FILE } from '../engine/store/workspace.js';
import { SCHEMA_VERSION } from '../engine/store/migrations.js';
import { transfersAsText } from './schema-history.js';
import { testServer, type TestServer } from './api-helpers.js';
import { item, useTempDirs } from './fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await testServer();
});
afterAll(async () => t.close());

/** A background job followed to its end. */
async function finished(path: string, job: { jobId: string; status: string }) {
  let j = job;
  while (j.status === 'running') {
    await new Promise((r) => setTimeout(r, 100));
    j = (await t.call('GET', `/_workbench/${path}/${j.jobId}`)).json;
  }
  return j as { status: string; report?: { records: number; rejected: number } };
}

describe('the demo, the names and the labels the screens show', () => {
  it('loads the demo into the empty workspace, and refuses to mix it into one that holds data', async () => {
    const start = await t.call('POST', '/_workbench/load/demo');
    expect(start.status).toBe(200);
    const job = await finished('load/jobs', start.json);
    expect(job.status).toBe('completed');
    expect(job.report).toMatchObject({ rejected: 0 });
    const sales = (await t.call('GET', '/_workbench/summary')).json.find((s: any) => s.dataset === 'Sales');
    expect(sales.live).toBe(10_418);
    const again = await t.call('POST', '/_workbench/load/demo');
    expect(again.status).toBe(409);
    expect(again.json.detail).toMatch(/^the workspace holds data already \(.*\): the demo loads into an empty/);
  }, 60_000);

  it("names every location and style beside its id, with the workspace's currency", async () => {
    const names = (await t.call('GET', '/_workbench/names')).json;
    expect(names.currency).toBe('LOCAL');
    expect(names.locations).toContainEqual(
      expect.objectContaining({ id: 'ST-005', name: 'Nordvik Ede', kind: 'store' }),
    );
    expect(names.locations.find((l: any) => l.id === 'WH-01').kind).toBe('warehouse');
    const style = names.styles[0];
    expect(style).toMatchObject({
      id: expect.any(String),
      description: expect.any(String),
      color: expect.any(String),
      categoryId: expect.any(String),
      category: expect.any(String),
    });
    expect(names.categories.map((c: any) => c.id)).toContain(style.categoryId);
  });

  it("keeps a run's label and note with it, listed and read back, and clears one given empty", async () => {
    const run = (await t.call('POST', '/_workbench/backtests', { from: '2025-03-03', to: '2025-03-16' })).json.run;
    const put = (body: unknown, runId = run.runId) => t.call('PUT', `/_workbench/backtests/${runId}/label`, body);
    const labelled = await put({ label: ' Spring check ', note: 'Before the service level change.' });
    expect(labelled.status).toBe(200);
    expect(labelled.json).toMatchObject({
      runId: run.runId,
      label: 'Spring check',
      note: 'Before the service level change.',
    });
    const listed = (await t.call('GET', '/_workbench/backtests')).json.runs.find((r: any) => r.runId === run.runId);
    expect(listed).toMatchObject({ label: 'Spring check', note: 'Before the service level change.' });
    // A note left out stays; a label given empty is cleared.
    expect((await put({ label: '' })).json).toEqual(
      expect.objectContaining({ note: 'Before the service level change.' }),
    );
    const read = (await t.call('GET', `/_workbench/backtests/${run.runId}`)).json.run;
    expect(read.label).toBeUndefined();
    expect(read.note).toBe('Before the service level change.');
    expect((await put({ label: 'x' }, 'no-such-run')).status).toBe(404);
    const long = await put({ label: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.json.errors[0].path).toBe('/label');
  }, 60_000);
});

describe('the label migration', () => {
  const tempDir = useTempDirs('wb-label-');

  it('gives the runs of a workspace the previous release left a label and a note, keeping them', async () => {
    const dir = tempDir();
    const wb = await Workbench.open(dir);
    await wb.ingest('Items', { items: [item('I1')] });
    await wb.workspace.run(
      `INSERT INTO backtest_runs (runId, createdAt, fromDate, toDate, status, scenario, settings, summary, durationMs)
       VALUES ('bt-old', now()::TIMESTAMP, DATE '2025-01-01', DATE '2025-01-31', 'completed', NULL, '{}', '{}', 5)`,
    );
    await wb.close();
    // As the release before the label left it: no label or note, its transfers kept as text.
    const inst = await DuckDBInstance.create(join(dir, DATABASE_FILE));
    const conn = await inst.connect();
    await conn.run('ALTER TABLE backtest_runs DROP COLUMN label');
    await conn.run('ALTER TABLE backtest_runs DROP COLUMN note');
    await transfersAsText((sql) => conn.run(sql));
    await conn.run('DELETE FROM schema_migrations WHERE version >= 12');
    conn.closeSync();
    inst.closeSync();
    const reopened = await Workbench.open(dir);
    try {
      expect(await reopened.workspace.schemaVersion()).toBe(SCHEMA_VERSION);
      expect(await reopened.labelBacktest('bt-old', { label: 'January' })).toMatchObject({
        runId: 'bt-old',
        from: '2025-01-01',
        label: 'January',
      });
      expect((await reopened.read('Items', 'I1'))?.itemId).toBe('I1');
    } finally {
      await reopened.close();
    }
  });
});
