/**
 * How far below its list price each style sold on each day, across the network: 1 − paid ÷ list over the day's
 * sales lines of units sold (returns aside). The engine reads it to tell a day sold at a price the style no longer
 * has — a promotion that ended, the weeks before a markdown — from a day sold at today's (forecast/price-regime.ts).
 */
import { DAY_MICROS } from '../model/datetime.js';
import { EXACT, SALES_TABLES, salesJoin, type SalesTables } from '../store/daily-levels.js';
import { timestampValue } from '../store/values.js';
import { Workspace } from '../store/workspace.js';

/**
 * Days [fromDay, toDay) × styles (`day * styles + style`): the style's discount that day, NaN on a day it sold
 * nothing at a list price. SKUs are numbered by the session's `level_skus` (daily-levels.ts writeCellIndex),
 * `skuStyle` maps them to their styles. A line without a price before discounts sold at its list price.
 */
export async function readStyleDiscounts(
  ws: Workspace,
  skuStyle: Int32Array,
  styles: number,
  fromDay: number,
  toDay: number,
  tables: SalesTables = SALES_TABLES,
): Promise<Float64Array> {
  const days = Math.max(0, toDay - fromDay);
  const discount = new Float64Array(days * styles).fill(Number.NaN);
  if (days === 0 || styles === 0) return discount;
  const { int32, float64 } = Workspace;
  // Exact sums: the same data gives the same discounts bit for bit, whatever order the lines are added in.
  const rows = await ws.typedColumns<{ k: Int32Array; day: Int32Array; list: Float64Array; paid: Float64Array }>(
    `
    SELECT es.k, (epoch_us(s.salesDateTime) // ${DAY_MICROS})::INTEGER AS day,
           sum(coalesce(l.originalSalesAmountInclVat, l.salesAmountInclVat)::${EXACT})::DOUBLE AS list,
           sum(l.salesAmountInclVat::${EXACT})::DOUBLE AS paid
    FROM ${salesJoin(tables)}
    JOIN level_skus AS es ON es.skuId = l.skuId
    WHERE s._deleted_at IS NULL AND l.quantitySold > 0 AND s.salesDateTime >= $1 AND s.salesDateTime < $2
    GROUP BY 1, 2 ORDER BY 1, 2`,
    [timestampValue(fromDay * DAY_MICROS), timestampValue(toDay * DAY_MICROS)],
    { k: int32, day: int32, list: float64, paid: float64 },
  );
  const list = new Float64Array(days * styles);
  const paid = new Float64Array(days * styles);
  for (let i = 0; i < rows.k.length; i++) {
    const at = (rows.day[i] - fromDay) * styles + skuStyle[rows.k[i]];
    list[at] += rows.list[i];
    paid[at] += rows.paid[i];
  }
  for (let at = 0; at < list.length; at++) if (list[at] > 0) discount[at] = Math.max(0, 1 - paid[at] / list[at]);
  return discount;
}
