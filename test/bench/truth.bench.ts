/**
 * bench:truth — does the backtest's actual side tell the truth? For each assortment the sample generator plays a
 * known weekly order-up-to policy over a known true demand and writes the censored feed with the truth beside it
 * (samples/README.md). The feed is loaded into a workspace and backtested over its second year under two different
 * scenarios; printed per assortment: the actual side's stock-out days against the truth's, its estimated lost sales
 * against the hidden ones, its fill rate against the true one, and whether the actual side is identical under both
 * scenarios. Goals: stock-out days within 1 %, lost sales within 10 %, fill rate within 1 point, identical.
 * A fourth set, `webshop`, is basics whose webshop ships from its warehouse's stock (--webshop-from-warehouse),
 * backtested with the scenarios saying so (fulfilledFrom); it prints the webshop's own figures against its truth too.
 * Every assortment is generated over 8 seeds (its flags the same, its customers and stock-outs drawn anew) and judged
 * on the median and the worst of them: a goal holds when it holds on the worst seed.
 * Feeds and workspaces are prepared once per set and seed under .workspaces/truth-*; TRUTH_ASSORTMENTS=basics,slow
 * picks some sets, TRUTH_SEEDS=1,3 or TRUTH_SEEDS=1-4 some seeds.
 */
import { Workbench } from '../../engine/service/workbench.js';
import { dayText } from '../../engine/model/datetime.js';
import type { SettingsOverride } from '../../engine/recommend/settings.js';
import type { BacktestRun } from '../../engine/service/backtests.js';
import type { GroupKpis, SimulationResult } from '../../engine/simulate/simulate.js';
import { truthTotals } from '../generated-feed.js';
import { FROM_DAY, pickedSets, prepareSet, SETS, TO_DAY } from './generated-sets.js';
import { median, pickedSeeds, worst } from './seed-spread.js';
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
const points = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)} points`;

const picked = pickedSets(process.env.TRUTH_ASSORTMENTS);
const seeds = pickedSeeds(process.env.TRUTH_SEEDS, [1, 2, 3, 4, 5, 6, 7, 8]);

/** How far one seed's actual side is from its truth: stock-out days and lost sales as shares, fill rate in points. */
interface Off {
  stockOutDays: number;
  lost: number;
  fill: number;
}

/** One set on one seed: the backtest under both scenarios, its figures printed, how far they are from the truth. */
async function judgeSeed(name: string, seed: number): Promise<{ network: Off; webshop?: Off; sound: boolean }> {
  const { workspace, truthDir } = await prepareSet(name, seed);
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
  const physical = runs.every((r) => r.report.lowestSimulatedStock >= 0);
  const network: Off = {
    stockOutDays: off(a.stockOutDays, truth.stockOutDays),
    lost: off(a.lostSales, truth.lost),
    fill: ((a.fillRate ?? 1) - truth.sales / truth.demand) * 100,
  };
  console.log(
    `  seed ${seed}: stock-out days ${fmt(a.stockOutDays)} vs ${fmt(truth.stockOutDays)} ` +
      `(${pct(network.stockOutDays)}), ` +
      `lost ${fmt(a.lostSales)} vs ${fmt(truth.lost)} (${pct(network.lost)}; ${pct(truth.lost / truth.demand)} of ` +
      `demand), fill rate ${pct(a.fillRate ?? 1)} vs ${pct(truth.sales / truth.demand)} (${points(network.fill)}); ` +
      `actual side ${identical ? 'identical' : 'DIFFERENT'}, lowest simulated stock ` +
      `${Math.min(...runs.map((r) => r.report.lowestSimulatedStock))}; ` +
      `${runs.map((r) => `${r.seconds.toFixed(1)} s`).join(', ')}`,
  );
  const web = runs[0].web?.actual;
  let webshop: Off | undefined;
  if (SETS[name].alsoJudged && web) {
    const t = truthTotals(truthDir, from, to, SETS[name].alsoJudged);
    webshop = {
      stockOutDays: off(web.stockOutDays, t.stockOutDays),
      lost: off(web.lostSales, t.lost),
      fill: ((web.fillRate ?? 1) - t.sales / t.demand) * 100,
    };
    console.log(
      `          the webshop: stock-out days ${fmt(web.stockOutDays)} vs ${fmt(t.stockOutDays)} ` +
        `(${pct(webshop.stockOutDays)}), lost ${fmt(web.lostSales)} vs ${fmt(t.lost)} (${pct(webshop.lost)}), ` +
        `fill rate ${pct(web.fillRate ?? 1)} vs ${pct(t.sales / t.demand)} (${points(webshop.fill)})`,
    );
  }
  return { network, webshop, sound: identical && physical };
}

/** The median and worst of each figure over the seeds, and whether the worst meets the goals. */
function spread(label: string, offs: Off[]): boolean {
  const of = (pick: (o: Off) => number) => [median(offs.map(pick)), worst(offs.map(pick))];
  const [out, lost, fill] = [of((o) => o.stockOutDays), of((o) => o.lost), of((o) => o.fill)];
  const met = Math.abs(out[1]) <= 0.01 && Math.abs(lost[1]) <= 0.1 && Math.abs(fill[1]) <= 1;
  console.log(
    `  ${label.padEnd(12)} median: stock-out days ${pct(out[0])}, lost ${pct(lost[0])}, fill ${points(fill[0])}` +
      ` | worst: ${pct(out[1])}, ${pct(lost[1])}, ${points(fill[1])}`,
  );
  return met;
}

console.log(machine());
let allMet = true;
for (const name of picked) {
  console.log(`\n${name} — ${SETS[name].flags.join(' ')}, backtest ${dayText(FROM_DAY)} … ${dayText(TO_DAY)}`);
  const judged = [];
  for (const seed of seeds) judged.push(await judgeSeed(name, seed));
  let met = spread(
    `over ${seeds.length} seeds`,
    judged.map((j) => j.network),
  );
  const webshops = judged.flatMap((j) => (j.webshop ? [j.webshop] : []));
  if (webshops.length) met = spread('the webshop', webshops) && met;
  const sound = judged.every((j) => j.sound);
  allMet &&= met && sound;
  console.log(
    `  goals on the worst seed (stock-out days ±1 %, lost sales ±10 %, fill rate ±1 point; identical, physical on ` +
      `every seed): ${met && sound ? 'met' : 'NOT met'}`,
  );
}
if (!allMet) process.exitCode = 1;
