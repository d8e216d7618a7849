/**
 * A replay's figures per style and day, simulated against actual: small enough to keep with every run (styles ×
 * days, where the cells × days behind them are not). The KPI sums already hold each style's running totals, so
 * a day's value is the day's change in them, read once per day rather than added once more per cell in the
 * serve loop; what the serve loop does not see (receipts, the engine's transfers, its demand estimate) is
 * counted where the replay handles it.
 */
import type { Accumulators } from './serve-day.js';

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
  /** The engine's estimate of the style's daily demand over its selling locations, as of the last review. */
  'demandEstimate',
  /** Actual receipts and corrections (net units), replayed on the simulated side as they happened. */
  'receipts',
] as const;
export type StyleDayField = (typeof STYLE_DAY_FIELDS)[number];

const F = STYLE_DAY_FIELDS.length;
const at = Object.fromEntries(STYLE_DAY_FIELDS.map((f, i) => [f, i])) as Record<StyleDayField, number>;

/** Which running KPI sum each serve-loop field is the daily change of. */
const FROM_SUMS = [
  ['sim', 'carriedDays', at.carriedDays],
  ['sim', 'demand', at.demand],
  ['sim', 'estimatedDemand', at.estimatedDemand],
  ['sim', 'stockOutDays', at.simStockOutDays],
  ['sim', 'sales', at.simSales],
  ['sim', 'lostSales', at.simLostSales],
  ['sim', 'storeUnitsSum', at.simInventoryUnits],
  ['sim', 'warehouseUnitsSum', at.simWarehouseUnits],
  ['act', 'stockOutDays', at.actStockOutDays],
  ['act', 'sales', at.actSales],
  ['act', 'lostSales', at.actLostSales],
  ['act', 'storeUnitsSum', at.actInventoryUnits],
  ['act', 'warehouseUnitsSum', at.actWarehouseUnits],
] as const;

export interface StyleDays {
  styles: number;
  days: number;
  /** `values[(day * styles + style) * STYLE_DAY_FIELDS.length + field]`. */
  values: Float64Array;
}

export class StyleDayCounter {
  readonly out: StyleDays;
  private readonly before: Float64Array;
  private readonly rate: Float64Array;

  /** `styleBase`: the first style group in the KPI sums. */
  constructor(
    styles: number,
    days: number,
    private readonly styleBase: number,
    private readonly styleOf: Int32Array,
  ) {
    this.out = { styles, days, values: new Float64Array(styles * days * F) };
    this.before = new Float64Array(styles * FROM_SUMS.length);
    this.rate = new Float64Array(styles);
  }

  private add(day: number, sku: number, field: number, units: number): void {
    this.out.values[(day * this.out.styles + this.styleOf[sku]) * F + field] += units;
  }

  receipt(day: number, sku: number, units: number): void {
    this.add(day, sku, at.receipts, units);
  }

  transferIn(day: number, sku: number, units: number): void {
    this.add(day, sku, at.simTransfersIn, units);
  }

  transferOut(day: number, sku: number, units: number): void {
    this.add(day, sku, at.simTransfersOut, units);
  }

  /** The engine's new estimate per cell (`cell = sku × L + location`), summed per style. */
  review(rate: Float64Array, L: number): void {
    this.rate.fill(0);
    for (let c = 0; c < rate.length; c++) if (rate[c] !== 0) this.rate[this.styleOf[(c / L) | 0]] += rate[c];
  }

  /** After the day is served: each style's change in the running sums of every part (partitions) of the replay. */
  served(day: number, parts: readonly Accumulators[]): void {
    const S = this.out.styles;
    const v = this.out.values;
    for (let s = 0; s < S; s++) {
      const g = this.styleBase + s;
      const row = (day * S + s) * F;
      for (let j = 0; j < FROM_SUMS.length; j++) {
        const [side, sum, field] = FROM_SUMS[j];
        let now = 0;
        for (const p of parts) now += p[side].f[sum][g];
        v[row + field] = now - this.before[s * FROM_SUMS.length + j];
        this.before[s * FROM_SUMS.length + j] = now;
      }
      v[row + at.demandEstimate] = this.rate[s];
    }
  }
}

/** One style's value of a field on a day. */
export function styleDayValue(d: StyleDays, day: number, style: number, field: StyleDayField): number {
  return d.values[(day * d.styles + style) * F + at[field]];
}
