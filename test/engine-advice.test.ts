/**
 * The rules that size the engine's advice to what a store can sell, each on its own: sold-out days read as lower
 * bounds, slow SKUs' targets, stores that do not sell a style and styles off sale, and the world's transit read from
 * the data.
 */
import { describe, expect, it } from 'vitest';
import { demandBeyond, OWN, OWN_FIELDS, ownEstimate, ownStats, SOLD_OUT_ROUNDS } from '../engine/forecast/demand.js';
import { otherPriceDays, REGIME_MIN_DAYS, REGIME_STEP } from '../engine/forecast/price-regime.js';
import { cutLift, liftedRate, LIFT_PRIOR_UNITS } from '../engine/forecast/promotion.js';
import { beforeLaunch, soldDays } from '../engine/forecast/launch.js';
import { SPREAD_FIELDS, STYLE_SPREAD, styleWeightDays } from '../engine/forecast/forecast.js';
import { poissonTail } from '../engine/forecast/poisson.js';
import { recommend } from '../engine/recommend/recommend.js';
import { DEFAULT_SETTINGS, resolveSettings, type SettingsOverride } from '../engine/recommend/settings.js';
import { basisOf, normalQuantile, stockFor } from '../engine/recommend/targets.js';
import { levelTransit, worldTransit, TRANSIT_SOURCES } from '../engine/simulate/transit.js';
import { buildState, DAY0, type StateSpec } from './engine-fixtures.js';

const run = (spec: StateSpec, settings: SettingsOverride = {}) =>
  recommend(buildState(spec), resolveSettings({}, settings));

describe('sold-out days', () => {
  it('reads a day that sold out as at least what it sold, not as its demand', () => {
    const W = 28;
    // Fourteen a day, and every other day the shelf sold out at 14 (kept negated: a lower bound).
    const days = Array.from({ length: W }, (_, d) => (d % 2 ? -14 : 14));
    const e = ownEstimate(Float32Array.from(days), 0, W);
    expect(e.inStockDays).toBe(W);
    // Read as full demand the days would say 14; a day that sold out had at least 14.
    expect(e.rate).toBeGreaterThan(14);
    // E[D | D ≥ x] under Poisson: never below the bound.
    expect(demandBeyond(14, 14)).toBeCloseTo((14 * poissonTail(14, 13)) / poissonTail(14, 14), 12);
    expect(demandBeyond(3, 10)).toBeGreaterThanOrEqual(10);
  });

  it('raises a cell that sold out on every in-stock day by a bounded step a review, not without end', () => {
    const W = 28;
    const e = ownEstimate(new Float32Array(W).fill(-14), 0, W);
    // No uncensored day holds the rate down: it rises above 14, by SOLD_OUT_ROUNDS of E[D | D ≥ 14] at most.
    let bound = 14;
    for (let r = 0; r < SOLD_OUT_ROUNDS; r++) bound = demandBeyond(bound, 14);
    expect(e.rate).toBeGreaterThan(14);
    expect(e.rate).toBeCloseTo(bound, 9);
    expect(e.rate).toBeLessThan(14 * 1.6);
  });
});

const PROMOTION_DAYS = DEFAULT_SETTINGS.promotionDays;

