/**
 * Where a style is in its life, as its sales tell: on sale, or off sale — it stopped selling everywhere while it was
 * on the shelves (a fashion style whose season ended, a delisted item). A style off sale gets no target: nothing is
 * sent to present it, and what the stores hold of it goes back (redistribute.ts).
 */
import type { StyleSales } from './assortment.js';
import { stockedDays, type EngineState } from './state.js';

/** A style silent for fewer days than this is on sale whatever it sold before (a closed week, a holiday). */
export const OFF_SALE_MIN_DAYS = 3;
/** Units the style would have sold at its rate over its in-stock days since its last sale, for silence to tell. */
export const OFF_SALE_EXPECTED_UNITS = 7;
/** In-stock cell-days with no sale in the whole window that tell a style sold within the year is off sale. */
export const OFF_SALE_SILENT_WINDOW_DAYS = 28;

/**
 * Per style of the state: 1 when it is off sale. It sold within the last year, and since its last sale anywhere it
 * stood in stock long enough without one (its cells' days with stock since then, day by day: shelves a dry warehouse
 * left empty say nothing): at least OFF_SALE_MIN_DAYS, over in-stock cell-days its rate (units per
 * in-stock cell-day over the window) would have sold OFF_SALE_EXPECTED_UNITS in, or a whole window of in-stock
 * days without a sale. A style that never sold is new, whatever it waits for.
 */
export function offSaleStyles(state: EngineState, sales: StyleSales, selling: Uint8Array): Uint8Array {
  const L = state.locations.ids.length;
  const S = state.styles.ids.length;
  const { styleStart } = state.styles;
  const off = new Uint8Array(S);
  for (let s = 0; s < S; s++) {
    const last = sales.lastSale[s];
    const units = sales.units[s];
    const days = sales.inStockDays[s];
    if (last < 0) continue;
    const silent = state.asOfDay - 1 - last;
    if (silent < OFF_SALE_MIN_DAYS) continue;
    // In-stock days since the last sale, day by day: a shelf that stood empty since (a warehouse run dry) is not
    // silence, whatever the cell's days in stock before its last sale. They only add up, so the first cell that
    // makes the silence tell settles it.
    const tells = (n: number) =>
      units > 0 ? (units / days) * n >= OFF_SALE_EXPECTED_UNITS : n >= OFF_SALE_SILENT_WINDOW_DAYS;
    let silentDays = 0;
    for (let c = styleStart[s] * L, l = 0; c < styleStart[s + 1] * L && !off[s]; c++, l = l + 1 === L ? 0 : l + 1)
      if (selling[l]) {
        silentDays += stockedDays(state, c, state.windowDays - silent, state.windowDays);
        if (tells(silentDays)) off[s] = 1;
      }
  }
  return off;
}
