/**
 * The engine's view of a workspace as of one day: columnar typed arrays, one cell per location×SKU
 * (`cell = sku * locationCount + location`). A SKU's cells lie side by side, and so do a style's and a range of
 * styles': the engine weighs a SKU across its locations, and a partition of the replay owns one block of cells.
 * Built by the store with a few set-based queries; read by pure code.
 */
import { countSlots } from './in-stock-bits.js';
import type { LocationKind } from './settings.js';

export interface EngineState {
  /** The decision day, in days since 1970-01-01 (UTC). The engine sees nothing after it. */
  asOfDay: number;
  /** Days of history in the sales and in-stock windows, ending with asOfDay − 1. */
  windowDays: number;
  /**
   * The windows are rings: day slot `(windowHead + d) % windowDays` holds window day d (0 = oldest). A loaded
   * state has head 0; the backtest advances it one slot a day instead of shifting every cell's history.
   */
  windowHead: number;

  locations: {
    ids: string[];
    kind: LocationKind[];
    gln: (string | null)[];
    excluded: Uint8Array;
    /**
     * Per location: the warehouse whose stock it sells from (an online location fulfilled from a warehouse: it
     * holds no stock of its own and is sent nothing), or −1: it sells from its own.
     */
    fulfilledFrom: Int32Array;
    /**
     * Per location: the days a transfer takes to reach it, as the data before the state's day tells
     * (simulate/transit.ts): what the engine plans with where no leadTimeDays is set.
     */
    transitDays: Int32Array;
  };
  skus: {
    ids: string[];
    style: Int32Array;
    /** Position of the SKU's size within its style (0 = smallest). */
    sizeRank: Int32Array;
    sizeId: string[];
    /** The SKU's size in `sizes` (sizes are numbered once, so sums by size add up across parts of the state). */
    size: Int32Array;
    colorId: string[];
    /** Selling price per unit incl. VAT (what a unit sold is worth). */
    price: Float64Array;
    /** Units sold and their value over the year before the state's day: what `price` was computed from. */
    soldUnits: Float64Array;
    soldValue: Float64Array;
    excluded: Uint8Array;
    /** Transfers move multiples of this (single-SKU prepacks), 1 otherwise. */
    packSize: Int32Array;
  };
  styles: {
    ids: string[];
    itemId: string[];
    category: Int32Array;
    brand: Int32Array;
    season: Int32Array;
    /** The SKUs of style s are [styleStart[s], styleStart[s+1]): a style's SKUs are numbered together. */
    styleStart: Int32Array;
    excluded: Uint8Array;
    hasOpenPurchaseOrder: Uint8Array;
  };
  categories: { ids: string[] };
  brands: { ids: string[] };
  seasons: { ids: string[] };
  sizes: { ids: string[] };

  /** Per cell: units on hand at the start of asOfDay. */
  onHand: Float64Array;
  /** Per cell: units in transit to the location (approved or client transfers not yet arrived). */
  inTransit: Float64Array;
  /** Per cell: open purchase-order units due at the location. */
  onOrder: Float64Array;
  /**
   * Everything on its way, with the day it is expected: transfers in transit and open purchase-order lines.
   * Parallel arrays; `inTransit` and `onOrder` are their totals per cell.
   */
  inbound: { cell: Int32Array; day: Int32Array; quantity: Float64Array; purchaseOrder: Uint8Array };
  /** Per cell: units that must not be used for replenishment. */
  notForReplenishment: Float64Array;
  /** Per cell: the client's target, NaN when none. */
  clientTarget: Float64Array;
  clientMinimum: Float64Array;
  clientMaximum: Float64Array;
  /** Per cell: the last day stock arrived by transfer, or −1. */
  lastArrivalDay: Int32Array;
  /**
   * Per cell: the last day a delivery arrived, or −1: a replenishment, or a client's transfer of no type. What tells
   * when a store is due its next delivery (review.ts lastSentDays); an initial distribution or a redistribution move
   * brings a few SKUs, not the store's week.
   */
  lastDeliveryDay: Int32Array;
  /** Per cell: ever sold or held at the location before asOfDay (so not a new style there). */
  everActive: Uint8Array;
  /** Per cell: the last day before asOfDay the location sold the SKU (within the last year), or −1. */
  lastSaleDay: Int32Array;