describe('days sold at another price', () => {
  const W = 28;
  /** One style's ring (head 0): a promotion at `promo` off on days [from, to), the rest at list price. */
  const ring = (from: number, to: number, promo = 0.3) =>
    Float32Array.from({ length: W }, (_, d) => (d >= from && d < to ? promo : 0));

  it('leaves out a promotion that ended, once the list price has held two weeks', () => {
    const skip = new Uint8Array(W);
    expect(otherPriceDays(ring(7, 14), 0, W, 0, skip, PROMOTION_DAYS)).toEqual({ skipping: true, cutDays: 0 });
    expect([...skip].map((x, d) => (x ? d : -1)).filter((d) => d >= 0)).toEqual([7, 8, 9, 10, 11, 12, 13]);
  });

  it('leaves out the days of a cut under way and says how long it has run; a markdown that held is read alone', () => {
    const skip = new Uint8Array(W);
    // Five days into a promotion: its days are left out (promotion.ts sizes their lift), the list price's read.
    expect(otherPriceDays(ring(W - 5, W), 0, W, 0, skip, PROMOTION_DAYS)).toEqual({ skipping: true, cutDays: 5 });
    expect([...skip].map((x, d) => (x ? d : -1)).filter((d) => d >= 0)).toEqual([23, 24, 25, 26, 27]);
    // A cut as old as a promotion runs is read with the days before it, as any young price.
    expect(otherPriceDays(ring(W - PROMOTION_DAYS, W), 0, W, 0, skip, PROMOTION_DAYS)).toEqual({
      skipping: false,
      cutDays: 0,
    });
    expect(skip.every((x) => x === 0)).toBe(true);
    // A price back up three days ago: the promotion's days are left out, the list price's before and after it read.
    expect(otherPriceDays(ring(W - 10, W - 3), 0, W, 0, skip, PROMOTION_DAYS)).toEqual({ skipping: true, cutDays: 0 });
    // A markdown of REGIME_MIN_DAYS days: the days at the list price before it are left out.
    expect(otherPriceDays(ring(W - REGIME_MIN_DAYS, W), 0, W, 0, skip, PROMOTION_DAYS)).toEqual({
      skipping: true,
      cutDays: 0,
    });
    expect(skip.reduce((a, b) => a + b, 0)).toBe(W - REGIME_MIN_DAYS);
  });

  it('reads the ring from its head, skips nothing for a small change of price or a style without sales', () => {
    const skip = new Uint8Array(W);
    // The same promotion with the ring turned by 10 slots: the same days, in window order.
    const turned = new Float32Array(W);
    const plain = ring(7, 14);
    for (let d = 0; d < W; d++) turned[(10 + d) % W] = plain[d];
    otherPriceDays(turned, 0, W, 10, skip, PROMOTION_DAYS);
    expect([...skip].map((x, d) => (x ? d : -1)).filter((d) => d >= 0)).toEqual([7, 8, 9, 10, 11, 12, 13]);
    expect(otherPriceDays(ring(7, 14, REGIME_STEP / 2), 0, W, 0, skip, PROMOTION_DAYS).skipping).toBe(false);
    expect(otherPriceDays(new Float32Array(W).fill(Number.NaN), 0, W, 0, skip, PROMOTION_DAYS).skipping).toBe(false);
    expect(otherPriceDays(undefined, 0, W, 0, skip, PROMOTION_DAYS).skipping).toBe(false);
  });

  it("estimates a week after a promotion from the list price's days, not the promotion's lift", () => {
    // Two a day at list price, ten a day in the promotion's week (days 7–13).
    const sales = Float32Array.from({ length: W }, (_, d) => (d >= 7 && d < 14 ? 10 : 2));
    const skip = new Uint8Array(W);
    otherPriceDays(ring(7, 14), 0, W, 0, skip, PROMOTION_DAYS);
    const out = new Float64Array(OWN_FIELDS);
    ownStats(sales, 0, W, 0, out, undefined, skip);
    expect(out[OWN.rate]).toBe(2);
    expect(out[OWN.inStockDays]).toBe(W - 7);
    // Read whole, the promotion lifts it.
    expect(ownEstimate(sales, 0, W).rate).toBe(4);
  });
});

describe('a style before its launch', () => {
  const W = 28;
  const skipped = (skip: Uint8Array) => [...skip].map((x, d) => (x ? d : -1)).filter((d) => d >= 0);
  /** beforeLaunch on the days the style's cells sold (no discount ring: read off the cells' windows). */
  const launch = (sales: Float32Array, cells: number[], head: number, skip: Uint8Array) =>
    beforeLaunch(
      soldDays({ sales, windowDays: W, windowHead: head }, 0, () => cells, new Uint8Array(W)),
      skip,
    );

  it('leaves out the days a new style stood on the shelves before it sold anywhere', () => {
    // Two stores: on the shelves from day 0, the style sells from day 10 on, most days at one store or the other.
    const a = Float32Array.from({ length: W }, (_, d) => (d < 10 ? 0 : d % 3 ? 2 : 0));
    const b = Float32Array.from({ length: W }, (_, d) => (d < 10 ? 0 : d % 3 ? 0 : 1));
    const sales = new Float32Array(2 * W);
    sales.set(a, 0);
    sales.set(b, W);
    const skip = new Uint8Array(W);
    expect(launch(sales, [0, 1], 0, skip)).toBe(true);
    expect(skipped(skip)).toEqual([...Array(10).keys()]);
    // The style's discount ring tells the same: a number on the days it sold anywhere, NaN on the others.
    const ring = Float32Array.from({ length: W }, (_, d) => (d < 10 ? Number.NaN : 0));
    const days = (styleDiscount?: Float32Array) => [
      ...soldDays({ sales, windowDays: W, windowHead: 0, styleDiscount }, 0, () => [0, 1], new Uint8Array(W)),
    ];
    expect(days(ring)).toEqual(days());
    // A ring without a day (a feed whose lines carry no prices) leaves it to the cells.
    expect(days(new Float32Array(W).fill(Number.NaN))).toEqual(days());
    expect(days().indexOf(1)).toBe(10);
    // Read from its launch on, the first store's estimate stands on the days since, not diluted by the days before.
    const out = new Float64Array(OWN_FIELDS);
    ownStats(sales, 0, W, 0, out, undefined, skip);
    expect(out[OWN.inStockDays]).toBe(W - 10);
    expect(out[OWN.units]).toBe(24);
    const whole = new Float64Array(OWN_FIELDS);
    ownStats(sales, 0, W, 0, whole);
    expect(out[OWN.rate]).toBeGreaterThan(whole[OWN.rate] * 1.4);
  });

  it("keeps a slow style's quiet days, and a window that opens with a sale", () => {
    // A sale every fifth day: four quiet days at the start are the style's own quiet, not a launch.
    const slow = Float32Array.from({ length: W }, (_, d) => (d % 5 === 4 ? 1 : 0));
    const skip = new Uint8Array(W);
    expect(launch(slow, [0], 0, skip)).toBe(false);
    expect(skip.every((x) => x === 0)).toBe(true);
    expect(launch(new Float32Array(W).fill(3), [0], 0, skip)).toBe(false);
    // Never sold: nothing tells when it goes on sale.
    expect(launch(new Float32Array(W), [0], 0, skip)).toBe(false);
    // The ring read from its head: a launch 10 days in, stored from slot 5.
    const turned = new Float32Array(W);
    const launched = Float32Array.from({ length: W }, (_, d) => (d < 10 ? 0 : 2));
    for (let d = 0; d < W; d++) turned[(5 + d) % W] = launched[d];
    expect(launch(turned, [0], 5, skip)).toBe(true);
    expect(skipped(skip)).toEqual([...Array(10).keys()]);
  });
});

