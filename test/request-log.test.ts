import { afterEach, describe, expect, it } from 'vitest';
import { BODY_EXCERPT_CHARS, MAX_LOGGED_PROBLEMS } from '../engine/service/request-log.js';
import { tempWorkbench, type TempWorkbench } from './fixtures.js';

let t: TempWorkbench;
afterEach(async () => t?.cleanup());

const entry = (i: number) => ({ requestId: `r${i}`, method: 'POST', path: '/Sales', status: 200, durationMs: 1.5 });

describe('request log', () => {
  it('stays bounded, keeping the newest entries, and survives a reopen', async () => {
    t = await tempWorkbench({ maxLogEntries: 20 });
    for (let i = 1; i <= 105; i++) await t.wb.logRequest(entry(i));
    const [row] = await t.wb.workspace.rows('SELECT count(*)::INTEGER AS n, min(id)::INTEGER AS lo FROM request_log');
    expect(row.n).toBeLessThanOrEqual(40);
    expect(row.lo).toBeGreaterThan(60);
    const newest = await t.wb.requestLog({ limit: 3 });
    expect(newest.map((e) => e.requestId)).toEqual(['r103', 'r104', 'r105']);
    expect((await t.wb.requestLog({ afterId: 104 })).map((e) => e.id)).toEqual([105]);
  });

  it('bounds what one entry keeps: body excerpt and listed problems, with exact counts', async () => {
    t = await tempWorkbench();
    const errors = Array.from({ length: 250 }, (_, i) => ({ path: `/sales/${i}`, message: 'bad' }));
    await t.wb.logRequest({ ...entry(1), status: 400, errors, errorCount: 250, bodyExcerpt: 'x'.repeat(10_000) });
    const [e] = await t.wb.requestLog();
    expect(e.errorCount).toBe(250);
    expect(e.errors).toHaveLength(MAX_LOGGED_PROBLEMS);
    expect(e.bodyExcerpt).toHaveLength(BODY_EXCERPT_CHARS);
  });
});