  /**
   * Per cell × window day (cell * windowDays + d): gross units sold (returns are not subtracted), NaN on a day
   * without stock: its demand is not known (censored), which is not the same as 0. A day that sold out holds its
   * units negated: its demand was at least that many (censored from above, see forecast/demand.ts). Read a day as
   * sold by `x !== 0 && x === x`, in stock by `x === x`.
   */
  sales: Float32Array;
  /**
   * Per style × window day (style * windowDays + slot, the ring as `sales`): how far below its list price the style
   * sold that day across the network (inputs/style-discounts.ts), NaN on a day it did not sell. Without it, every
   * day counts as sold at today's price (forecast/price-regime.ts).
   */
  styleDiscount?: Float32Array;
  /** Per cell: in-stock days in the window, when the state's maker keeps count (a cell with none is skipped). */
  inStockDays?: Int32Array;
  /** Per cell: days with a sale in the window, kept with inStockDays (a window without one needs no reading). */
  salesDays?: Int32Array;
  /**
   * Per cell, `bitWords(windowDays)` words: bit d set where slot d of `sales` holds a number (in stock), kept with
   * the ring by a replay (in-stock-bits.ts). Without it, the ring is read.
   */
  inStockBits?: Uint32Array;
}

/** Approved transfers no client transfer has carried out count as on their way for this long. */
export const APPROVAL_OPEN_DAYS = 14;

export function cellOf(state: EngineState, location: number, sku: number): number {
  return sku * state.locations.ids.length + location;
}

type Typed = Float64Array | Float32Array | Int32Array | Uint8Array;
/**
 * Of the window's days [from, to) (0: the oldest), those cell `c` had stock on: its sales ring holds a number there
 * (NaN: a day without stock).
 */
export function stockedDays(state: EngineState, c: number, from: number, to: number): number {
  const W = state.windowDays;
  const lo = Math.max(0, from);
  const hi = Math.min(W, to);
  // Where the state keeps each cell's count, a cell never or always in stock needs no reading.
  const kept = state.inStockDays?.[c];
  if (kept === 0 || hi <= lo) return 0;
  if (kept === W) return hi - lo;
  const bits = state.inStockBits;
  if (bits) {
    // The window's days [lo, hi) are the ring's slots from (head + lo) % W on.
    const from = (state.windowHead + lo) % W;
    return countSlots(bits, W, c, from, from + (hi - lo));
  }
  let n = 0;
  for (let d = lo; d < hi; d++) {
    const x = state.sales[c * W + ((state.windowHead + d) % W)];
    if (x === x) n++;
  }
  return n;
}

/** Makes a typed array of n elements: in ordinary memory, or (for a replay's threads) in shared memory. */
export type Alloc = <T extends Typed>(make: (n: number) => T, n: number) => T;
const ordinary: Alloc = (make, n) => make(n);

export function emptyState(
  asOfDay: number,
  windowDays: number,
  locations: number,
  skus: number,
  alloc: Alloc = ordinary,
): Omit<EngineState, 'locations' | 'skus' | 'styles' | 'categories' | 'brands' | 'seasons' | 'sizes'> {
  const cells = locations * skus;
  const f64 = (n: number) => new Float64Array(n);
  const nan = () => alloc(f64, cells).fill(Number.NaN);
  return {
    asOfDay,
    windowDays,
    windowHead: 0,
    onHand: alloc(f64, cells),
    inTransit: alloc(f64, cells),
    onOrder: alloc(f64, cells),
    inbound: {
      cell: new Int32Array(0),
      day: new Int32Array(0),
      quantity: new Float64Array(0),
      purchaseOrder: new Uint8Array(0),
    },
    notForReplenishment: alloc(f64, cells),
    clientTarget: nan(),
    clientMinimum: nan(),
    clientMaximum: nan(),
    lastArrivalDay: alloc((n) => new Int32Array(n), cells).fill(-1),
    lastDeliveryDay: alloc((n) => new Int32Array(n), cells).fill(-1),
    everActive: alloc((n) => new Uint8Array(n), cells),
    lastSaleDay: alloc((n) => new Int32Array(n), cells).fill(-1),
    sales: alloc((n) => new Float32Array(n), cells * windowDays).fill(Number.NaN),
  };
}

/** Purchase-order arrivals indexed by cell, for summing what reaches a cell by a day without scanning them all. */
export function purchaseOrderArrivals(state: EngineState): (cell: number, byDay: number) => number {
  const byCell = new Map<number, { day: number; quantity: number }[]>();
  const { inbound } = state;
  for (let i = 0; i < inbound.cell.length; i++) {
    if (!inbound.purchaseOrder[i]) continue;
    const list = byCell.get(inbound.cell[i]) ?? [];
    list.push({ day: inbound.day[i], quantity: inbound.quantity[i] });
    byCell.set(inbound.cell[i], list);
  }
  return (cell, byDay) => {
    let q = 0;
    for (const a of byCell.get(cell) ?? []) if (a.day <= byDay) q += a.quantity;
    return q;
  };
}
