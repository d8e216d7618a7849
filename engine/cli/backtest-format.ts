/** How the CLI prints a backtest summary: simulated against actual, KPI by KPI. */
import type { SideKpis, TransferKpis } from '../simulate/kpis.js';
import type { NegativeStock, SimulationResult, World } from '../simulate/simulate.js';
import type { SweepReport } from '../service/sweeps.js';
import type { StyleDifference } from '../service/backtests.js';
import { count, duration, money, percent, points, signed, weeks, whole } from '../../common/format.js';
import { settingName } from '../../common/setting-names.js';
import { figureOf, KPIS, type Kpi, type KpiUnit } from '../../common/kpis.js';

type Format = { value: (v: number, currency?: string) => string; difference: (d: number) => string };
const WHOLE: Format = { value: whole, difference: (d) => signed(d) };
/** A figure as its KPI reads it, and its difference (a rate's in percentage points). */
const FORMATS: Record<KpiUnit, Format> = {
  days: WHOLE,
  units: WHOLE,
  rate: { value: (v) => percent(v), difference: (d) => points(d) },
  money: { value: money, difference: (d) => signed(d) },
  weeks: { value: weeks, difference: (d) => signed(d, weeks) },
};

/** The table's rows: the KPIs it shows, in column order, each part indented under its whole. */
const ROWS: { label: string; kpi: Kpi }[] = KPIS.filter((k) => k.table && !k.table.under).flatMap((row) => [
  { label: row.label, kpi: row },
  ...KPIS.filter((k) => k.table?.under === row.key).map((kpi) => ({ label: `  ${kpi.label}`, kpi })),
]);

const LABEL_WIDTH = 36;
const COLUMN = 16;

/**
 * The summary as a table, simulated against actual; values in `currency` (the workspace's) where it is known.
 * Numbers read as on the screens (common/format.ts).
 */
export function formatSummary(
  simulated: SimulationResult['summary']['simulated'] | (SideKpis & { transfers?: TransferKpis }),
  actual: SideKpis & { negativeStock?: NegativeStock; recordedRevenue?: number | null; deliveries?: number },
  { world, currency }: { world?: World; currency?: string } = {},
): string {
  const lines = [
    ['KPI'.padEnd(LABEL_WIDTH), ...['simulated', 'actual', 'difference'].map((h) => h.padStart(COLUMN))].join(''),
  ];
  for (const { label, kpi } of ROWS) {
    const s = figureOf(kpi, simulated);
    const a = figureOf(kpi, actual);
    const f = FORMATS[kpi.unit];
    const d = s === null || a === null ? '—' : f.difference(s - a);
    const show = (v: number | null) => (v === null ? (kpi.missing ?? '—') : f.value(v, currency));
    lines.push(
      `${label.padEnd(LABEL_WIDTH)}${show(s).padStart(COLUMN)}${show(a).padStart(COLUMN)}${d.padStart(COLUMN)}`,
    );
  }
  if (actual.recordedRevenue !== undefined && actual.recordedRevenue !== null)
    lines.push(
      `recorded revenue of the period: ${money(actual.recordedRevenue, currency)} (every sales line's amount, ` +
        'returns, cancellations and discount lines included; sales value above is the units sold at their own ' +
        "lines' amounts)",
    );
  if (simulated.inventoryValue === null)
    lines.push('stock value: n/a, no SKU has a cost price (send costPrice on sales lines or purchase-order costs)');
  const share = simulated.demand > 0 ? ` (${percent(simulated.estimatedDemand / simulated.demand)} of demand)` : '';
  lines.push(
    `estimated demand: ${count(simulated.estimatedDemand, 'unit')}${share}, the same on both sides; ` +
      `the simulation sold ${whole(simulated.estimatedSales)} of them`,
  );
  if ('writeDownShortfall' in simulated && simulated.writeDownShortfall.units > 0) {
    const w = simulated.writeDownShortfall;
    lines.push(
      `write-downs beyond the simulated stock: ${count(w.units, 'unit')} on ${count(w.days, 'SKU-day')} ` +
        '(taken in fact, not in the simulation)',
    );
  }
  const below = actual.negativeStock;
  if (below && below.cells > 0) {
    const w = below.worst[0];
    lines.push(
      `actual stock below zero: ${count(below.cells, 'location×SKU')} on ${count(below.cellDays, 'day')}, ` +
        `the lowest ${whole(w.lowest)} (${w.locationId} × ${w.skuId}): the history sold what it did not hold, and ` +
        'that stock counts as none in the actual figures (workbench lint: negative-actual-stock)',
    );
  }
  if ('unsentTransferUnits' in simulated && simulated.unsentTransferUnits > 0) {
    lines.push(
      `transfers never sent: ${count(simulated.unsentTransferUnits, 'unit')} ` +
        "(their sender's stock did not come in time)",
    );
  }
  for (const [type, t] of Object.entries(simulated.transfers ?? {}))
    lines.push(`${type}: ${count(t.trips, 'trip')}, ${count(t.lines, 'line')}, ${count(t.units, 'unit')}`);
  if ('deliveries' in simulated && actual.deliveries !== undefined)
    lines.push(
      `deliveries to the stores (store-days stock arrived by transfer): ${whole(simulated.deliveries)} simulated, ` +
        `${whole(actual.deliveries)} in fact`,
    );
  if (world) lines.push(`transit in the world the data shows: ${world.transit}`);
  return lines.join('\n');
}

