/**
 * Which store carries which style, as far as the data tells: the spec has no assortment plan, so the engine reads it
 * off what each store held and sold. Per selling location × style (`l * styles + s`):
 *
 * - carried: the store sold or held the style within the year, holds it or has it on its way; or the style sells
 *   in the network now, is young (on no shelf in the window's first ESTABLISHED_DAYS days) and the store sells its
 *   category (a store skipped at the style's launch, when the warehouse was short or its category had not sold there
 *   yet, can still be given it). A store that never held a style on the shelves for longer is one the retailer's
 *   assortment leaves out: given it, its shelf held stock that never sold;
 * - not selling there: the store held the style and never sold it, and the style sells elsewhere. While it holds
 *   some, only once the days it stood on the shelf would have sold NOT_SELLING_EXPECTED_UNITS at the style's rate
 *   elsewhere; once its stock is gone, as long as it never sold there. Such a store gets no target for the style and
 *   sends its stock back (returns.ts): the stores that do sell it get it instead. A store that did sell the style
 *   stopped selling it, while another sold it since, once the days it stood on the shelf since its last sale there
 *   would have sold STOPPED_SELLING_EXPECTED_UNITS at its pace (the style's rate elsewhere, or the store's own where
 *   slower): a delisting the feed does not announce. A style that stopped selling everywhere is off sale (life.ts).
 * - the chance a carried store that has not sold the style yet sells it (`chance`).
 */
import type { Forecast } from '../forecast/forecast.js';
import { stockedDays, type EngineState } from './state.js';

/**
 * Units the style would have sold on a store's shelf at its rate elsewhere, for its silence there to tell. Judged at
 * three, stores that did sell the style were shut out of it (on the demo with a daily review at 95 %, 4.6 % of the
 * demand fell on them afterwards, 1.6 points of fill): the judgment is for good once the shelf is empty.
 */
export const NOT_SELLING_EXPECTED_UNITS = 5;
/**
 * Units a store that sold the style would have sold since its last sale there, on the days its shelf held some, for
 * that silence to tell it stopped selling (the retailer delisted the style there, or its customers there are gone).
 * Twice a silent shelf's NOT_SELLING_EXPECTED_UNITS: the store did sell it once. Measured at 6, 10 and 15 with the
 * default scenario: at 10 the intermittent set held 2.9 % less store stock and filled 0.13 points better, the others
 * within 0.07 points and 0.1 % of stock; at 6 fashion lost 0.4 points of fill to stores that still sold.
 */
export const STOPPED_SELLING_EXPECTED_UNITS = 10;
/** The days at the window's start a style stood on a shelf on, at the least, to be past its launch. */
export const ESTABLISHED_DAYS = 14;

export interface Assortment {
  carried: Uint8Array;
  notSelling: Uint8Array;
  /**
   * Per selling location × category (`l * categories + c`): the chance it carries a new style of the category, by
   * the share of the category's styles held anywhere within the year that it held too (Laplace's rule of succession).
   */
  carries: Float64Array;
  /**
   * Per selling location × style: the chance a carried store sells the style, 1 once it sold it. Before its first
   * sale there, the chance it carries a style of the category (`carries`), weighed by how likely its shelf's silence
   * so far would be if it did: p·e^−m / (p·e^−m + 1 − p), m the units the style's rate elsewhere would have sold on
   * the days it stood there. A store given a launch it may not carry is replenished to what it would sell times that
   * chance, as its first fill was (initial.ts).
   */
  chance: Float64Array;
  /** Per style, over its cells at the selling locations, what life.ts reads of it too (read here once). */
  styleSales: StyleSales;
}

/** Per style: its last sale at any selling location (−1: none), and its cells' days with a sale and in stock. */
export interface StyleSales {
  lastSale: Int32Array;
  saleDays: Float64Array;
  inStockDays: Float64Array;
}

