/**
 * A range of styles of a state as a state of its own: the styles [sFrom, sTo) and their SKUs, every location.
 * Per-cell arrays are views into the whole state's (a SKU's cells lie together, so a range's are one block), so
 * a part of the engine that works on the slice reads and writes the whole state's memory. SKUs and styles are
 * renumbered from 0; locations, categories, brands, seasons and sizes keep their numbers, so sums per location,
 * category or size add up across slices.
 */
import { bitWords } from './in-stock-bits.js';
import type { EngineState } from './state.js';

export interface StyleRange {
  sFrom: number;
  sTo: number;
  /** The range's SKUs: [kFrom, kTo). */
  kFrom: number;
  kTo: number;
}

export function styleRange(state: Pick<EngineState, 'styles'>, sFrom: number, sTo: number): StyleRange {
  const { styleStart } = state.styles;
  return { sFrom, sTo, kFrom: styleStart[sFrom], kTo: styleStart[sTo] };
}

export function sliceState(state: EngineState, { sFrom, sTo, kFrom, kTo }: StyleRange): EngineState {
  const L = state.locations.ids.length;
  const W = state.windowDays;
  const [from, to] = [kFrom * L, kTo * L];
  const cells = <T extends { subarray(a: number, b: number): T }>(a: T) => a.subarray(from, to);
  const days = <T extends { subarray(a: number, b: number): T }>(a: T) => a.subarray(from * W, to * W);
  const sku = <T extends { subarray(a: number, b: number): T }>(a: T) => a.subarray(kFrom, kTo);
  const style = <T extends { subarray(a: number, b: number): T }>(a: T) => a.subarray(sFrom, sTo);
  const { inbound, skus, styles } = state;
  const inRange: number[] = [];
  for (let i = 0; i < inbound.cell.length; i++) if (inbound.cell[i] >= from && inbound.cell[i] < to) inRange.push(i);
  return {
    ...state,
    skus: {
      ids: skus.ids.slice(kFrom, kTo),
      style: Int32Array.from(sku(skus.style), (s) => s - sFrom),
      sizeRank: sku(skus.sizeRank),
      sizeId: skus.sizeId.slice(kFrom, kTo),
      size: sku(skus.size),
      colorId: skus.colorId.slice(kFrom, kTo),
      price: sku(skus.price),
      soldUnits: sku(skus.soldUnits),
      soldValue: sku(skus.soldValue),
      excluded: sku(skus.excluded),
      packSize: sku(skus.packSize),
    },
    styles: {
      ids: styles.ids.slice(sFrom, sTo),
      itemId: styles.itemId.slice(sFrom, sTo),
      category: style(styles.category),
      brand: style(styles.brand),
      season: style(styles.season),
      styleStart: Int32Array.from(styles.styleStart.subarray(sFrom, sTo + 1), (k) => k - kFrom),
      excluded: style(styles.excluded),
      hasOpenPurchaseOrder: style(styles.hasOpenPurchaseOrder),
    },
    onHand: cells(state.onHand),
    inTransit: cells(state.inTransit),
    onOrder: cells(state.onOrder),
    inbound: {
      cell: Int32Array.from(inRange, (i) => inbound.cell[i] - from),
      day: Int32Array.from(inRange, (i) => inbound.day[i]),
      quantity: Float64Array.from(inRange, (i) => inbound.quantity[i]),
      purchaseOrder: Uint8Array.from(inRange, (i) => inbound.purchaseOrder[i]),
    },
    notForReplenishment: cells(state.notForReplenishment),
    clientTarget: cells(state.clientTarget),
    clientMinimum: cells(state.clientMinimum),
    clientMaximum: cells(state.clientMaximum),
    lastArrivalDay: cells(state.lastArrivalDay),
    lastDeliveryDay: cells(state.lastDeliveryDay),
    everActive: cells(state.everActive),
    lastSaleDay: cells(state.lastSaleDay),
    sales: days(state.sales),
    ...(state.styleDiscount ? { styleDiscount: state.styleDiscount.subarray(sFrom * W, sTo * W) } : {}),
    ...(state.inStockDays ? { inStockDays: cells(state.inStockDays) } : {}),
    ...(state.salesDays ? { salesDays: cells(state.salesDays) } : {}),
    ...(state.inStockBits
      ? { inStockBits: state.inStockBits.subarray(from * bitWords(W), to * bitWords(W)) }
      : { inStockBits: undefined }),
  };
}
