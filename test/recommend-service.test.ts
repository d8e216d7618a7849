import { afterEach, describe, expect, it } from 'vitest';
import { defaultAsOfDay, loadEngineState } from '../engine/inputs/engine-state.js';
import { resolveSettings } from '../engine/recommend/settings.js';
import { parseSettingsOverride, SettingsInvalid } from '../engine/recommend/settings-schema.js';
import { SWEEPABLE } from '../engine/service/sweep-grid.js';
import { engineRecommender } from '../engine/service/recommender.js';
import { item, location, manualClock, sale, salesLine, tempWorkbench, type TempWorkbench } from './fixtures.js';

let t: TempWorkbench;
afterEach(async () => t?.cleanup());

const DAY = 86_400_000;
const iso = (day: string, hour = 12) => `${day}T${String(hour).padStart(2, '0')}:00:00.000Z`;
const dayNo = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY;
const dates = (from: string, n: number) =>
  Array.from({ length: n }, (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * DAY).toISOString().slice(0, 10));

/** WH holds stock; S1 (a store) sold 2 a day for four weeks and is now out; WEB sells online. */
async function feed(wb: TempWorkbench['wb']): Promise<void> {
  await wb.ingest('Items', { items: [item('TEE', ['TEE-M'])] });
  await wb.ingest('Locations', {
    locations: [location('WH', { gln: '8712345678906' }), location('S1', { gln: '8712345678913' }), location('WEB')],
  });
  await wb.ingest('Stock', {
    stock: [
      { locationId: 'WH', skuId: 'TEE-M', quantity: 300, stockDateTime: '2024-02-01T00:00:00Z' },
      { locationId: 'S1', skuId: 'TEE-M', quantity: 56, stockDateTime: '2024-02-01T00:00:00Z' },
    ],
  });
  const days = dates('2024-02-01', 28);
  await wb.ingest('Sales', {
    sales: [
      ...days.map((d, i) =>
        sale(`S1-${i}`, [salesLine(`S1-${i}-1`, 'TEE-M', 2)], { locationId: 'S1', salesDateTime: iso(d) }),
      ),
      sale('W-1', [salesLine('W-1-1', 'TEE-M', 1, { online: true })], {
        locationId: 'WEB',
        salesDateTime: iso('2024-02-10'),
      }),
    ],
  });
}

