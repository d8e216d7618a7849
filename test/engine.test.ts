import { describe, expect, it } from 'vitest';
import { classify, ownEstimate, sba, tsb } from '../engine/forecast/demand.js';
import { poissonTail } from '../engine/forecast/poisson.js';
import { explainCell } from '../engine/forecast/forecast.js';
import { normalQuantile, stockFor } from '../engine/recommend/targets.js';
import { recommend } from '../engine/recommend/recommend.js';
import { ReviewPart } from '../engine/recommend/review.js';
import { EXPLAIN_ALL } from '../engine/recommend/proposal.js';
import { OUTCOMES } from '../engine/recommend/outcome.js';
import { apportion } from '../engine/recommend/initial.js';
import { DEFAULT_SETTINGS, resolveSettings, type SettingsOverride } from '../engine/recommend/settings.js';
import { buildState, DAY0, sites, type StateSpec } from './engine-fixtures.js';

const run = (spec: StateSpec, settings: SettingsOverride = {}) =>
  recommend(buildState(spec), resolveSettings({}, settings));
const only = (type: string, settings: SettingsOverride = {}): SettingsOverride => ({
  ...settings,
  replenishment: { enabled: type === 'Replenishment' },
  initialDistribution: { enabled: type === 'InitialDistribution' },
  redistribution: { ...settings.redistribution, enabled: type === 'Redistribution' },
});

const tee = (id = 'TEE', sizes = ['M'], extra: Partial<StateSpec['styles'][number]> = {}) => ({
  id,
  category: 'TEES',
  skus: sizes.map((size) => ({ id: `${id}-${size}`, size, price: 20 })),
  ...extra,
});

describe('demand', () => {
  it('leaves stock-out days out: censored days do not lower demand', () => {
    const W = 28;
    const sales = new Float32Array(W).fill(2);
    // NaN: a day without stock.
    for (let d = 18; d < W; d++) sales[d] = Number.NaN;
    const e = ownEstimate(sales, 0, W);
    expect(e).toMatchObject({ rate: 2, inStockDays: 18, units: 36, demandClass: 'smooth', method: 'mean' });
    // Counting the stock-out days as zero demand would have said 36 / 28.
    expect(e.rate).toBeGreaterThan(36 / 28);
  });

  it('classifies by ADI and CV² and uses SBA or TSB for sparse series', () => {
    expect(classify(1, 0.1)).toBe('smooth');
    expect(classify(1, 0.6)).toBe('erratic');
    expect(classify(2, 0.1)).toBe('intermittent');
    expect(classify(2, 0.6)).toBe('lumpy');
    // Two demands of 3, three days apart each: z = 3, p = 3, SBA = (1 − 0.05) × 3 / 3.
    expect(sba([0, 0, 3, 0, 0, 3])).toBeCloseTo(0.95, 10);
    // TSB: p starts at 0, moves 10% towards 1 on each demand day, z = 3.
    expect(tsb([0, 3])).toBeCloseTo(0.1 * 3, 10);
    const W = 6;
    const e = ownEstimate(Float32Array.from([0, 0, 3, 0, 0, 3]), 0, W);
    expect(e).toMatchObject({ demandClass: 'intermittent', method: 'sba', adi: 3 });
  });

  it('does not lower demand for returns (the window holds gross units)', () => {
    const state = buildState({
      locations: sites({ S1: 'store' }),
      styles: [tee()],
      cells: { 'S1/TEE-M': { sales: 1 } },
    });
    expect(state.sales.every((x) => x >= 0)).toBe(true);
  });

  const thin: StateSpec = {
    locations: sites({ S1: 'store', S2: 'store' }),
    styles: [tee('TEE', ['S', 'M'])],
    cells: {
      'S1/TEE-S': { sales: 1 },
      'S1/TEE-M': { sales: 3 },
      // S2 carries TEE-M but has only two in-stock days, the window's oldest: it leans on its pools.
      'S2/TEE-M': { sales: 2, outOfStock: Array.from({ length: 26 }, (_, i) => i + 2), everActive: true },
    },
  };

  it('pools a thin history with the style at the location, the style across the network and its category', () => {
    // Every day alike, each pool weighing 14 days against the data below it, by hand: the category sells
    // (28 + 84 + 4) / (28 + 28 + 2) = 2 a cell-day, S2 sells it as the network does ((4 + 2 × 14) / ((2 + 14) × 2)
    // = 1), the style's cells across the network (116 + 14 × 2) / (58 + 14) = 2; the style at S2 over its two days
    // with a size in stock (4 + 14 × 2 × 2) / (2 + 14) = 3.75 a day, M's share of it (88 + 1) / (116 + 2).
    const r = run(thin, only('Replenishment', { demandHalfLifeDays: 0, poolingHalfWeightDays: 14 }));
    const cell = 1 * 2 + 1;
    expect(r.forecast.pooled[cell]).toBeCloseTo(3.75 * (89 / 118), 10);
    expect(r.forecast.weight[cell]).toBeCloseTo(2 / 16, 10);
    expect(r.forecast.own[cell]).toBe(2);
    expect(r.forecast.rate[cell]).toBeCloseTo((2 / 16) * 2 + (14 / 16) * r.forecast.pooled[cell], 10);
    expect(explainCell(r.forecast, cell).pooledFrom).toBe('style');
  });

  it('weighs recent days more: two old days count for little against the pools', () => {
    const r = run(thin, only('Replenishment', { demandHalfLifeDays: 7, poolingHalfWeightDays: 14 }));
    const cell = 1 * 2 + 1;
    // Window days 0 and 1 of 28 are 27 and 26 days older than the newest (summed on the pools' grid of 2^-20).
    const days = 2 ** (-27 / 7) + 2 ** (-26 / 7);
    expect(r.forecast.weight[cell]).toBeCloseTo(days / (days + 14), 6);
    expect(r.forecast.rate[cell]).toBeCloseTo(
      r.forecast.weight[cell] * 2 + (1 - r.forecast.weight[cell]) * r.forecast.pooled[cell],
      10,
    );
  });
});

