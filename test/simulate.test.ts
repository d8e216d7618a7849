import { transferRows } from '../engine/simulate/simulated-transfer.js';
import { formatSummary } from '../engine/cli/backtest-format.js';
import { REGIME_MIN_DAYS } from '../engine/forecast/price-regime.js';
import { causalWorld } from '../engine/simulate/causal-world.js';
import { describe, expect, it } from 'vitest';
import { simulate } from '../engine/simulate/simulate.js';
import type { BacktestInput, PlannedReceipt } from '../engine/simulate/input.js';
import { resolveSettings, type SettingsOverride } from '../engine/recommend/settings.js';
import { conditionalMean } from '../engine/simulate/actual-demand.js';
import { styleDayValue, type StyleDayField } from '../engine/simulate/style-days.js';
import {
  backtestInput as input,
  DAY0,
  sites,
  spliceDays,
  type ActualRow as Row,
  type StateSpec,
} from './engine-fixtures.js';

const tee = { id: 'TEE', category: 'TEES', skus: [{ id: 'TEE-M', size: 'M', price: 20 }] };
const settings = (o: SettingsOverride = {}) => resolveSettings({}, { redistribution: { enabled: false }, ...o });
/** The store S1 selling TEE with these cells, alone or with the warehouse WH (location 0) behind it. */
const oneStore = (cells: StateSpec['cells']): StateSpec => ({
  locations: sites({ S1: 'store' }),
  styles: [tee],
  cells,
});
const storeAndWarehouse = (cells: StateSpec['cells']): StateSpec => ({
  locations: sites({ WH: 'warehouse', S1: 'store' }),
  styles: [tee],
  cells,
});

