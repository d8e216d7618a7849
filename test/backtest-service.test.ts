import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN } from './workbench-bin.js';
import { demoForFile } from './demo-workspace.js';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import { loadBacktestInput } from '../engine/inputs/backtest-input.js';
import { resolveSettings } from '../engine/recommend/settings.js';
import { HISTORY_REACH_DAYS } from '../engine/simulate/actual-demand.js';
import { simulate, styleRanges, type SimulationResult } from '../engine/simulate/simulate.js';
import { simulatePartitioned } from '../engine/simulate/partitioned.js';
import { processLink, simulateAcrossProcesses } from '../engine/simulate/across-processes.js';
import { partServer, type PartLink } from '../engine/simulate/partition-protocol.js';
import { transferRows } from '../engine/simulate/simulated-transfer.js';
import { dayText } from '../engine/model/datetime.js';
import { sale, salesLine, withWorkbench } from './fixtures.js';

const exec = promisify(execFile);
const { dir, ws } = demoForFile('wb-bt-');
const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
/** A `workbench` command on the demo copy. */
const demoCli = (command: string, ...args: string[]) =>
  exec(process.execPath, [BIN, command, '-w', ws, ...args], { encoding: 'utf8' });

/** A partitioned run against the single-threaded one: the same decisions, and sums equal up to their order. */
function expectSameRun(other: SimulationResult, one: SimulationResult): void {
  expect(other.transfers).toEqual(one.transfers);
  expect(other.transfers.day.length).toBeGreaterThan(0);
  for (const side of ['simulated', 'actual'] as const) {
    for (const [k, v] of Object.entries(one.summary[side])) {
      if (typeof v === 'number')
        expect((other.summary[side] as unknown as Record<string, number>)[k], `${side}.${k}`).toBeCloseTo(v, 6);
      else if (v && typeof v === 'object' && k !== 'transfers') {
        for (const [f, x] of Object.entries(v)) {
          const y = (other.summary[side] as unknown as Record<string, Record<string, number>>)[k][f];
          if (typeof x === 'number') expect(y, `${side}.${k}.${f}`).toBeCloseTo(x, 1);
        }
      }
    }
  }
  expect(other.summary.simulated.transfers).toEqual(one.summary.simulated.transfers);
  expect(other.summary.simulated.estimatedDemand).toBe(one.summary.simulated.estimatedDemand);
  expect(other.lowestSimulatedStock).toBe(0);
  expect(one.lowestSimulatedStock).toBe(0);
  other.daily.forEach((d, i) => {
    expect(d.simulated.stockOutDays).toBe(one.daily[i].simulated.stockOutDays);
    expect(d.simulated.sales).toBeCloseTo(one.daily[i].simulated.sales, 6);
  });
  expect(other.byStyle.map((g) => g.simulated.sales)).toEqual(one.byStyle.map((g) => g.simulated.sales));
  expect(other.styleDays.values).toEqual(one.styleDays.values);
}

