/**
 * Backtest KPIs, computed per group (network, location, style) for the simulated and the actual side from what the
 * replay summed (kpi-sums.ts). Which KPIs there are, and how each reads, is common/kpis.ts.
 *
 * Demand and service are counted where demand is, at the stores and the webshop, over the location×SKU days they
 * carried (see actual-demand.ts); stock is counted where it is: at the stores and webshop, at the warehouses, and
 * in the network as their sum, so a warehouse's stock does not pass for cover on the shelves.
 */
import {
  figureOf,
  KPIS,
  OWN_KPIS,
  STOCK_KPIS,
  type OwnKey,
  type StockKey,
  type StockScope,
} from '../../common/kpis.js';
import { DAILY_COLUMNS, KPI_COLUMNS, type KpiColumn } from '../model/backtest-columns.js';
import { FIELDS, Sums, type Field } from './kpi-sums.js';

export { DAILY_COLUMNS, FIELDS, KPI_COLUMNS, Sums, type KpiColumn };

/** A KPI's figure: null where the registry says when it has none. */
type Figure<F> = F extends { none: string } ? number | null : number;

/** Stock of one kind of location: its average over the days, what it covers, what is left at the end. */
export type StockKpis = { [K in StockKey]: Figure<(typeof STOCK_KPIS)[K]> };

/** A side's KPIs: its own, the stores' and webshop's stock, and the warehouses' and the network's. */
export type SideKpis = { [K in OwnKey]: Figure<(typeof OWN_KPIS)[K]> } & StockKpis & {
    warehouse: StockKpis;
    network: StockKpis;
  };

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

type Group = Record<Field, number>;

/** Each of a side's own KPIs from its group's sums. */
const OWN: { [K in OwnKey]: (v: Group) => SideKpis[K] } = {
  carriedDays: (v) => v.carriedDays,
  stockOutDays: (v) => v.stockOutDays,
  inStockRate: (v) => (v.carriedDays > 0 ? round(1 - v.stockOutDays / v.carriedDays) : null),
  demand: (v) => round(v.demand, 2),
  estimatedDemand: (v) => round(v.estimatedDemand, 2),
  sales: (v) => round(v.sales, 2),
  returns: (v) => round(v.returns, 2),
  netSales: (v) => round(v.sales - v.returns, 2),
  salesValue: (v) => round(v.salesValue, 2),
  lostSales: (v) => round(v.lostSales, 2),
  fillRate: (v) => (v.demand > 0 ? round(v.sales / v.demand) : null),
  estimatedSales: (v) => round(v.estimatedSales, 2),
};

/** A place's stock over the period: summed over the days, and left at the end. */
interface Held {
  unitsSum: number;
  valueSum: number;
  endUnits: number;
  endValue: number;
  days: number;
  /** The sales it serves (the network's for warehouses and network), per week. */
  weeklySales: number;
  /** Some SKU counted has a cost price: without one its stock has no value to tell. */
  valued: boolean;
}

/** Each stock KPI from a place's stock. */
const STOCK: { [K in StockKey]: (h: Held) => StockKpis[K] } = {
  inventoryUnits: (h) => round(h.unitsSum / h.days, 2),
  inventoryValue: (h) => (h.valued ? round(h.valueSum / h.days, 2) : null),
  weeksOfCover: (h) => (h.weeklySales > 0 ? round(h.unitsSum / h.days / h.weeklySales, 2) : null),
  endUnsoldUnits: (h) => round(h.endUnits, 2),
  endUnsoldValue: (h) => (h.valued ? round(h.endValue, 2) : null),
};

const OWN_KEYS = Object.keys(OWN_KPIS) as OwnKey[];
const STOCK_KEYS = Object.keys(STOCK_KPIS) as StockKey[];

/** `valued`: some SKU of the group has a cost price; without one its stock has no value to tell. */
export function kpisOf(s: Sums, g: number, days: number, end: EndStock, valued = true): SideKpis {
  const v = Object.fromEntries(FIELDS.map((k) => [k, s.f[k][g]])) as Group;
  const weeklySales = (v.sales / days) * 7;
  const stock = (held: Pick<Held, 'unitsSum' | 'valueSum' | 'endUnits' | 'endValue'>): StockKpis => {
    const h = { ...held, days, weeklySales, valued };
    return Object.fromEntries(STOCK_KEYS.map((k) => [k, STOCK[k](h)])) as StockKpis;
  };
  const places: Record<StockScope, StockKpis> = {
    stores: stock({
      unitsSum: v.storeUnitsSum,
      valueSum: v.storeValueSum,
      endUnits: end.storeUnits,
      endValue: end.storeValue,
    }),
    warehouse: stock({
      unitsSum: v.warehouseUnitsSum,
      valueSum: v.warehouseValueSum,
      endUnits: end.warehouseUnits,
      endValue: end.warehouseValue,
    }),
    network: stock({
      unitsSum: v.storeUnitsSum + v.warehouseUnitsSum,
      valueSum: v.storeValueSum + v.warehouseValueSum,
      endUnits: end.storeUnits + end.warehouseUnits,
      endValue: end.storeValue + end.warehouseValue,
    }),
  };
  const own = Object.fromEntries(OWN_KEYS.map((k) => [k, OWN[k](v)]));
  return { ...own, ...places.stores, warehouse: places.warehouse, network: places.network } as SideKpis;
}

/** A side's KPIs as the flat columns runs keep them in. */
export function kpiColumns(k: SideKpis): Record<KpiColumn, number | null> {
  return Object.fromEntries(KPIS.map((kpi) => [kpi.key, figureOf(kpi, k)])) as Record<KpiColumn, number | null>;
}

/** A side's KPIs from the flat columns runs keep them in. */
export function kpisFromColumns(r: Record<string, unknown>): SideKpis {
  const side: Record<string, unknown> = {};
  for (const kpi of KPIS) {
    const v = r[kpi.key] === null || r[kpi.key] === undefined ? null : Number(r[kpi.key]);
    const into = kpi.scope === 'warehouse' || kpi.scope === 'network' ? ((side[kpi.scope] ??= {}) as object) : side;
    (into as Record<string, unknown>)[kpi.field] = v;
  }
  return side as SideKpis;
}
