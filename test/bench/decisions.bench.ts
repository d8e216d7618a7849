/**
 * bench:decisions — is the engine's advice worth taking? For the demo and each generated retailer (bench:truth's
 * sets), the retailer's own policy (the actual side) against the engine's default scenario and against a small
 * sweep: fill rate, lost units, average and end-of-period store stock, deliveries (store-days stock was sent to) and
 * trips. Printed per set: the default scenario without rationing (replenishment.shortageHorizonDays 0) beside it, and
 * the best sweep point at no more store stock than the actual.
 *
 * Goals: the default scenario fills at least as well as the actual, with average and end-of-period store stock at
 * most 1.5 × the actual's; a sweep point fills 2 points better than the actual at no more store stock and at most
 * 1.5 × its deliveries; at the same service level and deliveries a shorter review fills at most a point worse, and
 * at the same review and deliveries a higher service level never worse (setting-sanity.ts). DECISIONS_SETS=demo,basics
 * picks sets; DECISIONS_SWEEP=0 runs the default scenario only.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, resolveSettings, type SettingsOverride } from '../../engine/recommend/settings.js';
import { Workbench } from '../../engine/service/workbench.js';
import type { SideKpis } from '../../engine/simulate/kpis.js';
import { simulate, type SimulationResult } from '../../engine/simulate/simulate.js';
import { causalWorld } from '../../engine/simulate/causal-world.js';
import { loadBacktestInput } from '../../engine/inputs/backtest-input.js';
import { categorySettingsOf } from '../../engine/inputs/engine-state.js';
import { ROOT } from './big-workspace.js';
import { machine } from './machine.js';
import { FROM_DAY, pickedSets, prepareSet, SETS } from './generated-sets.js';
import { settingSanity, type Breach, type SweepFill } from './setting-sanity.js';

const gridText = (p: SweepFill) =>
  `service ${p.serviceLevel}, review ${p.reviewPeriodDays} d, delivery ${p.deliveryEveryDays || p.reviewPeriodDays} d`;

const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
const DEMO = {
  workspace: join(ROOT, '.workspaces', 'decisions-demo'),
  fromDay: day('2025-01-01'),
  toDay: day('2025-12-30'),
};

async function prepareDemo(): Promise<string> {
  if (!existsSync(join(DEMO.workspace, 'workspace.duckdb')))
    execFileSync(process.execPath, [
      join(ROOT, 'bin/workbench.mjs'),
      'load',
      '-q',
      '-w',
      DEMO.workspace,
      join(ROOT, 'samples/demo'),
    ]);
  return DEMO.workspace;
}

/** The sweep: service level × review period × the days a store's delivery covers (0: a delivery every review). */
const SERVICE_LEVELS = [0.7, 0.75, 0.8, 0.85, 0.9, 0.95];
const REVIEW_DAYS = [1, 3, 5, 7];
const DELIVERY_DAYS = [0, 7];
/**
 * And per service level, a daily review that delivers to a store every six or seven days, or earlier when it would
 * lose more a day than the bar a redistribution trip clears (its trip cost and minimum gain): an early delivery value
 * of that bar times the delivery's days (storeNeeds weighs a day's loss over them).
 */
const EARLY = {
  reviewPeriodDays: 1,
  deliveryEveryDays: [6, 7],
  dailyBar: DEFAULT_SETTINGS.redistribution.tripCost + DEFAULT_SETTINGS.redistribution.minimumGain,
};

/** Each point of the sweep: its label and its scenario. */
interface SweepPoint {
  label: string;
  scenario: SettingsOverride;
  /** A point of service level × review × deliveries, which the settings' check holds against the others. */
  grid?: Omit<SweepFill, 'fill'>;
}

function sweepPoints(): SweepPoint[] {
  const points: SweepPoint[] = [];
  for (const serviceLevel of SERVICE_LEVELS) {
    for (const reviewPeriodDays of REVIEW_DAYS)
      for (const deliveryEveryDays of DELIVERY_DAYS) {
        // A delivery every 7 days is what a weekly review does anyway.
        if (reviewPeriodDays === 7 && deliveryEveryDays === 7) continue;
        const delivery = deliveryEveryDays || reviewPeriodDays;
        points.push({
          label: `service ${serviceLevel}, review ${reviewPeriodDays} d, delivery ${delivery} d`,
          scenario: { defaults: { serviceLevel, reviewPeriodDays }, replenishment: { deliveryEveryDays } },
          grid: { serviceLevel, reviewPeriodDays, deliveryEveryDays },
        });
      }
    const { reviewPeriodDays, dailyBar } = EARLY;
    for (const deliveryEveryDays of EARLY.deliveryEveryDays)
      points.push({
        label:
          `service ${serviceLevel}, review ${reviewPeriodDays} d, delivery ${deliveryEveryDays} d, ` +
          `early ${dailyBar} a day`,
        scenario: {
          defaults: { serviceLevel, reviewPeriodDays },
          replenishment: { deliveryEveryDays, earlyDeliveryValue: dailyBar * deliveryEveryDays },
        },
      });
  }
  return points;
}

interface Figures {
  fill: number;
  lost: number;
  stock: number;
  endStock: number;
  deliveries: number;
  trips: number;
}

/** A side's figures; the actual side's deliveries are its trips (one a receipt). */
function figures(s: SideKpis & { deliveries: number }, trips: number): Figures {
  return {
    fill: s.fillRate ?? 1,
    lost: s.lostSales,
    stock: s.inventoryUnits,
    endStock: s.endUnsoldUnits,
    deliveries: s.deliveries,
    trips,
  };
}

