/** A run's drill-down through the admin API: a style day by day, its location×SKUs, one of them day by day. */
import { OUTCOMES } from '../engine/recommend/outcome.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspace } from './demo-workspace.js';
import { testServer, type TestServer } from './api-helpers.js';
import type { StyleDaySeries } from '../engine/service/backtest-style-days.js';
import { STYLE_DAY_FIELDS } from '../engine/simulate/style-days.js';
import type { CellDays, StyleCells, TraceProgress } from '../engine/service/backtest-trace.js';
import type { GroupKpis } from '../engine/simulate/simulate.js';

const dir = mkdtempSync(join(tmpdir(), 'wb-drill-api-'));
const ws = join(dir, 'ws');
const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
let t: TestServer;

beforeAll(async () => {
  t = await testServer({ workspace: demoWorkspace(ws) });
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** GET under the admin API, expecting `status`. */
async function get<T>(path: string, status = 200): Promise<T> {
  const r = await t.call('GET', `/_workbench/${path}`);
  expect(r.status, `${path}: ${r.text.slice(0, 300)}`).toBe(status);
  return r.json as T;
}

/** The style of a run that lost the most in the replay, and its KPIs. */
async function worstStyle(runId: string): Promise<GroupKpis> {
  const { groups } = await get<{ groups: GroupKpis[] }>(`backtests/${runId}/groups/style`);
  return groups.reduce((a, b) => (b.simulated.lostSales > a.simulated.lostSales ? b : a));
}

const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

describe('a backtest run, style by style and location×SKU by location×SKU', () => {
  const styleDrillTitle =
    "gives a style's days, its location×SKUs ranked by lost sales and one of them day by day, adding up to the run";
  it(styleDrillTitle, async () => {
    const run = (await t.call('POST', '/_workbench/backtests', { from: '2025-03-03', to: '2025-04-27' })).json;
    const runId = run.run.runId as string;
    const style = await worstStyle(runId);
    expect(style.simulated.lostSales).toBeGreaterThan(0);

    const days = await get<StyleDaySeries>(`backtests/${runId}/styles/${style.id}/days`);
    expect(days.dates).toHaveLength(56);
    expect(days.dates[0]).toBe('2025-03-03');
    expect(sum(days.series.simStockOutDays)).toBe(style.simulated.stockOutDays);
    expect(sum(days.series.actStockOutDays)).toBe(style.actual.stockOutDays);
    expect(sum(days.series.simLostSales)).toBeCloseTo(style.simulated.lostSales, 1);
    expect(sum(days.series.actSales)).toBeCloseTo(style.actual.sales, 1);
    expect(sum(days.series.simInventoryUnits) / 56).toBeCloseTo(style.simulated.inventoryUnits, 1);
    expect(days.series.demandEstimate.every((v) => v > 0)).toBe(true);
    // The same days for every style, written out for a spreadsheet.
    const csv = readFileSync(
      await t.server.workbench.exportBacktest(runId, 'style-days', join(dir, 'style-days.csv'), 'csv'),
      'utf8',
    )
      .trim()
      .split('\n');
    expect(csv[0]).toBe(`styleId,date,${STYLE_DAY_FIELDS.join(',')}`);
    const rows = csv.filter((l) => l.startsWith(`${style.id},`)).map((l) => l.split(','));
    expect(sum(rows.map((r) => Number(r[2 + STYLE_DAY_FIELDS.indexOf('simStockOutDays')])))).toBe(
      style.simulated.stockOutDays,
    );
    expect(new Set(csv.slice(1).map((l) => l.split(',')[0])).size).toBeGreaterThan(10);

    // Tracing the style: nothing under way, then reading the run's days, then ready with the days replayed.
    const progress = (path = `backtests/${runId}/styles/${style.id}/trace`) => get<TraceProgress>(path);
    expect(await progress()).toEqual({ status: 'none', daysDone: 0, days: 0 });
    const pending = get<StyleCells>(`backtests/${runId}/styles/${style.id}/cells`);
    await expect.poll(async () => (await progress()).status).toMatch(/^(reading|ready)$/);
    const { cells, replayMs } = await pending;
    expect(await progress()).toEqual({ status: 'ready', daysDone: 56, days: 56 });
    expect(replayMs).toBeGreaterThan(0);
    expect(cells.length).toBeGreaterThan(3);
    const lost = cells.map((c) => c.simulated.lostSales);
    expect(lost).toEqual([...lost].sort((a, b) => b - a));
    expect(sum(lost)).toBeCloseTo(style.simulated.lostSales, 1);
    expect(sum(cells.map((c) => c.simulated.stockOutDays))).toBe(style.simulated.stockOutDays);
    expect(sum(cells.map((c) => c.actual.stockOutDays))).toBe(style.actual.stockOutDays);
    expect(sum(cells.map((c) => c.transfersIn))).toBeCloseTo(sum(days.series.simTransfersIn), 6);

    const worst = cells[0];
    const one = await get<CellDays>(`backtests/${runId}/styles/${style.id}/cells/${worst.locationId}/${worst.skuId}`);
    expect(one).toMatchObject({
      locationId: worst.locationId,
      skuId: worst.skuId,
      sizeId: worst.sizeId,
      locationKind: worst.locationKind,
    });
    expect(one.dates).toEqual(days.dates);
    expect(sum(one.series.simLostSales)).toBeCloseTo(worst.simulated.lostSales, 1);
    expect(sum(one.series.actSales)).toBeCloseTo(worst.actual.sales, 1);
    // Demand is what sold in fact plus what the history estimates beyond it; all of the actual side's lost sales
    // are estimated, and both sides meet the same demand.
    expect(sum(one.series.estimatedDemand)).toBeCloseTo(worst.estimatedDemand, 1);
    expect(sum(one.series.demand)).toBeCloseTo(worst.demand, 1);
    one.dates.forEach((_, i) => {
      if (!one.series.carried[i]) return expect(one.series.demand[i]).toBe(0);
      expect(one.series.demand[i]).toBeCloseTo(one.series.actSales[i] + one.series.estimatedDemand[i], 3);
      expect(one.series.actLostSales[i]).toBeCloseTo(one.series.estimatedDemand[i], 3);
      expect(one.series.simSales[i] + one.series.simLostSales[i]).toBeCloseTo(one.series.demand[i], 3);
    });

    // A store the engine sent units to: each transfer with its kind, its reason and when it arrived.
    const served = cells.find((c) => c.transfersIn > 0 && c.locationKind !== 'warehouse')!;
    const sent = await get<CellDays>(
      `backtests/${runId}/styles/${style.id}/cells/${served.locationId}/${served.skuId}`,
    );
    const incoming = sent.transfers.filter((x) => x.direction === 'in');
    expect(incoming.length).toBeGreaterThan(0);
    for (const x of incoming) {
      expect(x).toMatchObject({
        toLocationId: served.locationId,
        skuId: served.skuId,
        transferType: expect.any(String),
        reason: expect.stringMatching(/\w+/),
      });
      // It arrives as the world the data shows takes it there, whatever the engine planned with.
      const world = run.summary.world.transitDays.find((w: { locationId: string }) => w.locationId === x.toLocationId);
      expect(dayOf(x.arrives) - dayOf(x.date)).toBe(world.days);
    }
    // Each review day of the period (every seven days from its first) says what the engine did for the cell: what
    // it sent, or in words why it sent nothing.
    expect(sent.reviews.map((r) => r.date)).toEqual(sent.dates.filter((_, i) => i % 7 === 0));
    for (const r of sent.reviews) {
      expect(OUTCOMES).toContain(r.outcome);
      expect(r.sent > 0).toBe(r.outcome === 'sent');
      expect(r.target).toBeGreaterThanOrEqual(0);
    }
    expect(sent.reviews.some((r) => r.outcome === 'sent')).toBe(true);
    const arrived = incoming.filter((x) => x.arrives <= days.dates.at(-1)!);
    expect(sum(sent.series.transfersIn)).toBeCloseTo(sum(arrived.map((x) => x.quantity)), 6);
    expect(sum(sent.series.transfersIn)).toBeCloseTo(served.transfersIn, 6);

    // Every style the breakdown lists opens, a style with nothing in the period as days of zeros.
    const { groups } = await get<{ groups: GroupKpis[] }>(`backtests/${runId}/groups/style`);
    let quiet = 0;
    for (const g of groups) {
      const styleDays = await get<StyleDaySeries>(`backtests/${runId}/styles/${g.id}/days`);
      expect(styleDays.dates).toHaveLength(56);
      if (Object.values(styleDays.series).every((xs) => xs.every((v) => v === 0))) quiet++;
    }
    expect(quiet).toBeGreaterThan(0);
    // Named clearly when absent.
    expect((await t.call('GET', `/_workbench/backtests/${runId}/styles/NOPE/days`)).json.detail).toMatch(
      /has no style "NOPE"/,
    );
    expect((await t.call('GET', '/_workbench/backtests/nope/styles/X/days')).status).toBe(404);
    expect((await t.call('GET', `/_workbench/backtests/nope/styles/${style.id}/cells`)).status).toBe(404);
    expect(
      (await get<{ detail: string }>(`backtests/${runId}/styles/${style.id}/cells/NOWHERE/${worst.skuId}`, 404)).detail,
    ).toMatch(/no location "NOWHERE"/);
    expect(
      (await get<{ detail: string }>(`backtests/${runId}/styles/${style.id}/cells/${worst.locationId}/NOSKU`, 404))
        .detail,
    ).toMatch(/has no SKU "NOSKU"/);
  });

  it('traces runs with their own review interval and cancelled runs over the days they replayed', async () => {
    const wb = t.server.workbench;
    const period = { fromDay: day('2025-05-05'), toDay: day('2025-06-29') };
    let seen = 0;
    for (const run of [
      await wb.runBacktest({ ...period, reviewEveryDays: 3 }),
      await wb.runBacktest({ ...period, partitions: 2, onProgress: (d) => (seen = d), isCancelled: () => seen >= 14 }),
    ]) {
      const style = await worstStyle(run.run.runId);
      const cells = await wb.backtestStyleCells(run.run.runId, style.id);
      expect(sum(cells.cells.map((c) => c.simulated.stockOutDays))).toBe(style.simulated.stockOutDays);
      const one = await wb.backtestCellDays(run.run.runId, style.id, cells.cells[0].locationId, cells.cells[0].skuId);
      expect(one.dates).toHaveLength(run.report.daysDone);
    }
  });

  it('replays one style at a time: a style asked for meanwhile stops the replay under way', async () => {
    const run = (await t.call('POST', '/_workbench/backtests', { from: '2025-01-06', to: '2025-06-29' })).json;
    const runId = run.run.runId as string;
    const { groups } = await get<{ groups: GroupKpis[] }>(`backtests/${runId}/groups/style`);
    const [a, b] = [...groups].sort((x, y) => y.simulated.lostSales - x.simulated.lostSales).map((g) => g.id);
    const wb = t.server.workbench;
    const first = wb.backtestStyleCells(runId, a);
    const second = wb.backtestStyleCells(runId, b);
    await expect(first).rejects.toThrow(
      new RegExp(`the trace of style "${a}" stopped: another style was asked for meanwhile`),
    );
    expect((await second).cells.length).toBeGreaterThan(0);
    expect(await get<TraceProgress>(`backtests/${runId}/styles/${a}/trace`)).toMatchObject({ status: 'none' });
    expect(await get<TraceProgress>(`backtests/${runId}/styles/${b}/trace`)).toMatchObject({ status: 'ready' });
    // Asked again, it starts over and is kept beside the other.
    expect((await wb.backtestStyleCells(runId, a)).cells.length).toBeGreaterThan(0);
    expect((await get<TraceProgress>(`backtests/${runId}/styles/${b}/trace`)).status).toBe('ready');
  });

  it('refuses to pass off a replay of changed data as the run', async () => {
    const wb = t.server.workbench;
    const run = await wb.runBacktest({ fromDay: day('2025-03-03'), toDay: day('2025-03-30') });
    const style = await worstStyle(run.run.runId);
    const before = await wb.backtestStyleCells(run.run.runId, style.id);
    const { locationId, skuId } = before.cells[0];
    // A sale of that SKU in the period, sent after the run.
    const sell = async (salesId: string, at: string, quantitySold: number) => {
      const line = {
        salesLineId: `${salesId}-1`,
        skuId,
        lineNumber: 1,
        quantitySold,
        originalSalesAmountInclVat: 20 * quantitySold,
        salesAmountInclVat: 20 * quantitySold,
        vatPercentage: 21,
        costPrice: 8,
        online: false,
        quantityTransferred: 0,
        quantityCancelled: 0,
      };
      const r = await t.call('POST', '/Sales', {
        sales: [{ salesId, salesDateTime: at, currencyCode: 'LOCAL', locationId, salesLines: [line] }],
      });
      expect(r.status, r.text).toBe(200);
    };
    await sell('DRILL-1', '2025-03-12T10:00:00Z', 7);
    // The style traced before the change is the run's; a style traced after it is refused, saying where it differs.
    expect((await wb.backtestStyleCells(run.run.runId, style.id)).cells).toEqual(before.cells);
    const other = await wb.runBacktest({ fromDay: day('2025-03-03'), toDay: day('2025-03-30') });
    await sell('DRILL-2', '2025-03-13T10:00:00Z', 5);
    const refused = await t.call('GET', `/_workbench/backtests/${other.run.runId}/styles/${style.id}/cells`);
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toMatch(
      new RegExp(
        `replaying run "${other.run.runId}" no longer gives its figures for style "${style.id}": ` +
          '.* on 2025-03-\\d\\d come to .*, the run kept .*run the backtest again',
      ),
    );
  });
});
