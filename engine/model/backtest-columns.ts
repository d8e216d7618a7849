/**
 * The figures a kept backtest holds, as the columns of its tables (store/migrations.ts) and of its exports: what the
 * replay computes them from is simulate/kpis.ts and simulate/style-days.ts.
 */
import { KPIS, type KpiKey } from '../../common/kpis.js';

/**
 * A side's KPIs as flat columns, as runs keep and export them: each KPI of common/kpis.ts under its key, the
 * warehouses' and the network's stock prefixed.
 */
export const KPI_COLUMNS: readonly KpiKey[] = KPIS.map((k) => k.key);
export type KpiColumn = KpiKey;

/** A day's network totals per side, as runs keep and export them (demand is the same on both sides). */
export const DAILY_COLUMNS = [
  'demand',
  'estimatedDemand',
  'carriedDays',
  'stockOutDays',
  'sales',
  'lostSales',
  'inventoryUnits',
  'warehouseUnits',
  'transferUnits',
] as const;

/**
 * One value per style and day, in this order (`sim…` simulated, `act…` actual, the rest shared or the engine's).
 */
export const STYLE_DAY_FIELDS = [
  /** Location×SKU days the stores and webshop carried the style's SKUs, and the demand of those days (both sides). */
  'carriedDays',
  'demand',
  /** The part of demand that is estimated (days without stock, beyond the sales of days that sold out). */
  'estimatedDemand',
  'simStockOutDays',
  'simSales',
  'simLostSales',
  /** Units at the stores and webshop, and at the warehouses, at the end of the day. */
  'simInventoryUnits',
  'simWarehouseUnits',
  'actStockOutDays',
  'actSales',
  'actLostSales',
  'actInventoryUnits',
  'actWarehouseUnits',
  /** Units the engine's transfers brought in, and sent out. */
  'simTransfersIn',
  'simTransfersOut',
  /** The engine's estimate of the style's daily demand where a selling location carries it, as of the last review. */
  'demandEstimate',
  /** Actual receipts and corrections (net units), replayed on the simulated side as they happened. */
  'receipts',
] as const;
export type StyleDayField = (typeof STYLE_DAY_FIELDS)[number];

/**
 * The figure columns of a kept run's tables: what a workspace must hold (store/workspace.ts checks it on open), so a
 * KPI, daily or style-day figure added without the migration that adds its column is caught there.
 */
export const BACKTEST_FIGURE_COLUMNS: Record<string, readonly string[]> = {
  backtest_groups: KPI_COLUMNS,
  backtest_daily: DAILY_COLUMNS,
  backtest_style_days: STYLE_DAY_FIELDS,
};
