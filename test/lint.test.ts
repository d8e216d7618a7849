import { afterEach, describe, expect, it } from 'vitest';
import type { LintReport } from '../engine/ingest/lint.js';
import {
  item,
  location,
  manualClock,
  poLine,
  purchaseOrder,
  sale,
  salesLine,
  sku,
  tempWorkbench,
  type Rec,
  type TempWorkbench,
} from './fixtures.js';

let t: TempWorkbench;
afterEach(async () => t?.cleanup());

/** A feed that follows the spec: the lint finds nothing in it. */
async function cleanFeed(wb: TempWorkbench['wb']): Promise<void> {
  await wb.ingest('MerchandiseCategories', { merchandiseCategories: [{ merchandiseCategoryId: 'MC1', code: 'TEES' }] });
  await wb.ingest('Brands', { brands: [{ brandId: 'BR1', code: 'ACME' }] });
  await wb.ingest('Colors', { colors: [{ colorId: 'RED', code: 'R' }] });
  await wb.ingest('Sizes', { sizes: [{ sizeId: 'M', code: 'Medium' }] });
  await wb.ingest('Items', { items: [item('I1', ['SKU1'])] });
  await wb.ingest('Locations', {
    locations: [
      location('L1', {
        name: 'Shop Utrecht',
        streetName: 'Oudegracht',
        houseNo: '1',
        postalCode: '3511',
        city: 'Utrecht',
      }),
      location('WH', { name: 'Warehouse' }),
    ],
  });
  await wb.ingest('Sales', { sales: [sale('S1')] });
  await wb.ingest('PurchaseOrders', {
    purchaseOrders: [purchaseOrder('P1', undefined, { orderDueDate: '2025-06-01T00:00:00Z' })],
  });
}

const finding = (r: LintReport, rule: string) => r.findings.find((f) => f.rule === rule)!;

