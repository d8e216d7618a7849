/**
 * Sweeps: a grid of settings run as backtests over one period, kept with their runs, the frontier marked, and the
 * grid refused with the setting named when it cannot run.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN } from './workbench-bin.js';
import { demoForFile } from './demo-workspace.js';
import { withWorkbench } from './fixtures.js';
import { onFrontier, recommendedPoint } from '../engine/service/sweep-frontier.js';
import { MAX_SWEEP_POINTS, parseVary, sweepGrid } from '../engine/service/sweep-grid.js';
import { testServer } from './api-helpers.js';
import type { CallResult } from './serve-process.js';

const exec = promisify(execFile);
const { dir, ws } = demoForFile('wb-sweep-');
const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;

describe('a sweep grid', () => {
  it('makes one scenario per combination, on top of the base scenario', () => {
    const { points, scenarios } = sweepGrid(
      [parseVary('serviceLevel=0.85,0.95'), parseVary('redistribution.tripCost=20,40,80')],
      { defaults: { presentationMinimum: 2 }, redistribution: { maxTripsPerStore: 5 } },
    );
    expect(points).toHaveLength(6);
    expect(points[1]).toEqual({ 'defaults.serviceLevel': 0.85, 'redistribution.tripCost': 40 });
    expect(scenarios[1]).toEqual({
      defaults: { presentationMinimum: 2, serviceLevel: 0.85 },
      redistribution: { maxTripsPerStore: 5, tripCost: 40 },
    });
  });

  it('refuses an unknown setting, a value out of its range, and more than 200 points, naming the setting', () => {
    expect(() => sweepGrid([parseVary('serviceLvl=0.9')])).toThrow(/^vary\[0\] \(serviceLvl\): no such setting; /);
    expect(() => sweepGrid([parseVary('serviceLevel=0.9,1.2')])).toThrow(
      'vary[0] (serviceLevel): 1.2 is above its maximum 0.9999',
    );
    expect(() => sweepGrid([parseVary('redistribution.maxTripsPerStore=2.5')])).toThrow(
      'vary[0] (redistribution.maxTripsPerStore): 2.5 is not a whole number',
    );
    expect(() => sweepGrid([parseVary('serviceLevel=0.9,x')])).toThrow('vary[0] (serviceLevel): "NaN" is not a number');
    const many = Array.from({ length: 15 }, (_, i) => 20 + i).join(',');
    expect(() =>
      sweepGrid([parseVary(`redistribution.tripCost=${many}`), parseVary(`demandWindowDays=${many}`)]),
    ).toThrow(
      'the grid has 225 points (redistribution.tripCost: 15 values × demandWindowDays: 15 values); ' +
        `a sweep runs at most ${MAX_SWEEP_POINTS}: give these settings fewer values`,
    );
    expect(() => sweepGrid([parseVary('serviceLevel=0.9'), parseVary('defaults.serviceLevel=0.8')])).toThrow(
      'defaults.serviceLevel is varied twice',
    );
  });
});

describe('the frontier', () => {
  const p = (lostSales: number, inventoryUnits: number, fillRate = 0.9, trips = 0) => ({
    lostSales,
    inventoryUnits,
    fillRate,
    trips,
    inventoryValue: 0,
  });

  it('marks the points no other beats on both lost sales and stock', () => {
    expect(onFrontier([p(10, 100), p(5, 200), p(12, 150), p(5, 200), p(20, 90)])).toEqual([
      true,
      true,
      false,
      true,
      true,
    ]);
  });

  it('recommends the cheapest point meeting a fill rate, or the best within a stock', () => {
    const points = [p(10, 100, 0.9), p(5, 200, 0.96, 9), p(6, 200, 0.96, 3), p(20, 90, 0.8)];
    expect(recommendedPoint(points, { fillRateAtLeast: 0.95 }, p(0, 150))).toBe(2);
    expect(recommendedPoint(points, { inventoryAtMost: 'actual' }, p(0, 150))).toBe(0);
    expect(recommendedPoint(points, { inventoryAtMost: 95 }, p(0, 150))).toBe(3);
    expect(recommendedPoint(points, { fillRateAtLeast: 0.99 }, p(0, 150))).toBeUndefined();
  });
});

/** The sweep command on the demo over 2 … 29 June 2025, with `args` after. */
const sweepCli = (...args: string[]) =>
  exec(process.execPath, [BIN, 'sweep', '-w', ws, '--from', '2025-06-02', '--to', '2025-06-29', ...args]);