describe('backtest, lost-sales mode', () => {
  /**
   * One store selling 2 TEE-M a day for 60 days of history and through the period, a warehouse with `warehouse`
   * units. In the period it sells out on day 2 (its last 2 units), has none on days 3 and 4, and gets 20 on day 5.
   */
  const soldOut = (warehouse: number) => {
    const rows: Row[] = [];
    let level = 126;
    for (let d = -60; d < 10; d++) {
      if (d === 3 || d === 4) continue;
      const received = d === 5 ? 20 : 0;
      level += received - 2;
      rows.push({ day: d, cell: 'S1/TEE-M', end: level, open: level + 2, sold: 2, mutations: received });
    }
    return input(
      storeAndWarehouse({ 'S1/TEE-M': { onHand: 6, sales: 2 }, 'WH/TEE-M': { onHand: warehouse } }),
      10,
      rows,
      [],
      { historyDays: 60, startLevels: { 'S1/TEE-M': 126, 'WH/TEE-M': warehouse } },
    );
  };
  // Two a day, every day, in stock, and one day that sold out at two: the history's level for the days out is a
  // little over two; the sold-out day's demand is Poisson at that level given it sold at least 2. Customers come
  // whole: each day's estimate is drawn to a whole number of units (input.ts wholeUnits).
  const history = soldOut(0);
  const [out3, out4] = history.out.demand;
  const level = (out3 + out4) / 2;
  const extra = history.actual.extra[history.actual.dayStart[2]];
  it('draws each estimated day to whole units, near the estimate', () => {
    expect([out3, out4, extra].every(Number.isInteger)).toBe(true);
    // The Poisson estimate at a flat day index. The store's one SKU is all it has to read its days from, so the day
    // that sold out also lifts its own day's index a little (day-index.ts): a unit and a half at most.
    const raw = conditionalMean(2, 2.05, 0) - 2;
    expect(extra).toBeGreaterThanOrEqual(Math.floor(raw));
    expect(Math.abs(extra - raw)).toBeLessThan(1.5);
    for (const x of [out3, out4]) {
      expect(x).toBeGreaterThanOrEqual(2);
      expect(x).toBeLessThanOrEqual(3);
    }
  });

  const sameDemandTitle =
    'meets the same demand on both sides: the actual loses what it had no stock for, the simulation serves it';
  it(sameDemandTitle, async () => {
    const r = await simulate(soldOut(0), settings());
    // No warehouse stock: the simulated store runs out just as the actual did.
    for (const side of [r.summary.actual, r.summary.simulated]) {
      expect(side).toMatchObject({ carriedDays: 10, stockOutDays: 2, inStockRate: 0.8, sales: 16 });
      expect(side.demand).toBeCloseTo(16 + 2 * level + extra, 2);
      expect(side.estimatedDemand).toBeCloseTo(2 * level + extra, 2);
      expect(side.lostSales).toBeCloseTo(2 * level + extra, 2);
      expect(side.fillRate).toBeCloseTo(16 / (16 + 2 * level + extra), 3);
    }
    expect(r.summary.simulated.estimatedSales).toBe(0);
    const six = (x: number) => Math.round(x * 1e6) / 1e6;
    expect(r.daily.map((d) => [d.date, d.actual.stockOutDays, d.simulated.sales, six(d.estimatedDemand)])).toEqual([
      ['2024-03-18', 0, 2, 0],
      ['2024-03-19', 0, 2, 0],
      ['2024-03-20', 0, 2, six(extra)],
      ['2024-03-21', 1, 0, six(out3)],
      ['2024-03-22', 1, 0, six(out4)],
      ['2024-03-23', 0, 2, 0],
      ['2024-03-24', 0, 2, 0],
      ['2024-03-25', 0, 2, 0],
      ['2024-03-26', 0, 2, 0],
      ['2024-03-27', 0, 2, 0],
    ]);
  });

  it('sells what the history estimates where it has the stock the actual lacked, and says so', async () => {
    const r = await simulate(soldOut(100), settings({ defaults: { leadTimeDays: 1 } }));
    expect(transferRows(r.transfers)[0]).toMatchObject({
      day: r.fromDay,
      transferType: 'Replenishment',
      fromLocationId: 'WH',
      toLocationId: 'S1',
    });
    expect(r.summary.simulated).toMatchObject({ stockOutDays: 0, inStockRate: 1, fillRate: 1, lostSales: 0 });
    expect(r.summary.simulated.sales).toBeCloseTo(16 + 2 * level + extra, 2);
    expect(r.summary.simulated.estimatedSales).toBeCloseTo(2 * level + extra, 2);
    // The actual side is a fact of the period, whatever the engine's settings.
    expect(
      (await simulate(soldOut(100), settings({ defaults: { serviceLevel: 0.6, leadTimeDays: 4 } }))).summary.actual,
    ).toEqual(r.summary.actual);
  });

  it("counts stock where it is: a warehouse's units are not shelf cover", async () => {
    const r = await simulate(soldOut(1000), settings({ defaults: { leadTimeDays: 1 } }));
    const a = r.summary.actual;
    expect(a.warehouse.inventoryUnits).toBe(1000);
    expect(a.warehouse.endUnsoldUnits).toBe(1000);
    expect(a.inventoryUnits).toBeLessThan(40);
    expect(a.network.inventoryUnits).toBeCloseTo(a.inventoryUnits + 1000, 6);
    expect(a.weeksOfCover).toBeCloseTo(a.inventoryUnits / ((16 / 10) * 7), 2);
    expect(a.network.weeksOfCover).toBeCloseTo(a.network.inventoryUnits / ((16 / 10) * 7), 2);
    expect(r.byLocation.find((g) => g.id === 'WH')!.actual).toMatchObject({
      carriedDays: 0,
      inStockRate: null,
      fillRate: null,
      inventoryUnits: 0,
    });
    expect(r.daily[0].actual.warehouseUnits).toBe(1000);
  });

  const physicalStockTitle =
    'keeps simulated stock physical: a write-down larger than it takes what there is, and the rest is reported';
  it(physicalStockTitle, async () => {
    // The store holds 3; in fact 5 were written off on day 1 (a count found more than the simulation holds).
    const r = await simulate(
      input(oneStore({ 'S1/TEE-M': { onHand: 3 } }), 3, [
        { day: 1, cell: 'S1/TEE-M', end: 0, open: 8, mutations: -5 },
        { day: 0, cell: 'S1/TEE-M', end: 8, open: 8, mutations: 5 },
      ]),
      settings(),
    );
    // Day 0's receipt of 5 is replayed too: 8, then −5 leaves 3 in both worlds.
    expect(r.summary.simulated.writeDownShortfall).toEqual({ units: 0, days: 0 });
    const short = await simulate(
      input(oneStore({ 'S1/TEE-M': { onHand: 3 } }), 3, [{ day: 1, cell: 'S1/TEE-M', end: 0, open: 3, mutations: -5 }]),
      settings(),
    );
    expect(short.summary.simulated.writeDownShortfall).toEqual({ units: 2, days: 1 });
    expect(short.lowestSimulatedStock).toBe(0);
    expect(short.summary.simulated.endUnsoldUnits).toBe(0);
    expect(r.lowestSimulatedStock).toBe(0);
  });

  it('counts its own transfers on their way at the next reviews', async () => {
    const twoSizes = {
      id: 'TEE',
      category: 'TEES',
      skus: [
        { id: 'TEE-M', size: 'M', price: 20 },
        { id: 'TEE-L', size: 'L', price: 20 },
      ],
    };
    const twoStores = input(
      {
        locations: sites({ WH: 'warehouse', S1: 'store', S2: 'store' }),
        styles: [twoSizes],
        cells: {
          'S1/TEE-M': { onHand: 0, sales: 1 },
          'S1/TEE-L': { onHand: 5 },
          'S2/TEE-M': { onHand: 0, sales: 1 },
          'S2/TEE-L': { onHand: 5 },
          'WH/TEE-M': { onHand: 40 },
        },
      },
      3,
      [],
      [],
      { transitDays: 3 },
    );
    const r = await simulate(twoStores, settings({ defaults: { leadTimeDays: 3 } }), { reviewEveryDays: 1 });
    // Day 0 fills both stores; in the world they take three days, so on days 1 and 2 both fills are still on their
    // way, and the engine knows it.
    expect(transferRows(r.transfers).map((t) => [t.day - r.fromDay, t.toLocationId])).toEqual([
      [0, 'S1'],
      [0, 'S2'],
    ]);
  });

  it('replays receipts and corrections as they happened, and adds returns back to stock', async () => {
    const r = await simulate(
      input(oneStore({ 'S1/TEE-M': { onHand: 1, sales: 1 } }), 3, [
        { day: 0, cell: 'S1/TEE-M', end: 4, open: 4, mutations: 3 },
        { day: 1, cell: 'S1/TEE-M', end: 6, open: 6, sold: 0, net: -2 },
        { day: 2, cell: 'S1/TEE-M', end: 1, open: 6, sold: 5 },
      ]),
      settings(),
    );
    for (const side of [r.summary.simulated, r.summary.actual])
      expect(side).toMatchObject({ sales: 5, returns: 2, netSales: 3, lostSales: 0, endUnsoldUnits: 1 });
  });

  it("waits with a transfer for its sender's stock: nothing leaves that is not there", async () => {
    // A new style: the warehouse has none yet, 60 arrive on day 2 on a purchase order due then. The initial
    // distribution planned on it leaves when the goods are in.
    const r = await simulate(
      input(
        {
          locations: sites({ WH: 'warehouse', A: 'store', B: 'store' }),
          styles: [tee, { id: 'NEW', category: 'TEES', skus: [{ id: 'NEW-M', size: 'M', price: 30 }] }],
          cells: {
            'A/TEE-M': { onHand: 9, sales: 1 },
            'B/TEE-M': { onHand: 9, sales: 1 },
            'WH/NEW-M': { onHand: 0, purchaseOrder: { quantity: 60, day: DAY0 + 2 } },
          },
        },
        6,
        [
          { day: 2, cell: 'WH/NEW-M', end: 60, open: 60, mutations: 60 },
          ...[0, 1, 2, 3, 4, 5].flatMap((d) => [
            { day: d, cell: 'A/TEE-M', end: 8 - d, open: 9 - d, sold: 1 },
            { day: d, cell: 'B/TEE-M', end: 8 - d, open: 9 - d, sold: 1 },
          ]),
        ],
        // WH/NEW-M: SKU 1 at location 0 of 3 (cell = sku × locations + location).
        [{ cell: 1 * 3 + 0, orderDay: -30, dueDay: 2, quantity: 60, style: 1 }],
        { transitDays: 3 },
      ),
      settings({ defaults: { leadTimeDays: 3, holdbackPercentage: 0 } }),
      { reviewEveryDays: 7 },
    );
    const initial = transferRows(r.transfers).filter((t) => t.transferType === 'InitialDistribution');
    expect(initial.length).toBeGreaterThan(0);
    expect(initial.every((t) => t.day === r.fromDay)).toBe(true);
    const planned = initial.reduce((n, t) => n + t.quantity, 0);
    // What the stores would sell over the first fill, not all the goods: the rest stays at the warehouse.
    expect(planned).toBeGreaterThan(0);
    expect(planned).toBeLessThan(60);
    // Decided on day 0, sent on day 2 when the goods came in, arrived three days later (the world's transit).
    const byDay = (f: StyleDayField) => Array.from({ length: 6 }, (_, i) => styleDayValue(r.styleDays, i, 1, f));
    expect(byDay('simTransfersOut')).toEqual([0, 0, planned, 0, 0, 0]);
    expect(byDay('simTransfersIn')).toEqual([0, 0, 0, 0, 0, planned]);
    expect(r.lowestSimulatedStock).toBe(0);
    expect(r.summary.simulated.unsentTransferUnits).toBe(0);
  });

  it('never looks ahead: changing every later day changes no earlier decision', async () => {
    const spec: StateSpec = {
      locations: sites({ WH: 'warehouse', A: 'store', B: 'store' }),
      styles: [tee, { id: 'NEW', category: 'TEES', skus: [{ id: 'NEW-M', size: 'M', price: 30 }] }],
      cells: {
        'WH/TEE-M': { onHand: 200 },
        'A/TEE-M': { onHand: 3, sales: 2 },
        'B/TEE-M': { onHand: 1, sales: 1 },
        'WH/NEW-M': { onHand: 0 },
      },
    };
    // A sells out every fifth day and is refilled the next; B is out on the days after its odd ones.
    const rows: Row[] = [];
    for (let d = 0; d < 60; d++) {
      rows.push({ day: d, cell: 'A/TEE-M', end: d % 5 === 4 ? 0 : 2, open: 3, sold: 1 + (d % 3) });
      if (d % 4 === 0) rows.push({ day: d, cell: 'B/TEE-M', end: 1, open: 2, sold: 1 });
      if (d % 4 === 1) rows.push({ day: d, cell: 'B/TEE-M', end: 0, open: 1, sold: 1 });
    }
    const X = 30;
    const future: Row[] = rows.map((r) => (r.day >= X ? { ...r, sold: r.sold! * 5, end: r.end + 7 } : r));
    future.push({ day: 45, cell: 'WH/NEW-M', end: 500, open: 500, mutations: 500 });
    // WH/NEW-M: SKU 1 at location 0 of 3.
    const receipts: PlannedReceipt[] = [{ cell: 1 * 3 + 0, orderDay: X + 2, dueDay: 50, quantity: 500, style: 1 }];
    const a = input(spec, 60, rows);
    expect(a.out.cell.length).toBeGreaterThan(5);
    expect(a.actual.extra.some((x) => x > 0)).toBe(true);
    // The history read both ways gives the days before X other demand when the later days change; the simulation
    // is tested on worlds that agree up to X in what happened and what customers wanted, and differ from then on.
    const b = spliceDays(a, input(spec, 60, future, receipts), X);
    const [ra, rb] = await Promise.all([simulate(a, settings()), simulate(b, settings())]);
    const before = (r: typeof ra) => transferRows(r.transfers).filter((t) => t.day < r.fromDay + X);
    expect(before(ra).length).toBeGreaterThan(3);
    expect(before(rb)).toEqual(before(ra));
    expect(transferRows(rb.transfers)).not.toEqual(transferRows(ra.transfers));
    expect(rb.daily.slice(0, X)).toEqual(ra.daily.slice(0, X));
    expect(rb.daily.slice(X)).not.toEqual(ra.daily.slice(X));
  });

  it('never looks ahead without hindsight: later records and their estimates change no earlier decision', async () => {
    const spec: StateSpec = {
      locations: sites({ WH: 'warehouse', A: 'store', B: 'store' }),
      styles: [tee],
      cells: { 'WH/TEE-M': { onHand: 200 }, 'A/TEE-M': { onHand: 3, sales: 2 }, 'B/TEE-M': { onHand: 1, sales: 1 } },
    };
    // A sells out every fifth day; B is out for three days of every four, its demand estimated.
    const rows: Row[] = [];
    for (let d = 0; d < 60; d++) {
      rows.push({ day: d, cell: 'A/TEE-M', end: d % 5 === 4 ? 0 : 2, open: 3, sold: 1 + (d % 3) });
      if (d % 4 === 0) rows.push({ day: d, cell: 'B/TEE-M', end: 0, open: 2, sold: 2 });
    }
    const X = 30;
    // From X on, every record changes: five times the sales, and the stock to sell them.
    const future = rows.map((r) => (r.day >= X ? { ...r, sold: r.sold! * 5, open: r.open! * 5 + 2 } : r));
    const [a, b] = [input(spec, 60, rows), input(spec, 60, future)];
    const estimatesBefore = (x: BacktestInput) => Array.from(x.out.demand.subarray(0, x.out.dayStart[X]));
    // The backtest's own world estimates the days before X from the days around them, later ones included.
    expect(estimatesBefore(b)).not.toEqual(estimatesBefore(a));
    const [ca, cb] = [causalWorld(a), causalWorld(b)];
    expect(estimatesBefore(ca).some((x) => x > 0)).toBe(true);
    expect(estimatesBefore(cb)).toEqual(estimatesBefore(ca));
    const [ra, rb] = await Promise.all([simulate(ca, settings()), simulate(cb, settings())]);
    const before = (r: typeof ra) => transferRows(r.transfers).filter((t) => t.day < r.fromDay + X);
    expect(before(ra).length).toBeGreaterThan(3);
    expect(before(rb)).toEqual(before(ra));
    expect(rb.daily.slice(0, X)).toEqual(ra.daily.slice(0, X));
    expect(transferRows(rb.transfers)).not.toEqual(transferRows(ra.transfers));
  });

  it("reads a day's discount once the day is over, as its sales, and never a later day's", async () => {
    const spec: StateSpec = {
      locations: sites({ WH: 'warehouse', A: 'store' }),
      styles: [tee],
      cells: { 'WH/TEE-M': { onHand: 500 }, 'A/TEE-M': { onHand: 6, sales: 2 } },
    };
    const X = 20;
    // Four a day before X, one to three a day after it.
    const rows: Row[] = [];
    for (let d = 0; d < 60; d++) rows.push({ day: d, cell: 'A/TEE-M', end: 2, open: 6, sold: d < X ? 4 : 1 + (d % 3) });
    const atListPrice = input(spec, 60, rows);
    atListPrice.styleDiscount = new Float64Array(60);
    // The same days, sold from X on at half price: once that price has held two weeks, the days before it are not
    // what the style sells at any more.
    const markedDown = input(spec, 60, rows);
    markedDown.styleDiscount = Float64Array.from({ length: 60 }, (_, d) => (d >= X ? 0.5 : 0));
    // Reviewed daily: the review of day X knows nothing of the new price, the one of day X + 1 reads day X as a cut
    // under way, and the one of day X + REGIME_MIN_DAYS reads the new price as held.
    const daily = settings({ defaults: { reviewPeriodDays: 1 } });
    const [ra, rb] = await Promise.all([simulate(atListPrice, daily), simulate(markedDown, daily)]);
    const before = (r: typeof ra, day: number) => transferRows(r.transfers).filter((t) => t.day < r.fromDay + day);
    expect(before(ra, X + 1).length).toBeGreaterThan(5);
    expect(before(rb, X + 1)).toEqual(before(ra, X + 1));
    expect(before(rb, X + REGIME_MIN_DAYS + 1)).not.toEqual(before(ra, X + REGIME_MIN_DAYS + 1));
  });

  it('is deterministic and can be cancelled', async () => {
    const a = await simulate(soldOut(10), settings());
    const b = await simulate(soldOut(10), settings());
    expect(b).toEqual(a);
    // A cancel is heard between the replay's weeks: asked after the first, the run keeps its 7 days.
    let calls = 0;
    const c = await simulate(soldOut(10), settings(), { isCancelled: () => ++calls > 1 });
    expect(c).toMatchObject({ cancelled: true, daysDone: 7 });
    expect(c.daily).toHaveLength(7);
  });
});

