/** The KPIs the screens show, in order, with how each reads. */
import type { SideKpis } from './client';

export interface Kpi {
  key: string;
  label: string;
  pick: (k: SideKpis) => number | null;
  format: (v: number) => string;
  /** A rate: two of them differ in percentage points. */
  rate?: boolean;
}

const percent = (v: number) => `${(v * 100).toFixed(1)}%`;
const whole = (v: number) => Math.round(v).toLocaleString('en');

export const KPIS: Kpi[] = [
  { key: 'inStockRate', label: 'In-stock rate', pick: (k) => k.inStockRate, format: percent, rate: true },
  { key: 'stockOutDays', label: 'Stock-out days', pick: (k) => k.stockOutDays, format: (v) => v.toLocaleString('en') },
  { key: 'fillRate', label: 'Fill rate', pick: (k) => k.fillRate, format: percent, rate: true },
  { key: 'lostSales', label: 'Lost sales (units)', pick: (k) => k.lostSales, format: whole },
  { key: 'sales', label: 'Sales (units)', pick: (k) => k.sales, format: whole },
  { key: 'inventoryUnits', label: 'Avg inventory, stores (units)', pick: (k) => k.inventoryUnits, format: whole },
  {
    key: 'warehouseInventoryUnits',
    label: 'Avg inventory, warehouses (units)',
    pick: (k) => k.warehouse.inventoryUnits,
    format: whole,
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
