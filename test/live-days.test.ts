/**
 * A live run that stands on the days the run before it derived (engine/inputs/live-days.ts) reads only what is
 * new, and gives the state a fresh read of the workspace gives, to the bit: on generated data with a webshop that
 * sells from the warehouse's stock, a day's morning and a moment of it, days apart, and after writes dated on either
 * side of what was kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categorySettingsOf, loadEngineState } from '../engine/inputs/engine-state.js';
import { LiveDays } from '../engine/inputs/live-days.js';
import { KeptNetwork } from '../engine/inputs/network-rows.js';
import { inStockBitsOf } from '../engine/recommend/in-stock-bits.js';
import { cellOf, type EngineState } from '../engine/recommend/state.js';
import { STOCK_LOOK_BACK_DAYS } from '../engine/store/daily-levels.js';
import { resolveSettings, type SettingsOverride } from '../engine/recommend/settings.js';
import { Workbench } from '../engine/service/workbench.js';
import { item, sale, salesLine } from './fixtures.js';
import { generateFeed, loadFeed } from './generated-feed.js';

const dir = mkdtempSync(join(tmpdir(), 'wb-live-days-'));
const data = join(dir, 'data');
const ws = join(dir, 'ws');
const START = '2024-01-01';
const DAY = 86_400_000;
const LAST = Date.parse(`${START}T00:00:00Z`) / DAY + 399;
let wb: Workbench;
const at = (day: number, hour: number) => new Date(day * DAY + hour * 3_600_000).toISOString();

beforeAll(async () => {
  const flags = ['--seed', '3', '--stores', '4', '--skus', '100', '--days', '400', '--start', START];
  await generateFeed(data, [...flags, '--assortment', 'basics', '--webshop-from-warehouse']);
  await loadFeed(ws, data);
  wb = await Workbench.open(ws);
});
afterAll(async () => {
  await wb?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Where two states differ (NaN equal to NaN): a path and the first differing element, or nothing. */
function differences(a: unknown, b: unknown, path = 'state'): string[] {
  if (ArrayBuffer.isView(a)) {
    const x = a as unknown as ArrayLike<number>;
    const y = b as unknown as ArrayLike<number>;
    if (!ArrayBuffer.isView(b) || x.length !== y.length) return [`${path}: length ${x.length} against ${y?.length}`];
    for (let i = 0; i < x.length; i++)
      if (!(x[i] === y[i] || (x[i] !== x[i] && y[i] !== y[i]))) return [`${path}[${i}]: ${x[i]} against ${y[i]}`];
    return [];
  }
  if (a !== null && typeof a === 'object') {
    const o = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(a), ...Object.keys(o ?? {})]);
    return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], o?.[k], `${path}.${k}`));
  }
  return a === b || (a !== a && b !== b) ? [] : [`${path}: ${String(a)} against ${String(b)}`];
}

/** What a live run keeps for the next: its days and its network's rows. */
const keeping = () => ({ days: new LiveDays(), network: new KeptNetwork() });

/** Each cell's in-stock days and their bits, as the state's sales ring holds them. */
function inStockOfRing(s: EngineState) {
  const W = s.windowDays;
  const days = new Int32Array(s.sales.length / W);
  for (let i = 0; i < s.sales.length; i++) if (s.sales[i] === s.sales[i]) days[Math.floor(i / W)]++;
  return { days, bits: inStockBitsOf(s.sales, W) };
}

/** The live state on `day` (at 13:30 of it, `atMoment`) with what was kept, and a fresh one. */
async function both(kept: ReturnType<typeof keeping>, day: number, atMoment: boolean, scenario: SettingsOverride = {}) {
  const settings = resolveSettings(await categorySettingsOf(wb.workspace), scenario);
  const nowMicros = atMoment ? day * DAY * 1000 + 13.5 * 3600e6 : Date.now() * 1000;
  const mode = { kind: 'live' as const, nowMicros, atMoment };
  const states = {
    kept: await loadEngineState(wb.workspace, day, settings, { ...mode, ...kept }),
    fresh: await loadEngineState(wb.workspace, day, settings, mode),
  };
  // The counts of in-stock days the engine reads are those of the ring.
  for (const s of Object.values(states)) {
    const ring = inStockOfRing(s);
    expect([s.inStockDays, s.inStockBits]).toEqual([ring.days, ring.bits]);
  }
  return states;
}