describe('math', () => {
  it('has the normal quantile and Poisson tail right', () => {
    expect(normalQuantile(0.9)).toBeCloseTo(1.2815516, 6);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.3263479, 6);
    expect(poissonTail(2, 0)).toBe(1);
    expect(poissonTail(2, 1)).toBeCloseTo(1 - Math.exp(-2), 12);
    expect(poissonTail(2, 3)).toBeCloseTo(1 - Math.exp(-2) * (1 + 2 + 2), 12);
    expect(apportion(10, [3, 1])).toEqual([8, 2]);
    expect(apportion(7, [1, 1, 1])).toEqual([3, 2, 2]);
  });
});

describe('replenishment', () => {
  it('replenishes a store at zero with steady sales up to its target', () => {
    const r = run({
      locations: [
        { id: 'WH', kind: 'warehouse', gln: '8712345678906' },
        { id: 'S1', kind: 'store' },
      ],
      styles: [tee()],
      cells: { 'WH/TEE-M': { onHand: 100 }, 'S1/TEE-M': { onHand: 0, sales: 2 } },
    });
    // rate 2/day; horizon 7 + 2 days; sd max(0, √2); target = ⌈18 + 1.2816 × √2 × 3⌉ = 24.
    expect(r.proposals).toEqual([
      expect.objectContaining({
        transferType: 'Replenishment',
        fromLocationId: 'WH',
        toLocationId: 'S1',
        skuId: 'TEE-M',
        quantity: 24,
      }),
    ]);
    expect(r.proposals[0].reason).toMatch(/below target: 0 on hand and in transit against a target of 24/);
  });

  it('counts stock in transit and stock not for replenishment', () => {
    const r = run(
      {
        locations: sites({ WH: 'warehouse', S1: 'store' }),
        styles: [tee()],
        cells: {
          'WH/TEE-M': { onHand: 30, notForReplenishment: 25 },
          'S1/TEE-M': { onHand: 4, inTransit: 10, sales: 2 },
        },
      },
      // The 5 free units cannot last four weeks: rationing, tested below, would send 18 − 14 = 4.
      { replenishment: { shortageHorizonDays: 0 } },
    );
    expect(r.proposals.map((p) => p.quantity)).toEqual([5]);
  });

  describe('a warehouse that cannot last until more arrives', () => {
    // Two stores selling 2 a day, transit 2 days: a target of 24 each (above), 18 of it the demand over 7 + 2 days.
    const spec = (purchaseOrder?: { quantity: number; day: number }): StateSpec => ({
      locations: sites({ WH: 'warehouse', A: 'store', B: 'store' }),
      styles: [tee()],
      cells: {
        'WH/TEE-M': { onHand: 40, ...(purchaseOrder ? { purchaseOrder } : {}) },
        'A/TEE-M': { sales: 2 },
        'B/TEE-M': { sales: 2 },
      },
    });
    const sent = (r: ReturnType<typeof run>) => r.proposals.map((p) => [p.toLocationId, p.quantity]);
    const alone = { poolingHalfWeightDays: 0, demandHalfLifeDays: 0 };

    it('sends each store its demand at the lowest service level, and keeps the rest', () => {
      // 40 units against 2 × 2 × (28 + 2) = 120 expected before the four weeks are out: rationed.
      const r = run(spec(), only('Replenishment', alone));
      expect(sent(r)).toEqual([
        ['A', 18],
        ['B', 18],
      ]);
      expect(r.proposals[0].reason).toMatch(
        new RegExp(
          'rationed: the warehouse cannot meet the 120 the stores are expected to sell beyond what they hold over ' +
            'the next 28 days \\(the shortage horizon\\), so this store is sent up to 18, its demand at 50% service',
        ),
      );
      expect(r.proposals[0].details).toMatchObject({ target: 24, rationedTarget: 18 });
    });

    it('gives every unit when a purchase order comes before the stores run out, or when rationing is off', () => {
      // Due in 3 days: 2 × 2 × (3 + 2) = 20 expected until then, fewer than the 40 it has. The 48 the targets ask
      // are more than it has: shared evenly, 20 each.
      const soon = run(spec({ quantity: 100, day: DAY0 + 3 }), only('Replenishment', alone));
      expect(sent(soon)).toEqual([
        ['A', 20],
        ['B', 20],
      ]);
      expect(soon.proposals[0].reason).not.toMatch(/rationed/);
      const off = run(spec(), {
        ...only('Replenishment', alone),
        replenishment: { enabled: true, shortageHorizonDays: 0 },
      });
      expect(sent(off)).toEqual(sent(soon));
      // Due in 20 days the 40 units cannot last until it comes (2 × 2 × 22 = 88): rationed over those days.
      const late = run(spec({ quantity: 100, day: DAY0 + 20 }), only('Replenishment', alone));
      expect(sent(late)).toEqual([
        ['A', 18],
        ['B', 18],
      ]);
      expect(late.proposals[0].reason).toMatch(/over the next 20 days \(until a purchase order arrives\)/);
    });

    it('rations when a purchase order comes in time but too small to last the shortage horizon', () => {
      // Due in 3 days, 20 expected until then: the 40 last. But 40 + 30 < the 120 expected over the four weeks.
      const small = run(spec({ quantity: 30, day: DAY0 + 3 }), only('Replenishment', alone));
      expect(sent(small)).toEqual([
        ['A', 18],
        ['B', 18],
      ]);
      expect(small.proposals[0].reason).toMatch(
        /cannot meet the 120 .* over the next 28 days \(the shortage horizon, with the 30 on order due by then\)/,
      );
      // 40 + 80 = 120 last the four weeks: not rationed, shared evenly as when the order was large.
      const enough = run(spec({ quantity: 80, day: DAY0 + 3 }), only('Replenishment', alone));
      expect(sent(enough)).toEqual([
        ['A', 20],
        ['B', 20],
      ]);
      expect(enough.proposals[0].reason).not.toMatch(/rationed/);
    });

    it('tells a store at its rationed demand that the warehouse rationed its stock', () => {
      const state = buildState({ ...spec(), cells: { ...spec().cells, 'A/TEE-M': { onHand: 18, sales: 2 } } });
      const part = new ReviewPart(state, resolveSettings({}, only('Replenishment', alone)), EXPLAIN_ALL);
      const { decisions } = part.decide(part.sums());
      expect(decisions.map((d) => [state.locations.ids[d.to], d.quantity])).toEqual([['B', 18]]);
      const outcomes = [...part.outcomes(decisions, 0, 1)].map((o) => (o ? OUTCOMES[o - 1] : ''));
      expect(outcomes).toEqual(['', 'rationed at the warehouse', 'sent']);
    });
  });

  it('serves the best stores first when the warehouse is short', () => {
    const r = run(
      {
        locations: sites({ WH: 'warehouse', FAST: 'store', SLOW: 'store' }),
        styles: [tee()],
        cells: {
          'WH/TEE-M': { onHand: 10 },
          'FAST/TEE-M': { sales: 3 },
          'SLOW/TEE-M': { sales: [0, 0, 0, 1, 0, 0, 0] },
        },
      },
      // Each store's own days alone, every day alike: this network's category is one SKU, too little to pool.
      only('Replenishment', { poolingHalfWeightDays: 0, demandHalfLifeDays: 0 }),
    );
    expect(r.proposals.map((p) => [p.toLocationId, p.quantity])).toEqual([['FAST', 10]]);
    expect(r.proposals[0].reason).toMatch(/warehouse short/);
  });

  it("keeps what an online location selling from the warehouse's stock needs, and sends it nothing", () => {
    const spec = (fulfilledFrom?: string): StateSpec => ({
      locations: [
        { id: 'WH', kind: 'warehouse' },
        { id: 'S1', kind: 'store' },
        { id: 'WEB', kind: 'online', ...(fulfilledFrom ? { fulfilledFrom } : {}) },
      ],
      styles: [tee()],
      cells: { 'WH/TEE-M': { onHand: 30 }, 'S1/TEE-M': { sales: 2 }, 'WEB/TEE-M': { sales: 1 } },
    });
    const sent = (r: ReturnType<typeof run>) => r.proposals.map((p) => [p.toLocationId, p.quantity]);
    // Selling from its own stock, the webshop is replenished like a store: 24 for S1, then the rest is short.
    // Each location's own days alone, every day alike, so the targets are worked out by hand below.
    const alone = { poolingHalfWeightDays: 0, demandHalfLifeDays: 0 };
    const own = run(spec(), only('Replenishment', alone));
    expect(own.proposals.map((p) => p.toLocationId).sort()).toEqual(['S1', 'WEB']);
    // Selling from the warehouse's, it is sent nothing, and the warehouse keeps its target (rate 1/day over 9
    // days: ⌈9 + 1.2816 × 3 + (1.2816² − 1) / 6 − ½⌉ = 13) for its customers: S1 gets the 17 left of 30, not its 24.
    const fulfilled = run(spec('WH'), only('Replenishment', alone));
    expect(sent(fulfilled)).toEqual([['S1', 17]]);
    expect(fulfilled.proposals[0].reason).toMatch(/warehouse short .*; 13 kept for the online customers it serves/);
  });

  it('splits a short warehouse evenly between equal stores', () => {
    const r = run(
      {
        locations: sites({ WH: 'warehouse', A: 'store', B: 'store' }),
        styles: [tee()],
        cells: { 'WH/TEE-M': { onHand: 10 }, 'A/TEE-M': { sales: 2 }, 'B/TEE-M': { sales: 2 } },
      },
      only('Replenishment'),
    );
    expect(r.proposals.map((p) => [p.toLocationId, p.quantity])).toEqual([
      ['A', 5],
      ['B', 5],
    ]);
  });

  it('follows the client target, pack multiples and the minimum quantity', () => {
    const spec: StateSpec = {
      locations: sites({ WH: 'warehouse', S1: 'store', S2: 'store' }),
      styles: [{ id: 'SOCK', skus: [{ id: 'SOCK-3P', packSize: 3 }] }, tee()],
      cells: {
        'WH/SOCK-3P': { onHand: 100 },
        'S1/SOCK-3P': { sales: 1 },
        'WH/TEE-M': { onHand: 100 },
        'S1/TEE-M': { sales: 2, clientTarget: 5 },
        'S2/TEE-M': { onHand: 1, everActive: true },
      },
    };
    const r = run(spec, { ...only('Replenishment'), defaults: { minimumTransferQuantity: 2, presentationMinimum: 2 } });
    const by = Object.fromEntries(r.proposals.map((p) => [`${p.toLocationId}/${p.skuId}`, p.quantity]));
    expect(by['S1/TEE-M']).toBe(5);
    expect(by['S1/SOCK-3P'] % 3).toBe(0);
    expect(by['S1/SOCK-3P']).toBeGreaterThanOrEqual(12);
    // S2 needs 1 to reach its presentation minimum of 2: below the minimum quantity of 2.
    expect(by['S2/TEE-M']).toBeUndefined();
  });
});

