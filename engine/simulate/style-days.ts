/**
 * A replay's figures per style and day, simulated against actual: small enough to keep with every run (styles ×
 * days, where the cells × days behind them are not). Each part of the replay writes its styles' days as it serves
 * them (serve-day.ts), and what serving does not see (receipts, the engine's transfers, its demand estimate)
 * where it handles it (replay-part.ts).
 */

import { STYLE_DAY_FIELDS, type StyleDayField } from '../model/backtest-columns.js';

export { STYLE_DAY_FIELDS, type StyleDayField };

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
