/**
 * A replay's figures per style and day, simulated against actual: small enough to keep with every run (styles ×
 * days, where the cells × days behind them are not). Each part of the replay writes its styles' days as it serves
 * them (serve-day.ts), and what serving does not see (receipts, the engine's transfers, its demand estimate)
 * where it handles it (replay-part.ts).
 */

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

const F = STYLE_DAY_FIELDS.length;
const at = Object.fromEntries(STYLE_DAY_FIELDS.map((f, i) => [f, i])) as Record<StyleDayField, number>;

export interface StyleDays {
  styles: number;
  days: number;
  /** `values[(day * styles + style) * STYLE_DAY_FIELDS.length + field]`. */
  values: Float64Array;
}

/** One style's value of a field on a day. */
export function styleDayValue(d: StyleDays, day: number, style: number, field: StyleDayField): number {
  return d.values[(day * d.styles + style) * F + at[field]];
}