describe('dirty history', () => {
  it('counts actual stock below zero as none, and names where and how low it went', async () => {
    // A till that sells what the feed never stocked: S1's level goes 2, 0, −3, −5, −5, then a count of 4.
    const r = await simulate(
      input(storeAndWarehouse({ 'S1/TEE-M': { onHand: 4, sales: 1 }, 'WH/TEE-M': { onHand: 0 } }), 6, [
        { day: 0, cell: 'S1/TEE-M', end: 2, open: 4, sold: 2 },
        { day: 1, cell: 'S1/TEE-M', end: 0, open: 2, sold: 2 },
        { day: 2, cell: 'S1/TEE-M', end: -3, open: 0, sold: 3 },
        { day: 3, cell: 'S1/TEE-M', end: -5, open: -3, sold: 2 },
        { day: 5, cell: 'S1/TEE-M', end: 4, open: 4 },
      ]),
      settings({ replenishment: { enabled: false }, redistribution: { enabled: false } }),
    );
    const a = r.summary.actual;
    expect(a.negativeStock).toEqual({
      cells: 1,
      // Days 2, 3 and 4 ended below zero; day 5's count brought it back.
      cellDays: 3,
      lowest: -5,
      worst: [{ locationId: 'S1', skuId: 'TEE-M', lowest: -5, days: 3 }],
    });
    // The store's stock at each day's end: 2, 0, none, none, none, 4 — never below zero, nor averaged in below it.
    expect(r.daily.map((d) => d.actual.inventoryUnits)).toEqual([2, 0, 0, 0, 0, 4]);
    expect(a.inventoryUnits).toBe(1);
    // The command line says so under the figures.
    expect(formatSummary(r.summary.simulated, a)).toContain(
      'actual stock below zero: 1 location×SKU on 3 days, the lowest -5 (S1 × TEE-M)',
    );
  });
});

