import { afterEach, describe, expect, it } from 'vitest';
import { formatLint } from '../engine/cli/format.js';
import type { LintReport } from '../engine/ingest/lint.js';
import { negativeStock } from '../engine/ingest/lint-negative-stock.js';
import { generate, MemorySink, type PitfallKind } from '../samples/generator/index.js';
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
  // Stock counted the morning of the sale (T0): the shop sells what it holds.
  await wb.ingest('Stock', {
    stock: [{ locationId: 'L1', skuId: 'SKU1', quantity: 5, stockDateTime: '2024-03-01T00:00:00Z' }],
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

  /** [rule, the dirt on top of the clean feed, an example it reports, how many findings when that is exact]. */
  const cases: [
    string,
    (wb: TempWorkbench['wb']) => Promise<unknown>,
    Partial<{ dataset: string; id: string; detail: string | RegExp; sample: string[] }>,
    number?,
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
    [
      'non-merchandise-sku',
      async (wb) => {
        await wb.ingest('Items', {
          items: [item('I9', [], { description: 'Postage and packing', skus: [sku('POST', 'ST9')] })],
        });
        await wb.ingest('Sales', {
          sales: [sale('S9', [salesLine('S9-1', 'POST', 1)]), sale('S10', [salesLine('S10-1', 'POST', 2)])],
        });
      },
      {
        dataset: 'Items (SKU)',
        id: 'POST',
        detail:
          'code "cPOST", description "Postage and packing" reads as "postage"; sold on 2 line(s), 3 units net; ' +
          'never in stock, in a stock mutation or on a purchase order',
        sample: ['S10', 'S9'],
      },
      1,
    ],
    [
      'sales-amount-inconsistent',
      (wb) =>
        wb.ingest('Sales', {
          sales: [
            sale('S11', [
              salesLine('S11-1', 'SKU1', 1, { salesAmountInclVat: 0 }),
              salesLine('S11-2', 'SKU1', -1, { salesAmountInclVat: 29.95 }),
            ]),
            sale('S12', [salesLine('S12-1', 'SKU1', 2, { salesAmountInclVat: 0 })]),
            // A price correction without units is no sign conflict.
            sale('S13', [salesLine('S13-1', 'SKU1', 0, { salesAmountInclVat: -5 })]),
          ],
        }),
      {
        dataset: 'Sales (SKU)',
        id: 'SKU1',
        detail:
          '2 line(s) with salesAmountInclVat 0 for 3 units; ' +
          '1 line(s) whose salesAmountInclVat has the other sign than quantitySold',
        sample: ['S11', 'S12'],
      },
      1,
    ],
    [
      'sales-quantity-outlier',
      (wb) =>
        wb.ingest('Sales', {
          sales: [
            // With S1: 25 lines of one unit, then 10 units (the bound itself: not above it) and 30.
            sale(
              'S20',
              Array.from({ length: 24 }, (_, i) => salesLine(`S20-${i}`, 'SKU1', 1)),
            ),
            sale('S21', [salesLine('S21-1', 'SKU1', 10)]),
            sale('S22', [salesLine('S22-1', 'SKU1', 30)]),
          ],
        }),
      {
        dataset: 'Sales (SKU)',
        id: 'SKU1',
        detail: '1 line(s) above 10 units (median line 1, MAD 0, 27 lines); worst 30 in sale S22',
        sample: ['S22'],
      },
      1,
    ],
    [
      'cancellations-as-returns',
      (wb) =>
        wb.ingest('Sales', {
          sales: [
            // S1 (1 unit at T0) voided a minute later, then the same again: S1 is cancelled once only.
            sale('S30', [salesLine('S30-1', 'SKU1', -1)], { salesDateTime: '2024-03-01T10:16:00Z' }),
            sale('S31', [salesLine('S31-1', 'SKU1', -1)], { salesDateTime: '2024-03-01T10:17:00Z' }),
            // A unit brought back the next day.
            sale('S32', [salesLine('S32-1', 'SKU1', -1)], { salesDateTime: '2024-03-02T11:00:00Z' }),
            sale('S33', [salesLine('S33-1', 'SKU1', 3, { quantityCancelled: 2 })]),
          ],
        }),
      {
        dataset: 'Sales (location)',
        id: 'L1',
        detail: '1 cancellation(s) of 1 units, 2 return(s) of 2 units; 1 line(s) with quantityCancelled > 0, 2 units',
        sample: ['S30', 'S33'],
      },
      1,
    ],
    [
      'sales-without-stock',
      (wb) =>
        wb.ingest('Sales', {
          sales: [
            sale('S40', [salesLine('S40-1', 'SKU1', 2), salesLine('S40-2', 'SKU1', 1)], { locationId: 'WH' }),
            sale('S41', [salesLine('S41-1', 'SKU1', -1)], {
              locationId: 'WH',
              salesDateTime: '2024-03-04T09:00:00Z',
            }),
          ],
        }),
      {
        dataset: 'Sales (location)',
        id: 'WH',
        detail:
          '2 sale(s), 3 line(s), 2 units net of 1 SKU(s), 2024-03-01 … 2024-03-04; ' +
          'no stock level and no stock mutation',
        sample: ['S40', 'S41'],
      },
      1,
    ],
    [
      'negative-actual-stock',
      async (wb) => {
        // 5 counted, 1 sold at T0, 7 sold on the 3rd: −3 until the count of 0 on the 5th.
        await wb.ingest('Sales', {
          sales: [sale('S50', [salesLine('S50-1', 'SKU1', 7)], { salesDateTime: '2024-03-03T12:00:00Z' })],
        });
        await wb.ingest('Stock', {
          stock: [{ locationId: 'L1', skuId: 'SKU1', quantity: 0, stockDateTime: '2024-03-05T00:00:00Z' }],
        });
      },
      {
        dataset: 'Stock (location)',
        id: 'L1',
        detail:
          '1 SKU(s) below zero on 2 SKU-day(s), lowest -3 units (SKU1 on 2024-03-03); ' +
          'stock reconstructed over 2024-03-01 … 2024-03-05',
        sample: ['SKU1: lowest -3 on 2024-03-03, 2 day(s) below zero'],
      },
      1,
    ],
  ];

  for (const [rule, seed, example, count] of cases) {
    it(`${rule}: reports the pitfall with an example`, async () => {
      t = await tempWorkbench({ clock: manualClock('2025-01-01T12:00:00Z') });
      await cleanFeed(t.wb);
      expect(finding(await t.wb.lint(), rule).count).toBe(0);
      await seed(t.wb);
      const f = finding(await t.wb.lint(), rule);
      if (count === undefined) expect(f.count).toBeGreaterThanOrEqual(1);
      else expect(f.count).toBe(count);
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

  it('non-merchandise-sku: matches the words whole in codes and descriptions, in any case and spelling', async () => {
    t = await tempWorkbench({ clock: manualClock('2025-01-01T12:00:00Z') });
    await cleanFeed(t.wb);
    const named = (itemId: string, skuId: string, description: string, code = `c${skuId}`) =>
      item(itemId, [], { description, skus: [sku(skuId, `ST-${itemId}`, { code })] });
    await t.wb.ingest('Items', {
      items: [
        named('N1', 'X1', 'Service', 'FEE01'),
        named('N2', 'GC', 'Giftcard 50'),
        named('N3', 'BANK', 'Charges', 'BANK_CHARGES'),
        named('N4', 'MUG', 'Coffee mug'),
        named('N5', 'FORM', 'Feedback form'),
        named('N6', 'SET', 'Samplers set'),
      ],
    });
    const f = finding(await t.wb.lint(), 'non-merchandise-sku');
    expect(f.examples.map((x) => x.id).sort()).toEqual(['BANK', 'GC', 'X1']);
    expect(f.examples).toContainEqual({
      dataset: 'Items (SKU)',
      id: 'GC',
      detail: 'code "cGC", description "Giftcard 50" reads as "giftcard"; never sold',
    });
  });

  it('negative-actual-stock: leaves cells without stock history out, and reads only the latest events', async () => {
    t = await tempWorkbench({ clock: manualClock('2025-01-01T12:00:00Z') });
    await cleanFeed(t.wb);
    await t.wb.ingest('Locations', { locations: [location('POP', { name: 'Pop-up', latitude: 52, longitude: 5 })] });
    await t.wb.ingest('Items', { items: [item('I9', ['LOOSE'])] });
    await t.wb.ingest('Sales', {
      sales: [
        // A location that keeps no stock, and a SKU never stocked: their sales drive nothing below zero here.
        sale('S60', [salesLine('S60-1', 'SKU1', 2)], { locationId: 'POP' }),
        sale('S61', [salesLine('S61-1', 'LOOSE', 4)]),
        sale('S50', [salesLine('S50-1', 'SKU1', 7)], { salesDateTime: '2024-03-03T12:00:00Z' }),
      ],
    });
    await t.wb.ingest('Stock', {
      stock: [{ locationId: 'L1', skuId: 'SKU1', quantity: 0, stockDateTime: '2024-03-05T00:00:00Z' }],
    });
    const report = await t.wb.lint();
    expect(finding(report, 'negative-actual-stock').examples.map((x) => x.id)).toEqual(['L1']);
    expect(finding(report, 'sales-without-stock').examples.map((x) => x.id)).toEqual(['POP']);
    expect(finding(report, 'non-merchandise-sku').examples.map((x) => x.id)).toEqual(['LOOSE']);
    // One event on the 3rd and one on the 5th: the first day (a count and three sales) is left out, and the level
    // the period starts from still holds what it did.
    const ws = t.wb.workspace;
    const [latest] = await ws.exclusive(() => negativeStock(ws, 2));
    expect(latest.detail).toBe(
      '1 SKU(s) below zero on 2 SKU-day(s), lowest -3 units (SKU1 on 2024-03-03); ' +
        'stock reconstructed over 2024-03-03 … 2024-03-05',
    );
    // The 5th alone starts at −3 and counts 0 that midnight: no day of it ends below zero.
    expect(await ws.exclusive(() => negativeStock(ws, 1))).toEqual([]);
  });

  it('prints a group’s records under it on the command line', async () => {
    t = await tempWorkbench({ clock: manualClock('2025-01-01T12:00:00Z') });
    await cleanFeed(t.wb);
    await t.wb.ingest('Sales', {
      sales: [sale('S12', [salesLine('S12-1', 'SKU1', 2, { salesAmountInclVat: 0 })])],
    });
    expect(formatLint(await t.wb.lint())).toContain(
      [
        'FAIL sales-amount-inconsistent (1): Sales lines with amount 0 or with an amount of the other sign than the ' +
          'quantity',
        `     ${finding(await t.wb.lint(), 'sales-amount-inconsistent').why}`,
        '     - Sales (SKU) SKU1: 1 line(s) with salesAmountInclVat 0 for 2 units',
        '         · S12',
        'ok   sales-quantity-outlier (0)',
      ].join('\n'),
    );
  });

  it("finds the dirt of the sample generator's dirty export where the generator lists it, and only there", async () => {
    const sink = new MemorySink();
    const options = { seed: 7, stores: 4, skus: 150, days: 120, start: '2024-03-06', dirtyExport: true };
    const { pitfalls } = generate(options, sink);
    t = await tempWorkbench({ clock: manualClock('2024-07-04T00:00:00Z') });
    for (const [name, content] of sink.files) await t.wb.ingestFile(name, JSON.parse(content));
    const sales: Rec[] = [...sink.files]
      .filter(([name]) => name.startsWith('Sales'))
      .flatMap(([, content]) => JSON.parse(content).sales);
    const saleOf = new Map(sales.map((x) => [x.salesId, x]));
    const lineOf = new Map<string, Rec>(
      sales.flatMap((x) => x.salesLines.map((l: Rec) => [l.salesLineId, { ...l, sale: x }])),
    );
    const planted = (kind: PitfallKind) => pitfalls.find((p) => p.kind === kind)!.ids;
    const report = await t.wb.lint();
    const examples = (rule: string) => {
      const f = finding(report, rule);
      expect(f.examples, rule).toHaveLength(f.count);
      return f.examples;
    };
    const ids = (rule: string) => examples(rule).map((x) => x.id);

    const postage = planted('postageSoldNeverStocked').map((id) => lineOf.get(id)!);
    expect(ids('non-merchandise-sku')).toEqual([...new Set(postage.map((l) => l.skuId))]);
    expect(examples('non-merchandise-sku')[0].detail).toMatch(
      new RegExp(`reads as "postage"; sold on ${postage.length} line\\(s\\), .*; never in stock`),
    );

    const zero = planted('zeroAmountLines').map((id) => lineOf.get(id)!);
    const flipped = planted('amountSignMismatch').map((id) => lineOf.get(id)!);
    expect(new Set(zero.map((l) => l.skuId)).size).toBe(1);
    expect(ids('sales-amount-inconsistent').sort()).toEqual(
      [...new Set([...zero, ...flipped].map((l) => l.skuId))].sort(),
    );
    expect(examples('sales-amount-inconsistent')).toContainEqual(
      expect.objectContaining({
        id: zero[0].skuId,
        detail: expect.stringMatching(new RegExp(`^${zero.length} line\\(s\\) with salesAmountInclVat 0 for`)),
      }),
    );

    const outlier = lineOf.get(planted('outlierLine')[0])!;
    expect(ids('sales-quantity-outlier')).toEqual([outlier.skuId]);
    expect(examples('sales-quantity-outlier')[0].detail).toContain(
      `worst ${outlier.quantitySold} in sale ${outlier.sale.salesId}`,
    );

    const [rungUp, voided] = planted('cancellationPair').map((id) => saleOf.get(id)!);
    expect(voided.salesLines[0].quantitySold).toBe(-rungUp.salesLines[0].quantitySold);
    expect(examples('cancellations-as-returns')).toEqual([
      expect.objectContaining({
        id: rungUp.locationId,
        detail: expect.stringMatching(/^1 cancellation\(s\) of \d+ units, \d+ return\(s\)/),
        sample: [voided.salesId],
      }),
    ]);

    const popUp = planted('locationWithoutStock').map((id) => saleOf.get(id)!);
    expect(ids('sales-without-stock')).toEqual([...new Set(popUp.map((x) => x.locationId))]);
    expect(examples('sales-without-stock')[0].detail).toMatch(new RegExp(`^${popUp.length} sale\\(s\\), `));

    const wrongTill = saleOf.get(planted('negativeActualStock')[0])!;
    const [line] = wrongTill.salesLines;
    expect(examples('negative-actual-stock')).toEqual([
      expect.objectContaining({
        id: wrongTill.locationId,
        sample: [expect.stringMatching(new RegExp(`^${line.skuId}: lowest -${line.quantitySold} on `))],
      }),
    ]);
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
