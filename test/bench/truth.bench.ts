/**
 * bench:truth — does the backtest's actual side tell the truth? For each assortment the sample generator plays a
 * known weekly order-up-to policy over a known true demand and writes the censored feed with the truth beside it
 * (samples/README.md). The feed is loaded into a workspace and backtested over its second year under two different
 * scenarios; printed per assortment: the actual side's stock-out days against the truth's, its estimated lost sales
 * against the hidden ones, its fill rate against the true one, and whether the actual side is identical under both
 * scenarios. Goals: stock-out days within 1 %, lost sales within 10 %, fill rate within 1 point, identical.
 * A fourth set, `webshop`, is basics whose webshop ships from its warehouse's stock (--webshop-from-warehouse),
 * backtested with the scenarios saying so (fulfilledFrom); it prints the webshop's own figures against its truth too.
 * Feeds and workspaces are prepared once under .workspaces/truth-*; TRUTH_ASSORTMENTS=basics,slow picks some.
 */
import { Workbench } from '../../engine/service/workbench.js';
import { dayText } from '../../engine/model/datetime.js';
import type { SettingsOverride } from '../../engine/recommend/settings.js';
import type { BacktestRun } from '../../engine/service/backtests.js';
import type { GroupKpis, SimulationResult } from '../../engine/simulate/simulate.js';
import { truthTotals } from '../generated-feed.js';
import { FROM_DAY, pickedSets, prepareSet, SETS, TO_DAY } from './generated-sets.js';
import { machine } from './machine.js';

/** Two scenarios as different as settings get: the actual side must not notice. */
const SCENARIOS: [string, SettingsOverride][] = [
  ['default', {}],
  [
    'lean',
    {
      demandWindowDays: 14,
      poolingHalfWeightDays: 7,
      defaults: { serviceLevel: 0.6, reviewPeriodDays: 14, leadTimeDays: 4, presentationMinimum: 0 },
      redistribution: { enabled: false },
    },
  ],
];

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
const off = (got: number, want: number) => (want === 0 ? (got === 0 ? 0 : Infinity) : (got - want) / want);
const fmt = (x: number) => Math.round(x).toLocaleString('en');

const picked = pickedSets(process.env.TRUTH_ASSORTMENTS);
console.log(machine());
let allMet = true;
for (const name of picked) {
  const { workspace, truthDir } = await prepareSet(name);
  const from = dayText(FROM_DAY);
  const to = dayText(TO_DAY);
  const truth = truthTotals(truthDir, from, to);
  const wb = await Workbench.open(workspace);
  const runs: {
    run: BacktestRun;
    report: SimulationResult;
    seconds: number;
    groups: GroupKpis[];
    web?: GroupKpis;
  }[] = [];
  try {
    for (const [, scenario] of SCENARIOS) {
      const t0 = performance.now();
      const { run, report } = await wb.runBacktest({
        fromDay: FROM_DAY,
        toDay: TO_DAY,
        scenario: { ...scenario, ...SETS[name].said },
      });
      runs.push({
        run,
        report,
        seconds: (performance.now() - t0) / 1000,
        groups: await wb.backtestGroups(run.runId, 'style'),
        web: (await wb.backtestGroups(run.runId, 'location')).find((g) => g.id === SETS[name].alsoJudged),
      });
    }
  } finally {
    await wb.close();
  }
  const a = runs[0].report.summary.actual;
  const actualOf = (r: (typeof runs)[number]) =>
    JSON.stringify({
      summary: r.report.summary.actual,
      daily: r.report.daily.map((d) => [d.demand, d.estimatedDemand, d.actual]),
      groups: r.groups.map((g) => g.actual),
    });
  const identical = runs.every((r) => actualOf(r) === actualOf(runs[0]));
  const trueFill = truth.sales / truth.demand;
  const outOff = off(a.stockOutDays, truth.stockOutDays);
  const lostOff = off(a.lostSales, truth.lost);
  const fillOff = ((a.fillRate ?? 1) - trueFill) * 100;
  const physical = runs.every((r) => r.report.lowestSimulatedStock >= 0);
  const met = Math.abs(outOff) <= 0.01 && Math.abs(lostOff) <= 0.1 && Math.abs(fillOff) <= 1 && identical && physical;
  allMet &&= met;
  console.log(
    `\n${name} — ${SETS[name].flags.join(' ')}, backtest ${from} … ${to} ` +
      `(${runs.map((r) => `${r.seconds.toFixed(1)} s`).join(', ')})`,
  );
  console.log(
    `  stock-out days   actual ${fmt(a.stockOutDays)} vs truth ${fmt(truth.stockOutDays)} ` +
      `(${pct(outOff)}; carried days ${fmt(a.carriedDays)} vs ${fmt(truth.carriedDays)})`,
  );
  console.log(
    `  lost sales       estimated ${fmt(a.lostSales)} vs hidden ${fmt(truth.lost)} ` +
      `(${pct(lostOff)}; ${pct(truth.lost / truth.demand)} of true demand)`,
  );
  console.log(
    `  fill rate        actual ${pct(a.fillRate ?? 1)} vs true ${pct(trueFill)} ` +
      `(${fillOff >= 0 ? '+' : ''}${fillOff.toFixed(2)} points)`,
  );
  console.log(
    `  demand           ${fmt(a.demand)} (sales ${fmt(a.sales)} + lost) ` +
      `vs true ${fmt(truth.demand)} (sales ${fmt(truth.sales)} + lost)`,
  );
  console.log(
    `  actual side under ${SCENARIOS.map(([n]) => n).join(' and ')}: ${identical ? 'identical' : 'DIFFERENT'}; ` +
      `simulated fill rate ${runs.map((r) => pct(r.report.summary.simulated.fillRate ?? 1)).join(' and ')}`,
  );
  const web = runs[0].web?.actual;
  if (SETS[name].alsoJudged && web) {
    const t = truthTotals(truthDir, from, to, SETS[name].alsoJudged);
    console.log(
      `  the webshop      stock-out days ${fmt(web.stockOutDays)} vs ${fmt(t.stockOutDays)} ` +
        `(${pct(off(web.stockOutDays, t.stockOutDays))}), lost ${fmt(web.lostSales)} vs ${fmt(t.lost)} ` +
        `(${pct(off(web.lostSales, t.lost))}), fill rate ${pct(web.fillRate ?? 1)} vs ${pct(t.sales / t.demand)}; ` +
        `its stock ${fmt(web.inventoryUnits)} units (the warehouse's: ${fmt(a.warehouse.inventoryUnits)} a day)`,
    );
  }
  console.log(
    `  simulated stock  lowest of any cell at the end of any day: ` +
      `${Math.min(...runs.map((r) => r.report.lowestSimulatedStock))}`,
  );
  console.log(
    `  goals (stock-out days ±1 %, lost sales ±10 %, fill rate ±1 point, identical, physical): ` +
      `${met ? 'met' : 'NOT met'}`,
  );
}
if (!allMet) process.exitCode = 1;
