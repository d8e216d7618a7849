import { describe, expect, it } from 'vitest';
import { simulate } from '../engine/simulate/simulate.js';
import type { PlannedReceipt } from '../engine/simulate/input.js';
import { resolveSettings, type SettingsOverride } from '../engine/recommend/settings.js';
import { backtestInput as input, type ActualRow as Row, type StateSpec } from './engine-fixtures.js';

const tee = { id: 'TEE', category: 'TEES', skus: [{ id: 'TEE-M', size: 'M', price: 20 }] };
const settings = (o: SettingsOverride = {}) => resolveSettings({}, { redistribution: { enabled: false }, ...o });

describe('backtest, lost-sales mode', () => {
  // One store selling 1 M a day (history); it starts with 2 M and no warehouse to refill it. Actually it sold
  // 1 on day 0 and 1 on day 1, was out of M on day 2, and got a delivery of 5 on day 3. Size L (5 units, no
  // sales) keeps the style on the shelf, so M's stock-out is a lost sale.
  const twoSizes = { id: 'TEE', category: 'TEES', skus: [{ id: 'TEE-M', size: 'M', price: 20 }, { id: 'TEE-L', size: 'L', price: 20 }] };
  const oneStore = (warehouseStock = 0, otherSize = 5) => input({
    locations: [{ id: 'WH', kind: 'warehouse' }, { id: 'S1', kind: 'store' }],
    styles: [twoSizes],
    cells: { 'S1/TEE-M': { onHand: 2, sales: 1 }, 'S1/TEE-L': { onHand: otherSize }, 'WH/TEE-M': { onHand: warehouseStock } },
  }, 4, [
    { day: 0, cell: 'S1/TEE-M', end: 1, peak: 2, sold: 1 },
    { day: 1, cell: 'S1/TEE-M', end: 0, peak: 1, sold: 1 },
    { day: 3, cell: 'S1/TEE-M', end: 5, peak: 5 },
  ]);

  it('gives exact KPIs for a tiny hand-checked history', () => {
    const r = simulate(oneStore(), settings());
    // Day 2: actual stock-out of M, demand estimated at the engine's rate (1/day): lost on both sides. Day 3:
    // the actual delivery is not the engine's, so the simulated M stays empty (a stock-out, no demand). L is
    // active and in stock on all four days on both sides.
    // M's rate: its own 1/day (28 in-stock days, weight 28/42) blended with the style × M's size share
    // ((28 + 1) / (28 + 2)), i.e. 2/3 + 1/3 × 29/30 = 0.9889.
    const rate = 2 / 3 + (1 / 3) * (29 / 30);
    expect(r.summary.actual).toMatchObject({ activeDays: 8, stockOutDays: 1, inStockRate: 0.875, sales: 2 });
    expect(r.summary.simulated).toMatchObject({ activeDays: 8, stockOutDays: 2, inStockRate: 0.75, sales: 2, endUnsoldUnits: 5 });
    for (const side of [r.summary.actual, r.summary.simulated]) {
      expect(side.lostSales).toBeCloseTo(rate, 2);
      expect(side.fillRate).toBeCloseTo(2 / (2 + rate), 4);
    }
    expect(r.summary.simulated.estimatedDemandDays).toBe(1);
    expect(r.daily.map((d) => [d.date, d.simulated.sales, Math.round(d.simulated.lostSales * 100) / 100, d.actual.stockOutDays])).toEqual([
      ['2024-03-18', 1, 0, 0], ['2024-03-19', 1, 0, 0], ['2024-03-20', 0, 0.99, 1], ['2024-03-21', 0, 0, 0],
    ]);
    expect(r.summary.actual.inventoryUnits).toBe((1 + 0 + 0 + 5) / 4 + 5);
  });

  it('estimates no demand for a style gone from the location (no size on the shelf)', () => {
    const r = simulate(oneStore(0, 0), settings());
    expect(r.summary.simulated.estimatedDemandDays).toBe(0);
    expect(r.summary.actual.lostSales).toBe(0);
    expect(r.summary.simulated.lostSales).toBe(0);
  });

  it('replenishes from the warehouse; the transfer arrives after the lead time', () => {
    const r = simulate(oneStore(10), settings({ defaults: { leadTimeDays: 2 } }));
    expect(r.transfers).toEqual([expect.objectContaining({ day: r.fromDay, transferType: 'Replenishment', fromLocationId: 'WH', toLocationId: 'S1', quantity: 10 })]);
    // It arrives on day 2: the estimated demand of 1 is served; nothing is lost.
    expect(r.summary.simulated).toMatchObject({ lostSales: 0, stockOutDays: 0, fillRate: 1 });
    expect(r.summary.simulated.sales).toBeCloseTo(2 + (2 / 3 + (1 / 3) * (29 / 30)), 2);
    expect(r.summary.simulated.endUnsoldUnits).toBeCloseTo(10 - (2 / 3 + (1 / 3) * (29 / 30)) + 5, 2);
    expect(r.summary.simulated.transfers).toEqual({ Replenishment: { trips: 1, lines: 1, units: 10 } });
    expect(r.daily[0].simulated.transferUnits).toBe(10);
  });

  it('counts its own transfers on their way at the next reviews', () => {
    const twoStores = input({
      locations: [{ id: 'WH', kind: 'warehouse' }, { id: 'S1', kind: 'store' }, { id: 'S2', kind: 'store' }],
      styles: [twoSizes],
      cells: {
        'S1/TEE-M': { onHand: 0, sales: 1 }, 'S1/TEE-L': { onHand: 5 }, 'S2/TEE-M': { onHand: 0, sales: 1 }, 'S2/TEE-L': { onHand: 5 },
        'WH/TEE-M': { onHand: 40 },
      },
    }, 3, []);
    const r = simulate(twoStores, settings({ defaults: { leadTimeDays: 3 } }), { reviewEveryDays: 1 });
    // Day 0 fills both stores; on days 1 and 2 both fills are still on their way, and the engine knows it.
    expect(r.transfers.map((t) => [t.day - r.fromDay, t.toLocationId])).toEqual([[0, 'S1'], [0, 'S2']]);
  });

  it('replays receipts and corrections as they happened, and adds returns back to stock', () => {
    const r = simulate(input({
      locations: [{ id: 'S1', kind: 'store' }],
      styles: [tee],
      cells: { 'S1/TEE-M': { onHand: 1, sales: 1 } },
    }, 3, [
      { day: 0, cell: 'S1/TEE-M', end: 4, peak: 4, mutations: 3 },
      { day: 1, cell: 'S1/TEE-M', end: 6, peak: 6, sold: 0, net: -2 },
      { day: 2, cell: 'S1/TEE-M', end: 1, peak: 6, sold: 5 },
    ]), settings());
    expect(r.summary.simulated).toMatchObject({ sales: 3, lostSales: 0, endUnsoldUnits: 1 });
    expect(r.summary.actual).toMatchObject({ sales: 3, endUnsoldUnits: 1 });
  });

  it('never looks ahead: changing every later day changes no earlier decision', () => {
    const spec: StateSpec = {
      locations: [{ id: 'WH', kind: 'warehouse' }, { id: 'A', kind: 'store' }, { id: 'B', kind: 'store' }],
      styles: [tee, { id: 'NEW', category: 'TEES', skus: [{ id: 'NEW-M', size: 'M', price: 30 }] }],
      cells: { 'WH/TEE-M': { onHand: 200 }, 'A/TEE-M': { onHand: 3, sales: 2 }, 'B/TEE-M': { onHand: 1, sales: 1 }, 'WH/NEW-M': { onHand: 0 } },
    };
    const rows: Row[] = [];
    for (let d = 0; d < 60; d++) {
      rows.push({ day: d, cell: 'A/TEE-M', end: 2, peak: 3, sold: 1 + (d % 3) });
      if (d % 2 === 0) rows.push({ day: d, cell: 'B/TEE-M', end: 1, peak: 2, sold: 1 });
    }
    const X = 30;
    const future: Row[] = rows.map((r) => (r.day >= X ? { ...r, sold: r.sold! * 5, end: r.end + 7 } : r));
    future.push({ day: 45, cell: 'WH/NEW-M', end: 500, peak: 500, mutations: 500 });
    const receipts: PlannedReceipt[] = [{ cell: 4, orderDay: X + 2, dueDay: 50, quantity: 500, style: 1 }];
    const a = simulate(input(spec, 60, rows), settings());
    const b = simulate(input(spec, 60, future, receipts), settings());
    const before = (r: typeof a) => r.transfers.filter((t) => t.day < r.fromDay + X);
    expect(before(a).length).toBeGreaterThan(3);
    expect(before(b)).toEqual(before(a));
    expect(b.transfers).not.toEqual(a.transfers);
    expect(b.daily.slice(0, X)).toEqual(a.daily.slice(0, X));
  });

  it('is deterministic and can be cancelled', () => {
    const a = simulate(oneStore(10), settings());
    const b = simulate(oneStore(10), settings());
    expect(b).toEqual(a);
    let calls = 0;
    const c = simulate(oneStore(10), settings(), { isCancelled: () => ++calls > 2 });
    expect(c).toMatchObject({ cancelled: true, daysDone: 2 });
    expect(c.daily).toHaveLength(2);
  });
});

