/** How the CLI prints a backtest summary: simulated against actual, KPI by KPI. */
import type { SideKpis, TransferKpis } from '../simulate/kpis.js';
import type { NegativeStock, SimulationResult, World } from '../simulate/simulate.js';
import type { SweepReport } from '../service/sweeps.js';

type Pick = (k: SideKpis) => number | null;
/** Label, value, whether it is a rate (its difference in percentage points), and what a missing value reads. */
const ROWS: [string, Pick, boolean?, string?][] = [
  ['carried SKU-days', (k) => k.carriedDays],
  ['stock-out days', (k) => k.stockOutDays],
  ['in-stock rate', (k) => k.inStockRate, true],
  ['demand (units)', (k) => k.demand],
  ['  of it estimated', (k) => k.estimatedDemand],
  ['sales (units)', (k) => k.sales],
  ['  on estimated demand', (k) => k.estimatedSales],
  ['returns (units)', (k) => k.returns],
  ['sales value', (k) => k.salesValue],
  ['lost sales (units)', (k) => k.lostSales],
  ['fill rate', (k) => k.fillRate, true],
  ['stores: avg inventory', (k) => k.inventoryUnits],
  ['stores: inventory value', (k) => k.inventoryValue, false, 'n/a'],
  ['stores: weeks of cover', (k) => k.weeksOfCover],
  ['stores: unsold at end', (k) => k.endUnsoldUnits],
  ['warehouses: avg inventory', (k) => k.warehouse.inventoryUnits],
  ['warehouses: unsold at end', (k) => k.warehouse.endUnsoldUnits],
  ['network: avg inventory', (k) => k.network.inventoryUnits],
  ['network: weeks of cover', (k) => k.network.weeksOfCover],
];

const fmt = (v: number | null) =>
  v === null
    ? '—'
    : Math.abs(v) < 10 && !Number.isInteger(v)
      ? v.toFixed(4)
      : v.toLocaleString('en', { maximumFractionDigits: 1 });
const sign = (v: number) => (v > 0 ? '+' : v < 0 ? '−' : '±');
const signed = (v: number) => `${sign(v)}${fmt(Math.abs(v))}`;
const points = (v: number) => `${sign(v)}${Math.abs(v).toFixed(2)} pp`;

export function formatSummary(
  simulated: SimulationResult['summary']['simulated'] | (SideKpis & { transfers?: TransferKpis }),
  actual: SideKpis & { negativeStock?: NegativeStock; recordedRevenue?: number | null; deliveries?: number },
  world?: World,
): string {
  const lines = [`${'KPI'.padEnd(28)}${'simulated'.padStart(14)}${'actual'.padStart(14)}${'difference'.padStart(14)}`];
  for (const [label, pick, rate, missing] of ROWS) {
    const s = pick(simulated);
    const a = pick(actual);
    const d =
      s === null || a === null ? '—' : rate ? points((s - a) * 100) : signed(Math.round((s - a) * 10_000) / 10_000);
    const show = (v: number | null) => (v === null && missing ? missing : fmt(v));
    lines.push(`${label.padEnd(28)}${show(s).padStart(14)}${show(a).padStart(14)}${d.padStart(14)}`);
  }
  if (actual.recordedRevenue !== undefined && actual.recordedRevenue !== null)
    lines.push(
      `recorded revenue of the period: ${fmt(actual.recordedRevenue)} (every sales line's amount, returns, ` +
        `cancellations and discount lines included; sales value above is the units sold at their own lines' amounts)`,
    );
  if (simulated.inventoryValue === null)
    lines.push('stock value: n/a, no SKU has a cost price (send costPrice on sales lines or purchase-order costs)');
  const share =
    simulated.demand > 0 ? ` (${((simulated.estimatedDemand / simulated.demand) * 100).toFixed(1)} % of demand)` : '';
  lines.push(
    `estimated demand: ${fmt(simulated.estimatedDemand)} units${share}, the same on both sides; ` +
      `the simulation sold ${fmt(simulated.estimatedSales)} of them`,
  );
  if ('writeDownShortfall' in simulated && simulated.writeDownShortfall.units > 0) {
    const w = simulated.writeDownShortfall;
    lines.push(
      `write-downs beyond the simulated stock: ${fmt(w.units)} units on ${w.days} SKU-days ` +
        `(taken in fact, not in the simulation)`,
    );
  }
  const below = actual.negativeStock;
  if (below && below.cells > 0) {
    const w = below.worst[0];
    lines.push(
      `actual stock below zero: ${below.cells} location×SKUs on ${below.cellDays} days, the lowest ${fmt(w.lowest)} ` +
        `(${w.locationId} × ${w.skuId}): the history sold what it did not hold, and that stock counts as none in ` +
        `the actual figures (workbench lint: negative-actual-stock)`,
    );
  }
  if ('unsentTransferUnits' in simulated && simulated.unsentTransferUnits > 0) {
    lines.push(
      `transfers never sent: ${fmt(simulated.unsentTransferUnits)} units (their sender's stock did not come in time)`,
    );
  }
  for (const [type, t] of Object.entries(simulated.transfers ?? {}))
    lines.push(`${type}: ${t.trips} trips, ${t.lines} lines, ${t.units} units`);
  if ('deliveries' in simulated && actual.deliveries !== undefined)
    lines.push(
      `deliveries to the stores (store-days stock arrived by transfer): ${simulated.deliveries} simulated, ` +
        `${actual.deliveries} in fact`,
    );
  if (world) lines.push(`transit in the world the data shows: ${world.transit}`);
  return lines.join('\n');
}

/** A sweep as a table: each point's varied values and figures, `*` on the frontier, and the history's own point. */
export function formatSweep(sweep: SweepReport): string {
  const settings = sweep.axes.map((a) => a.setting);
  const head = ['point', ...settings, 'lost sales', 'fill rate', 'store stock', 'trips', 'frontier'];
  const rows = sweep.runs.map((r) => [
    String(r.point),
    ...settings.map((s) => String(r.vary[s])),
    fmt(r.lostSales),
    fmt(r.fillRate),
    fmt(r.inventoryUnits),
    fmt(r.trips),
    r.frontier ? '*' : '',
  ]);
  const a = sweep.actual;
  rows.push(['actual', ...settings.map(() => ''), fmt(a.lostSales), fmt(a.fillRate), fmt(a.inventoryUnits), '', '']);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => cells.map((x, c) => x.padStart(widths[c])).join('  ');
  return [
    `sweep ${sweep.sweepId}, ${sweep.from} … ${sweep.to}, ${sweep.points} point${sweep.points === 1 ? '' : 's'}` +
      (sweep.status === 'cancelled' ? ' (cancelled)' : '') +
      `, ${(sweep.durationMs / 1000).toFixed(1)} s`,
    line(head),
    ...rows.map(line),
  ].join('\n');
}
