/** The KPIs the screens show, in order, with how each reads (common/format.ts: the command line's format too). */
import type { SideKpis } from '../../common/api-types';
import { percent, points, signed, whole } from '../../common/format';

export interface Kpi {
  key: string;
  label: string;
  /** What the figure counts, in a sentence: the card's explanation on screen. */
  explains: string;
  pick: (k: SideKpis) => number | null;
  format: (v: number) => string;
  /** A rate: two of them differ in percentage points. */
  rate?: boolean;
  /** Which way is better, the service being equal: more in stock and sold, fewer stock-outs, less stock held. */
  better: 'higher' | 'lower';
}

export const KPIS: Kpi[] = [
  {
    key: 'inStockRate',
    label: 'In-stock rate',
    explains: 'The share of carried days that were not stock-out days: 1 − stock-out days / carried days.',
    pick: (k) => k.inStockRate,
    format: (v) => percent(v),
    rate: true,
    better: 'higher',
  },
  {
    key: 'stockOutDays',
    label: 'Stock-out days',
    explains:
      'Location × SKU days carried that opened with none of the SKU on hand (after the night’s deliveries) and sold ' +
      'none: every customer that day found the shelf empty. A day that sold out during the day is not one; what its ' +
      'later customers wanted counts in lost sales.',
    pick: (k) => k.stockOutDays,
    format: whole,
    better: 'lower',
  },
  {
    key: 'fillRate',
    label: 'Fill rate',
    explains: 'Units sold / units demanded, over carried days.',
    pick: (k) => k.fillRate,
    format: (v) => percent(v),
    rate: true,
    better: 'higher',
  },
  {
    key: 'lostSales',
    label: 'Lost sales (units)',
    explains:
      'Demand that found no stock: the estimated demand of stock-out days, and beyond the sales of days that sold out.',
    pick: (k) => k.lostSales,
    format: whole,
    better: 'lower',
  },
  {
    key: 'sales',
    label: 'Sales (units)',
    explains: 'Units sold, gross of returns.',
    pick: (k) => k.sales,
    format: whole,
    better: 'higher',
  },
  {
    key: 'inventoryUnits',
    label: 'Avg inventory, stores (units)',
    explains: 'Units on hand at the stores at the end of a day, the average day.',
    pick: (k) => k.inventoryUnits,
    format: whole,
    better: 'lower',
  },
  {
    key: 'warehouseInventoryUnits',
    label: 'Avg inventory, warehouses (units)',
    explains: 'Units on hand at the warehouses at the end of a day, the average day.',
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

/** b − a as it reads: a rate's in percentage points (`d` given in points, as the comparison gives it). */
export function difference(kpi: Kpi, d: number | null | undefined): string {
  if (d === null || d === undefined) return '–';
  return kpi.rate ? points(d / 100) : signed(d, kpi.format);
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
  const d = s - a;
  const text = kpi.rate ? points(d) : signed(d, kpi.format);
  if (text.startsWith('±')) return { text, tone: 'same' };
  return { text, tone: d > 0 === (kpi.better === 'higher') ? 'better' : 'worse' };
}
