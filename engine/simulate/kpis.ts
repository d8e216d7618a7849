/** Backtest KPIs, accumulated per group (network, location, style) for the simulated and the actual side. */

export const FIELDS = ['activeDays', 'stockOutDays', 'sales', 'served', 'lostSales', 'salesValue', 'inventoryUnitsSum', 'inventoryValueSum'] as const;
type Field = (typeof FIELDS)[number];

/** Sums per group, one typed array per field. */
export class Sums {
  readonly f: Record<Field, Float64Array>;
  constructor(readonly groups: number) {
    this.f = Object.fromEntries(FIELDS.map((k) => [k, new Float64Array(groups)])) as Record<Field, Float64Array>;
  }
}

export interface SideKpis {
  stockOutDays: number;
  activeDays: number;
  inStockRate: number;
  /** Net units sold (returns subtracted). */
  sales: number;
  salesValue: number;
  /** Units of demand that found no stock. */
  lostSales: number;
  fillRate: number;
  /** Average units on hand at the end of a day. */
  inventoryUnits: number;
  /** Average value on hand at cost. */
  inventoryValue: number;
  weeksOfCover: number | null;
  /** Units left at the end of the period (simulated: on hand and in transit). */
  endUnsoldUnits: number;
  endUnsoldValue: number;
}

export interface TransferKpis {
  [type: string]: { trips: number; lines: number; units: number };
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

export function kpisOf(s: Sums, g: number, days: number, endUnits: number, endValue: number): SideKpis {
  const f = s.f;
  const active = f.activeDays[g];
  const demand = f.served[g] + f.lostSales[g];
  const inventoryUnits = f.inventoryUnitsSum[g] / days;
  const weeklySales = (f.sales[g] / days) * 7;
  return {
    stockOutDays: f.stockOutDays[g],
    activeDays: active,
    inStockRate: round(active > 0 ? 1 - f.stockOutDays[g] / active : 1),
    sales: round(f.sales[g], 2),
    salesValue: round(f.salesValue[g], 2),
    lostSales: round(f.lostSales[g], 2),
    fillRate: round(demand > 0 ? f.served[g] / demand : 1),
    inventoryUnits: round(inventoryUnits, 2),
    inventoryValue: round(f.inventoryValueSum[g] / days, 2),
    weeksOfCover: weeklySales > 0 ? round(inventoryUnits / weeklySales, 2) : null,
    endUnsoldUnits: round(endUnits, 2),
    endUnsoldValue: round(endValue, 2),
  };
}
