/** The KPIs the screens show, in order, with how each reads. */
import type { SideKpis } from './client';

export interface Kpi {
  key: string;
  label: string;
  pick: (k: SideKpis) => number | null;
  format: (v: number) => string;
  /** A rate: two of them differ in percentage points. */
  rate?: boolean;
  /** Which way is better, the service being equal: more in stock and sold, fewer stock-outs, less stock held. */
  better: 'higher' | 'lower';
}

const percent = (v: number) => `${(v * 100).toFixed(1)}%`;
const whole = (v: number) => Math.round(v).toLocaleString('en');

export const KPIS: Kpi[] = [
  {
    key: 'inStockRate',
    label: 'In-stock rate',
    pick: (k) => k.inStockRate,
    format: percent,
    rate: true,
    better: 'higher',
  },
  {
    key: 'stockOutDays',
    label: 'Stock-out days',
    pick: (k) => k.stockOutDays,
    format: (v) => v.toLocaleString('en'),
    better: 'lower',
  },
  { key: 'fillRate', label: 'Fill rate', pick: (k) => k.fillRate, format: percent, rate: true, better: 'higher' },
  { key: 'lostSales', label: 'Lost sales (units)', pick: (k) => k.lostSales, format: whole, better: 'lower' },
  { key: 'sales', label: 'Sales (units)', pick: (k) => k.sales, format: whole, better: 'higher' },
  {
    key: 'inventoryUnits',
    label: 'Avg inventory, stores (units)',
    pick: (k) => k.inventoryUnits,
    format: whole,
    better: 'lower',
  },
  {
    key: 'warehouseInventoryUnits',
    label: 'Avg inventory, warehouses (units)',
    pick: (k) => k.warehouse.inventoryUnits,
    format: whole,
    better: 'lower',
  },
];

/** A value as its KPI reads, or a dash where there is none (no carried day, no demand, no sales). */
export const show = (kpi: Kpi, k: SideKpis) => {
  const v = kpi.pick(k);
  return v === null ? '–' : kpi.format(v);
};

/** b − a as it reads: rates in percentage points. */
export function difference(kpi: Kpi, d: number | null | undefined): string {
  if (d === null || d === undefined) return '–';
  const sign = d > 0 ? '+' : d < 0 ? '−' : '±';
  return kpi.rate ? `${sign}${Math.abs(d).toFixed(1)} pp` : `${sign}${kpi.format(Math.abs(d))}`;
}

/**
 * The engine's figure against the actual one: the difference as it reads (rates in points), and whether it is
 * better, worse or the same; none where either side has no figure.
 */
export function versusActual(
  kpi: Kpi,
  simulated: SideKpis,
  actual: SideKpis,
): { text: string; tone: 'better' | 'worse' | 'same' } | undefined {
  const [s, a] = [kpi.pick(simulated), kpi.pick(actual)];
  if (s === null || a === null) return undefined;
  const d = kpi.rate ? Math.round((s - a) * 1000) / 10 : s - a;
  const shown = difference(kpi, d);
  if (/^±|^[+−]0(\.0)?( pp)?$/.test(shown)) return { text: shown, tone: 'same' };
  return { text: shown, tone: d > 0 === (kpi.better === 'higher') ? 'better' : 'worse' };
}