/** A store that sells 2 a day from 8 with a warehouse behind it. */
const soldOutFeed = () =>
  input(
    storeAndWarehouse({ 'S1/TEE-M': { onHand: 8, sales: 2 }, 'WH/TEE-M': { onHand: 30 } }),
    4,
    [0, 1, 2, 3].map((d) => ({ day: d, cell: 'S1/TEE-M', end: 6 - 2 * d, open: 8 - 2 * d, sold: 2 })),
  );

describe('stock value', () => {
  it('tells no value where no SKU has a cost price, rather than a value of 0', async () => {
    const costed = await simulate(soldOutFeed(), settings());
    expect(costed.summary.simulated.inventoryValue).toBeGreaterThan(0);
    const feed = soldOutFeed();
    feed.cost.fill(0);
    const r = await simulate(feed, settings());
    for (const side of [r.summary.simulated, r.summary.actual, r.byStyle[0].simulated, r.byLocation[1].actual]) {
      expect(side).toMatchObject({ inventoryValue: null, endUnsoldValue: null });
      expect(side.warehouse).toMatchObject({ inventoryValue: null, endUnsoldValue: null });
      expect(side.network).toMatchObject({ inventoryValue: null, endUnsoldValue: null });
    }
    // Units are what they were.
    expect(r.summary.simulated.inventoryUnits).toBe(costed.summary.simulated.inventoryUnits);
    const table = formatSummary(r.summary.simulated, r.summary.actual);
    expect(table).toMatch(/stores: inventory value\s+n\/a\s+n\/a/);
    expect(table).toContain('stock value: n/a, no SKU has a cost price');
  });
});