describe("a style's weight against its category", () => {
  /** One category's spread, from styles' network rates and in-stock cell-days. */
  const spreadOf = (styles: { rate: number; days: number }[]) => {
    const spread = new Float64Array(SPREAD_FIELDS);
    for (const { rate, days } of styles) {
      spread[STYLE_SPREAD.styles]++;
      spread[STYLE_SPREAD.rate] += rate;
      spread[STYLE_SPREAD.rateSq] += rate * rate;
      spread[STYLE_SPREAD.noise] += rate / days;
    }
    return spread;
  };

  it("lets a style speak for itself where its category's styles sell very differently", () => {
    // A style at 3 a day beside styles at 0.5–1.5: the category's average says little of any one style.
    const rates = [3, 1, 1, 1.5, 0.5];
    const apart = spreadOf(rates.map((rate) => ({ rate, days: 500 })));
    const mean = rates.reduce((a, b) => a + b) / 5;
    const between = rates.reduce((a, r) => a + r * r, 0) / 5 - mean * mean - mean / 500;
    expect(styleWeightDays(apart, 0, mean, 56)).toBeCloseTo(mean / between, 12);
    expect(styleWeightDays(apart, 0, mean, 56)).toBeLessThan(3);
  });

  it('leans on the category where its styles sell alike, or where too few styles tell', () => {
    // Styles at 1.9–2.1 a day: what spread there is, the days' own noise explains; the setting's days stand.
    const alike = spreadOf([1.9, 2, 2.1, 2].map((rate) => ({ rate, days: 20 })));
    expect(styleWeightDays(alike, 0, 2, 56)).toBe(56);
    expect(styleWeightDays(spreadOf([{ rate: 5, days: 100 }]), 0, 5, 56)).toBe(56);
    // Never fewer than a day, never more than the setting.
    const wild = spreadOf([100, 0.01, 0.01].map((rate) => ({ rate, days: 1000 })));
    expect(styleWeightDays(wild, 0, 33, 56)).toBe(1);
  });
});

describe('a promotion under way', () => {
  const W = 28;
  /** A store's weekday pattern, Sunday first: quiet early in the week, busy on Saturday. */
  const week = [2, 2, 2, 3, 3, 4, 6];
  /** One cell's window (day 0 a Sunday): the pattern at list price, then the last `cut` days at `lift` × it. */
  const cell = (cut: number, lift: number, soldOutAt?: number) =>
    Float32Array.from({ length: W }, (_, d) => {
      const x = d >= W - cut ? week[d % 7] * lift : week[d % 7];
      return soldOutAt !== undefined && d >= W - cut ? -Math.min(x, soldOutAt) : x;
    });
  const cutSkip = (cut: number) => Uint8Array.from({ length: W }, (_, d) => (d >= W - cut ? 1 : 0));

  it('measures the lift on the weekdays the cut ran, against the same weekdays before it', () => {
    // Two days in, Friday and Saturday: they sold 8 and 12, twice what those days sold the weeks before.
    const two = cutLift(cell(2, 2), [0], W, 0, 2, cutSkip(2));
    expect(two).toBeCloseTo((20 + LIFT_PRIOR_UNITS) / (10 + LIFT_PRIOR_UNITS), 12);
    // A whole network's cells say more than one: the shrinkage towards 1 weighs less.
    const many = new Float32Array(W * 20);
    for (let c = 0; c < 20; c++) many.set(cell(2, 2), c * W);
    const wide = cutLift(many, [...Array(20).keys()], W, 0, 2, cutSkip(2));
    expect(wide).toBeGreaterThan(two);
    expect(wide).toBeCloseTo((400 + LIFT_PRIOR_UNITS) / (200 + LIFT_PRIOR_UNITS), 12);
    // No cut: no lift; a cut that sold less than before is no lift either.
    expect(cutLift(cell(3, 1), [0], W, 0, 3, cutSkip(3))).toBe(1);
    expect(cutLift(cell(3, 0.5), [0], W, 0, 3, cutSkip(3))).toBe(1);
  });

  it('reads a cut day that sold out as more than it sold', () => {
    // The same two-day cut with both days sold out at 7: the lift is above what 7 and 7 sold say.
    const sold = cell(2, 2, 7);
    const asSold = sold.map(Math.abs);
    expect(cutLift(asSold, [0], W, 0, 2, cutSkip(2))).toBeCloseTo(
      (14 + LIFT_PRIOR_UNITS) / (10 + LIFT_PRIOR_UNITS),
      12,
    );
    expect(cutLift(sold, [0], W, 0, 2, cutSkip(2))).toBeGreaterThan(cutLift(asSold, [0], W, 0, 2, cutSkip(2)));
  });

  it('lifts the days the promotion still has to run, and no day after a promotion would have ended', () => {
    // A promotion lifting demand 2× with 5 days to run: over a 7-day cover, 5 days lifted.
    expect(liftedRate(3, 2, 5, 7)).toBeCloseTo(3 * (1 + 5 / 7), 12);
    // Over a 3-day cover, every day lifted.
    expect(liftedRate(3, 2, 5, 3)).toBeCloseTo(6, 12);
    expect(liftedRate(3, 2, 0, 7)).toBe(3);
    expect(liftedRate(3, 1, 5, 7)).toBe(3);
  });

  it('sends a store more two days into a promotion than before it, for the days it still has to run', () => {
    const sent = (sales: Float32Array, discounts: Float32Array, settings: SettingsOverride = {}) => {
      const state = buildState({
        windowDays: W,
        locations: [
          { id: 'WH', kind: 'warehouse' },
          { id: 'A', kind: 'store' },
        ],
        styles: [{ id: 'TEE', skus: [{ id: 'TEE-M' }] }],
        cells: { 'WH/TEE-M': { onHand: 500 }, 'A/TEE-M': { onHand: 3, sales: [...sales] } },
      });
      state.styleDiscount = discounts;
      return recommend(state, resolveSettings({}, settings))
        .proposals.filter((p) => p.transferType === 'Replenishment')
        .reduce((n, p) => n + p.quantity, 0);
    };
    const before = sent(cell(0, 1), new Float32Array(W));
    const twoDaysIn = Float32Array.from({ length: W }, (_, d) => (d >= W - 2 ? 0.3 : 0));
    const promoted = sent(cell(2, 3), twoDaysIn);
    expect(before).toBeGreaterThan(0);
    expect(promoted).toBeGreaterThan(before);
    // A longer promotion is planned for more days; `promotionDays` 0 plans none, and reads its days as any young
    // price's, with the days before them.
    expect(sent(cell(2, 3), twoDaysIn, { promotionDays: 14 })).toBeGreaterThan(promoted);
    expect(sent(cell(2, 3), twoDaysIn, { promotionDays: 0 })).toBe(sent(cell(2, 3), new Float32Array(W)));
    // Once a promotion would have ended, its days count as any young price's: no lift is planned on top of them.
    const overdue = sent(
      cell(PROMOTION_DAYS, 3),
      Float32Array.from({ length: W }, (_, d) => (d >= W - PROMOTION_DAYS ? 0.3 : 0)),
    );
    expect(overdue).toBe(sent(cell(PROMOTION_DAYS, 3), new Float32Array(W)));
  });
});