/**
 * Per selling location × category (`l * categories + c`): the styles held there within the year; per category, the
 * styles held anywhere. Sums over styles, so a part of the network's styles adds its own (review.ts).
 */
export interface AssortmentSums {
  held: Float64Array;
  styles: Float64Array;
  /**
   * Per location: the last day it sold anything (−∞: none within the year), combined by the maximum. A store that
   * sold nothing at all since a day was closed (a holiday, a week's refit) or its sales have not come in: its shelves'
   * silence on one style says nothing about that style.
   */
  lastSale: Float64Array;
}

export function emptyAssortmentSums(locations: number, categories: number): AssortmentSums {
  return {
    held: new Float64Array(locations * categories),
    styles: new Float64Array(categories),
    lastSale: new Float64Array(locations).fill(-Infinity),
  };
}

/** Adds the state's styles to the sums. */
export function addHeld(state: EngineState, selling: Uint8Array, sums: AssortmentSums): void {
  const L = state.locations.ids.length;
  const C = Math.max(1, state.categories.ids.length);
  const { styleStart, category } = state.styles;
  const { lastSaleDay } = state;
  for (let c = 0; c < lastSaleDay.length; c++)
    if (lastSaleDay[c] > sums.lastSale[c % L]) sums.lastSale[c % L] = lastSaleDay[c];
  const heldAt = new Uint8Array(L);
  for (let s = 0; s < state.styles.ids.length; s++) {
    heldAt.fill(0);
    for (let c = styleStart[s] * L, l = 0; c < styleStart[s + 1] * L; c++, l = l + 1 === L ? 0 : l + 1)
      if (state.everActive[c] && selling[l]) heldAt[l] = 1;
    let anywhere = false;
    for (let l = 0; l < L; l++)
      if (heldAt[l]) {
        sums.held[l * C + category[s]]++;
        anywhere = true;
      }
    if (anywhere) sums.styles[category[s]]++;
  }
}

export function assortment(state: EngineState, f: Forecast, selling: Uint8Array, network: AssortmentSums): Assortment {
  const L = state.locations.ids.length;
  const S = state.styles.ids.length;
  const C = Math.max(1, state.categories.ids.length);
  const { styleStart, category } = state.styles;
  const { everActive, onHand, inTransit, lastSaleDay } = state;
  const carried = new Uint8Array(L * S);
  const notSelling = new Uint8Array(L * S);
  const chance = new Float64Array(L * S).fill(1);
  // The share of each category's styles across the network each store held within the year, by Laplace's rule: a
  // store that held none of a category's few styles may still carry the next one.
  const carries = Float64Array.from({ length: L * C }, (_, x) => (network.held[x] + 1) / (network.styles[x % C] + 2));
  const held = new Uint8Array(L);
  const sold = new Uint8Array(L);
  const stock = new Uint8Array(L);
  const units = new Float64Array(L);
  const days = new Float64Array(L);
  const lastSale = new Int32Array(L);
  const styleSales: StyleSales = {
    lastSale: new Int32Array(S),
    saleDays: new Float64Array(S),
    inStockDays: new Float64Array(S),
  };
  for (let s = 0; s < S; s++) {
    lastSale.fill(-1);
    // The style's last sale at any selling location: a store whose own came before it sells on elsewhere.
    let newest = -1;
    held.fill(0);
    sold.fill(0);
    stock.fill(0);
    units.fill(0);
    days.fill(0);
    let netUnits = 0;
    let netDays = 0;
    let netSaleDays = 0;
    let established = false;
    for (let c = styleStart[s] * L, l = 0; c < styleStart[s + 1] * L; c++, l = l + 1 === L ? 0 : l + 1) {
      if (!selling[l]) continue;
      // On a shelf in the window's first days: the style stood there long before its last weeks (a day alone, a
      // warehouse run dry can leave every shelf empty on).
      if (!established && stockedDays(state, c, 0, ESTABLISHED_DAYS) > 0) established = true;
      if (everActive[c]) held[l] = 1;
      if (lastSaleDay[c] >= 0) sold[l] = 1;
      if (lastSaleDay[c] > lastSale[l]) lastSale[l] = lastSaleDay[c];
      if (lastSaleDay[c] > newest) newest = lastSaleDay[c];
      if (onHand[c] > 0 || inTransit[c] > 0) stock[l] = 1;
      units[l] += f.units[c];
      days[l] += f.inStockDays[c];
      netUnits += f.units[c];
      netDays += f.inStockDays[c];
      netSaleDays += f.saleDays[c];
    }
    styleSales.lastSale[s] = newest;
    styleSales.saleDays[s] = netSaleDays;
    styleSales.inStockDays[s] = netDays;
    const cat = category[s];
    for (let l = 0; l < L; l++) {
      if (!selling[l]) continue;
      // What the style sells per in-stock cell-day at the other stores.
      const elsewhere = netDays - days[l] > 0 ? (netUnits - units[l]) / (netDays - days[l]) : 0;
      const silentHere =
        elsewhere > 0 &&
        (sold[l]
          ? lastSale[l] < newest && stoppedSelling(state, s, l, lastSale[l], network.lastSale[l], elsewhere, units[l])
          : held[l] && (!stock[l] || elsewhere * days[l] >= NOT_SELLING_EXPECTED_UNITS));
      if (silentHere) {
        notSelling[l * S + s] = 1;
        continue;
      }
      if (held[l] || stock[l] || (netUnits > 0 && !established && network.held[l * C + cat] > 0)) {
        carried[l * S + s] = 1;
        if (!sold[l]) {
          const p = carries[l * C + cat];
          const quiet = p * Math.exp(-elsewhere * days[l]);
          chance[l * S + s] = quiet / (quiet + 1 - p);
        }
      }
    }
  }
  return { carried, notSelling, carries, chance, styleSales };
}

