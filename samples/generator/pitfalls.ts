/**
 * The spec's pitfalls planted on purpose, each on named records, so a feed lint has something real to find. The
 * generator decides where they go (catalogue, network, orders, sales); this file only gathers them into one list.
 */
import type { CatalogPitfalls, Catalog } from './catalog.js';
import { POP_UP, POSTAGE_SKU, type DirtyExportPitfalls } from './dirty-export.js';
import type { Network } from './locations.js';
import { PITFALL_CATEGORY_ID } from './masterdata.js';
import type { PoPitfalls } from './purchasing.js';
import type { SalesPitfalls } from './sales.js';

export type PitfallKind =
  | 'skuIdIsBarcode'
  | 'codeEqualsId'
  | 'duplicateAttributeId'
  | 'bareSalesLineIds'
  | 'incompleteAddress'
  | 'duplicateLocationName'
  | 'saleCurrencyNotLocal'
  | 'purchaseOrderCurrencyNotLocal'
  | 'quantityToReceiveMismatch'
  | 'openOrderPastDue'
  | 'salesLineWithoutCostPrice'
  | 'negativeCostPrice'
  | 'skuNotInItems'
  | 'styleWithMixedColors'
  // The dirt of a spreadsheet export (`--dirty-export` only).
  | 'postageSoldNeverStocked'
  | 'zeroAmountLines'
  | 'amountSignMismatch'
  | 'outlierLine'
  | 'cancellationPair'
  | 'locationWithoutStock'
  | 'negativeActualStock';

export interface Pitfall {
  kind: PitfallKind;
  /** Endpoint whose records carry it. */
  dataset: string;
  /** Ids of the records (for sales lines: the salesLineId). */
  ids: string[];
  what: string;
}

export function listPitfalls(
  catalog: Catalog,
  cp: CatalogPitfalls,
  network: Network,
  po: PoPitfalls,
  sales: SalesPitfalls,
): Pitfall[] {
  const item = (i: number) => catalog.items[i].itemId;
  const sku = (k: number) => catalog.skuIds[k];
  const styleOf = (k: number) => catalog.styles[catalog.skuStyle[k]];
  const list: Pitfall[] = [
    {
      kind: 'skuIdIsBarcode',
      dataset: 'Items',
      ids: [sku(cp.skuAsBarcode)],
      what: `skuId is the SKU's own primary EAN-13 (item ${catalog.items[styleOf(cp.skuAsBarcode).item].itemId})`,
    },
    {
      kind: 'codeEqualsId',
      dataset: 'MerchandiseCategories',
      ids: [PITFALL_CATEGORY_ID],
      what: 'merchandise category whose code equals its id',
    },
    {
      kind: 'duplicateAttributeId',
      dataset: 'Items',
      ids: [item(cp.attributeOwner), item(cp.attributeReuser)],
      what: `both items send attributeId ${item(cp.attributeOwner)}-material`,
    },
    {
      kind: 'bareSalesLineIds',
      dataset: 'Sales',
      ids: [sales.bareLineSale!],
      what:
        'this sale numbers its lines "1", "2", … as salesLineId: unique within the sale only, so another sale ' +
        'doing the same would take them over',
    },
    {
      kind: 'incompleteAddress',
      dataset: 'Locations',
      ids: [network.pitfalls.incompleteAddress],
      what: 'store with streetName and city only: none of the three address forms is complete',
    },
    {
      kind: 'duplicateLocationName',
      dataset: 'Locations',
      ids: [...network.pitfalls.sameName],
      what: 'two stores with the same name',
    },
    {
      kind: 'purchaseOrderCurrencyNotLocal',
      dataset: 'PurchaseOrders',
      ids: [po.eurCurrency],
      what: 'currencyId "EUR" instead of "local"',
    },
    {
      kind: 'quantityToReceiveMismatch',
      dataset: 'PurchaseOrders',
      ids: [`${po.toReceiveMismatch}-1`],
      what: 'open line with quantityToReceive 0 while quantityOutstanding is not',
    },
    {
      kind: 'openOrderPastDue',
      dataset: 'PurchaseOrders',
      ids: [po.pastDue],
      what:
        'open order whose orderDueDate lies before the end date ' +
        '(its goods never came and the date was never updated)',
    },
    {
      kind: 'skuNotInItems',
      dataset: 'Sales',
      ids: [sku(cp.missingSku)],
      what:
        `SKU of style ${styleOf(cp.missingSku).styleId} left out of Items; ` +
        'its sales, stock and order lines still refer to it',
    },
  ];
  // A basics style is a single SKU, so no style there can mix colours: the catalogue leaves this one out.
  const mc = cp.mixedColor;
  if (mc)
    list.push({
      kind: 'styleWithMixedColors',
      dataset: 'Items',
      ids: [sku(mc.sku)],
      what:
        `SKU sent with colorId ${mc.colorId} ` +
        `while the rest of style ${styleOf(mc.sku).styleId} is ${styleOf(mc.sku).colorId}`,
    });
  if (sales.eurSale)
    list.push({
      kind: 'saleCurrencyNotLocal',
      dataset: 'Sales',
      ids: [sales.eurSale],
      what: 'currencyCode "EUR" instead of "LOCAL"',
    });
  if (sales.missingCostLines.length)
    list.push({
      kind: 'salesLineWithoutCostPrice',
      dataset: 'Sales',
      ids: sales.missingCostLines,
      what: 'sales lines without costPrice',
    });
  if (sales.negativeCostLine)
    list.push({
      kind: 'negativeCostPrice',
      dataset: 'Sales',
      ids: [sales.negativeCostLine],
      what: 'sales line with a negative costPrice',
    });
  return list;
}

/** The export's dirt, each kind listed where it was planted (a short run may not reach every kind). */
export function listDirtyExport(p: DirtyExportPitfalls): Pitfall[] {
  const list: (Pitfall | false)[] = [
    p.postageLines.length > 0 && {
      kind: 'postageSoldNeverStocked',
      dataset: 'Sales',
      ids: p.postageLines,
      what: `postage lines of webshop sales: SKU ${POSTAGE_SKU}, an item of its own, never in stock or on order`,
    },
    p.zeroAmountLines.length > 0 && {
      kind: 'zeroAmountLines',
      dataset: 'Sales',
      ids: p.zeroAmountLines,
      what: 'lines of one SKU given away: salesAmountInclVat 0',
    },
    p.signFlippedLines.length > 0 && {
      kind: 'amountSignMismatch',
      dataset: 'Sales',
      ids: p.signFlippedLines,
      what: 'returns whose amounts lost their minus sign',
    },
    p.outlierLine !== undefined && {
      kind: 'outlierLine',
      dataset: 'Sales',
      ids: [p.outlierLine],
      what: "a return keyed with zeros too many, far above the SKU's history",
    },
    p.cancelledSales.length > 0 && {
      kind: 'cancellationPair',
      dataset: 'Sales',
      ids: p.cancelledSales,
      what: 'a store sale, its void a minute later (the same line, negative), and the sale rung up again',
    },
    p.popUpSales.length > 0 && {
      kind: 'locationWithoutStock',
      dataset: 'Sales',
      ids: p.popUpSales,
      what: `a store's sales booked at the pop-up ${POP_UP}, which has no stock level and no stock mutation`,
    },
    p.wrongTillSale !== undefined && {
      kind: 'negativeActualStock',
      dataset: 'Sales',
      ids: [p.wrongTillSale],
      what: 'a sale booked at a store that never carries its SKU: its stock there stays below zero',
    },
  ];
  return list.filter((x): x is Pitfall => x !== false);
}