describe('targets', () => {
  it("stocks a slow SKU at its Poisson quantile, not the normal approximation's rounding up", () => {
    const z = normalQuantile(0.9);
    // The smallest S with P(D ≤ S) ≥ 90 % for D ~ Poisson(mean).
    const poissonQuantile = (mean: number) => {
      let s = 0;
      while (1 - poissonTail(mean, s + 1) < 0.9) s++;
      return s;
    };
    for (const rate of [0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2]) {
      const mean = rate * 9;
      expect(stockFor(rate, 0, 9, z)).toBe(poissonQuantile(mean));
    }
    // At 0.1 a day over 9 days: 2 units, where ⌈0.9 + 1.28 × √0.9⌉ gave 3.
    expect(stockFor(0.1, 0, 9, z)).toBe(2);
  });
});

describe('what a store sells', () => {
  const twoStores = (b: Record<string, unknown>): StateSpec => ({
    locations: [
      { id: 'WH', kind: 'warehouse' },
      { id: 'A', kind: 'store' },
      { id: 'B', kind: 'store' },
    ],
    styles: [{ id: 'TEE', category: 'TEES', skus: [{ id: 'TEE-M', size: 'M', price: 20 }] }],
    cells: { 'WH/TEE-M': { onHand: 100 }, 'A/TEE-M': { onHand: 0, sales: 2 }, 'B/TEE-M': b },
  });

  it('gives no target to a store that stood with a style, sold none while it sold elsewhere, and takes it back', () => {
    // B held 6 all window and sold none; A sold two a day: B's shelf would have sold far more than a few units.
    const r = run(twoStores({ onHand: 6, sales: 0 }));
    const B = 2;
    expect(basisOf(r.targets, 0 * 3 + B)).toBe('notSelling');
    const back = r.proposals.filter((p) => p.fromLocationId === 'B');
    expect(back).toEqual([
      expect.objectContaining({ toLocationId: 'WH', skuId: 'TEE-M', quantity: 6, transferType: 'Redistribution' }),
    ]);
    expect(back[0].reason).toMatch(/does not sell at B/);
    expect(r.proposals.some((p) => p.toLocationId === 'B')).toBe(false);
  });

  it('judges a silent shelf by the units it would have sold at the rate elsewhere: six tell, four do not', () => {
    // A sells one every fourth day (¼ a day); B held 3 and sold none over its last `days` in stock. Six expected
    // units unsold happen by chance once in 400; four, once in 55: too often to shut a store out of the style.
    const silent = (days: number) => {
      const spec = twoStores({ onHand: 3, sales: 0, outOfStock: Array.from({ length: 28 - days }, (_, d) => d) });
      spec.cells['A/TEE-M'] = { onHand: 2, sales: Array.from({ length: 28 }, (_, d) => (d % 4 === 3 ? 1 : 0)) };
      return run(spec);
    };
    expect(basisOf(silent(24).targets, 2)).toBe('notSelling');
    expect(basisOf(silent(16).targets, 2)).not.toBe('notSelling');
  });

  it('keeps a store that sold the style lately, however little', () => {
    const r = run(twoStores({ onHand: 6, sales: [...Array(27).fill(0), 1] }));
    expect(basisOf(r.targets, 2)).not.toBe('notSelling');
    expect(r.proposals.some((p) => p.fromLocationId === 'B')).toBe(false);
  });

  it('judges a store that stopped by what its shelf would have sold since its last sale: 11 tell, 9 do not', () => {
    // Eight weeks' window; A sells one every fourth day (¼ a day). B sold at that pace for its first days, then
    // stood with 4 units and sold nothing for the rest of the window, while it sold caps every day it was open: a
    // delisting nothing in the feed announced.
    const quarter = (days: number) => Array.from({ length: days }, (_, d) => (d % 4 === 3 ? 1 : 0));
    const stopped = (selling: number[], openDays = 56) => {
      const spec = twoStores({ onHand: 4, sales: selling });
      spec.windowDays = 56;
      spec.cells['A/TEE-M'] = { onHand: 2, sales: quarter(56) };
      spec.styles.push({ id: 'CAP', category: 'CAPS', skus: [{ id: 'CAP-1', size: 'One', price: 10 }] });
      spec.cells['B/CAP-1'] = { onHand: 9, sales: Array.from({ length: 56 }, (_, d) => (d < openDays ? 1 : 0)) };
      return run(spec);
    };
    // Last sale on day 11: 44 silent days at ¼ a day, 11 units; on day 19: 36 days, 9 units.
    const gone = stopped(quarter(12));
    expect(basisOf(gone.targets, 2)).toBe('notSelling');
    expect(gone.proposals).toContainEqual(
      expect.objectContaining({ fromLocationId: 'B', toLocationId: 'WH', skuId: 'TEE-M', quantity: 4 }),
    );
    // Its last sale was window day 11 of 56, 45 days before the review.
    const since = new Date((DAY0 - 45) * 86_400_000).toISOString().slice(0, 10);
    expect(gone.proposals.find((p) => p.fromLocationId === 'B')!.reason).toContain(`without a sale since ${since}`);
    expect(basisOf(stopped(quarter(20)).targets, 2)).not.toBe('notSelling');
    // A store that sold at half the pace of the others is judged by its own: 40 silent days at ⅛ a day are 5 units,
    // not the 10 the others' pace would give.
    const eighth = Array.from({ length: 16 }, (_, d) => (d % 8 === 7 ? 1 : 0));
    expect(basisOf(stopped(eighth).targets, 2)).not.toBe('notSelling');
    // A store that sold nothing at all since day 20 was closed (or its sales are late): its silence on the tees counts
    // only up to its last sale of anything, 9 days at ¼ a day.
    expect(basisOf(stopped(quarter(12), 21).targets, 2)).not.toBe('notSelling');
  });

  it('sends a store that has not sold a style what it would sell times the chance it carries it', () => {
    // A sells one a day; B has stood with one unit for its last `days` without a sale (four expected units at the
    // most: not yet judged). B held a style of the category, so the chance it carries one is ⅔; after a silent
    // day it is 2e⁻¹ / (2e⁻¹ + 1) = 0.42, after four 2e⁻⁴ / (2e⁻⁴ + 1) = 0.035.
    const target = (days: number) => {
      const b = { onHand: 1, sales: 0, outOfStock: Array.from({ length: 28 - days }, (_, d) => d) };
      const spec = twoStores(b);
      spec.cells['A/TEE-M'] = { onHand: 2, sales: 1 };
      const r = run(spec, { defaults: { presentationMinimum: 0 } });
      expect(basisOf(r.targets, 2)).toBe('demand');
      return r.targets.target[2];
    };
    const [one, two, three, four] = [1, 2, 3, 4].map(target);
    expect([one, two, three, four]).toEqual([...[one, two, three, four]].sort((x, y) => y - x));
    expect(four * 3).toBeLessThan(one);
    expect(four).toBeGreaterThan(0);
  });

  it('gives a young style to a store that carries its category once it sells elsewhere, not an old one', () => {
    // B never held TEE, but sold the category's other style; TEE stood on A's shelf for the last two weeks only (a
    // store skipped at its launch).
    const young = Array.from({ length: 14 }, (_, d) => d);
    const spec = (b: Record<string, unknown>, teeOut: number[]) => {
      const s = twoStores(b);
      s.cells['A/TEE-M'] = { onHand: 0, sales: 2, outOfStock: teeOut };
      s.styles.push({ id: 'POLO', category: 'TEES', skus: [{ id: 'POLO-M', size: 'M', price: 20 }] });
      if (Object.keys(b).length === 0) s.cells['B/POLO-M'] = { onHand: 3, sales: 1 };
      return s;
    };
    const sentToB = (b: Record<string, unknown>, teeOut: number[]) =>
      run(spec(b, teeOut), { redistribution: { enabled: false } }).proposals.filter(
        (p) => p.toLocationId === 'B' && p.skuId === 'TEE-M',
      ).length;
    expect(sentToB({}, young)).toBe(1);
    // On a shelf since the window's first days: B's not holding it is the assortment, not a launch it missed.
    expect(sentToB({}, [])).toBe(0);
    expect(sentToB({}, [0, 1, 2])).toBe(0);
    // Without a sale of the category there, it is not given even a young style.
    const none = run(twoStores({}), { redistribution: { enabled: false } });
    expect(none.proposals.some((p) => p.toLocationId === 'B')).toBe(false);
  });

  it('takes a style off sale once it stopped selling everywhere on the shelves, and sends its stock back', () => {
    const W = 28;
    // Both stores sold two a day until ten days ago, then nothing with stock on the shelf.
    const fading = Array.from({ length: W }, (_, d) => (d < W - 10 ? 2 : 0));
    const r = run({
      locations: [
        { id: 'WH', kind: 'warehouse' },
        { id: 'A', kind: 'store' },
        { id: 'B', kind: 'store' },
      ],
      styles: [{ id: 'TEE', category: 'TEES', skus: [{ id: 'TEE-M', size: 'M', price: 20 }] }],
      cells: {
        'WH/TEE-M': { onHand: 100 },
        'A/TEE-M': { onHand: 5, sales: fading },
        'B/TEE-M': { onHand: 4, sales: fading },
      },
    });
    expect([1, 2].map((l) => basisOf(r.targets, l))).toEqual(['offSale', 'offSale']);
    expect(r.proposals.map((p) => [p.fromLocationId, p.toLocationId, p.quantity])).toEqual([
      ['A', 'WH', 5],
      ['B', 'WH', 4],
    ]);
    expect(r.proposals[0].reason).toMatch(/off sale: it sold nothing anywhere for 10 days/);
    // Three silent days are too few to tell.
    const recent = Array.from({ length: W }, (_, d) => (d < W - 3 ? 2 : 0));
    const still = run({
      locations: [
        { id: 'WH', kind: 'warehouse' },
        { id: 'A', kind: 'store' },
      ],
      styles: [{ id: 'TEE', category: 'TEES', skus: [{ id: 'TEE-M', size: 'M', price: 20 }] }],
      cells: { 'WH/TEE-M': { onHand: 100 }, 'A/TEE-M': { onHand: 5, sales: recent } },
    });
    expect(basisOf(still.targets, 1)).toBe('demand');
    expect(DAY0).toBeGreaterThan(0);
  });
});