describe('feed lint', () => {
  it('finds nothing in a clean feed', async () => {
    t = await tempWorkbench({ clock: manualClock('2025-01-01T12:00:00Z') });
    await cleanFeed(t.wb);
    // The clean feed was written by the real clock; the lint's clock says "today" is just after it.
    const report = await t.wb.lint();
    const dirty = report.findings.filter((f) => f.count > 0 && f.rule !== 'dataset-stale');
    expect(dirty).toEqual([]);
  });

  const cases: [
    string,
    (wb: TempWorkbench['wb']) => Promise<unknown>,
    Partial<{ dataset: string; id: string; detail: string | RegExp }>,
  ][] = [
    [
      'unknown-master-data',
      (wb) => wb.ingest('Items', { items: [item('I2', ['SKU2'], { brandId: 'NOBRAND' })] }),
      { dataset: 'Items', id: 'I2', detail: 'brandId "NOBRAND" was never sent to /Brands' },
    ],
    [
      'unknown-location',
      (wb) =>
        wb.ingest('Stock', {
          stock: [{ locationId: 'GHOST', skuId: 'SKU1', quantity: 1, stockDateTime: '2024-01-01T00:00:00Z' }],
        }),
      { dataset: 'Stock', detail: 'locationId "GHOST" was never sent to /Locations' },
    ],
    [
      'unknown-sku',
      (wb) =>
        wb.ingest('PurchaseOrders', {
          purchaseOrders: [
            purchaseOrder('P9', [poLine('P9-1', 5, 5, { skuId: 'NOSKU' })], { orderDueDate: '2025-06-01T00:00:00Z' }),
          ],
        }),
      { dataset: 'PurchaseOrders', id: 'P9', detail: 'skuId "NOSKU" was never sent in /Items' },
    ],
    [
      'barcode-as-sku-id',
      (wb) =>
        wb.ingest('Items', {
          items: [
            item('I3', [], {
              skus: [sku('8711111111111', 'ST1', { barcodes: [{ barcodeId: 'b', code: '8711111111111' }] })],
            }),
          ],
        }),
      { id: '8711111111111' },
    ],
    [
      'sku-moved',
      (wb) => wb.ingest('Items', { items: [item('I7', ['SKU1'])] }),
      { dataset: 'Items (SKU)', id: 'SKU1', detail: /^moved from I1 to I7 at / },
    ],
    [
      'sales-line-moved',
      (wb) => wb.ingest('Sales', { sales: [sale('S7', [salesLine('S1-1')])] }),
      { dataset: 'Sales (line)', id: 'S1-1', detail: /^moved from S1 to S7 at / },
    ],
    [
      'listed-twice',
      // A workspace written before SKUs moved: the same SKU under two items, written straight into the tables.
      (wb) =>
        wb.workspace.run(
          `INSERT INTO items__skus SELECT 'I8', _ord, skuId, code, colorId, sizeId, styleId, themeId, brandId,
             seasonId, collectionId FROM items__skus WHERE skuId = 'SKU1';
           INSERT INTO items SELECT 'I8', code, description, themeId, brandId, seasonId, collectionId,
             merchandiseCategoryId, _updated_at, _deleted_at FROM items WHERE itemId = 'I1'`,
        ),
      { dataset: 'Items (SKU)', id: 'SKU1', detail: 'listed by items I1, I8' },
    ],
    [
      'code-equals-id',
      (wb) => wb.ingest('Brands', { brands: [{ brandId: 'BR2', code: 'BR2' }] }),
      { dataset: 'Brands', id: 'BR2', detail: 'code equals brandId' },
    ],
    [
      'attribute-id-reused',
      (wb) =>
        wb.ingest('Items', {
          items: [item('I4', ['SKU4'], { attributes: [{ attributeId: 'I1-fit', key: 'fit', value: 'wide' }] })],
        }),
      { id: 'I1-fit', detail: /used 2 times, in items I1, I4/ },
    ],
    [
      'bare-line-number-ids',
      (wb) => wb.ingest('Sales', { sales: [sale('S2', [salesLine('1')])] }),
      { dataset: 'Sales', id: 'S2' },
    ],
    [
      'store-without-address',
      (wb) => wb.ingest('Sales', { sales: [sale('S3', undefined, { locationId: 'WH' })] }),
      { id: 'WH', detail: /no complete address form/ },
    ],
    [
      'location-name-not-unique',
      (wb) => wb.ingest('Locations', { locations: [location('L2', { name: 'shop utrecht ' })] }),
      { id: 'L2' },
    ],
    [
      'currency-not-local',
      (wb) =>
        wb.ingest('PurchaseOrders', {
          purchaseOrders: [purchaseOrder('P2', undefined, { currencyId: 'EUR', orderDueDate: '2025-06-01T00:00:00Z' })],
        }),
      { id: 'P2', detail: 'currency "EUR"' },
    ],
    [
      'quantity-to-receive-differs',
      (wb) =>
        wb.ingest('PurchaseOrders', {
          purchaseOrders: [
            purchaseOrder('P3', [poLine('P3-1', 5, 5, { quantityToReceive: 4 })], {
              orderDueDate: '2025-06-01T00:00:00Z',
            }),
          ],
        }),
      { id: 'P3' },
    ],
    [
      'open-po-past-due',
      (wb) =>
        wb.ingest('PurchaseOrders', {
          purchaseOrders: [purchaseOrder('P4', undefined, { orderDueDate: '2024-12-01T00:00:00Z' })],
        }),
      { id: 'P4', detail: 'status open, due 2024-12-01' },
    ],
    [
      'cost-price-missing',
      (wb) => wb.ingest('Sales', { sales: [sale('S4', [salesLine('S4-1', 'SKU1', 1, { costPrice: undefined })])] }),
      { id: 'S4' },
    ],
    [
      'cost-price-negative',
      (wb) => wb.ingest('Sales', { sales: [sale('S5', [salesLine('S5-1', 'SKU1', -1, { costPrice: -3 })])] }),
      { id: 'S5' },
    ],
    [
      'style-mixed-colors',
      (wb) =>
        wb.ingest('Items', { items: [item('I5', [], { skus: [sku('A5'), sku('B5', 'ST1', { colorId: 'BLUE' })] })] }),
      { id: 'ST1' },
    ],
  ];

  for (const [rule, seed, example] of cases) {
    it(`${rule}: reports the pitfall with an example`, async () => {
      t = await tempWorkbench({ clock: manualClock('2025-01-01T12:00:00Z') });
      await cleanFeed(t.wb);
      expect(finding(await t.wb.lint(), rule).count).toBe(0);
      await seed(t.wb);
      const f = finding(await t.wb.lint(), rule);
      expect(f.count).toBeGreaterThanOrEqual(1);
      const { detail, ...rest } = example;
      expect(f.examples).toContainEqual(
        expect.objectContaining({
          ...rest,
          ...(detail ? { detail: typeof detail === 'string' ? detail : expect.stringMatching(detail) } : {}),
        }),
      );
    });
  }

  it('marks the examples that name a stored record, and each of those opens', async () => {
    t = await tempWorkbench({ clock: manualClock('2025-01-01T12:00:00Z') });
    await cleanFeed(t.wb);
    for (const [, seed] of cases) await seed(t.wb);
    const examples = (await t.wb.lint()).findings.flatMap((f) => f.examples.map((x) => ({ rule: f.rule, ...x })));
    const linked = examples.filter((x) => x.record);
    expect(new Set(linked.map((x) => x.rule))).toEqual(
      new Set([
        'unknown-master-data',
        'unknown-sku',
        'code-equals-id',
        'bare-line-number-ids',
        'store-without-address',
        'location-name-not-unique',
        'currency-not-local',
        'quantity-to-receive-differs',
        'open-po-past-due',
        'cost-price-missing',
        'cost-price-negative',
      ]),
    );
    for (const x of linked) expect(await t.wb.read(x.dataset, [x.id]), `${x.rule} ${x.dataset} ${x.id}`).toBeDefined();
    // The others name a SKU, a style, an attribute, a stock level or a whole dataset: no record of theirs to open.
    for (const x of examples.filter((e) => !e.record)) {
      expect(
        x.rule === 'dataset-stale' || x.rule === 'unknown-fields' || /\(|^Stock$/.test(x.dataset),
        `${x.rule} ${x.dataset} ${x.id}`,
      ).toBe(true);
    }
  });

  it('dataset-stale: names mandatory datasets never sent and datasets not written within a day', async () => {
    const clock = manualClock('2025-01-01T12:00:00Z');
    t = await tempWorkbench({ clock });
    await t.wb.ingest('Brands', { brands: [{ brandId: 'B', code: 'X' }] });
    let f = finding(await t.wb.lint(), 'dataset-stale');
    expect(f.examples.map((e: Rec) => `${e.id}: ${e.detail}`)).toEqual([
      'Items: never sent (mandatory)',
      'Locations: never sent (mandatory)',
      'Sales: never sent (mandatory)',
    ]);
    clock.advanceMinutes(25 * 60);
    f = finding(await t.wb.lint(), 'dataset-stale');
    expect(f.examples).toContainEqual({
      dataset: 'Brands',
      id: 'Brands',
      detail: 'last written 2025-01-01T12:00:00.000Z',
    });
  });
});
