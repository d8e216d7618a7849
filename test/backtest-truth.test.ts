/**
 * The backtest on generated histories whose truth is known (the generator's --truth): per assortment, stock stays
 * physical on the simulated side over every cell and day, the actual side is one fact whatever the scenario, and its
 * stock-out days, lost sales and fill rate stay near the hidden truth. bench:truth measures the same on larger sets.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Workbench } from '../engine/service/workbench.js';
import type { SettingsOverride } from '../engine/recommend/settings.js';
import { generateFeed, loadFeed, truthTotals } from './generated-feed.js';
import { dayText } from '../engine/model/datetime.js';

const dir = mkdtempSync(join(tmpdir(), 'wb-truth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = '2024-01-01';
const DAYS = 400;
const FROM_DAY = Date.parse(`${START}T00:00:00Z`) / 86_400_000 + 200;
const TO_DAY = Date.parse(`${START}T00:00:00Z`) / 86_400_000 + DAYS - 1;
/**
 * Per assortment: the generator's flags and how far the actual side may be from the truth. bench:truth holds all
 * three to 10 % of lost sales and 1 point of fill rate over a year after a year of history; here the history before
 * the period is 200 days, and fashion on it, with few stores to tell a style's course, estimates its lost sales
 * about a fifth high (its sizes that sold out early miss the decline their style went into).
 */
const SETS: Record<string, { flags: string[]; lost: number; fill: number }> = {
  fashion: { flags: ['--stores', '8', '--skus', '500'], lost: 0.25, fill: 0.035 },
  basics: { flags: ['--stores', '4', '--skus', '100'], lost: 0.1, fill: 0.01 },
  slow: { flags: ['--stores', '4', '--skus', '300'], lost: 0.1, fill: 0.01 },
};
const LEAN: SettingsOverride = {
  demandWindowDays: 14,
  defaults: { serviceLevel: 0.6, reviewPeriodDays: 14, presentationMinimum: 0 },
  redistribution: { enabled: false },
};

describe.each(Object.keys(SETS))('a backtest of the generated %s history', (assortment) => {
  it('keeps simulated stock physical, the actual side one fact, and near the hidden truth', async () => {
    const data = join(dir, `${assortment}-data`);
    const truthDir = join(dir, `${assortment}-truth`);
    const ws = join(dir, `${assortment}-ws`);
    const flags = ['--seed', '2', ...SETS[assortment].flags, '--days', String(DAYS), '--start', START];
    await generateFeed(data, [...flags, '--assortment', assortment], { truth: truthDir });
    await loadFeed(ws, data);
    const wb = await Workbench.open(ws);
    try {
      const a = await wb.runBacktest({ fromDay: FROM_DAY, toDay: TO_DAY });
      const b = await wb.runBacktest({ fromDay: FROM_DAY, toDay: TO_DAY, scenario: LEAN });
      for (const run of [a, b]) {
        // The lowest any cell held at the end of any day.
        expect(run.report.lowestSimulatedStock).toBe(0);
        expect(run.report.summary.simulated.transfers.Replenishment.units).toBeGreaterThan(0);
      }
      expect(b.report.summary.simulated).not.toEqual(a.report.summary.simulated);
      expect(b.report.summary.actual).toEqual(a.report.summary.actual);
      expect(b.report.daily.map((d) => [d.demand, d.estimatedDemand, d.actual])).toEqual(
        a.report.daily.map((d) => [d.demand, d.estimatedDemand, d.actual]),
      );
      expect(await wb.backtestGroups(b.run.runId, 'style').then((g) => g.map((x) => x.actual))).toEqual(
        await wb.backtestGroups(a.run.runId, 'style').then((g) => g.map((x) => x.actual)),
      );

      const truth = truthTotals(truthDir, dayText(FROM_DAY), dayText(TO_DAY));
      const actual = a.report.summary.actual;
      expect(actual.sales).toBeCloseTo(truth.sales, 6);
      expect(Math.abs(actual.stockOutDays / truth.stockOutDays - 1)).toBeLessThan(0.02);
      expect(Math.abs(actual.lostSales / truth.lost - 1)).toBeLessThan(SETS[assortment].lost);
      expect(Math.abs((actual.fillRate ?? 1) - truth.sales / truth.demand)).toBeLessThan(SETS[assortment].fill);
    } finally {
      await wb.close();
    }
  });
});