describe('backtest causality', () => {
  it("sees a day's receipts only after that morning's review", async () => {
    const r = await simulate(
      input(storeAndWarehouse({ 'S1/TEE-M': { onHand: 0, sales: 1 }, 'WH/TEE-M': { onHand: 0 } }), 3, [
        { day: 0, cell: 'WH/TEE-M', end: 50, open: 50, mutations: 50 },
      ]),
      settings(),
      { reviewEveryDays: 1 },
    );
    expect(transferRows(r.transfers).map((t) => t.day - r.fromDay)).toEqual([1]);
  });

  it('turns a location into a selling one from its first actual sale, not before', async () => {
    const r = await simulate(
      input(
        {
          locations: sites({ WH: 'warehouse', NEW: 'warehouse' }),
          styles: [tee],
          cells: { 'WH/TEE-M': { onHand: 40 }, 'NEW/TEE-M': { onHand: 3 } },
        },
        6,
        [
          { day: 3, cell: 'NEW/TEE-M', end: 2, open: 3, sold: 1 },
          { day: 4, cell: 'NEW/TEE-M', end: 1, open: 2, sold: 1 },
        ],
      ),
      settings(),
      { reviewEveryDays: 1 },
    );
    expect(transferRows(r.transfers).every((t) => t.day - r.fromDay >= 4)).toBe(true);
    expect(r.summary.simulated.sales).toBe(2);
    // Its sales are demand from the first day (history knows it sells), its own engine counts it a store from day 3.
    expect(r.daily.every((d) => d.simulated.carriedDays === 1)).toBe(true);
  });
});
