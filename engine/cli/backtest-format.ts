/** How the CLI prints a backtest summary: simulated against actual, KPI by KPI. */
import type { SideKpis, TransferKpis } from '../simulate/kpis.js';

const ROWS: [keyof SideKpis, string][] = [
  ['stockOutDays', 'stock-out days'], ['inStockRate', 'in-stock rate'], ['sales', 'sales (units)'], ['salesValue', 'sales value'],
  ['lostSales', 'lost sales (units)'], ['fillRate', 'fill rate'], ['inventoryUnits', 'avg inventory (units)'],
  ['inventoryValue', 'avg inventory value'], ['weeksOfCover', 'weeks of cover'], ['endUnsoldUnits', 'unsold at end (units)'],
];

const fmt = (v: number | null) => (v === null ? '—' : Math.abs(v) < 10 && !Number.isInteger(v) ? v.toFixed(4) : v.toLocaleString('en', { maximumFractionDigits: 1 }));

export function formatSummary(simulated: SideKpis & { transfers?: TransferKpis }, actual: SideKpis): string {
  const lines = [`${'KPI'.padEnd(24)}${'simulated'.padStart(14)}${'actual'.padStart(14)}${'difference'.padStart(14)}`];
  for (const [k, label] of ROWS) {
    const s = simulated[k] as number | null;
    const a = actual[k] as number | null;
    const d = s !== null && a !== null ? s - a : null;
    lines.push(`${label.padEnd(24)}${fmt(s).padStart(14)}${fmt(a).padStart(14)}${fmt(d === null ? null : Math.round(d * 10_000) / 10_000).padStart(14)}`);
  }
  for (const [type, t] of Object.entries(simulated.transfers ?? {})) lines.push(`${type}: ${t.trips} trips, ${t.lines} lines, ${t.units} units`);
  return lines.join('\n');
}
