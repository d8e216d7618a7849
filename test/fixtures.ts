/** One valid record per dataset, and builders for the records the rule tests vary. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MASTER_DATA } from '../engine/model/master-data.js';
import { afterEach } from 'vitest';
import { Workbench, type OpenOptions } from '../engine/service/workbench.js';

export type Rec = Record<string, any>;

export const T0 = '2024-03-01T10:15:00.000Z';

export function sku(skuId: string, styleId = 'ST1', extra: Rec = {}): Rec {
  return {
    skuId,
    code: `c${skuId}`,
    colorId: 'RED',
    sizeId: 'M',
    styleId,
    barcodes: [{ barcodeId: `B-${skuId}`, code: `871${skuId}`, isPrimary: true }],
    ...extra,
  };
}

export function item(itemId: string, skuIds: string[] = [`${itemId}-1`], extra: Rec = {}): Rec {
  return {
    itemId,
    code: `C-${itemId}`,
    description: `Item ${itemId}`,
    merchandiseCategoryId: 'MC1',
    brandId: 'BR1',
    attributes: [{ attributeId: `${itemId}-fit`, key: 'fit', value: 'slim' }],
    styleAttributes: [{ styleAttributeId: `ST1-segment`, key: 'segment', value: 'young', styleId: 'ST1' }],
    skus: skuIds.map((s) => sku(s)),
    ...extra,
  };
}

export function salesLine(salesLineId: string, skuId = 'SKU1', quantitySold = 1, extra: Rec = {}): Rec {
  return {
    salesLineId,
    skuId,
    lineNumber: 1,
    originalSalesAmountInclVat: 39.95 * quantitySold,
    salesAmountInclVat: 29.95 * quantitySold,
    vatPercentage: 21,
    costPrice: 12.5,
    online: false,
    quantitySold,
    quantityTransferred: quantitySold,
    quantityCancelled: 0,
    ...extra,
  };
}

export function sale(salesId: string, lines: Rec[] = [salesLine(`${salesId}-1`)], extra: Rec = {}): Rec {
  return {
    salesId,
    code: `R-${salesId}`,
    salesDateTime: T0,
    currencyCode: 'LOCAL',
    locationId: 'L1',
    salesLines: lines,
    ...extra,
  };
}

export function location(locationId: string, extra: Rec = {}): Rec {
  return { locationId, code: `c${locationId}`, name: `Store ${locationId}`, city: 'Utrecht', ...extra };
}

export function poLine(id: string, quantity: number, outstanding: number, extra: Rec = {}): Rec {
  return {
    purchaseOrderLineId: id,
    lineNumber: 1,
    skuId: 'SKU1',
    quantity,
    quantityOutstanding: outstanding,
    quantityToReceive: outstanding,
    unitCostLocalCurrency: 10,
    vatPercentage: 21,
    plannedReceiptDate: '2024-04-01T00:00:00.000Z',
    ...extra,
  };
}

export function purchaseOrder(
  purchaseOrderId: string,
  lines: Rec[] = [poLine(`${purchaseOrderId}-1`, 10, 10)],
  extra: Rec = {},
): Rec {
  return {
    purchaseOrderId,
    code: `PO-${purchaseOrderId}`,
    currencyId: 'local',
    completelyReceived: false,
    orderDate: '2024-02-01T00:00:00.000Z',
    orderDueDate: '2024-04-01T00:00:00.000Z',
    purchaseOrderLines: lines,
    ...extra,
  };
}

/** A valid record of every dataset, by endpoint name. */
export function validRecords(): Record<string, Rec> {
  const out: Record<string, Rec> = {
    Items: item('I1'),
    Locations: location('L1'),
    Sales: sale('S1'),
    PurchaseOrders: purchaseOrder('P1'),
    Stock: { locationId: 'L1', skuId: 'SKU1', quantity: 3, stockDateTime: T0 },
    StockMutations: {
      stockMutationId: 'M1',
      locationId: 'L1',
      skuId: 'SKU1',
      quantity: -1,
      mutationDateTime: T0,
      type: 'correction',
    },
    Prepacks: {
      skuId: 'PP1',
      code: 'PP1',
      components: [
        { skuId: 'SKU1', quantity: 2 },
        { skuId: 'SKU2', quantity: 1 },
      ],
    },
    StockTargets: { locationId: 'L1', skuId: 'SKU1', targetQuantity: 4, minimumQuantity: 1, maximumQuantity: 8 },
    Transfers: {
      transferId: 'T1',
      fromLocationId: 'WH',
      toLocationId: 'L1',
      skuId: 'SKU1',
      quantity: 2,
      transferType: 'Replenishment',
      plannedDispatchDate: '2024-03-02',
    },
    ExcludedCollections: { collectionId: 'COL1' },
    ExcludedLocations: { locationId: 'L9' },
    ExcludedSkus: { skuId: 'SKU9' },
    MerchandiseCategorySettings: {
      merchandiseCategoryId: 'MC1',
      presentationMinimum: 2,
      serviceLevel: 0.95,
      reviewPeriodDays: 7,
    },
    StockNotForReplenishment: { locationId: 'WH', skuId: 'SKU1', quantity: 5 },
    Images: { imageId: 'IMG1', styleId: 'ST1', fileName: 'front.jpg', contentType: 'image/jpeg', data: 'aGVsbG8=' },
    'Images/urls': { styleId: 'ST1', url: 'https://img.example/st1-front.jpg', sortOrder: 1 },
  };
  for (const [name, idField] of MASTER_DATA)
    out[name] = { [idField]: `${name}-1`, code: 'X1', description: `A ${name} record` };
  return out;
}

export interface TempWorkbench {
  wb: Workbench;
  dir: string;
  cleanup: () => Promise<void>;
}

export async function tempWorkbench(options: OpenOptions = {}): Promise<TempWorkbench> {
  const dir = mkdtempSync(join(tmpdir(), 'wb-test-'));
  const wb = await Workbench.open(dir, options);
  return {
    wb,
    dir,
    cleanup: async () => {
      await wb.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Opens the workspace at `dir` for `use`, and closes it after, whatever `use` does. */
export async function withWorkbench<T>(dir: string, use: (wb: Workbench) => Promise<T>): Promise<T> {
  const wb = await Workbench.open(dir);
  try {
    return await use(wb);
  } finally {
    await wb.close();
  }
}

/** A clock the test moves by hand (microseconds). */
export function manualClock(startIso = '2025-01-01T00:00:00.000Z') {
  let now = Date.parse(startIso) * 1000;
  const clock = () => now;
  clock.advanceMinutes = (m: number) => {
    now += m * 60_000_000;
  };
  clock.advanceSeconds = (sec: number) => {
    now += sec * 1_000_000;
  };
  return clock;
}

/** Temporary folders for one test file, removed after each test. */
export function useTempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}