describe('initial distribution', () => {
  const newStyle = (warehouse: { s: number; m: number }): StateSpec => ({
    locations: sites({ WH: 'warehouse', BIG: 'store', SMALL: 'store' }),
    styles: [tee('OLD', ['S', 'M']), tee('NEW', ['S', 'M'])],
    cells: {
      'BIG/OLD-S': { sales: 1 },
      'BIG/OLD-M': { sales: 2 },
      'SMALL/OLD-S': { sales: 0.5 },
      'SMALL/OLD-M': { sales: 0.5 },
      'WH/NEW-S': { onHand: warehouse.s },
      'WH/NEW-M': { onHand: warehouse.m },
    },
  });
  // A week's first fill, as the rule's arithmetic below reads (the default is shorter: docs/design.md §8.18).
  const firstFill: SettingsOverride = {
    ...only('InitialDistribution', { demandHalfLifeDays: 0 }),
    initialDistribution: { enabled: true, firstFillDays: 7 },
  };
  const sentBy = (r: ReturnType<typeof run>) =>
    Object.fromEntries(r.proposals.map((p) => [`${p.toLocationId}/${p.skuId}`, p.quantity]));

  it('distributes a new style by what a SKU of its category sells at each store over the first fill', () => {
    const r = run(newStyle({ s: 500, m: 1000 }), firstFill);
    // By hand: the category sells 1.5 a SKU-day at BIG and 0.5 at SMALL; each store held the one style of it, so
    // by Laplace's rule it carries the next with a chance of 2/3; BIG's size curve is 29:57 (units + 1), SMALL's even.
    // Seven days of that at 90 % service (stockFor), at least the presentation minimum of 1.
    const z = normalQuantile(0.9);
    const want = (rate: number) => Math.max(1, stockFor(rate, 0, 7, z));
    expect(sentBy(r)).toEqual({
      'BIG/NEW-S': want((2 / 3) * 1.5 * (29 / 86) * 2),
      'BIG/NEW-M': want((2 / 3) * 1.5 * (57 / 86) * 2),
      'SMALL/NEW-S': want((2 / 3) * 0.5),
      'SMALL/NEW-M': want((2 / 3) * 0.5),
    });
    expect(sentBy(r)).toEqual({ 'BIG/NEW-S': 8, 'BIG/NEW-M': 13, 'SMALL/NEW-S': 4, 'SMALL/NEW-M': 4 });
    // The rest stays at the warehouse, for replenishment to send where the style sells.
    expect(r.proposals.every((p) => p.transferType === 'InitialDistribution' && p.fromLocationId === 'WH')).toBe(true);
    expect(r.proposals[0].reason).toMatch(/over 7 days at 90% service/);
  });

  it('gives a short warehouse less the holdback, each unit where it most likely sells', () => {
    const r = run(newStyle({ s: 10, m: 10 }), firstFill);
    const by = sentBy(r);
    // 20 % held back: 8 of each go out, more of them to BIG, which sells more.
    expect(by['BIG/NEW-S'] + by['SMALL/NEW-S']).toBe(8);
    expect(by['BIG/NEW-M'] + by['SMALL/NEW-M']).toBe(8);
    expect(by['BIG/NEW-M']).toBeGreaterThan(by['SMALL/NEW-M']);
    expect(r.proposals.find((p) => p.toLocationId === 'BIG')!.reason).toMatch(
      /the warehouse is short \(8 allocatable\)/,
    );
  });

  it('sends nothing to a store that cannot reach the presentation minimum', () => {
    const r = run(
      {
        locations: sites({ WH: 'warehouse', BIG: 'store', TINY: 'store' }),
        styles: [tee('OLD'), tee('NEW')],
        cells: { 'BIG/OLD-M': { sales: 5 }, 'TINY/OLD-M': { sales: [1] }, 'WH/NEW-M': { onHand: 10 } },
      },
      { ...only('InitialDistribution'), defaults: { presentationMinimum: 3 } },
    );
    expect(r.proposals.map((p) => [p.toLocationId, p.quantity])).toEqual([['BIG', 8]]);
  });
});

