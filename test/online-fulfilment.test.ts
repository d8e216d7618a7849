/**
 * An online shop fulfilled from a warehouse (settings.fulfilledFrom): a generated retailer whose webshop ships from
 * its warehouse's stock and has none of its own (the generator's --webshop-from-warehouse), with its hidden truth.
 * Said so, the backtest reads the webshop in stock when the warehouse is, near the truth; serves its customers from
 * the warehouse on the simulated side; sends it nothing and counts no stock twice. Not said so, the same data reads
 * as a webshop selling what it never held.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Workbench } from '../engine/service/workbench.js';
import { resolveSettings, type SettingsOverride } from '../engine/recommend/settings.js';
import { loadBacktestInput } from '../engine/inputs/backtest-input.js';
import { simulate } from '../engine/simulate/simulate.js';
import { simulatePartitioned } from '../engine/simulate/partitioned.js';
import { transferRows } from '../engine/simulate/simulated-transfer.js';
import { dayText } from '../engine/model/datetime.js';
import { generateFeed, loadFeed, truthTotals } from './generated-feed.js';

const dir = mkdtempSync(join(tmpdir(), 'wb-online-'));
const data = join(dir, 'data');
const truthDir = join(dir, 'truth');
const ws = join(dir, 'ws');
const START = '2024-01-01';
const FROM_DAY = Date.parse(`${START}T00:00:00Z`) / 86_400_000 + 200;
const TO_DAY = FROM_DAY + 199;
const FULFILLED: SettingsOverride = { fulfilledFrom: { 'WEB-01': 'WH-01' } };
let wb: Workbench;

beforeAll(async () => {
  const flags = ['--seed', '2', '--stores', '4', '--skus', '100', '--days', '400', '--start', START];
  await generateFeed(data, [...flags, '--assortment', 'basics', '--webshop-from-warehouse'], { truth: truthDir });
  await loadFeed(ws, data);
  wb = await Workbench.open(ws);
});
afterAll(async () => {
  await wb?.close();
  rmSync(dir, { recursive: true, force: true });
});

const near = (x: number, truth: number, share: number) => expect(Math.abs(x / truth - 1)).toBeLessThan(share);

describe('an online shop fulfilled from a warehouse', () => {
  it("reads its days as the warehouse's stock, near the truth, and counts no stock twice", async () => {
    const [from, to] = [dayText(FROM_DAY), dayText(TO_DAY)];
    const truth = truthTotals(truthDir, from, to);
    const webTruth = truthTotals(truthDir, from, to, 'WEB-01');
    const said = await wb.runBacktest({ fromDay: FROM_DAY, toDay: TO_DAY, scenario: FULFILLED });
    const notSaid = await wb.runBacktest({ fromDay: FROM_DAY, toDay: TO_DAY });
    const web = async (runId: string) => (await wb.backtestGroups(runId, 'location')).find((g) => g.id === 'WEB-01')!;

    // Not said: every webshop sale is of stock it never held, and most of its days read as lost.
    const blind = await web(notSaid.run.runId);
    expect(notSaid.report.summary.actual.negativeStock.cells).toBeGreaterThan(0);
    expect(blind.actual.fillRate!).toBeLessThan(webTruth.sales / webTruth.demand - 0.1);

    // Said: the webshop is out when the warehouse is, as in truth, and nothing reads below zero.
    const a = said.report.summary.actual;
    expect(a.negativeStock.cells).toBe(0);
    const w = await web(said.run.runId);
    expect(w.actual.sales).toBeCloseTo(webTruth.sales, 6);
    near(w.actual.stockOutDays, webTruth.stockOutDays, 0.03);
    near(w.actual.lostSales, webTruth.lost, 0.1);
    expect(Math.abs(w.actual.fillRate! - webTruth.sales / webTruth.demand)).toBeLessThan(0.005);
    near(a.stockOutDays, truth.stockOutDays, 0.02);
    near(a.lostSales, truth.lost, 0.1);
    expect(Math.abs(a.fillRate! - truth.sales / truth.demand)).toBeLessThan(0.01);

    // The simulation serves it from the warehouse's stock: it holds none on either side, and is sent nothing.
    expect(w.simulated.sales).toBeGreaterThan(0.9 * w.actual.sales);
    for (const side of [w.actual, w.simulated]) expect(side.inventoryUnits).toBe(0);
    expect(said.report.lowestSimulatedStock).toBe(0);
    const moved = async (runId: string) => {
      const [row] = await wb.workspace.rows<{ n: bigint }>(
        `SELECT count(*) AS n FROM backtest_transfers
         WHERE runId = $1 AND (fromLocationId = 'WEB-01' OR toLocationId = 'WEB-01')`,
        [runId],
      );
      return Number(row.n);
    };
    expect(await moved(said.run.runId)).toBe(0);
    expect(await moved(notSaid.run.runId)).toBeGreaterThan(0);
    // Its stock is the warehouse's, counted there once: the network holds the stores' and the warehouse's.
    expect(a.warehouse.inventoryUnits).toBeGreaterThan(0);
    expect(a.network.inventoryUnits).toBeCloseTo(a.inventoryUnits + a.warehouse.inventoryUnits, 6);

    // A style traced cell by cell adds up to the run's figures (the webshop's cells hold nothing, the warehouse's
    // what it sold from).
    const style = (await wb.backtestGroups(said.run.runId, 'style')).reduce((x, y) =>
      y.actual.sales > x.actual.sales ? y : x,
    );
    const cells = await wb.backtestStyleCells(said.run.runId, style.id);
    expect(cells.cells.some((c) => c.locationId === 'WEB-01' && c.actual.sales > 0)).toBe(true);
  });

  it('gives the same run in parts, on threads', async () => {
    const settings = resolveSettings({}, FULFILLED);
    const input = await wb.workspace.exclusive(() => loadBacktestInput(wb.workspace, FROM_DAY, TO_DAY, settings));
    const one = await simulate(input, settings);
    const two = await simulatePartitioned(input, settings, {}, 2);
    expect(two.transfers).toEqual(one.transfers);
    expect(two.styleDays.values).toEqual(one.styleDays.values);
    expect(two.summary.simulated.sales).toBeCloseTo(one.summary.simulated.sales, 6);
    expect(two.summary.actual).toEqual(one.summary.actual);
    const web = input.start.locations.ids.indexOf('WEB-01');
    expect(transferRows(one.transfers).length).toBeGreaterThan(0);
    expect(input.start.locations.fulfilledFrom[web]).toBe(input.start.locations.ids.indexOf('WH-01'));
  });

  it('keeps the webshop out of live proposals, and refuses a setting that names no warehouse', async () => {
    await wb.setScenario(FULFILLED, 'online');
    const sent = async (scenarioName?: string) => {
      const run = await wb.runRecommendations({ asOfDay: TO_DAY + 1, scenarioName });
      expect(run.proposals).toBeGreaterThan(0);
      const [row] = await wb.workspace.rows<{ n: bigint }>(
        `SELECT count(*) AS n FROM transfer_proposals
         WHERE runId = $1 AND (toLocationId = 'WEB-01' OR fromLocationId = 'WEB-01')`,
        [run.runId],
      );
      return Number(row.n);
    };
    expect(await sent()).toBeGreaterThan(0);
    expect(await sent('online')).toBe(0);

    // The webshop's targets are stock kept at its warehouse, and say so; no other location's do.
    const heldAt = async () => {
      const by = new Map<string, Set<string | undefined>>();
      for (let offset = 0, more = true; more; offset += 1000) {
        const page = await wb.stockTargets({ offset, limit: 1000 });
        for (const r of page.stockTargets as { locationId: string; heldAt?: string }[])
          by.set(r.locationId, (by.get(r.locationId) ?? new Set()).add(r.heldAt));
        more = page.moreRecordsAvailable;
      }
      return by;
    };
    expect((await heldAt()).get('WEB-01')).toEqual(new Set([undefined]));
    await wb.setScenario(FULFILLED);
    const held = await heldAt();
    expect(held.get('WEB-01')).toEqual(new Set(['WH-01']));
    expect([...held].filter(([l, at]) => l !== 'WEB-01' && !at.has(undefined))).toEqual([]);
    expect(held.size).toBeGreaterThan(1);
    await wb.setScenario({});

    const refused = (scenario: SettingsOverride) =>
      wb.runBacktest({ fromDay: FROM_DAY, toDay: FROM_DAY + 6, scenario }).then(
        () => undefined,
        (e: Error & { problems?: unknown }) => e.problems,
      );
    expect(await refused({ fulfilledFrom: { 'WEB-01': 'ST-001' } })).toEqual([
      {
        path: '/fulfilledFrom/WEB-01',
        message: "ST-001 is not a warehouse (it is a store): an online location sells from a warehouse's stock",
      },
    ]);
    expect(await refused({ fulfilledFrom: { 'WEB-02': 'WH-01', 'WEB-01': 'WH-09' } })).toEqual([
      { path: '/fulfilledFrom/WEB-02', message: 'the workspace holds no location WEB-02' },
      { path: '/fulfilledFrom/WEB-01', message: 'the workspace holds no location WH-09' },
    ]);
  });
});