/**
 * Whether a store that sold a style has stood with it since its last sale there (`lastSale`) long enough, day by day
 * on its shelves, to have sold STOPPED_SELLING_EXPECTED_UNITS at its pace: the style's rate elsewhere (`rate`, per
 * in-stock cell-day), or the store's own before its silence (`unitsSold` in the window) where that is slower. The
 * days count up to the store's last sale of anything (`storeLastSale`): a closed store is not silent on a style.
 */
function stoppedSelling(
  state: EngineState,
  s: number,
  l: number,
  lastSale: number,
  storeLastSale: number,
  rate: number,
  unitsSold: number,
): boolean {
  const W = state.windowDays;
  const L = state.locations.ids.length;
  const { styleStart } = state.styles;
  const cells = styleStart[s + 1] - styleStart[s];
  // Window day d is the day asOfDay − W + d: the silence runs from the day after the style's last sale there to the
  // store's last day with a sale.
  const from = lastSale + 1 - (state.asOfDay - W);
  const to = storeLastSale + 1 - (state.asOfDay - W);
  // Bounded above by every cell in stock every silent day: most stores that sell the style stop here.
  if (rate * (Math.min(to, W) - Math.max(from, 0)) * cells < STOPPED_SELLING_EXPECTED_UNITS) return false;
  let silentDays = 0;
  for (let c = styleStart[s] * L + l; c < styleStart[s + 1] * L; c += L) silentDays += stockedDays(state, c, from, to);
  // The pace is at most the rate elsewhere: a silence too short at that rate needs no reading of the days before it.
  if (rate * silentDays < STOPPED_SELLING_EXPECTED_UNITS) return false;
  let before = 0;
  for (let c = styleStart[s] * L + l; c < styleStart[s + 1] * L; c += L) before += stockedDays(state, c, 0, from);
  const pace = unitsSold > 0 && before > 0 ? Math.min(rate, unitsSold / before) : rate;
  return pace * silentDays >= STOPPED_SELLING_EXPECTED_UNITS;
}
