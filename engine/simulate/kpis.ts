/**
 * Backtest KPIs, accumulated per group (network, location, style) for the simulated and the actual side.
 *
 * Demand and service are counted where demand is, at the stores and the webshop, over the location×SKU days they
 * carried (see actual-demand.ts); stock is counted where it is: at the stores and webshop, at the warehouses, and
 * in the network as their sum, so a warehouse's stock does not pass for cover on the shelves.
 */
import { DAILY_COLUMNS, KPI_COLUMNS, STOCK_FIELDS, type KpiColumn } from '../model/backtest-columns.js';

export { DAILY_COLUMNS, KPI_COLUMNS, type KpiColumn };

export const FIELDS = [
  'carriedDays',
  'stockOutDays',
  'demand',
  'estimatedDemand',
  'sales',
  'returns',
  'lostSales',
  'salesValue',
  /** Units sold against estimated demand (the simulation selling where the actual had none to sell). */
  'estimatedSales',
  'storeUnitsSum',
  'storeValueSum',
  'warehouseUnitsSum',
  'warehouseValueSum',
] as const;
type Field = (typeof FIELDS)[number];

/** Sums per group, one typed array per field. */
export class Sums {
  readonly f: Record<Field, Float64Array>;
  constructor(readonly groups: number) {
    this.f = Object.fromEntries(FIELDS.map((k) => [k, new Float64Array(groups)])) as Record<Field, Float64Array>;
  }
}

/** Stock of one kind of location: its average over the days, what it covers, what is left at the end. */
export interface StockKpis {
  /** Average units on hand at the end of a day. */
  inventoryUnits: number;
  /** Average value on hand, at cost; null where no SKU counted has a cost price (a value of 0 would be false). */
  inventoryValue: number | null;
  /**
   * Average inventory over the weekly sales it serves (the network's for warehouses and network); null without sales.
   */
  weeksOfCover: number | null;
  /** Left at the end of the period (simulated: on hand and on its way there). */
  endUnsoldUnits: number;
  endUnsoldValue: number | null;
}

export interface SideKpis {
  /** Location×SKU days a store or the webshop carried the SKU (held it, or was out of a SKU it carries). */
  carriedDays: number;
  /** Carried days that opened without stock and sold none (docs/design.md §8.20). */
  stockOutDays: number;
  /** 1 − stock-out days / carried days; null without carried days. */
  inStockRate: number | null;
  /** What customers wanted on the carried days: gross sales on days in stock, estimated on the others. */
  demand: number;
  /** The part of demand that is estimated (days without stock, and beyond the sales of days that sold out). */
  estimatedDemand: number;
  /** Gross units sold (returns not subtracted). */
  sales: number;
  returns: number;
  /** Sales less returns. */
  netSales: number;
  /** Value of the units sold at the SKUs' prices. */
  salesValue: number;
  /** Units of demand that found no stock. */
  lostSales: number;
  /** Sales / demand; null without demand. */
  fillRate: number | null;
  /** Units sold against estimated demand: 0 on the actual side, which had no stock on those days. */
  estimatedSales: number;
  /** Stores and the webshop. */
  inventoryUnits: number;
  inventoryValue: number | null;
  weeksOfCover: number | null;
  endUnsoldUnits: number;
  endUnsoldValue: number | null;
  warehouse: StockKpis;
  network: StockKpis;
}

export interface TransferKpis {
  [type: string]: { trips: number; lines: number; units: number };
}

/** What is left at the end, per kind of location. */
export interface EndStock {
  storeUnits: number;
  storeValue: number;
  warehouseUnits: number;
  warehouseValue: number;
}

/** Rounded, and never −0: running sums of stock can end a hair below zero, which is 0 once rounded. */
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits + 0;

/** `valued`: some SKU of the group has a cost price; without one its stock has no value to tell. */
export function kpisOf(s: Sums, g: number, days: number, end: EndStock, valued = true): SideKpis {
  const f = s.f;
  const carried = f.carriedDays[g];
  const demand = f.demand[g];
  const weeklySales = (f.sales[g] / days) * 7;
  const stock = (unitsSum: number, valueSum: number, endUnits: number, endValue: number): StockKpis => {
    const units = unitsSum / days;
    return {
      inventoryUnits: round(units, 2),
      inventoryValue: valued ? round(valueSum / days, 2) : null,
      weeksOfCover: weeklySales > 0 ? round(units / weeklySales, 2) : null,
      endUnsoldUnits: round(endUnits, 2),
      endUnsoldValue: valued ? round(endValue, 2) : null,
    };
  };
  const stores = stock(f.storeUnitsSum[g], f.storeValueSum[g], end.storeUnits, end.storeValue);
  return {
    carriedDays: carried,
    stockOutDays: f.stockOutDays[g],
    inStockRate: carried > 0 ? round(1 - f.stockOutDays[g] / carried) : null,
    demand: round(demand, 2),
    estimatedDemand: round(f.estimatedDemand[g], 2),
    sales: round(f.sales[g], 2),
    returns: round(f.returns[g], 2),
    netSales: round(f.sales[g] - f.returns[g], 2),
    salesValue: round(f.salesValue[g], 2),
    lostSales: round(f.lostSales[g], 2),
    fillRate: demand > 0 ? round(f.sales[g] / demand) : null,
    estimatedSales: round(f.estimatedSales[g], 2),
    ...stores,
    warehouse: stock(f.warehouseUnitsSum[g], f.warehouseValueSum[g], end.warehouseUnits, end.warehouseValue),
    network: stock(
      f.storeUnitsSum[g] + f.warehouseUnitsSum[g],
      f.storeValueSum[g] + f.warehouseValueSum[g],
      end.storeUnits + end.warehouseUnits,
      end.storeValue + end.warehouseValue,
    ),
  };
}

const capital = (f: string) => f[0].toUpperCase() + f.slice(1);

export function kpiColumns(k: SideKpis): Record<KpiColumn, number | null> {
  const flat: Record<string, number | null> = {};
  for (const [key, v] of Object.entries(k)) {
    if (key === 'warehouse' || key === 'network')
      for (const f of STOCK_FIELDS) flat[`${key}${capital(f)}`] = (v as StockKpis)[f];
    else if (typeof v === 'number' || v === null) flat[key] = v;
  }
  return Object.fromEntries(KPI_COLUMNS.map((c) => [c, flat[c] ?? null])) as Record<KpiColumn, number | null>;
}

export function kpisFromColumns(r: Record<string, unknown>): SideKpis {
  const num = (c: string) => (r[c] === null || r[c] === undefined ? null : Number(r[c]));
  const stock = (prefix: string): StockKpis =>
    Object.fromEntries(
      STOCK_FIELDS.map((f) => [f, num(prefix ? `${prefix}${capital(f)}` : f)]),
    ) as unknown as StockKpis;
  const own = Object.fromEntries(
    KPI_COLUMNS.filter((c) => !c.startsWith('warehouse') && !c.startsWith('network')).map((c) => [c, num(c)]),
  );
  return { ...own, warehouse: stock('warehouse'), network: stock('network') } as unknown as SideKpis;
}
