/**
 * The engine's advice under every setting, on the demo retailer: the world a replay meets does not bend to the
 * scenario, and the settings move fill the way their names say.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings, type SettingsOverride } from '../engine/recommend/settings.js';
import { Workbench } from '../engine/service/workbench.js';
import type { BacktestInput } from '../engine/simulate/input.js';
import { replayStyle, simulate } from '../engine/simulate/simulate.js';
import { STYLE_DAY_FIELDS, styleDayValue } from '../engine/simulate/style-days.js';
import { loadBacktestInput } from '../engine/inputs/backtest-input.js';
import { TRANSFER_TYPES } from '../engine/model/settings.js';
import { demoWorkspace } from './demo-workspace.js';

const dir = mkdtempSync(join(tmpdir(), 'wb-decisions-'));
const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
const period = { from: day('2025-03-03'), to: day('2025-08-31') };
/** A world where every transfer takes three days, as the workspace states it. */
const THREE_DAYS: SettingsOverride = {
  transitDays: Object.fromEntries(
    ['WH-01', 'WEB-01', ...[1, 2, 3, 4, 5, 6].map((n) => `ST-00${n}`)].map((id) => [id, 3]),
  ),
};

let measured: BacktestInput;
let threeDays: BacktestInput;
beforeAll(async () => {
  const wb = await Workbench.open(demoWorkspace(join(dir, 'ws')));
  try {
    measured = await loadBacktestInput(wb.workspace, period.from, period.to, resolveSettings({}));
    threeDays = await loadBacktestInput(wb.workspace, period.from, period.to, resolveSettings({}, THREE_DAYS));
  } finally {
    await wb.close();
  }
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fill = async (input: BacktestInput, scenario: SettingsOverride) =>
  (await simulate(structuredClone(input), resolveSettings({}, scenario))).summary.simulated.fillRate!;

describe('the world a replay meets', () => {
  it('takes its transit from the data: the demo ships at the morning count, arriving the day it leaves', () => {
    expect(Array.from(measured.transit.days)).toEqual(Array.from(measured.transit.days, () => 0));
    expect(Array.from(threeDays.transit.days)).toEqual(Array.from(threeDays.transit.days, () => 3));
  });

  it('leaves every arrival day as the world has it, whatever lead time the scenario plans with', async () => {
    const byDay = (r: Awaited<ReturnType<typeof simulate>>, field: 'simTransfersOut' | 'simTransfersIn') =>
      Array.from({ length: r.daysDone }, (_, i) => {
        let x = 0;
        for (let s = 0; s < r.styleDays.styles; s++) x += styleDayValue(r.styleDays, i, s, field);
        return Math.round(x * 1e6) / 1e6;
      });
    const sentBefore = new Set<number>();
    for (const leadTimeDays of [0, 3, 7]) {
      const r = await simulate(
        structuredClone(threeDays),
        resolveSettings({}, { ...THREE_DAYS, defaults: { leadTimeDays } }),
      );
      const sent = byDay(r, 'simTransfersOut');
      const arrived = byDay(r, 'simTransfersIn');
      // What leaves on a day arrives three days later, in every scenario.
      expect(sent.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      arrived.forEach((x, i) => expect(x).toBe(i >= 3 ? sent[i - 3] : 0));
      sentBefore.add(sent.reduce((a, b) => a + b, 0));
    }
    // The scenarios differ in what they send, not in how long it takes.
    expect(sentBefore.size).toBeGreaterThan(1);
  }, 120_000);
});

describe('settings move fill the way their names say', () => {
  it('never lowers fill with a higher service level', async () => {
    const fills: number[] = [];
    for (const serviceLevel of [0.7, 0.8, 0.9, 0.95]) fills.push(await fill(measured, { defaults: { serviceLevel } }));
    for (let i = 1; i < fills.length; i++) expect(fills[i]).toBeGreaterThanOrEqual(fills[i - 1]);
  }, 120_000);

  it('loses a point of fill at most with a shorter review, at the same service level', async () => {
    for (const serviceLevel of [0.8, 0.9]) {
      const fills: number[] = [];
      for (const reviewPeriodDays of [7, 3, 1])
        fills.push(await fill(measured, { defaults: { serviceLevel, reviewPeriodDays } }));
      for (let i = 1; i < fills.length; i++) expect(fills[i]).toBeGreaterThanOrEqual(fills[i - 1] - 0.01);
    }
  }, 180_000);

  it('loses a point of fill at most with a shorter review and weekly deliveries: it looks more often', async () => {
    // A year: the launches before Christmas are where a daily look that never delivered early lost most.
    let year: BacktestInput;
    const wb = await Workbench.open(join(dir, 'ws'));
    try {
      year = await loadBacktestInput(wb.workspace, day('2025-01-01'), day('2025-12-30'), resolveSettings({}));
    } finally {
      await wb.close();
    }
    for (const serviceLevel of [0.7, 0.8]) {
      const fills: number[] = [];
      for (const reviewPeriodDays of [7, 3, 1])
        fills.push(
          await fill(year, { defaults: { serviceLevel, reviewPeriodDays }, replenishment: { deliveryEveryDays: 7 } }),
        );
      for (let i = 1; i < fills.length; i++) expect(fills[i]).toBeGreaterThanOrEqual(fills[i - 1] - 0.01);
    }
  }, 300_000);
});

describe('a daily review with weekly deliveries', () => {
  const weekly: SettingsOverride = { defaults: { reviewPeriodDays: 1 }, replenishment: { deliveryEveryDays: 7 } };

  it('sends stock to fewer store-days than it reviews, and gives the same run however it is split', async () => {
    const settings = resolveSettings({}, weekly);
    const one = await simulate(structuredClone(measured), settings, {}, 1);
    const three = await simulate(structuredClone(measured), settings, {}, 3);
    expect(three.transfers).toEqual(one.transfers);
    expect(three.styleDays.values).toEqual(one.styleDays.values);
    const daily = await simulate(structuredClone(measured), resolveSettings({}, { defaults: { reviewPeriodDays: 1 } }));
    expect(one.summary.simulated.deliveries).toBeLessThan(daily.summary.simulated.deliveries / 2);
    // Which stores each review sent stock to is kept with the run, so a style replayed alone decides as it did.
    expect(one.reviews.every((r) => r.due.length === measured.start.locations.ids.length)).toBe(true);
    const style = one.byStyle.findIndex((g) => g.simulated.sales > 0);
    const alone = await replayStyle(structuredClone(measured), settings, { trace: { style } }, one.reviews);
    const F = STYLE_DAY_FIELDS.length;
    for (let d = 0; d < one.daysDone; d++)
      for (let f = 0; f < F; f++)
        expect(alone.styleDays.values[(d * one.styleDays.styles + style) * F + f]).toBeCloseTo(
          one.styleDays.values[(d * one.styleDays.styles + style) * F + f],
          6,
        );
  }, 180_000);

  it('behind three days of transit, sends a store stock every seven days, not each day it is on the road', async () => {
    const gaps = await weeklyDeliveryGaps(1);
    expect(gaps.length).toBeGreaterThan(20);
    expect(Math.min(...gaps)).toBe(7);
  }, 120_000);

  it('with a review every three days, sends a store stock every six: the last review its delivery covers', async () => {
    const gaps = await weeklyDeliveryGaps(3);
    expect(gaps.length).toBeGreaterThan(20);
    // Waiting until seven days had passed, the next review came on the ninth: two days its targets did not cover.
    expect(Math.min(...gaps)).toBe(6);
    const count = (g: number) => gaps.filter((x) => x === g).length;
    expect(count(6)).toBeGreaterThan(count(9));
  }, 120_000);

  it('reviewing daily at a cadence of its own (--review-days 1), still sends a store stock every seven', async () => {
    // The settings' review period stays weekly: the stores fall due by the days to the replay's next review.
    const gaps = await weeklyDeliveryGaps(7, 1);
    expect(gaps.length).toBeGreaterThan(20);
    expect(Math.min(...gaps)).toBe(7);
  }, 120_000);
});

/**
 * Behind three days of transit, with a review every `reviewPeriodDays` (replayed every `reviewEveryDays`, by default
 * the same) and weekly deliveries, only the scheduled ones (no store loses enough to be sent stock early): per store,
 * the days between two days it was sent replenishment.
 */
async function weeklyDeliveryGaps(reviewPeriodDays: number, reviewEveryDays?: number): Promise<number[]> {
  const scheduled: SettingsOverride = {
    ...THREE_DAYS,
    defaults: { reviewPeriodDays },
    replenishment: { deliveryEveryDays: 7, earlyDeliveryValue: 1e12 },
  };
  const r = await simulate(structuredClone(threeDays), resolveSettings({}, scheduled), { reviewEveryDays });
  const REPLENISHMENT = TRANSFER_TYPES.indexOf('Replenishment');
  const days = new Map<number, Set<number>>();
  const { day: sentOn, type, to } = r.transfers;
  for (let x = 0; x < sentOn.length; x++)
    if (type[x] === REPLENISHMENT) days.set(to[x], (days.get(to[x]) ?? new Set()).add(sentOn[x]));
  return [...days.values()].flatMap((set) => {
    const d = [...set].sort((a, b) => a - b);
    return d.slice(1).map((x, i) => x - d[i]);
  });
}