describe('a live run on the days kept from the run before', () => {
  for (const [title, atMoment, scenario] of [
    ["on a day's morning", false, {}],
    ['at a moment of the day, the webshop selling from the warehouse', true, { fulfilledFrom: { 'WEB-01': 'WH-01' } }],
  ] as const) {
    it(`reads only the days since, and gives a fresh read's state to the bit: ${title}`, async () => {
      const kept = keeping();
      const { days } = kept;
      const first = await both(kept, LAST - 10, atMoment, scenario);
      expect(days.reused).toBe(false);
      expect(differences(first.kept, first.fresh)).toEqual([]);
      // The same day again, one day on, then a week: what was kept stands, and the window and the year moved on.
      for (const day of [LAST - 10, LAST - 9, LAST - 2]) {
        const run = await both(kept, day, atMoment, scenario);
        expect(days.reused).toBe(true);
        expect(differences(run.kept, run.fresh)).toEqual([]);
        expect(run.fresh.asOfDay).toBe(day);
      }
      // An earlier day stands on nothing kept, nor does a day more than four weeks after the days were derived whole.
      await both(kept, LAST - 20, atMoment, scenario);
      expect(days.reused).toBe(false);
      const late = await both(kept, LAST + 9, atMoment, scenario);
      expect(days.reused).toBe(false);
      expect(differences(late.kept, late.fresh)).toEqual([]);
    });
  }

  it('takes what was posted since, and derives everything again after a write dated before what it kept', async () => {
    const kept = keeping();
    const { days } = kept;
    const [{ skuId }] = await wb.workspace.rows<{ skuId: string }>(
      `SELECT skuId FROM items__skus ORDER BY skuId LIMIT 1`,
    );
    const post = (id: string, day: number, units: number, sku = skuId) =>
      wb.ingest('Sales', {
        sales: [sale(id, [salesLine(`${id}-1`, sku, units)], { locationId: 'ST-001', salesDateTime: at(day, 10) })],
      });
    const day = LAST - 3;
    // A cell counted once, as far back as a run on `day` looks for a count, and sold from after: two days on, a run
    // no longer finds the count, and starts the cell from what sold since it looks back.
    const lookBack = day - resolveSettings({}).demandWindowDays - STOCK_LOOK_BACK_DAYS;
    await wb.ingest('Items', { items: [item('LIVE-ITEM', ['LIVE-SKU'])] });
    await wb.ingest('Stock', {
      stock: [{ locationId: 'ST-001', skuId: 'LIVE-SKU', quantity: 9, stockDateTime: at(lookBack, 12) }],
    });
    await post('LIVE-0', lookBack + 1, 2, 'LIVE-SKU');
    await post('LIVE-00', lookBack + 3, 1, 'LIVE-SKU');
    const counted = await both(kept, day, false);
    const cell = (s: typeof counted.fresh) =>
      s.onHand[cellOf(s, s.locations.ids.indexOf('ST-001'), s.skus.ids.indexOf('LIVE-SKU'))];
    // Posted since: a sale on the kept day itself and the day after it, and a count of that day.
    await post('LIVE-1', day, 3);
    await post('LIVE-2', day + 1, 2);
    await wb.ingest('Stock', { stock: [{ locationId: 'ST-001', skuId, quantity: 7, stockDateTime: at(day + 1, 0) }] });
    let run = await both(kept, day + 2, false);
    expect(days.reused).toBe(true);
    expect(differences(run.kept, run.fresh)).toEqual([]);
    expect([cell(counted.fresh), cell(run.fresh)]).toEqual([6, -1]);
    // Dated before the days kept now (day + 2): a sale, a correction of one, a deletion, a count.
    const before = [
      () => post('LIVE-3', day - 30, 4),
      () => post('LIVE-3', day - 30, 6),
      () => wb.remove('Sales', { sales: [{ salesId: 'LIVE-1' }] }),
      () =>
        wb.ingest('Stock', { stock: [{ locationId: 'ST-002', skuId, quantity: 5, stockDateTime: at(day - 2, 0) }] }),
    ];
    for (const write of before) {
      await write();
      run = await both(kept, day + 2, false);
      expect(days.reused).toBe(false);
      expect(differences(run.kept, run.fresh)).toEqual([]);
    }
  });

  it('reads the network again once its master data changed, and only then', async () => {
    const kept = keeping();
    const [{ skuId }] = await wb.workspace.rows<{ skuId: string }>(
      `SELECT skuId FROM items__skus ORDER BY skuId DESC LIMIT 1`,
    );
    const excluded = (s: EngineState) => s.skus.excluded[s.skus.ids.indexOf(skuId)];
    const before = await both(kept, LAST - 1, false);
    expect(excluded(before.kept)).toBe(0);
    // A day posted leaves the network as it was: the same rows stand (the very objects).
    const rows = await kept.network.rows(wb.workspace);
    await wb.ingest('Sales', {
      sales: [sale('NET-1', [salesLine('NET-1-1', skuId, 1)], { locationId: 'ST-001', salesDateTime: at(LAST, 9) })],
    });
    expect(await kept.network.rows(wb.workspace)).toBe(rows);
    await wb.ingest('ExcludedSkus', { excludedSkus: [{ skuId }] });
    const after = await both(kept, LAST - 1, false);
    expect(differences(after.kept, after.fresh)).toEqual([]);
    expect(excluded(after.kept)).toBe(1);
    await wb.remove('ExcludedSkus', { excludedSkus: [{ skuId }] });
    const again = await both(kept, LAST - 1, false);
    expect(differences(again.kept, again.fresh)).toEqual([]);
    expect(excluded(again.kept)).toBe(0);
  });
});