describe('what a store sells, when the warehouse ran dry', () => {
  const W = 28;
  // Both stores sold two a day until ten days ago; since then, their shelves stood empty or stocked.
  const fading = Array.from({ length: W }, (_, d) => (d < W - 10 ? 2 : 0));
  const last10 = Array.from({ length: 10 }, (_, i) => W - 10 + i);
  const tee = (cells: StateSpec['cells']): StateSpec => ({
    locations: [
      { id: 'WH', kind: 'warehouse' },
      { id: 'A', kind: 'store' },
      { id: 'B', kind: 'store' },
    ],
    styles: [{ id: 'TEE', category: 'TEES', skus: [{ id: 'TEE-M', size: 'M', price: 20 }] }],
    cells: { 'WH/TEE-M': { onHand: 100 }, ...cells },
  });

  it('keeps a style on sale whose shelves stood empty since its last sale, and sends it again', () => {
    // Out of stock on the last ten days: silence without stock is no sign the style stopped selling.
    const r = run(
      tee({
        'A/TEE-M': { onHand: 0, sales: fading, outOfStock: last10 },
        'B/TEE-M': { onHand: 0, sales: fading, outOfStock: last10 },
      }),
    );
    expect([1, 2].map((l) => basisOf(r.targets, l))).toEqual(['demand', 'demand']);
    expect(r.proposals.filter((p) => p.fromLocationId === 'WH').map((p) => p.toLocationId)).toEqual(['A', 'B']);
    // The same ten days with stock on the shelves tell it stopped selling.
    const stocked = run(tee({ 'A/TEE-M': { onHand: 5, sales: fading }, 'B/TEE-M': { onHand: 4, sales: fading } }));
    expect([1, 2].map((l) => basisOf(stocked.targets, l))).toEqual(['offSale', 'offSale']);
  });

  it("reads a store's silence at its own pace: what a sell-out left where it sells least is no sign", () => {
    // A and B sold every day until their shelves emptied ten days ago. C, D and E, with two units on their shelves
    // all along, sold on two days each of the eighteen before. At the style's pace (0.35 days with a sale a day in
    // stock) their thirty quiet shelf-days would have had ten sales; at their own (one day in nine), three.
    const fast = Array.from({ length: W }, (_, d) => (d < W - 10 ? 3 : 0));
    const slow = Array.from({ length: W }, (_, d) => (d === 3 || d === 12 ? 1 : 0));
    const spec = (quiet: number[]): StateSpec => ({
      locations: [
        { id: 'WH', kind: 'warehouse' },
        ...['A', 'B', 'C', 'D', 'E'].map((id) => ({ id, kind: 'store' as const })),
      ],
      styles: [{ id: 'TEE', category: 'TEES', skus: [{ id: 'TEE-M', size: 'M', price: 20 }] }],
      cells: {
        'WH/TEE-M': { onHand: 100 },
        'A/TEE-M': { onHand: 0, sales: fast, outOfStock: last10 },
        'B/TEE-M': { onHand: 0, sales: fast, outOfStock: last10 },
        'C/TEE-M': { onHand: 2, sales: quiet },
        'D/TEE-M': { onHand: 2, sales: quiet },
        'E/TEE-M': { onHand: 2, sales: quiet },
      },
    });
    const r = run(spec(slow));
    expect([1, 2, 3].map((l) => basisOf(r.targets, l))).toEqual(['demand', 'demand', 'demand']);
    expect(r.proposals.filter((p) => p.fromLocationId === 'WH').map((p) => p.toLocationId)).toContain('A');
    // The same quiet days at a pace of a sale every day in stock tell it stopped selling.
    const paced = run(spec(fast));
    expect([1, 3].map((l) => basisOf(paced.targets, l))).toEqual(['offSale', 'offSale']);
  });

  it('counts a silence in sales, not units: a lumpy style is silent longer at the same rate', () => {
    // A unit a day on average either way; ten quiet days on both shelves since.
    const lumpy = Array.from({ length: W }, (_, d) => (d < W - 10 && d % 5 === 0 ? 5 : 0));
    const single = Array.from({ length: W }, (_, d) => (d < W - 10 ? 1 : 0));
    const bases = (sales: number[]) =>
      [1, 2].map((l) =>
        basisOf(run(tee({ 'A/TEE-M': { onHand: 5, sales }, 'B/TEE-M': { onHand: 5, sales } })).targets, l),
      );
    // Sales of five every fifth day: four expected over the twenty shelf-days, too few to tell.
    expect(bases(lumpy)).toEqual(['demand', 'demand']);
    // Single units every day: twenty expected, none came.
    expect(bases(single)).toEqual(['offSale', 'offSale']);
  });
});