describe('redistribution', () => {
  const slowToFast = (extra: Partial<StateSpec> = {}, style = tee()): StateSpec => ({
    locations: sites({ SLOW: 'store', FAST: 'store' }),
    styles: [style],
    cells: {
      'SLOW/TEE-M': { onHand: 30, sales: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] },
      'FAST/TEE-M': { onHand: 0, sales: 2, everActive: true },
    },
    ...extra,
  });

  it("moves a slow store's excess to a selling store", () => {
    const r = run(slowToFast(), only('Redistribution'));
    expect(r.proposals).toHaveLength(1);
    const p = r.proposals[0];
    expect(p).toMatchObject({
      transferType: 'Redistribution',
      fromLocationId: 'SLOW',
      toLocationId: 'FAST',
      skuId: 'TEE-M',
    });
    expect(p.quantity).toBeGreaterThan(10);
    expect(p.quantity).toBeLessThanOrEqual(24);
    expect(p.reason).toMatch(/excess at SLOW/);
  });

  it("words a replay's fractional stock with two decimals at most", () => {
    const spec = slowToFast();
    spec.cells['SLOW/TEE-M'].onHand = 30.123456789;
    spec.cells['FAST/TEE-M'].onHand = 0.4567891;
    const [p] = run(spec, only('Redistribution')).proposals;
    expect(p.reason).toMatch(
      /^excess at SLOW \(on hand 30\.12, target \d+\) to FAST, which would lose sales \(on hand 0\.46, target \d+\)/,
    );
  });

  it('proposes nothing when the trip is not worth its cost', () => {
    expect(run(slowToFast(), only('Redistribution', { redistribution: { tripCost: 10_000 } })).proposals).toEqual([]);
  });

  it('keeps styles with open purchase orders, excluded SKUs and recently moved stock where they are', () => {
    expect(
      run(slowToFast({}, tee('TEE', ['M'], { openPurchaseOrder: true })), only('Redistribution')).proposals,
    ).toEqual([]);
    expect(
      run(
        slowToFast({}, tee('TEE', ['M'], { openPurchaseOrder: true })),
        only('Redistribution', { defaults: { blockRedistributionWithOpenPurchaseOrders: false } }),
      ).proposals,
    ).toHaveLength(1);
    const excluded = tee();
    excluded.skus[0] = { ...excluded.skus[0], excluded: true };
    expect(run(slowToFast({}, excluded), only('Redistribution')).proposals).toEqual([]);
    const recent = slowToFast();
    recent.cells['SLOW/TEE-M'].lastArrivalDay = DAY0 - 3;
    expect(run(recent, only('Redistribution')).proposals).toEqual([]);
    const closed = slowToFast();
    closed.locations[1].excluded = true;
    expect(run(closed, only('Redistribution')).proposals).toEqual([]);
  });

  it('consolidates a broken size run whole, and never leaves a sender with one', () => {
    const sizes = ['S', 'M', 'L', 'XL'];
    const spec: StateSpec = {
      locations: sites({ BROKEN: 'store', FULL: 'store', EXCESS: 'store' }),
      styles: [tee('TEE', sizes)],
      cells: {
        'BROKEN/TEE-M': { onHand: 2, sales: [0, 0, 0, 1] },
        ...Object.fromEntries(sizes.map((s) => [`FULL/TEE-${s}`, { onHand: 0, sales: 1.5, everActive: true }])),
        ...Object.fromEntries(
          sizes.map((s) => [`EXCESS/TEE-${s}`, { onHand: 40, sales: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] }]),
        ),
      },
    };
    // Two units at 20 are worth a cheap trip only.
    const r = run(spec, only('Redistribution', { redistribution: { tripCost: 5, minimumGain: 5 } }));
    const fromBroken = r.proposals.filter((p) => p.fromLocationId === 'BROKEN');
    expect(fromBroken.reduce((s, p) => s + p.quantity, 0)).toBe(2);
    expect(fromBroken[0].reason).toMatch(/broken size run/);
    // The excess store keeps every size it had.
    for (const s of sizes) {
      const sent = r.proposals
        .filter((p) => p.fromLocationId === 'EXCESS' && p.skuId === `TEE-${s}`)
        .reduce((a, p) => a + p.quantity, 0);
      expect(40 - sent, s).toBeGreaterThanOrEqual(1);
    }
  });

  it('caps the trips per store', () => {
    const receivers = ['R1', 'R2', 'R3', 'R4'];
    const r = run(
      {
        locations: [{ id: 'SLOW', kind: 'store' }, ...receivers.map((id) => ({ id, kind: 'store' as const }))],
        styles: [tee()],
        cells: {
          'SLOW/TEE-M': { onHand: 200, sales: [0, 0, 0, 1] },
          ...Object.fromEntries(receivers.map((id) => [`${id}/TEE-M`, { sales: 2, everActive: true }])),
        },
      },
      only('Redistribution', { redistribution: { maxTripsPerStore: 2 } }),
    );
    expect(new Set(r.proposals.map((p) => p.toLocationId)).size).toBe(2);
  });
});