/**
 * A sweep as a table: each point's varied values and figures, `*` on the frontier, and the history's own point.
 * Settings by name, with their paths under the table (what `--vary` takes).
 */
export function formatSweep(sweep: SweepReport): string {
  const settings = sweep.axes.map((a) => a.setting);
  const head = ['point', ...settings.map(settingName), 'lost sales', 'fill rate', 'store stock', 'trips', 'frontier'];
  const rate = (v: number | null) => (v === null ? '—' : percent(v, 2));
  const rows = sweep.runs.map((r) => [
    String(r.point),
    ...settings.map((s) => String(r.vary[s])),
    whole(r.lostSales),
    rate(r.fillRate),
    whole(r.inventoryUnits),
    whole(r.trips),
    r.frontier ? '*' : '',
  ]);
  const a = sweep.actual;
  rows.push([
    'actual',
    ...settings.map(() => ''),
    whole(a.lostSales),
    rate(a.fillRate),
    whole(a.inventoryUnits),
    '',
    '',
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => cells.map((x, c) => x.padStart(widths[c])).join('  ');
  return [
    `sweep ${sweep.sweepId}, ${sweep.from} … ${sweep.to}, ${count(sweep.points, 'point')}` +
      (sweep.status === 'cancelled' ? ' (cancelled)' : '') +
      `, ${duration(sweep.durationMs)}`,
    line(head),
    ...rows.map(line),
    ...sweep.axes.map((x) => `${settingName(x.setting)}: ${x.setting}`),
  ].join('\n');
}

/** The styles behind two runs' difference (styleDifference), one a line, b − a. */
export function styleDifferenceText(d: StyleDifference): string {
  if (d.styles.length === 0) return 'No style lost more or fewer sales in b than in a.';
  const head =
    `Lost sales b − a: ${signed(d.lostSales)} units; the ${count(d.styles.length, 'style')} that moved most: ` +
    `${signed(d.namedLostSales)}`;
  const rows = d.styles.map(
    (s) =>
      `  ${s.id.padEnd(24)} lost ${signed(s.lostSales).padStart(9)}  sold ${signed(s.sales).padStart(9)}  ` +
      `store stock ${signed(s.inventoryUnits).padStart(9)}  warehouse ${signed(s.warehouseUnits).padStart(9)}`,
  );
  return [head, ...rows].join('\n');
}