describe("the world's transit", () => {
  /** A warehouse shipping to two stores every week; what leaves on day d reaches A on d + 3, B on d + 1. */
  function rows() {
    const L = 3;
    const cell: number[] = [];
    const d: number[] = [];
    const endLevel: number[] = [];
    const zeros: number[] = [];
    const add = (c: number, day: number, level: number) => {
      cell.push(c);
      d.push(day);
      endLevel.push(level);
      zeros.push(0);
    };
    for (let k = 0; k < 2; k++) {
      let wh = 1000;
      for (let day = 0; day < 70; day += 7) add(k * L + 0, day, (wh -= 20));
      for (const [l, lag] of [
        [1, 3],
        [2, 1],
      ])
        for (let day = 0, level = 0; day < 70; day += 7) add(k * L + l, day + lag, (level += 10));
    }
    const order = cell.map((_, i) => i).sort((a, b) => cell[a] - cell[b] || d[a] - d[b]);
    const pick = (xs: number[]) => order.map((i) => xs[i]);
    const z = pick(zeros);
    return {
      cell: pick(cell),
      d: pick(d),
      endLevel: pick(endLevel),
      opening: z.map(() => Number.NaN),
      soldOut: z,
      counted: z,
      sold: z,
      net: z,
      mutations: z,
    };
  }
  const layout = {
    locations: 3,
    skus: 2,
    styleOf: Int32Array.of(0, 1),
    styleStart: Int32Array.of(0, 1, 2),
    categoryOf: Int32Array.of(0, 0),
    categories: 1,
    fulfilled: new Uint8Array(3),
  };
  const range = { days: 80, firstDay: 20000, periodFrom: 0, periodTo: 80 };

  it("reads each store's transit off the stock a sender lost and the store gained", () => {
    const m = levelTransit(rows(), range, layout, Uint8Array.of(0, 1, 1));
    expect(Array.from(m.days)).toEqual([-1, 3, 1]);
    const t = worldTransit(['WH', 'A', 'B'], Uint8Array.of(0, 1, 1), m, Int32Array.of(-1, -1, -1), {});
    expect(Array.from(t.days).slice(1)).toEqual([3, 1]);
    expect([...t.source].slice(1).map((s) => TRANSIT_SOURCES[s])).toEqual(['stock levels', 'stock levels']);
  });

  it("takes the client's transfers over the levels, and a declared figure over both", () => {
    const m = levelTransit(rows(), range, layout, Uint8Array.of(0, 1, 1));
    const t = worldTransit(['WH', 'A', 'B'], Uint8Array.of(0, 1, 1), m, Int32Array.of(-1, 2, -1), { B: 5 });
    expect(Array.from(t.days).slice(1)).toEqual([2, 5]);
    expect([...t.source].slice(1).map((s) => TRANSIT_SOURCES[s])).toEqual(['client transfers', 'declared']);
  });

  it('assumes a day where nothing tells', () => {
    const none = levelTransit(
      {
        ...rows(),
        cell: [],
        d: [],
        endLevel: [],
        opening: [],
        soldOut: [],
        counted: [],
        sold: [],
        net: [],
        mutations: [],
      },
      range,
      layout,
      Uint8Array.of(0, 1, 1),
    );
    const t = worldTransit(['WH', 'A', 'B'], Uint8Array.of(0, 1, 1), none, Int32Array.of(-1, -1, -1), {});
    expect(Array.from(t.days)).toEqual([1, 1, 1]);
    expect(TRANSIT_SOURCES[t.source[1]]).toBe('assumed');
  });

  it('plans with what the data shows where no lead time is set, and with the setting where it is', () => {
    const spec = (transitDays: number): StateSpec => ({
      transitDays,
      locations: [
        { id: 'WH', kind: 'warehouse' },
        { id: 'A', kind: 'store' },
      ],
      styles: [{ id: 'TEE', category: 'TEES', skus: [{ id: 'TEE-M', size: 'M', price: 20 }] }],
      cells: { 'WH/TEE-M': { onHand: 1000 }, 'A/TEE-M': { onHand: 0, sales: 10 } },
    });
    const quantity = (r: ReturnType<typeof run>) => r.proposals[0].quantity;
    const alone = { poolingHalfWeightDays: 0, demandHalfLifeDays: 0 };
    const z = normalQuantile(0.9);
    // Ten a day over a week's review and the transit the data shows.
    expect(quantity(run(spec(0), alone))).toBe(stockFor(10, 0, 7, z));
    expect(quantity(run(spec(3), alone))).toBe(stockFor(10, 0, 10, z));
    expect(quantity(run(spec(0), { ...alone, defaults: { leadTimeDays: 3 } }))).toBe(stockFor(10, 0, 10, z));
  });
});