describe('one run, one plan', () => {
  it('does not fill a store by replenishment and redistribution at once', () => {
    const r = run({
      locations: sites({ WH: 'warehouse', SLOW: 'store', FAST: 'store' }),
      styles: [tee()],
      cells: {
        'WH/TEE-M': { onHand: 100 },
        'SLOW/TEE-M': { onHand: 60, sales: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] },
        'FAST/TEE-M': { onHand: 0, sales: 3, everActive: true },
      },
    });
    const toFast = r.proposals.filter((p) => p.toLocationId === 'FAST');
    const target = r.targets.target[2];
    expect(toFast.reduce((a, p) => a + p.quantity, 0)).toBe(target);
    expect(toFast.map((p) => p.transferType)).toEqual(['Replenishment']);
  });

  it('takes the warehouse reserve once, of the whole stock, across transfer kinds', () => {
    const r = run(
      {
        locations: sites({ WH: 'warehouse', S1: 'store', S2: 'store' }),
        styles: [tee('OLD'), tee('NEW')],
        cells: { 'S1/OLD-M': { sales: 2 }, 'WH/NEW-M': { onHand: 100 }, 'S2/NEW-M': { clientTarget: 100 } },
      },
      { warehouseReservePercentage: 50 },
    );
    const sent = r.proposals.filter((p) => p.skuId === 'NEW-M').reduce((a, p) => a + p.quantity, 0);
    expect(r.proposals.some((p) => p.transferType === 'InitialDistribution')).toBe(true);
    expect(sent).toBe(50);
  });

  it('moves a broken size run whole even when the trip cap cuts its trips', () => {
    const receivers = ['R1', 'R2', 'R3', 'R4', 'R5'];
    const r = run(
      {
        locations: [{ id: 'BROKEN', kind: 'store' }, ...receivers.map((id) => ({ id, kind: 'store' as const }))],
        styles: [tee('TEE', ['S', 'M', 'L', 'XL'])],
        cells: {
          'BROKEN/TEE-M': { onHand: 10, sales: [0, 0, 0, 1] },
          ...Object.fromEntries(receivers.map((id) => [`${id}/TEE-M`, { onHand: 0, sales: 0.3, everActive: true }])),
        },
      },
      only('Redistribution', { redistribution: { maxTripsPerStore: 3, tripCost: 1, minimumGain: 1 } }),
    );
    const moved = r.proposals.filter((p) => p.fromLocationId === 'BROKEN').reduce((a, p) => a + p.quantity, 0);
    expect([0, 10]).toContain(moved);
  });
});

