/**
 * What customers wanted, as far as the history tells: the demand a backtest serves on both of its sides.
 *
 * On a day a location held stock and did not sell out, demand is what it sold. On a day it sold out, demand was at
 * least what it sold. On a day it carried the SKU but had none, demand went on and was lost. On a day it did not
 * carry the SKU (not yet launched, phased out, delisted there, or the location closed), there was none. This module
 * decides which days are which and estimates the demand history does not show, from the SKU's own days in stock
 * around the gap (both sides: it is history), scaled by how its location, its category and its style sold that day
 * (day-index.ts), with a customer's units read from the SKU's slow days (baskets.ts).
 *
 * It depends on the data only — never on a scenario — so the actual side of a period is one fact whatever the
 * engine's settings, and a day's estimate is the same in every backtest that covers it (the history is read a
 * reach beyond the period on both sides).
 */
import { CellWalk, SOLD_OUT_TAIL_DAYS, type CellDayRows } from './cell-walk.js';
import { fitDemand } from './demand-fit.js';
import type { DemandLayout, HistoryRange, OnSale } from './history-range.js';
import { CARRIED_GAP_DAYS, LEVEL_REACH_DAYS, outageDemand } from './outage-demand.js';
import { readShelves, sellingOf } from './shelf-history.js';

export { heldStock, openingOr, SOLD_OUT_TAIL_DAYS, type CellDayRows } from './cell-walk.js';
export { conditionalMean, logGamma } from './demand-distribution.js';
export type { DemandLayout, HistoryRange, HistoryRows, OnSale } from './history-range.js';
export { CARRIED_GAP_DAYS, LEVEL_REACH_DAYS, LEVEL_WINDOW_DAYS, LISTED_OUTAGE_DAYS } from './outage-demand.js';

/** How far around the period the history is read: far enough for every gap and window above. */
export const HISTORY_REACH_DAYS = Math.max(LEVEL_REACH_DAYS, CARRIED_GAP_DAYS + SOLD_OUT_TAIL_DAYS);

export interface ActualDemand {
  /** Per location: 1 when it sells (anything, anywhere in the history read): a store or webshop, else a warehouse. */
  selling: Uint8Array;
  /** Per row of the input: demand beyond the day's sales, on a day the cell sold out (0 elsewhere). */
  extra: Float64Array;
  /**
   * Carried days without stock inside the period, cell by cell: the day (relative to the period) and the demand lost.
   */
  out: { cell: Int32Array; day: Int32Array; demand: Float64Array };
  /** Per category: the overdispersion of daily demand (1/k of a negative binomial; 0 is Poisson). */
  dispersion: Float64Array;
  /** Per location × day of the period: 1 when it was closed (sold nothing where it sells plenty): no carried day. */
  closed: Uint8Array;
}

/**
 * `onSale`: per style, the days it was on sale in the network, when a location sells from a warehouse's stock:
 * such a location carries a style on exactly those days (fulfilled-days.ts). In three passes: the shelves' days
 * (shelf-history.ts), the demand model fitted to them (demand-fit.ts), and the days without stock and sold out, with
 * their demand (outage-demand.ts).
 */
export function actualDemand(
  rows: CellDayRows,
  range: HistoryRange,
  layout: DemandLayout,
  onSale?: OnSale,
): ActualDemand {
  const { days, periodFrom, periodTo } = range;
  const L = layout.locations;
  const cellWalk = new CellWalk(rows, days, L * layout.skus);
  const selling = sellingOf(rows, L);
  const shelves = readShelves(rows, days, layout, cellWalk, selling);
  const fit = fitDemand(rows, range, layout, cellWalk, selling, shelves);
  const closed = fit.index.closed;
  const { extra, out } = outageDemand(rows, range, layout, cellWalk, selling, shelves, fit, closed, onSale);
  const period = periodTo - periodFrom;
  const closedInPeriod = new Uint8Array(L * period);
  for (let l = 0; l < L; l++)
    closedInPeriod.set(closed.subarray(l * days + periodFrom, l * days + periodTo), l * period);
  return { selling, extra, dispersion: fit.dispersion, closed: closedInPeriod, out };
}