describe('deliveries fewer than reviews', () => {
  const stores: StateSpec = {
    locations: [
      { id: 'WH', kind: 'warehouse' },
      { id: 'A', kind: 'store' },
      { id: 'B', kind: 'store' },
      { id: 'C', kind: 'store' },
      { id: 'D', kind: 'store' },
    ],
    styles: [{ id: 'TEE', category: 'TEES', skus: [{ id: 'TEE-M', size: 'M', price: 20 }] }],
    cells: {
      'WH/TEE-M': { onHand: 1000 },
      // Stocked two days ago, enough for the day.
      'A/TEE-M': { onHand: 3, sales: 1, lastArrivalDay: DAY0 - 2 },
      // Stocked two days ago and already empty: ten a day lost without a delivery now.
      'B/TEE-M': { onHand: 0, sales: 10, lastArrivalDay: DAY0 - 2 },
      // Its week is up.
      'C/TEE-M': { onHand: 3, sales: 1, lastArrivalDay: DAY0 - 7 },
      // Empty, one a day: 60 lost before the next review's delivery could arrive, 420 at that pace over a week.
      'D/TEE-M': { onHand: 0, sales: 1, lastArrivalDay: DAY0 - 2 },
    },
  };
  // Each store's own days alone, every day alike: A sells one a day, B ten.
  const weekly = {
    poolingHalfWeightDays: 0,
    demandHalfLifeDays: 0,
    defaults: { reviewPeriodDays: 1 },
    replenishment: { deliveryEveryDays: 7, earlyDeliveryValue: 200 },
    redistribution: { enabled: false },
  };

  it("sends stock to a store when its week is up, or earlier when it would lose more than a delivery's worth", () => {
    const r = run(stores, weekly);
    // A would lose about 13 before the next review's delivery arrives (94 at that pace over the week): not worth one.
    expect(r.proposals.map((p) => p.toLocationId).sort()).toEqual(['B', 'C', 'D']);
    // The bar is the same however often the engine looks: a review every three days sends D its stock too.
    const threeDays = run(stores, { ...weekly, defaults: { reviewPeriodDays: 3 } });
    expect(threeDays.proposals.map((p) => p.toLocationId)).toContain('D');
    // A's target covers the week a delivery covers, not the day a review does.
    const z = normalQuantile(0.9 ** (7 / 7));
    expect(r.targets.target[0 * 5 + 1]).toBe(stockFor(r.forecast.rate[1], r.forecast.sd[1], 7 + 2, z));
    // Every review delivering, A is sent stock too.
    const every = run(stores, { ...weekly, replenishment: { deliveryEveryDays: 0 } });
    expect(every.proposals.map((p) => p.toLocationId).sort()).toEqual(['A', 'B', 'C', 'D']);
  });

  it("counts a store's week from its last delivery, not from a move or a new style's first stock", () => {
    // C's week is up, though a redistribution move (or an initial distribution) reached it two days ago.
    const moved: StateSpec = {
      ...stores,
      cells: {
        ...stores.cells,
        'C/TEE-M': { onHand: 3, sales: 1, lastArrivalDay: DAY0 - 2, lastDeliveryDay: DAY0 - 7 },
      },
    };
    expect(run(moved, weekly).proposals.map((p) => p.toLocationId)).toContain('C');
    // Delivered two days ago, it is not due.
    const delivered: StateSpec = {
      ...stores,
      cells: { ...stores.cells, 'C/TEE-M': { onHand: 3, sales: 1, lastArrivalDay: DAY0 - 2 } },
    };
    expect(run(delivered, weekly).proposals.map((p) => p.toLocationId)).not.toContain('C');
  });
});