describe('backtest runs', () => {
  it('keeps runs with their settings to list, reopen, compare and export', async () => {
    await withWorkbench(ws, async (wb) => {
      const progress: number[] = [];
      const a = await wb.runBacktest({
        fromDay: day('2025-03-03'),
        toDay: day('2025-04-27'),
        onProgress: (done) => progress.push(done),
      });
      expect(a.run).toMatchObject({ from: '2025-03-03', to: '2025-04-27', status: 'completed', scenario: 'default' });
      expect(progress.at(-1)).toBe(56);
      // What the tills recorded over the period, every line: the same sum the workspace holds.
      const [recorded] = await wb.workspace.rows<{ amount: number }>(
        `SELECT sum(l.salesAmountInclVat)::DOUBLE AS amount
         FROM sales s JOIN sales__salesLines l ON l._salesId = s.salesId
         WHERE s._deleted_at IS NULL AND s.salesDateTime >= '2025-03-03' AND s.salesDateTime < '2025-04-28'`,
      );
      expect(a.report.summary.actual.recordedRevenue).toBeCloseTo(recorded.amount, 2);
      expect(a.report.summary.actual.recordedRevenue).not.toBe(a.report.summary.actual.salesValue);
      await wb.setScenario({ defaults: { serviceLevel: 0.99, presentationMinimum: 3 } }, 'rich');
      const b = await wb.runBacktest({ fromDay: day('2025-03-03'), toDay: day('2025-04-27'), scenarioName: 'rich' });
      expect(b.settings.defaults.serviceLevel).toBe(0.99);

      const runs = await wb.backtests();
      expect(runs.map((r) => r.runId)).toEqual([b.run.runId, a.run.runId]);
      const reopened = await wb.backtest(a.run.runId);
      expect(reopened!.summary).toEqual(a.report.summary);
      expect(reopened!.daily).toEqual(a.report.daily);
      expect(reopened!.settings.defaults.serviceLevel).toBe(0.9);

      // Higher targets: more units replenished than in the default run.
      const c = await wb.compareBacktests(a.run.runId, b.run.runId);
      expect(b.report.summary.simulated.transfers.Replenishment.units).toBeGreaterThan(
        a.report.summary.simulated.transfers.Replenishment.units,
      );
      expect(c.difference.sales).toBe(
        Math.round((b.report.summary.simulated.sales - a.report.summary.simulated.sales) * 10_000) / 10_000,
      );
      expect(c.actual).toEqual(a.report.summary.actual);
      expect(c.b.daily).toEqual(b.report.daily);
      expect(c.a.run.runId).toBe(a.run.runId);
      // What the two were told differently, and nothing else.
      expect(c.settings).toEqual([
        { path: 'defaults.presentationMinimum', a: a.settings.defaults.presentationMinimum, b: 3 },
        { path: 'defaults.serviceLevel', a: 0.9, b: 0.99 },
      ]);

      // The styles behind the difference: every style's b − a adds up to the runs' own, the most moved first.
      const lost = b.report.summary.simulated.lostSales - a.report.summary.simulated.lostSales;
      expect(c.styles.lostSales).toBeCloseTo(lost, 3);
      expect(c.styles.styles.length).toBeGreaterThan(0);
      const moved = c.styles.styles.map((s) => Math.abs(s.lostSales));
      expect(moved).toEqual([...moved].sort((x, y) => y - x));
      expect(c.styles.namedLostSales).toBeCloseTo(
        c.styles.styles.reduce((t, s) => t + s.lostSales, 0),
        3,
      );
      const top = c.styles.styles[0];
      const [ga, gb] = [await wb.backtestGroups(a.run.runId, 'style'), await wb.backtestGroups(b.run.runId, 'style')];
      const of = (g: typeof ga) => g.find((x) => x.id === top.id)!.simulated;
      expect(top.lostSales).toBeCloseTo(of(gb).lostSales - of(ga).lostSales, 3);
      expect(top.inventoryUnits).toBeCloseTo(of(gb).inventoryUnits - of(ga).inventoryUnits, 3);

      const stores = await wb.backtestGroups(a.run.runId, 'location');
      expect(stores.map((s) => s.id)).toContain('ST-001');
      const sum = stores.reduce((t, s) => t + s.simulated.stockOutDays, 0);
      expect(sum).toBe(a.report.summary.simulated.stockOutDays);

      const csv = await wb.exportBacktest(a.run.runId, 'daily', join(dir, 'daily.csv'), 'csv');
      const lines = readFileSync(csv, 'utf8').trim().split('\n');
      expect(lines[0]).toBe(
        'date,side,demand,estimatedDemand,carriedDays,stockOutDays,sales,lostSales,' +
          'inventoryUnits,warehouseUnits,transferUnits',
      );
      expect(lines).toHaveLength(1 + 56 * 2);
      // The same part as Arrow IPC holds the same rows: dates as dates, figures as numbers.
      const arrow = tableFromIPC(
        readFileSync(await wb.exportBacktest(a.run.runId, 'daily', join(dir, 'daily.arrow'), 'arrow')),
      );
      expect(arrow.schema.fields.map((f) => f.name).join(',')).toBe(lines[0]);
      expect(arrow.numRows).toBe(56 * 2);
      for (const at of [0, 57, 111]) {
        const row = arrow.get(at)!.toJSON();
        const cells = lines[1 + at].split(',');
        expect(new Date(row.date as number).toISOString().slice(0, 10)).toBe(cells[0]);
        expect(row.side).toBe(cells[1]);
        const figures = cells.slice(2).map((c) => (c === '' ? null : Number(c)));
        expect(arrow.schema.fields.slice(2).map((f) => row[f.name])).toEqual(figures);
      }
      const pq = await wb.exportBacktest(a.run.runId, 'transfers', join(dir, 'transfers.parquet'), 'parquet');
      const inst = await DuckDBInstance.create();
      const conn = await inst.connect();
      const rows = (
        await conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet('${pq}')`)
      ).getRowObjects();
      expect(rows[0].n).toBe(a.report.transfers.day.length);
      conn.closeSync();
      inst.closeSync();
      // Kept as the run made them, each with the reference the run's rows give it.
      const byReference = (x: { referenceId: string }, y: { referenceId: string }) =>
        x.referenceId < y.referenceId ? -1 : 1;
      const kept = await wb.workspace.rows<{ referenceId: string }>(
        `SELECT strftime(date, '%Y-%m-%d') AS date, transferType, fromLocationId, toLocationId, skuId, quantity,
           referenceId FROM backtest_transfers WHERE runId = $1`,
        [a.run.runId],
      );
      expect(kept.sort(byReference)).toEqual(
        transferRows(a.report.transfers)
          .map(({ day: d, ...t }) => ({ date: dayText(d), ...t }))
          .sort(byReference),
      );
      await expect(wb.exportBacktest('nope', 'daily', join(dir, 'x.csv'), 'csv')).rejects.toThrow(/no backtest run/);
      await expect(wb.runBacktest({ fromDay: day('2025-03-03'), toDay: day('2025-03-01') })).rejects.toThrow(/period/);

      // Deleting a run takes everything kept with it, and leaves the other run whole.
      const count = async (table: string, runId: string) =>
        (
          await wb.workspace.rows<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table} WHERE runId = $1`, [
            runId,
          ])
        )[0].n;
      const tables = [
        'backtest_runs',
        'backtest_daily',
        'backtest_groups',
        'backtest_style_days',
        'backtest_transfers',
        'backtest_transfer_lines',
        'backtest_route_ids',
      ];
      for (const t of tables) expect(await count(t, a.run.runId), t).toBeGreaterThan(0);
      expect(await wb.deleteBacktest(a.run.runId)).toBe(true);
      for (const t of tables) expect(await count(t, a.run.runId), t).toBe(0);
      expect((await wb.backtests()).map((r) => r.runId)).toEqual([b.run.runId]);
      expect((await wb.backtest(b.run.runId))!.daily).toEqual(b.report.daily);
      expect(await wb.deleteBacktest(a.run.runId)).toBe(false);
    });
  });

  it('replays in a worker thread with the same results, progress and cancel', async () => {
    await withWorkbench(ws, async (wb) => {
      const period = { fromDay: day('2025-05-05'), toDay: day('2025-06-29') };
      const progress: number[] = [];
      const inWorker = await wb.runBacktest({ ...period, partitions: 1, onProgress: (d) => progress.push(d) });
      const inProcess = await wb.runBacktest({ ...period, inProcess: true });
      expect(inWorker.report.summary).toEqual(inProcess.report.summary);
      expect(inWorker.report.daily).toEqual(inProcess.report.daily);
      expect(inWorker.report.transfers).toEqual(inProcess.report.transfers);
      expect(progress).toEqual([7, 14, 21, 28, 35, 42, 49, 56]);
      // Partitioned (the default: a thread per core): the same decisions.
      const partitioned = await wb.runBacktest({ ...period, partitions: 2 });
      expect(partitioned.report.transfers).toEqual(inProcess.report.transfers);
      let seen = 0;
      const cancelled = await wb.runBacktest({
        ...period,
        partitions: 2,
        onProgress: (d) => (seen = d),
        isCancelled: () => seen >= 14,
      });
      expect(cancelled.run.status).toBe('cancelled');
      expect(cancelled.report.daysDone).toBeLessThan(56);
      expect(cancelled.report.daily).toHaveLength(cancelled.report.daysDone);
    });
  });

  it('replays in parts, each a range of styles in a thread of its own, with the same decisions and KPIs', async () => {
    await withWorkbench(ws, async (wb) => {
      const settings = resolveSettings({});
      const input = await loadBacktestInput(wb.workspace, day('2025-02-03'), day('2025-05-25'), settings);
      const one = await simulate(input, settings);
      const ranges = styleRanges(input, 3);
      expect(ranges).toHaveLength(3);
      expect(ranges[0]).toMatchObject({ sFrom: 0, kFrom: 0 });
      expect(ranges[1].sFrom).toBe(ranges[0].sTo);
      expect(ranges[2]).toMatchObject({ sTo: input.start.styles.ids.length, kTo: input.start.skus.ids.length });
      const three = await simulatePartitioned(input, settings, {}, 3);
      expectSameRun(three, one);
      // The same parts in this thread: the split alone changes nothing.
      expectSameRun(await simulate(input, settings, {}, 3), one);
    });
  });

  it('replays a part in a child process, in plain messages, with the same run', async () => {
    await withWorkbench(ws, async (wb) => {
      const settings = resolveSettings({});
      const input = () => loadBacktestInput(wb.workspace, day('2025-02-03'), day('2025-05-25'), settings);
      const first = await input();
      const one = await simulate(first, settings);
      const [, second] = styleRanges(first, 2);
      const spawned: PartLink[] = [];
      const link = () => {
        spawned.push(processLink());
        return spawned.at(-1)!;
      };
      const two = await simulateAcrossProcesses(await input(), settings, {}, 2, link);
      expect(spawned).toHaveLength(1);
      expectSameRun(two, one);

      // A style served in the other process, traced: its cells' days match the traced run in one thread.
      const style = second.sFrom;
      const traced = await simulate(await input(), settings, { trace: { style } });
      const remote = await simulateAcrossProcesses(await input(), settings, { trace: { style } }, 2);
      expect(remote.trace!.values).toEqual(traced.trace!.values);
      expect(remote.trace!.values.some((v) => v > 0)).toBe(true);
      expect(remote.trace!.transfers).toEqual(traced.trace!.transfers);
    });
  });

  it('names the part and the reason when a part cannot answer', async () => {
    await withWorkbench(ws, async (wb) => {
      const settings = resolveSettings({});
      const input = await loadBacktestInput(wb.workspace, day('2025-02-03'), day('2025-03-02'), settings);
      // A partition whose process is gone: the replay stops with the reason, not with a wrong run.
      const dead = (): PartLink => {
        const inner = processLink();
        return { ...inner, ask: (m) => inner.ask(m.kind === 'run' ? ({ kind: 'bogus' } as never) : m) };
      };
      await expect(simulateAcrossProcesses(input, settings, {}, 2, dead)).rejects.toThrow(
        /part of SKUs \d+…\d+ did not answer 'ran': .*cannot answer 'bogus'/,
      );
      const server = partServer();
      expect(server({ kind: 'review', day: 0 })).toMatchObject({
        kind: 'failed',
        message: expect.stringMatching(/before 'init'/),
      });
    });
  });

  const pricesTitle = "prices each SKU's units at its own recorded amounts over the history read, one never sold at 0";
  it(pricesTitle, async () => {
    await withWorkbench(ws, async (wb) => {
      const settings = resolveSettings({});
      const [from, to] = [day('2025-02-03'), day('2025-05-25')];
      const input = await loadBacktestInput(wb.workspace, from, to, settings);
      const sold = await wb.workspace.rows<{ skuId: string; price: number }>(
        `SELECT l.skuId, (sum(l.salesAmountInclVat) / sum(l.quantitySold))::DOUBLE AS price
         FROM sales s JOIN sales__salesLines l ON l._salesId = s.salesId
         WHERE s._deleted_at IS NULL AND l.quantitySold > 0 AND s.salesDateTime >= $1 AND s.salesDateTime < $2
         GROUP BY 1`,
        [
          new Date((from - HISTORY_REACH_DAYS) * 86_400_000).toISOString(),
          new Date((to + 1 + HISTORY_REACH_DAYS) * 86_400_000).toISOString(),
        ],
      );
      const price = new Map(sold.map((r) => [r.skuId, r.price]));
      expect(price.size).toBeGreaterThan(10);
      let unsold = 0;
      input.start.skus.ids.forEach((id, k) => {
        if (price.has(id)) expect(input.salePrice[k], id).toBeCloseTo(price.get(id)!, 6);
        else {
          expect(input.salePrice[k], id).toBe(0);
          unsold++;
        }
      });
      expect(unsold).toBeGreaterThan(0);
    });
  });

  it('keeps simulated stock physical on every cell and day of the demo, whatever the history writes off', async () => {
    await withWorkbench(ws, async (wb) => {
      // All the demo's days after its first month of history, in one run.
      const { report } = await wb.runBacktest({ fromDay: day('2024-02-01'), toDay: day('2025-12-30') });
      expect(report.daysDone).toBe(699);
      expect(report.lowestSimulatedStock).toBe(0);
      // The history writes off more than the simulation holds on some days: taken from what there is, the rest told.
      expect(report.summary.simulated.writeDownShortfall.units).toBeGreaterThan(0);
      expect(report.daily.every((d) => d.simulated.inventoryUnits >= 0 && d.simulated.warehouseUnits >= 0)).toBe(true);
    });
  });

  it('reads the actual days back when the data has not changed, and derives them again when it has', async () => {
    await withWorkbench(ws, async (wb) => {
      rmSync(join(ws, 'cache'), { recursive: true, force: true });
      const settings = resolveSettings({});
      const [from, to] = [day('2025-05-05'), day('2025-06-01')];
      const load = () => loadBacktestInput(wb.workspace, from, to, settings);
      const derived = await load();
      const kept = await load();
      expect([derived.historyCached, kept.historyCached]).toEqual([false, true]);
      for (const k of ['actual', 'out', 'selling', 'closed', 'salePrice'] as const) expect(kept[k]).toEqual(derived[k]);
      expect((await simulate(kept, settings)).summary).toEqual((await simulate(derived, settings)).summary);
      // Another scenario reads the same days: the history depends on the data only.
      const rich = resolveSettings({}, { defaults: { serviceLevel: 0.99 } });
      expect((await loadBacktestInput(wb.workspace, from, to, rich)).historyCached).toBe(true);

      // A sale more on a day of the period: the kept days no longer hold, and the new one is in what is derived.
      const store = derived.start.locations.ids[derived.start.locations.kind.indexOf('store')];
      const sku = derived.start.skus.ids[0];
      await wb.ingest('Sales', {
        sales: [
          sale('CACHE-1', [salesLine('CACHE-1-1', sku, 40)], {
            locationId: store,
            salesDateTime: '2025-05-10T12:00:00Z',
          }),
        ],
      });
      const after = await load();
      expect(after.historyCached).toBe(false);
      const sold = (input: typeof derived) => {
        const i = 5;
        // The first SKU at the store (cell = sku × locations + location).
        const cell = input.start.locations.ids.indexOf(store);
        let units = 0;
        for (let j = input.actual.dayStart[i]; j < input.actual.dayStart[i + 1]; j++)
          if (input.actual.cell[j] === cell) units += input.actual.sold[j];
        return units;
      };
      expect(sold(after) - sold(derived)).toBe(40);
    });
  });

  it('the CLI prints the summary and writes {run, settings, summary, daily}', async () => {
    const out = join(dir, 'bt.json');
    const r = await demoCli('backtest', '--from', '2025-06-02', '--to', '2025-06-29', '--out', out);
    expect(r.stdout).toMatch(/^backtest bt-\S+, 2025-06-02 … 2025-06-29/);
    expect(r.stdout).toMatch(/in-stock rate +\d/);
    // The world the run met, from the data: the demo's goods move at the morning count.
    expect(r.stdout).toMatch(/transit in the world the data shows: 0 days \(stock levels\) to ST-001/);
    expect(r.stdout).toMatch(
      /deliveries to the stores \(store-days stock arrived by transfer\): \d+ simulated, \d+ in fact/,
    );
    expect(existsSync(out)).toBe(true);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    expect(Object.keys(doc)).toEqual(['run', 'settings', 'summary', 'daily']);
    for (const side of ['simulated', 'actual']) {
      for (const k of ['stockOutDays', 'inStockRate', 'sales', 'lostSales', 'fillRate', 'inventoryUnits'])
        expect(doc.summary[side], `${side}.${k}`).toHaveProperty(k);
    }
    expect(doc.summary.simulated).toHaveProperty('transfers');
    expect(doc.summary.world.transitDays).toContainEqual({ locationId: 'ST-001', days: 0, source: 'stock levels' });
    expect(doc.daily).toHaveLength(28);
    const bad = await demoCli('backtest', '--from', '2025-06-31', '--to', '2025-07-01').catch((e) => e);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--from must be a date YYYY-MM-DD/);
    // A period without data is refused, naming the data's range, and nothing is kept.
    const runs = (await demoCli('backtests')).stdout;
    const empty = await demoCli('backtest', '--from', '2030-01-01', '--to', '2030-12-31').catch((e) => e);
    expect(empty.code).toBe(2);
    const pastTheLastSale = new RegExp(
      '^workbench: no backtest of 2030-01-01 … 2030-12-31: ' +
        "it runs past the last sale \\(the workspace's sales run from 2024-01-01 to 2025-12-30 " +
        'and its stock is known from 2024-01-01\\); pick a period within 2024-01-01 … 2025-12-30\\n$',
    );
    expect(empty.stderr).toMatch(pastTheLastSale);
    expect((await demoCli('backtests')).stdout).toBe(runs);
  });
});
