import type { BacktestComparison } from '../client';
import { scenarioOf } from '../runs';

type Day = BacktestComparison['a']['daily'][number];

/**
 * Both runs' days on one axis (every date either run has; a gap where one has none): their stock-outs beside the
 * actual ones, and their stock. Legends name the scenarios; the run ids only tell apart two runs of one scenario.
 */
export function comparisonCharts(result: BacktestComparison) {
  const dates = [...new Set([...result.a.daily, ...result.b.daily].map((d) => d.date))].sort();
  const byDate = (rows: Day[]) => new Map(rows.map((r) => [r.date, r]));
  const [da, db] = [byDate(result.a.daily), byDate(result.b.daily)];
  const sameScenario = scenarioOf(result.a.run) === scenarioOf(result.b.run);
  const name = (side: 'a' | 'b') => {
    const run = result[side].run;
    return `${side}: ${scenarioOf(run)}${sameScenario ? ` (${run.runId})` : ''}`;
  };
  const series = (pick: (r: Day) => number) => [
    { name: name('a'), values: dates.map((d) => (da.has(d) ? pick(da.get(d)!) : null)) },
    { name: name('b'), values: dates.map((d) => (db.has(d) ? pick(db.get(d)!) : null)) },
  ];
  return {
    dates,
    stockOuts: [
      ...series((r) => r.simulated.stockOutDays),
      { name: 'actual', values: dates.map((d) => (da.get(d) ?? db.get(d))?.actual.stockOutDays ?? null) },
    ],
    inventory: series((r) => Math.round(r.simulated.inventoryUnits)),
  };
}