const simulated = (r: SimulationResult): Figures =>
  figures(
    r.summary.simulated,
    Object.values(r.summary.simulated.transfers).reduce((n, t) => n + t.trips, 0),
  );
const actual = (r: SimulationResult): Figures => figures(r.summary.actual, r.summary.actual.deliveries);

const n0 = (x: number) => Math.round(x).toLocaleString('en');
const row = (label: string, f: Figures, a?: Figures) =>
  `  ${label.padEnd(28)} fill ${(f.fill * 100).toFixed(2).padStart(6)} %` +
  (a ? ` (${f.fill >= a.fill ? '+' : ''}${((f.fill - a.fill) * 100).toFixed(2)} pt)` : '              ') +
  `  lost ${n0(f.lost).padStart(8)}  stock ${n0(f.stock).padStart(7)}` +
  (a ? ` (${(f.stock / a.stock).toFixed(2)}×)` : '        ') +
  `  at end ${n0(f.endStock).padStart(7)}` +
  (a ? ` (${(f.endStock / Math.max(1, a.endStock)).toFixed(2)}×)` : '        ') +
  `  deliveries ${n0(f.deliveries).padStart(6)}` +
  (a ? ` (${(f.deliveries / Math.max(1, a.deliveries)).toFixed(2)}×)` : '        ') +
  `  trips ${n0(f.trips)}`;

console.log(machine());
const sweep = process.env.DECISIONS_SWEEP !== '0';
let allMet = true;
for (const name of pickedSets(process.env.DECISIONS_SETS, [
  'demo',
  ...Object.keys(SETS).filter((s) => s !== 'fashion-webshop'),
])) {
  const { workspace, fromDay, toDay, said } =
    name === 'demo'
      ? { workspace: await prepareDemo(), fromDay: DEMO.fromDay, toDay: DEMO.toDay, said: {} }
      : {
          workspace: (await prepareSet(name)).workspace,
          fromDay: FROM_DAY,
          // 52 whole weeks from the second year's first day, as the demo's year: a period ends where a week does.
          toDay: FROM_DAY + 363,
          said: SETS[name].said ?? {},
        };
  const wb = await Workbench.open(workspace);
  try {
    const run = async (scenario: SettingsOverride) => {
      const t0 = performance.now();
      const { run: kept, report } = await wb.runBacktest({ fromDay, toDay, scenario: { ...said, ...scenario } });
      await wb.deleteBacktest(kept.runId);
      return { report, seconds: (performance.now() - t0) / 1000 };
    };
    const base = await run({});
    const a = actual(base.report);
    const d = simulated(base.report);
    console.log(`\n${name} (${base.seconds.toFixed(1)} s a run); transit ${base.report.summary.world.transit}`);
    console.log(row('actual (the retailer)', a));
    console.log(row('default scenario', d, a));
    // Without rationing a warehouse that cannot last until its next receipt (recommend/replenish.ts): what it does.
    console.log(
      row('default, no rationing', simulated((await run({ replenishment: { shortageHorizonDays: 0 } })).report), a),
    );
    // The same default scenario in a world whose estimated days are estimated from the days before them only: what
    // the engine's advantage owes to hindsight (simulate/causal-world.ts).
    const settings = resolveSettings(await categorySettingsOf(wb.workspace), { ...said });
    const input = await wb.workspace.exclusive(() => loadBacktestInput(wb.workspace, fromDay, toDay, settings));
    const causal = await simulate(causalWorld(input), settings);
    const ca = actual(causal);
    console.log(row('actual, without hindsight', ca));
    console.log(row('default, without hindsight', simulated(causal), ca));
    const defaultMet = d.fill >= a.fill && d.stock <= 1.5 * a.stock && d.endStock <= 1.5 * Math.max(1, a.endStock);
    let best: { label: string; f: Figures } | undefined;
    let saneMet = true;
    if (sweep) {
      const fills: SweepFill[] = [];
      for (const { label, scenario, grid } of sweepPoints()) {
        const f = simulated((await run(scenario)).report);
        console.log(row(label, f, a));
        if (grid) fills.push({ ...grid, fill: f.fill });
        if (f.stock <= a.stock && f.deliveries <= 1.5 * a.deliveries && (!best || f.fill > best.f.fill))
          best = { label, f };
      }
      console.log(
        best
          ? row(`best ≤ actual stock: ${best.label}`, best.f, a)
          : '  no point at no more store stock than the actual with at most 1.5 × its deliveries',
      );
      const { review, service } = settingSanity(fills);
      const said = (b: Breach | undefined) =>
        b
          ? `at worst ${(b.drop * 100).toFixed(2)} pt (${gridText(b.point)} against ${gridText(b.against)})`
          : 'nothing to compare';
      console.log(`  a shorter review, at the same service level and deliveries: ${said(review)}`);
      console.log(`  a higher service level, at the same review and deliveries: ${said(service)}`);
      saneMet = (review?.drop ?? 0) <= 0.01 && (service?.drop ?? 0) <= 0;
    }
    const sweepMet = !sweep || (best !== undefined && best.f.fill >= a.fill + 0.02);
    console.log(
      `  goals: default fills ≥ actual at ≤ 1.5× store stock (average and at end): ${defaultMet ? 'met' : 'NOT met'}` +
        (sweep ? `; a point +2 pt at ≤ actual stock and ≤ 1.5× deliveries: ${sweepMet ? 'met' : 'NOT met'}` : '') +
        (sweep
          ? '; a shorter review never 1 pt worse, a higher service level never worse: ' + (saneMet ? 'met' : 'NOT met')
          : ''),
    );
    allMet &&= defaultMet && sweepMet && saneMet;
  } finally {
    await wb.close();
  }
}
if (!allMet) process.exitCode = 1;