describe('a sweep', () => {
  it('runs each point as the backtest of its settings, keeps its runs with it, and deletes them with it', async () => {
    await withWorkbench(ws, async (wb) => {
      const fromDay = day('2025-06-02');
      const toDay = day('2025-07-13');
      const progress: number[] = [];
      const sweep = await wb.runSweep({
        fromDay,
        toDay,
        axes: [parseVary('serviceLevel=0.8,0.97'), parseVary('redistribution.tripCost=10,200')],
        inProcess: true,
        onProgress: (done, total) => progress.push(done / total),
      });
      expect(sweep).toMatchObject({ status: 'completed', points: 4, from: '2025-06-02', to: '2025-07-13' });
      expect(sweep.axes).toEqual([
        { setting: 'defaults.serviceLevel', values: [0.8, 0.97] },
        { setting: 'redistribution.tripCost', values: [10, 200] },
      ]);
      expect(progress.at(-1)).toBe(1);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));

      // Each point is the very backtest its settings make on their own.
      const third = sweep.runs[2];
      expect(third.vary).toEqual({ 'defaults.serviceLevel': 0.97, 'redistribution.tripCost': 10 });
      const alone = await wb.runBacktest({
        fromDay,
        toDay,
        scenario: { defaults: { serviceLevel: 0.97 }, redistribution: { tripCost: 10 } },
        inProcess: true,
      });
      expect(third.lostSales).toBe(alone.report.summary.simulated.lostSales);
      expect(third.inventoryUnits).toBe(alone.report.summary.simulated.inventoryUnits);
      expect(sweep.actual.lostSales).toBe(alone.report.summary.actual.lostSales);
      const kept = (await wb.backtest(third.runId))!;
      expect(kept.settings.defaults.serviceLevel).toBe(0.97);
      expect(kept.settings.redistribution.tripCost).toBe(10);
      // The run says which sweep and point it is, and what the point set on top of its scenario.
      expect(kept.run.sweep).toEqual({ sweepId: sweep.sweepId, point: third.point, vary: third.vary });
      expect(alone.run.sweep).toBeUndefined();
      // A higher service level holds more stock and loses less.
      expect(sweep.runs[2].inventoryUnits).toBeGreaterThan(sweep.runs[0].inventoryUnits);
      expect(sweep.runs[2].lostSales).toBeLessThan(sweep.runs[0].lostSales);
      expect(sweep.runs.map((r) => r.frontier)).toEqual(onFrontier(sweep.runs));
      expect(sweep.runs.some((r) => r.frontier)).toBe(true);

      // Listed as a sweep, not run by run.
      expect((await wb.backtests()).map((r) => r.runId)).toEqual([alone.run.runId]);
      expect((await wb.listSweeps()).map((s) => s.sweepId)).toEqual([sweep.sweepId]);
      expect(await wb.getSweep(sweep.sweepId)).toEqual(sweep);

      await wb.deleteSweep(sweep.sweepId);
      await expect(wb.getSweep(sweep.sweepId)).rejects.toThrow(/no sweep/);
      expect(await wb.backtest(third.runId)).toBeUndefined();
      expect(await wb.listSweeps()).toEqual([]);
    });
  });

  it('keeps the points finished when cancelled', async () => {
    await withWorkbench(ws, async (wb) => {
      let done = 0;
      const sweep = await wb.runSweep({
        fromDay: day('2025-06-02'),
        toDay: day('2025-06-15'),
        axes: [parseVary('serviceLevel=0.8,0.9,0.95')],
        inProcess: true,
        onProgress: (d) => (done = d),
        isCancelled: () => done >= 14,
      });
      expect(sweep).toMatchObject({ status: 'cancelled', points: 1 });
      expect(sweep.runs.map((r) => r.vary)).toEqual([{ 'defaults.serviceLevel': 0.8 }]);
      await wb.deleteSweep(sweep.sweepId);
    });
  });

  it('runs from the command line, and refuses a bad grid there with the setting named', async () => {
    const out = join(dir, 'sweep.json');
    const { stdout } = await sweepCli('--vary', 'serviceLevel=0.8,0.95', '--out', out, '-q');
    const written = JSON.parse(readFileSync(out, 'utf8'));
    expect(written).toMatchObject({ status: 'completed', points: 2 });
    expect(stdout).toContain(written.sweepId);
    expect(stdout).toMatch(/defaults\.serviceLevel/);
    const bad = await sweepCli('--vary', 'serviceLevel=0.8,2').catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('vary[0] (serviceLevel): 2 is above its maximum 0.9999'),
    });
    const refused = (...vary: string[]) =>
      sweepCli(...vary.flatMap((v) => ['--vary', v])).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      );
    const sweepCount = () => withWorkbench(ws, async (wb) => (await wb.listSweeps()).length);
    const sweepsBefore = await sweepCount();
    const unknown = await refused('serviceLevel=0.9', 'noSuchSetting=1');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/vary\[1\] \(noSuchSetting\): no such setting; /);
    // 15 × 14 = 210 points: the message names the count, the limit and the settings that multiply to it.
    const many = (n: number, from: number) => Array.from({ length: n }, (_, i) => from + i).join(',');
    const tooMany = await refused(`redistribution.tripCost=${many(15, 10)}`, `demandWindowDays=${many(14, 20)}`);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain(
      'the grid has 210 points (redistribution.tripCost: 15 values × demandWindowDays: 14 values); ' +
        `a sweep runs at most ${MAX_SWEEP_POINTS}: give these settings fewer values`,
    );
    // Refused before anything ran: no sweep kept.
    expect(await sweepCount()).toBe(sweepsBefore);
  });

  it('runs in the background over the admin API: progress, the kept sweep, a bad grid refused by field', async () => {
    const t = await testServer({ workspace: ws });
    // A sweep job as it stands once it stopped running.
    const finished = async (started: CallResult['json']) => {
      let job = started;
      while (job.status === 'running') {
        await new Promise((r) => setTimeout(r, 100));
        job = (await t.call('GET', `/_workbench/sweeps/jobs/${job.jobId}`)).json;
      }
      return job;
    };
    try {
      const badGrid = {
        from: '2025-06-02',
        to: '2025-06-15',
        vary: [{ setting: 'redistribution.tripCost', values: [-5] }],
      };
      const bad = await t.call('POST', '/_workbench/sweeps', badGrid);
      expect(bad.status).toBe(400);
      expect(bad.json.detail).toBe('vary[0] (redistribution.tripCost): -5 is below its minimum 0');
      // POST sweeps/jobs, the older way to start one, takes the same body and refuses it the same way.
      const badJob = await t.call('POST', '/_workbench/sweeps/jobs', badGrid);
      expect({ status: badJob.status, detail: badJob.json.detail }).toEqual({ status: 400, detail: bad.json.detail });
      const settings = await t.call('GET', '/_workbench/sweeps/settings');
      expect(settings.json.settings).toContainEqual(
        expect.objectContaining({ path: 'defaults.serviceLevel', minimum: 0.5, maximum: 0.9999, integer: false }),
      );
      const started = await t.call('POST', '/_workbench/sweeps', {
        from: '2025-06-02',
        to: '2025-06-15',
        vary: [{ setting: 'serviceLevel', values: [0.8, 0.9, 0.95] }],
      });
      // Accepted, not done: the answer is the job to poll.
      expect(started.status).toBe(202);
      expect(started.json).toMatchObject({ jobId: expect.any(String), status: 'running', days: 42 });
      const job = await finished(started.json);
      expect(job).toMatchObject({ status: 'completed', daysDone: 42, sweepId: expect.stringMatching(/^sw-/) });
      const sweep = (await t.call('GET', `/_workbench/sweeps/${job.sweepId}`)).json;
      expect(sweep.runs.map((r: { vary: Record<string, number> }) => r.vary['defaults.serviceLevel'])).toEqual([
        0.8, 0.9, 0.95,
      ]);
      expect(
        (await t.call('GET', '/_workbench/sweeps')).json.sweeps.map((x: { sweepId: string }) => x.sweepId),
      ).toContain(job.sweepId);
      // The point a constraint picks: the cheapest in stock with the fill rate asked, or the best within a stock.
      const pick = async (q: string) => (await t.call('GET', `/_workbench/sweeps/${job.sweepId}/pick?${q}`)).json;
      const byStock = [...sweep.runs].sort(
        (a: { inventoryUnits: number }, b: { inventoryUnits: number }) => a.inventoryUnits - b.inventoryUnits,
      );
      expect(await pick(`fillRateAtLeast=${byStock[1].fillRate}`)).toEqual({
        point: [...byStock].find((r: { fillRate: number }) => r.fillRate >= byStock[1].fillRate).point,
      });
      expect(await pick('fillRateAtLeast=1')).toEqual({});
      // A number as a program prints it, every digit, reads as that number; text that is no number is refused.
      expect(await pick('fillRateAtLeast=0.9999999999999999')).toEqual({});
      expect(await pick('fillRateAtLeast=1e-7')).toEqual({ point: byStock[0].point });
      expect((await t.call('GET', `/_workbench/sweeps/${job.sweepId}/pick?fillRateAtLeast=0x1`)).status).toBe(400);
      expect(await pick(`inventoryAtMost=${byStock[0].inventoryUnits}`)).toEqual({ point: byStock[0].point });
      expect((await t.call('GET', `/_workbench/sweeps/${job.sweepId}/pick`)).status).toBe(400);
      // A point kept as a scenario: the starting scenario with the point's values; a kept name is not overwritten.
      const save = (name: string) => t.call('POST', `/_workbench/sweeps/${job.sweepId}/points/2/scenario`, { name });
      expect((await save('sweep-pick')).json).toEqual({ scenario: { defaults: { serviceLevel: 0.9 } } });
      expect((await t.call('GET', '/_workbench/scenarios/sweep-pick')).json.scenario).toEqual({
        defaults: { serviceLevel: 0.9 },
      });
      expect((await save('sweep-pick')).status).toBe(409);
      // The third point, run by the worker after two others read the same shared days, is its settings' own run.
      await t.call('POST', `/_workbench/sweeps/${job.sweepId}/points/3/scenario`, { name: 'sweep-third' });
      const alone = await t.call('POST', '/_workbench/backtests', {
        from: '2025-06-02',
        to: '2025-06-15',
        scenario: 'sweep-third',
      });
      expect(sweep.runs[2].lostSales).toBe(alone.json.summary.simulated.lostSales);
      expect(sweep.runs[2].inventoryUnits).toBe(alone.json.summary.simulated.inventoryUnits);
      expect((await t.call('POST', `/_workbench/sweeps/${job.sweepId}/points/9/scenario`, { name: 'x' })).status).toBe(
        404,
      );
      expect((await t.call('DELETE', `/_workbench/sweeps/${job.sweepId}`)).json).toEqual({ deleted: job.sweepId });
      expect((await t.call('GET', `/_workbench/sweeps/${job.sweepId}`)).status).toBe(404);

      // POST sweeps/jobs still starts one, answering the same job with 200.
      const old = await t.call('POST', '/_workbench/sweeps/jobs', {
        from: '2025-06-02',
        to: '2025-06-02',
        vary: [{ setting: 'serviceLevel', values: [0.9] }],
      });
      expect(old.status).toBe(200);
      expect(Object.keys(old.json).sort()).toEqual(Object.keys(started.json).sort());
      expect(old.json).toMatchObject({ status: 'running', days: 1 });
      const oldJob = await finished(old.json);
      expect(oldJob).toMatchObject({ status: 'completed', daysDone: 1 });
      await t.call('DELETE', `/_workbench/sweeps/${oldJob.sweepId}`);
      // The document says which answers 202.
      const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      };
      expect(Object.keys(doc.paths['/_workbench/sweeps'].post.responses)).toEqual(['202']);
      expect(Object.keys(doc.paths['/_workbench/sweeps/jobs'].post.responses)).toEqual(['200']);
    } finally {
      await t.server.stop();
    }
  });
});