describe('determinism', () => {
  it('gives the same proposals and referenceIds for the same input, unique within a run', () => {
    const spec: StateSpec = {
      locations: sites({ WH: 'warehouse', A: 'store', B: 'store' }),
      styles: [tee('TEE', ['S', 'M', 'L'])],
      cells: {
        'WH/TEE-S': { onHand: 9 },
        'WH/TEE-M': { onHand: 9 },
        'A/TEE-M': { sales: 1 },
        'B/TEE-S': { sales: 2 },
        'B/TEE-L': { sales: 1 },
      },
    };
    const a = run(spec).proposals;
    const b = run(spec).proposals;
    expect(a).toEqual(b);
    expect(a.length).toBeGreaterThan(1);
    expect(new Set(a.map((p) => p.referenceId)).size).toBe(a.length);
    expect(a[0].referenceId).toMatch(/^RP-20240318-[0-9a-f]{8}$/);
    const later = run({ ...spec, asOfDay: DAY0 + 1 }).proposals;
    expect(later[0].referenceId).not.toBe(a[0].referenceId);
    expect(DEFAULT_SETTINGS.defaults.serviceLevel).toBe(0.9);
  });
});

describe('window ring', () => {
  it('reads a rotated window in day order', () => {
    const W = 6;
    const days = [0, 0, 3, 0, 0, 3];
    const rotated = new Float32Array(W);
    const head = 4;
    days.forEach((x, d) => (rotated[(head + d) % W] = x));
    expect(ownEstimate(rotated, 0, W, head).rate).toBeCloseTo(ownEstimate(Float32Array.from(days), 0, W).rate, 12);
    expect(ownEstimate(rotated, 0, W, head).rate).toBeCloseTo(0.95, 12);
  });

  it('estimates in one pass exactly what SBA and TSB give over the in-stock days, wherever the ring starts', () => {
    // A fixed pseudo-random walk over sparse, lumpy series with stock-outs, so every class and method is met.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const W = 28;
    const seen = new Set<string>();
    for (let trial = 0; trial < 400; trial++) {
      const often = next();
      const days = Array.from({ length: W }, () => (next() < often ? Math.ceil(next() * (next() < 0.5 ? 2 : 12)) : 0));
      const stocked = days.map((x) => (x > 0 || next() < 0.8 ? 1 : 0));
      const head = Math.floor(next() * W);
      const sales = new Float32Array(W);
      // NaN: a day without stock.
      days.forEach((x, d) => (sales[(head + d) % W] = stocked[d] ? x : Number.NaN));
      const e = ownEstimate(sales, 0, W, head);
      const held = days.filter((_, d) => stocked[d]);
      const expected = { sba: sba(held), tsb: tsb(held), mean: held.reduce((a, b) => a + b, 0) / held.length };
      expect(e.rate).toBe(e.method === 'none' ? 0 : expected[e.method]);
      seen.add(e.method);
    }
    expect([...seen].sort()).toEqual(['mean', 'none', 'sba', 'tsb']);
  });
});