describe('backtest causality', () => {
  it('sees a day\'s receipts only after that morning\'s review', () => {
    const r = simulate(input({
      locations: [{ id: 'WH', kind: 'warehouse' }, { id: 'S1', kind: 'store' }],
      styles: [tee],
      cells: { 'S1/TEE-M': { onHand: 0, sales: 1 }, 'WH/TEE-M': { onHand: 0 } },
    }, 3, [{ day: 0, cell: 'WH/TEE-M', end: 50, peak: 50, mutations: 50 }]), settings(), { reviewEveryDays: 1 });
    expect(r.transfers.map((t) => t.day - r.fromDay)).toEqual([1]);
  });

  it('turns a location into a selling one from its first actual sale, not before', () => {
    const r = simulate(input({
      locations: [{ id: 'WH', kind: 'warehouse' }, { id: 'NEW', kind: 'warehouse' }],
      styles: [tee],
      cells: { 'WH/TEE-M': { onHand: 40 }, 'NEW/TEE-M': { onHand: 3 } },
    }, 6, [
      { day: 3, cell: 'NEW/TEE-M', end: 2, peak: 3, sold: 1 },
      { day: 4, cell: 'NEW/TEE-M', end: 1, peak: 2, sold: 1 },
    ]), settings(), { reviewEveryDays: 1 });
    expect(r.transfers.every((t) => t.day - r.fromDay >= 4)).toBe(true);
    expect(r.summary.simulated.sales).toBe(2);
    expect(r.daily.slice(0, 3).every((d) => d.simulated.activeDays === 0)).toBe(true);
  });
});