describe('engine state from a workspace', () => {
  it('derives location kinds and reconstructs stock from levels, sales and mutations', async () => {
    t = await tempWorkbench();
    await feed(t.wb);
    await t.wb.ingest('StockMutations', {
      stockMutations: [
        {
          stockMutationId: 'M1',
          locationId: 'WH',
          skuId: 'TEE-M',
          quantity: 20,
          mutationDateTime: '2024-02-20T08:00:00Z',
          type: 'receipt',
        },
      ],
    });
    const s = await loadEngineState(t.wb.workspace, dayNo('2024-03-01'), resolveSettings({}, { demandWindowDays: 35 }));
    const loc = (id: string) => s.locations.ids.indexOf(id);
    expect(s.locations.kind[loc('WH')]).toBe('warehouse');
    expect(s.locations.kind[loc('S1')]).toBe('store');
    expect(s.locations.kind[loc('WEB')]).toBe('online');
    expect(s.onHand[loc('WH')]).toBe(320);
    expect(s.onHand[loc('S1')]).toBe(0);
    // Window: 2024-01-26 … 2024-02-29. S1 held stock from Feb 1 to Feb 28 and sold 2 a day;
    // before and after, out of stock.
    const W = 35;
    const base = loc('S1') * W;
    // NaN in the window: a day without stock.
    const inStock = Array.from(s.sales.subarray(base, base + W), (x) => (Number.isNaN(x) ? 0 : 1));
    expect(inStock.slice(0, 6)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(inStock.slice(6, 34).every((x) => x === 1)).toBe(true);
    expect(inStock[34]).toBe(0);
    expect(s.sales[base + 6]).toBe(2);
    // The style's discount each day of the window, across the network: 29.95 paid for 39.95 listed, NaN where it
    // did not sell.
    const discount = Array.from(s.styleDiscount!.subarray(0, W));
    expect(discount.slice(0, 6).every(Number.isNaN)).toBe(true);
    for (const x of discount.slice(6, 34)) expect(x).toBeCloseTo(1 - 29.95 / 39.95, 6);
    expect(discount[34]).toBeNaN();
  });

  it('takes client transfers as they stood on a replayed day', async () => {
    t = await tempWorkbench();
    await feed(t.wb);
    await t.wb.ingest('Transfers', {
      transfers: [
        {
          transferId: 'LATER',
          fromLocationId: 'WH',
          toLocationId: 'S1',
          skuId: 'TEE-M',
          quantity: 50,
          shippedDateTime: '2024-06-01T00:00:00Z',
          received: false,
        },
        {
          transferId: 'ON-ITS-WAY',
          fromLocationId: 'WH',
          toLocationId: 'S1',
          skuId: 'TEE-M',
          quantity: 7,
          shippedDateTime: '2024-02-27T00:00:00Z',
          expectedArrivalDateTime: '2024-03-03T00:00:00Z',
          received: true,
        },
      ],
    });
    const s = await loadEngineState(t.wb.workspace, dayNo('2024-03-01'), resolveSettings({}));
    expect(s.inTransit[s.locations.ids.indexOf('S1')]).toBe(7);
  });

  it("tells a store's last delivery from its last arrival of any kind", async () => {
    t = await tempWorkbench();
    await feed(t.wb);
    const moved = (transferId: string, day: string, transferType?: string) => ({
      transferId,
      fromLocationId: 'WH',
      toLocationId: 'S1',
      skuId: 'TEE-M',
      quantity: 5,
      expectedArrivalDateTime: `${day}T00:00:00Z`,
      received: true,
      ...(transferType ? { transferType } : {}),
    });
    await t.wb.ingest('Transfers', {
      transfers: [moved('UNTYPED', '2024-02-20'), moved('MOVE', '2024-02-26', 'Redistribution')],
    });
    const s = await loadEngineState(t.wb.workspace, dayNo('2024-03-01'), resolveSettings({}));
    const c = s.locations.ids.indexOf('S1');
    // The move arrived last; the delivery (a client's transfer of no type counts as one) six days before it.
    expect([s.lastArrivalDay[c], s.lastDeliveryDay[c]]).toEqual([dayNo('2024-02-26'), dayNo('2024-02-20')]);
    await t.wb.ingest('Transfers', { transfers: [moved('REPL', '2024-02-27', 'Replenishment')] });
    const later = await loadEngineState(t.wb.workspace, dayNo('2024-03-01'), resolveSettings({}));
    expect(later.lastDeliveryDay[c]).toBe(dayNo('2024-02-27'));
  });

  it('sees nothing after its day', async () => {
    t = await tempWorkbench();
    await feed(t.wb);
    const settings = resolveSettings({});
    const before = await loadEngineState(t.wb.workspace, dayNo('2024-02-15'), settings);
    await t.wb.ingest('Sales', {
      sales: dates('2024-02-15', 14).map((d, i) =>
        sale(`F-${i}`, [salesLine(`F-${i}-1`, 'TEE-M', 50)], { locationId: 'S1', salesDateTime: iso(d, 0) }),
      ),
    });
    await t.wb.ingest('Stock', {
      stock: [{ locationId: 'S1', skuId: 'TEE-M', quantity: 999, stockDateTime: '2024-02-15T00:00:01Z' }],
    });
    const after = await loadEngineState(t.wb.workspace, dayNo('2024-02-15'), settings);
    expect(after.onHand).toEqual(before.onHand);
    expect(after.sales).toEqual(before.sales);
  });

  it('stands by default on the first day the data does not cover', async () => {
    t = await tempWorkbench();
    await feed(t.wb);
    const now = Date.parse('2024-06-01T12:00:00Z') * 1000;
    const asOf = () => t.wb.workspace.exclusive(() => defaultAsOfDay(t.wb.workspace, now));
    // The last sale is on 2024-02-28: the day after.
    expect(await asOf()).toBe(dayNo('2024-02-29'));
    // A count stamped at 2024-03-04's midnight opens that day, and nothing else of it is known.
    await t.wb.ingest('Stock', {
      stock: [{ locationId: 'S1', skuId: 'TEE-M', quantity: 3, stockDateTime: '2024-03-04T00:00:00Z' }],
    });
    expect(await asOf()).toBe(dayNo('2024-03-04'));
    // A count later that day covers part of it: the day after.
    await t.wb.ingest('Stock', {
      stock: [{ locationId: 'S1', skuId: 'TEE-M', quantity: 3, stockDateTime: '2024-03-04T18:00:00Z' }],
    });
    expect(await asOf()).toBe(dayNo('2024-03-05'));
    // Never after today.
    expect(
      await t.wb.workspace.exclusive(() => defaultAsOfDay(t.wb.workspace, Date.parse('2024-02-10T12:00:00Z') * 1000)),
    ).toBe(dayNo('2024-02-10'));
  });

  it('starts a day from the count taken at its midnight, and from nothing the day before', async () => {
    t = await tempWorkbench();
    await feed(t.wb);
    const settings = resolveSettings({});
    // The feed's first counts are stamped 2024-02-01T00:00: the stock that day starts with (a backtest from that
    // day starts stocked, not empty); the day before knows none of it.
    const first = await loadEngineState(t.wb.workspace, dayNo('2024-02-01'), settings);
    const at = (s: typeof first, id: string) => s.onHand[s.locations.ids.indexOf(id)];
    expect([at(first, 'WH'), at(first, 'S1')]).toEqual([300, 56]);
    const before = await loadEngineState(t.wb.workspace, dayNo('2024-01-31'), settings);
    expect([at(before, 'WH'), at(before, 'S1')]).toEqual([0, 0]);
    // No day of the window held stock: every day of it is NaN (no stock).
    expect(first.sales.every((x) => Number.isNaN(x))).toBe(true);
  });
});

describe('what a live run sees', () => {
  /** S1 sold 2 a day for four weeks to the last day and is out; the warehouse's stock comes in today. */
  async function today(clock: ReturnType<typeof manualClock>) {
    t = await tempWorkbench({ clock });
    await t.wb.ingest('Items', { items: [item('TEE', ['TEE-M'])] });
    await t.wb.ingest('Locations', { locations: [location('WH'), location('S1')] });
    await t.wb.ingest('Stock', {
      stock: [{ locationId: 'S1', skuId: 'TEE-M', quantity: 56, stockDateTime: '2024-02-03T00:00:00Z' }],
    });
    await t.wb.ingest('Sales', {
      sales: dates('2024-02-03', 28).map((d, i) =>
        sale(`S1-${i}`, [salesLine(`S1-${i}-1`, 'TEE-M', 2)], { locationId: 'S1', salesDateTime: iso(d) }),
      ),
    });
  }

  it('sees stock posted a second before it: everything received until the moment it runs', async () => {
    const clock = manualClock('2024-03-01T10:00:00Z');
    await today(clock);
    // Posted now, without a time: stamped with the moment it arrived.
    await t.wb.ingest('Stock', { stock: [{ locationId: 'WH', skuId: 'TEE-M', quantity: 500 }] });
    clock.advanceSeconds(1);
    const run = await t.wb.runRecommendations();
    expect(run.asOf).toBe('2024-03-01T10:00:01.000Z');
    expect(run.byType.Replenishment?.transfers).toBe(1);
    const [p] = (await t.wb.proposals({ offset: 0, limit: 10 })).proposals;
    expect(p).toMatchObject({ fromLocationId: 'WH', toLocationId: 'S1' });
    expect(p.quantity).toBeGreaterThan(14);
    // Today's own sales count too: a sale this morning leaves the store less than it started the day with.
    await t.wb.ingest('Stock', { stock: [{ locationId: 'S1', skuId: 'TEE-M', quantity: 5 }] });
    clock.advanceSeconds(1);
    await t.wb.ingest('Sales', {
      sales: [
        sale('TODAY', [salesLine('TODAY-1', 'TEE-M', 3)], {
          locationId: 'S1',
          salesDateTime: '2024-03-01T10:00:01.500Z',
        }),
      ],
    });
    clock.advanceSeconds(1);
    const explained = await t.wb.explainDemand('S1', 'TEE-M');
    expect(explained).toMatchObject({ onHand: 2, asOf: '2024-03-01T10:00:03.000Z' });
  });

  it('reviews an explicit day as of its morning', async () => {
    const clock = manualClock('2024-03-01T10:00:00Z');
    await today(clock);
    await t.wb.ingest('Stock', { stock: [{ locationId: 'WH', skuId: 'TEE-M', quantity: 500 }] });
    clock.advanceSeconds(1);
    // The morning of today knows nothing of what came in since midnight.
    expect(await t.wb.runRecommendations({ asOfDay: dayNo('2024-03-01') })).toMatchObject({
      asOf: '2024-03-01T00:00:00.000Z',
      proposals: 0,
    });
  });
});

describe('recommendations through the service', () => {
  it('proposes, approves and hands out a replenishment, deterministically', async () => {
    // The approval happens on the evening of the run's day, before the next run.
    t = await tempWorkbench({ clock: manualClock('2024-03-01T18:00:00Z') });
    await feed(t.wb);
    const toS1 = async () =>
      (await t.wb.proposals({ offset: 0, limit: 10 })).proposals.filter((p) => p.toLocationId === 'S1');
    const run = await t.wb.runRecommendations({ asOfDay: dayNo('2024-03-01') });
    // S1, and the webshop, which sold the style once.
    expect(run.byType.Replenishment.transfers).toBe(2);
    const proposals = await toS1();
    // S1 sold two a day, its last day selling out (so a little more than two); the feed shows no transfer, so the
    // engine plans a day's transit: 2.1 a day over 7 + 1 days at 90 % service is 22.
    expect(proposals[0]).toMatchObject({
      transferType: 'Replenishment',
      fromLocationId: 'WH',
      toLocationId: 'S1',
      skuId: 'TEE-M',
      quantity: 22,
    });
    expect(proposals[0].reason).toMatch(/demand 2\.1\/day over 8 days at 90% service/);
    expect(proposals[0].referenceId).toMatch(/^RP-20240301-/);

    const again = await t.wb.runRecommendations({ asOfDay: dayNo('2024-03-01') });
    expect(again.proposals).toBe(2);
    // Pages: the total is the whole list's, on every page, past the end too.
    expect(await t.wb.proposals({ offset: 1, limit: 1 })).toMatchObject({ total: 2, proposals: [expect.anything()] });
    expect(await t.wb.proposals({ offset: 5, limit: 10 })).toEqual({ total: 2, proposals: [] });
    expect((await toS1())[0].referenceId).toBe(proposals[0].referenceId);

    const approval = await t.wb.approveTransfers({ referenceIds: [proposals[0].referenceId], description: 'week 9' });
    const out = await t.wb.transfers({ offset: 0, limit: 10 });
    expect(out.transfers).toEqual([
      expect.objectContaining({
        referenceId: proposals[0].referenceId,
        approvalBatchId: approval.approvalBatchId,
        quantity: 22,
        fromLocationGLN: '8712345678906',
        toLocationGLN: '8712345678913',
        approvalBatchDescription: 'week 9',
      }),
    ]);
    // Approved and not yet carried out: reserved at the warehouse and in transit to S1, also on the same day.
    const live = await loadEngineState(t.wb.workspace, dayNo('2024-03-01'), resolveSettings({}), {
      kind: 'live',
      nowMicros: Date.parse('2024-03-01T19:00:00Z') * 1000,
      atMoment: false,
    });
    expect(live.onHand[live.locations.ids.indexOf('WH')]).toBe(300 - 22);
    expect(live.inTransit[live.locations.ids.indexOf('S1')]).toBe(22);
    await t.wb.runRecommendations({ asOfDay: dayNo('2024-03-01') });
    expect(
      (await t.wb.proposals({ offset: 0, limit: 10, approved: false })).proposals.filter(
        (p) => p.toLocationId === 'S1',
      ),
    ).toEqual([]);
    // A replay knows nothing of the live system's approvals.
    const replay = await loadEngineState(t.wb.workspace, dayNo('2024-03-01'), resolveSettings({}));
    expect(replay.onHand[replay.locations.ids.indexOf('WH')]).toBe(300);
    await t.wb.runRecommendations({ asOfDay: dayNo('2024-03-02') });
    expect(
      (await t.wb.proposals({ offset: 0, limit: 10, approved: false })).proposals.filter(
        (p) => p.toLocationId === 'S1',
      ),
    ).toEqual([]);
  });

  const workspaceSettingsTitle =
    'follows exclusions, stock not for replenishment, client targets and category settings from the workspace';
  it(workspaceSettingsTitle, async () => {
    t = await tempWorkbench();
    await feed(t.wb);
    const asOfDay = dayNo('2024-03-01');
    const qty = async () => {
      await t.wb.runRecommendations({ asOfDay });
      return (await t.wb.proposals({ offset: 0, limit: 10 })).proposals
        .filter((p) => p.toLocationId === 'S1')
        .map((p) => p.quantity);
    };
    await t.wb.ingest('StockTargets', { stockTargets: [{ locationId: 'S1', skuId: 'TEE-M', targetQuantity: 10 }] });
    expect(await qty()).toEqual([10]);
    // Six units free: each goes where it most likely sells, S1 (to its target of 10) and the webshop alike.
    await t.wb.ingest('StockNotForReplenishment', {
      stockNotForReplenishment: [{ locationId: 'WH', skuId: 'TEE-M', quantity: 294 }],
    });
    const [toS1] = await qty();
    const all = (await t.wb.proposals({ offset: 0, limit: 10 })).proposals;
    expect(all.reduce((n, p) => n + p.quantity, 0)).toBe(6);
    expect(toS1).toBeGreaterThan(0);
    expect(toS1).toBeLessThan(6);
    await t.wb.remove('StockTargets', { stockTargets: [{ locationId: 'S1', skuId: 'TEE-M' }] });
    await t.wb.ingest('StockNotForReplenishment', {
      stockNotForReplenishment: [{ locationId: 'WH', skuId: 'TEE-M', quantity: 0 }],
    });
    await t.wb.ingest('MerchandiseCategorySettings', {
      merchandiseCategorySettings: [{ merchandiseCategoryId: 'MC1', reviewPeriodDays: 14, serviceLevel: 0.5 }],
    });
    // 2.1/day over 14 + 1 days; 50 % a week is 25 % a fortnight (the chance both weeks go without running out): 28.
    expect(await qty()).toEqual([28]);
    await t.wb.ingest('ExcludedSkus', { excludedSkus: [{ skuId: 'TEE-M' }] });
    expect(await qty()).toEqual([]);
    await t.wb.remove('ExcludedSkus', { excludedSkus: [{ skuId: 'TEE-M' }] });
    await t.wb.ingest('ExcludedLocations', { excludedLocations: [{ locationId: 'S1' }] });
    expect(await qty()).toEqual([]);
    // The webshop still gets its replenishment: the exclusion is of S1 only.
    expect((await t.wb.proposals({ offset: 0, limit: 10 })).proposals.map((p) => p.toLocationId)).toEqual(['WEB']);
  });

  it('keeps a validated scenario in the workspace and refuses a bad one', async () => {
    t = await tempWorkbench();
    await feed(t.wb);
    await t.wb.setScenario({ defaults: { reviewPeriodDays: 14, serviceLevel: 0.5 } });
    await t.wb.runRecommendations({ asOfDay: dayNo('2024-03-01') });
    expect(
      (await t.wb.proposals({ offset: 0, limit: 10 })).proposals.find((p) => p.toLocationId === 'S1')!.quantity,
    ).toBe(28);
    await expect(t.wb.setScenario({ defaults: { serviceLevel: 2 } })).rejects.toBeInstanceOf(SettingsInvalid);
    await expect(t.wb.setScenario({ replenishment: { enable: true } })).rejects.toThrow(/settings rejected/);
    expect(await t.wb.scenario()).toEqual({ defaults: { reviewPeriodDays: 14, serviceLevel: 0.5 } });
  });

  it('runs and replays with every setting at either end of its bounds, proposing finite quantities', async () => {
    t = await tempWorkbench();
    await feed(t.wb);
    /** Every number a scenario sets at its minimum or its maximum, per category too. */
    const settingsAt = (end: 'minimum' | 'maximum') => {
      const out: Record<string, Record<string, unknown>> = {};
      for (const s of SWEEPABLE) {
        const [section, name] = s.path.includes('.') ? s.path.split('.') : ['', s.path];
        if (section === '') (out as Record<string, unknown>)[name] = s[end];
        else (out[section] ??= {})[name] = s[end];
      }
      return parseSettingsOverride({ ...out, categories: { TEE: { ...out.defaults } } });
    };
    for (const end of ['minimum', 'maximum'] as const) {
      // Transfers worth making at the maximum: the largest quantities, nothing held back.
      const scenario = settingsAt(end);
      if (end === 'maximum')
        Object.assign(scenario, {
          defaults: { ...scenario.defaults, minimumTransferQuantity: 1, holdbackPercentage: 0 },
          warehouseReservePercentage: 0,
        });
      const run = await t.wb.runRecommendations({ asOfDay: dayNo('2024-02-20'), scenario });
      const { proposals } = await t.wb.proposals({ offset: 0, limit: 1000 });
      expect(proposals.length, end).toBe(run.proposals);
      expect(proposals.length, end).toBeGreaterThan(0);
      for (const p of proposals)
        expect(Number.isFinite(p.quantity) && p.quantity > 0, `${end}: ${p.reason}`).toBe(true);
      const { report } = await t.wb.runBacktest({
        fromDay: dayNo('2024-02-08'),
        toDay: dayNo('2024-02-28'),
        scenario,
        inProcess: true,
      });
      expect(report.daysDone, end).toBe(21);
      for (const [k, v] of Object.entries(report.summary.simulated))
        if (typeof v === 'number') expect(Number.isNaN(v), `${end}: simulated ${k}`).toBe(false);
    }
  });

  it('keeps named scenarios side by side', async () => {
    t = await tempWorkbench();
    await feed(t.wb);
    await t.wb.setScenario({ defaults: { reviewPeriodDays: 14, serviceLevel: 0.5 } }, 'fortnightly');
    const s1 = async (scenarioName?: string) => {
      await t.wb.runRecommendations({ asOfDay: dayNo('2024-03-01'), scenarioName });
      return (await t.wb.proposals({ offset: 0, limit: 10 })).proposals.find((p) => p.toLocationId === 'S1')!.quantity;
    };
    expect(await s1('fortnightly')).toBe(28);
    expect(await s1()).toBe(22);
    expect(await t.wb.scenarios()).toEqual(['fortnightly']);
    await expect(t.wb.runRecommendations({ scenarioName: 'missing' })).rejects.toThrow(/no scenario "missing"/);
    await expect(t.wb.setScenario({}, 'bad name!')).rejects.toThrow(/scenario name/);
  });

  it('renames and deletes scenarios, never the default one nor onto a kept name', async () => {
    t = await tempWorkbench();
    await t.wb.setScenario({ defaults: { serviceLevel: 0.5 } }, 'lean');
    await t.wb.setScenario({ defaults: { serviceLevel: 0.99 } }, 'rich');
    await t.wb.renameScenario('lean', 'leaner');
    expect(await t.wb.scenarios()).toEqual(['leaner', 'rich']);
    expect(await t.wb.scenario('leaner')).toEqual({ defaults: { serviceLevel: 0.5 } });
    await expect(t.wb.renameScenario('leaner', 'rich')).rejects.toMatchObject({ status: 409 });
    await expect(t.wb.renameScenario('missing', 'other')).rejects.toMatchObject({ status: 404 });
    await expect(t.wb.renameScenario('leaner', 'bad name!')).rejects.toThrow(/scenario name/);
    await expect(t.wb.renameScenario('default', 'other')).rejects.toMatchObject({ status: 409 });
    expect(await t.wb.scenario('rich')).toEqual({ defaults: { serviceLevel: 0.99 } });
    await t.wb.deleteScenario('rich');
    expect(await t.wb.scenarios()).toEqual(['leaner']);
    await expect(t.wb.deleteScenario('rich')).rejects.toMatchObject({ status: 404 });
    await expect(t.wb.deleteScenario('default')).rejects.toThrow(/can be emptied, not deleted/);
  });

  it('explains a demand estimate with its parts', async () => {
    t = await tempWorkbench();
    await feed(t.wb);
    const d = await t.wb.explainDemand('S1', 'TEE-M', { asOfDay: dayNo('2024-03-01') });
    // Two a day over 28 days in stock, the last of them sold out (a lower bound: a little more than two), shrunk
    // towards the style at S1 (the same days).
    expect(d).toMatchObject({
      locationKind: 'store',
      onHand: 0,
      target: 22,
      targetBasis: 'demand',
      demand: { inStockDays: 28, demandClass: 'smooth', pooledFrom: 'style' },
    });
    expect(d!.demand.own).toBeGreaterThan(2);
    expect(d!.demand.own).toBeLessThan(2.2);
    expect(d!.demand.rate).toBeCloseTo(d!.demand.weight * d!.demand.own + (1 - d!.demand.weight) * d!.demand.pooled, 9);
    expect(await t.wb.explainDemand('NOPE', 'TEE-M')).toBeUndefined();
  });

  it('lists engine and client stock targets', async () => {
    t = await tempWorkbench();
    await feed(t.wb);
    await t.wb.ingest('StockTargets', { stockTargets: [{ locationId: 'WEB', skuId: 'TEE-M', targetQuantity: 3 }] });
    const r = await t.wb.stockTargets({ offset: 0, limit: 100 });
    expect(r.stockTargets).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ locationId: 'WEB', skuId: 'TEE-M', targetQuantity: 3, source: 'client' }),
        expect.objectContaining({ locationId: 'S1', skuId: 'TEE-M', source: 'engine' }),
      ]),
    );
  });

  it('pages through the stock targets of one run while nothing it reads changes', async () => {
    const clock = manualClock('2024-03-01T09:00:00.000Z');
    let runs = 0;
    t = await tempWorkbench({
      clock,
      recommender: (ws, now, options) => {
        runs++;
        return engineRecommender(ws, now, options);
      },
    });
    await feed(t.wb);
    const all = (await t.wb.stockTargets({ offset: 0, limit: 100 })).stockTargets;
    expect(all.length).toBeGreaterThan(1);
    expect(runs).toBe(1);
    const pages = [];
    for (let offset = 0; offset < all.length; offset++) {
      const page = await t.wb.stockTargets({ offset, limit: 1 });
      expect(page.moreRecordsAvailable).toBe(offset + 1 < all.length);
      pages.push(...page.stockTargets);
    }
    expect(pages).toEqual(all);
    expect(runs).toBe(1);

    // A write to the data, a scenario, an approval, a new day or a minute gone: the next page comes from a new run.
    await t.wb.ingest('StockTargets', { stockTargets: [{ locationId: 'S1', skuId: 'TEE-M', targetQuantity: 7 }] });
    const client = (await t.wb.stockTargets({ offset: 0, limit: 100 })).stockTargets.find((x) => x.locationId === 'S1');
    expect(client).toMatchObject({ targetQuantity: 7, source: 'client' });
    expect(runs).toBe(2);
    await t.wb.setScenario({ defaults: { serviceLevel: 0.99 } });
    await t.wb.stockTargets({ offset: 0, limit: 1 });
    expect(runs).toBe(3);
    await t.wb.runRecommendations();
    await t.wb.stockTargets({ offset: 0, limit: 1 });
    expect(runs).toBe(5);
    await t.wb.approveTransfers({ description: 'all' });
    await t.wb.stockTargets({ offset: 0, limit: 1 });
    expect(runs).toBe(6);
    clock.advanceSeconds(30);
    await t.wb.stockTargets({ offset: 0, limit: 1 });
    expect(runs).toBe(6);
    clock.advanceSeconds(31);
    await t.wb.stockTargets({ offset: 0, limit: 1 });
    expect(runs).toBe(7);
  });
});

describe('an empty workspace', () => {
  it('runs and proposes nothing', async () => {
    t = await tempWorkbench();
    expect(await t.wb.runRecommendations()).toMatchObject({ proposals: 0, byType: {} });
    expect((await t.wb.stockTargets({ offset: 0, limit: 10 })).stockTargets).toEqual([]);
  });
});
