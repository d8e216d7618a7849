import { afterEach, describe, expect, it } from 'vitest';
import { ValidationFailed, RequestRejected } from '../engine/model/problems.js';
import {
  item,
  location,
  manualClock,
  poLine,
  purchaseOrder,
  sale,
  salesLine,
  tempWorkbench,
  type Rec,
  type TempWorkbench,
} from './fixtures.js';

let t: TempWorkbench;
afterEach(async () => t?.cleanup());

async function ids(dataset: string): Promise<string[]> {
  const { records } = await t.wb.list(dataset, { limit: 10_000 });
  return records.map((r) => Object.values(r)[0] as string);
}

describe('upsert on the primary id', () => {
  it('creates, then replaces a resent record whole, children included', async () => {
    t = await tempWorkbench();
    const first = await t.wb.ingest('Items', { items: [item('I1', ['A', 'B']), item('I2', ['C'])] });
    expect(first).toMatchObject({ received: 2, created: 2, updated: 0 });

    const resent = item('I1', ['A'], { description: undefined, attributes: [] });
    const second = await t.wb.ingest('Items', { items: [resent] });
    expect(second).toMatchObject({ received: 1, created: 0, updated: 1 });

    const stored = await t.wb.read('Items', 'I1');
    expect((stored!.skus as Rec[]).map((s) => s.skuId)).toEqual(['A']);
    expect(stored).not.toHaveProperty('description');
    expect(stored).not.toHaveProperty('attributes');
    expect(((await t.wb.read('Items', 'I2'))!.skus as Rec[])[0].barcodes).toEqual([
      { barcodeId: 'B-C', code: '871C', isPrimary: true },
    ]);
  });

  it('reads a record back exactly as sent, nested children in order', async () => {
    t = await tempWorkbench();
    const sent = item('I1', ['S', 'M', 'L']);
    await t.wb.ingest('Items', { items: [sent] });
    expect(await t.wb.read('Items', 'I1')).toEqual(sent);
  });

  it('stores text as sent, whatever its length and characters, over several data chunks', async () => {
    t = await tempWorkbench();
    // Up to 12 ASCII characters are laid out inline, other text goes through DuckDB: both read back as sent and
    // compare equal to the same text bound as a parameter.
    const texts = [
      '',
      'a',
      'ABCDEFGHIJKL',
      'ABCDEFGHIJKLM',
      'é',
      'ABCDEFGHIJKé',
      '日本語のコード',
      '🙂',
      'a\u0000b',
      'x'.repeat(200),
    ];
    const sales = Array.from({ length: 2100 }, (_, i) =>
      sale(`S${i}`, [salesLine(`S${i}-1`)], { code: texts[i % texts.length] }),
    );
    await t.wb.ingest('Sales', { sales });
    for (const i of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 2048, 2099])
      expect((await t.wb.read('Sales', `S${i}`))!.code).toBe(texts[i % texts.length]);
    for (const text of texts) {
      const [row] = await t.wb.workspace.rows<{ n: number }>(
        'SELECT count(*)::INTEGER AS n FROM sales WHERE code = $1',
        [text],
      );
      expect(row.n).toBe(210);
    }
    const [groups] = await t.wb.workspace.rows<{ n: number }>('SELECT count(DISTINCT code)::INTEGER AS n FROM sales');
    expect(groups.n).toBe(texts.length);
  });

  it('a sale resent with fewer lines has fewer lines', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Sales', { sales: [sale('S1', [salesLine('S1-1'), salesLine('S1-2'), salesLine('S1-3')])] });
    await t.wb.ingest('Sales', { sales: [sale('S1', [salesLine('S1-2', 'SKU9', 2)])] });
    const stored = await t.wb.read('Sales', 'S1');
    expect(stored!.salesLines).toEqual([salesLine('S1-2', 'SKU9', 2)]);
    const [row] = await t.wb.workspace.rows('SELECT count(*)::INTEGER AS n FROM sales__salesLines');
    expect(row.n).toBe(1);
  });

  it('a SKU sent under a later item moves to it: the earlier item, deleted or not, no longer lists it', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Items', { items: [item('A', ['S', 'T']), item('D', ['U'])] });
    await t.wb.remove('Items', { items: [{ itemId: 'D' }] });
    const moved = await t.wb.ingest('Items', { items: [item('B', ['X', 'S', 'U'])] });
    expect(moved.warnings).toEqual([
      {
        path: '/items/0/skus/1',
        recordId: 'B',
        message: expect.stringMatching(/^skuId "S" was listed by itemId "A" and now belongs to "B" only/),
      },
      { path: '/items/0/skus/2', recordId: 'B', message: expect.stringMatching(/^skuId "U" was listed by itemId "D"/) },
    ]);
    expect(((await t.wb.read('Items', 'A'))!.skus as Rec[]).map((s) => s.skuId)).toEqual(['T']);
    expect(((await t.wb.read('Items', 'B'))!.skus as Rec[]).map((s) => s.skuId)).toEqual(['X', 'S', 'U']);
    // The SKU's barcodes went with it, and a restored item does not bring the SKU back.
    await t.wb.ingest('Items', { items: [item('A', ['T'])] });
    const [row] = await t.wb.workspace.rows<{ skus: number; barcodes: number }>(
      `SELECT (SELECT count(*)::INTEGER FROM items__skus WHERE skuId = 'S') AS skus,
              (SELECT count(*)::INTEGER FROM items__skus__barcodes WHERE _skuId = 'S') AS barcodes`,
    );
    expect(row).toEqual({ skus: 1, barcodes: 1 });
    const deleted = await t.wb.workspace.rows<{ skuId: string }>(`SELECT skuId FROM items__skus WHERE _itemId = 'D'`);
    expect(deleted).toEqual([]);
  });

  it('a sales line sent under a later sale moves to it, and one batch may not list a line twice', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Sales', { sales: [sale('S1', [salesLine('L1'), salesLine('L2')])] });
    const moved = await t.wb.ingest('Sales', { sales: [sale('S2', [salesLine('L1', 'SKU1', 3)])] });
    expect(moved.warnings).toMatchObject([{ path: '/sales/0/salesLines/0', recordId: 'S2' }]);
    expect((await t.wb.read('Sales', 'S1'))!.salesLines).toEqual([salesLine('L2')]);
    expect((await t.wb.read('Sales', 'S2'))!.salesLines).toEqual([salesLine('L1', 'SKU1', 3)]);
    const twice = t.wb.ingest('Sales', { sales: [sale('S3', [salesLine('L9')]), sale('S4', [salesLine('L9')])] });
    await expect(twice).rejects.toMatchObject({
      errors: [{ path: '/sales/1/salesLines/0', message: expect.stringMatching(/also sent at \/sales\/0/) }],
    });
  });

  it('keeps endpoints independent: stock and sales for unknown SKUs and locations are accepted', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Stock', { stock: [{ locationId: 'NOWHERE', skuId: 'NOTHING', quantity: 2 }] });
    await t.wb.ingest('Sales', { sales: [sale('S1', [salesLine('S1-1', 'NOTHING')], { locationId: 'NOWHERE' })] });
    expect(await t.wb.stock('NOWHERE', 'NOTHING')).toEqual({ locationId: 'NOWHERE', skuId: 'NOTHING', quantity: 2 });
    expect(await t.wb.read('Sales', 'S1')).toBeDefined();
  });
});

describe('all or nothing', () => {
  it('a batch with one invalid record applies nothing and names every problem', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Sales', { sales: [sale('S0')] });
    const bad = {
      sales: [
        sale('S1'),
        sale('S0', [salesLine('x', 'SKU1', 1, { online: 'yes' })]),
        sale('S2', undefined, { salesDateTime: '31/12/2024' }),
      ],
    };
    const err = await t.wb.ingest('Sales', bad).catch((e) => e);
    expect(err).toBeInstanceOf(ValidationFailed);
    expect(err.errors).toEqual([
      { path: '/sales/1/salesLines/0/online', recordId: 'S0', message: 'must be true or false, got "yes"' },
      { path: '/sales/2/salesDateTime', recordId: 'S2', message: expect.stringMatching(/not an ISO 8601 datetime/) },
    ]);
    expect(await ids('Sales')).toEqual(['S0']);
    expect(((await t.wb.read('Sales', 'S0'))!.salesLines as Rec[])[0].online).toBe(false);
  });

  it('a failure while writing rolls the whole transaction back', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Locations', { locations: [location('L1')] });
    const ws = t.wb.workspace;
    await expect(
      ws.transaction(async () => {
        await ws.run(`DELETE FROM locations`);
        await ws.run(
          `INSERT INTO locations (locationId, code, name, _updated_at) VALUES ('L2', 'L2', 'Two', now()::TIMESTAMP)`,
        );
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(await ids('Locations')).toEqual(['L1']);
  });
});

describe('full load', () => {
  const specExampleTitle =
    'follows the spec example: existing A and B, full load with B and C → B updated, C created, A removed';
  it(specExampleTitle, async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Locations', { locations: [location('A'), location('B')] });
    const r = await t.wb.ingest(
      'Locations',
      { locations: [location('B', { name: 'B renamed' }), location('C')] },
      { fullLoad: true },
    );
    expect(r).toMatchObject({ created: 1, updated: 1, deleted: 1 });
    expect(await ids('Locations')).toEqual(['B', 'C']);
    expect((await t.wb.read('Locations', 'B'))!.name).toBe('B renamed');
    expect(await t.wb.read('Locations', 'A')).toBeUndefined();
    const summary = (await t.wb.summary()).find((s) => s.dataset === 'Locations');
    expect(summary).toMatchObject({ live: 2, deleted: 1 });
  });

  it('is a plain upsert, with a warning, where the spec lists no fullLoad', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Sales', { sales: [sale('S1')] });
    const r = await t.wb.ingest('Sales', { sales: [sale('S2')] }, { fullLoad: true });
    expect(r.deleted).toBe(0);
    expect(r.warnings[0].message).toMatch(/fullLoad is not an option of \/Sales/);
    expect(await ids('Sales')).toEqual(['S1', 'S2']);
  });

  it('a split full load is staged and applied atomically by its last call', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('PurchaseOrders', { purchaseOrders: [purchaseOrder('A'), purchaseOrder('B')] });
    const c1 = await t.wb.ingest(
      'PurchaseOrders',
      { purchaseOrders: [purchaseOrder('B', undefined, { code: 'B2' })] },
      { fullLoad: true, moreRecordsAvailable: true },
    );
    expect(c1.staged).toMatchObject({ calls: 1, records: 1 });
    const c2 = await t.wb.ingest(
      'PurchaseOrders',
      { purchaseOrders: [purchaseOrder('C')] },
      { fullLoad: true, moreRecordsAvailable: true },
    );
    expect(c2.staged).toMatchObject({ calls: 2, records: 2 });
    // Nothing applied or deleted yet.
    expect(await ids('PurchaseOrders')).toEqual(['A', 'B']);
    expect((await t.wb.read('PurchaseOrders', 'B'))!.code).toBe('PO-B');
    expect((await t.wb.summary()).find((s) => s.dataset === 'PurchaseOrders')!.stagedFullLoad).toMatchObject({
      calls: 2,
      records: 2,
    });

    const last = await t.wb.ingest(
      'PurchaseOrders',
      { purchaseOrders: [purchaseOrder('D')] },
      { fullLoad: true, moreRecordsAvailable: false },
    );
    expect(last).toMatchObject({ created: 2, updated: 1, deleted: 1 });
    expect(await ids('PurchaseOrders')).toEqual(['B', 'C', 'D']);
    expect((await t.wb.read('PurchaseOrders', 'B'))!.code).toBe('B2');
    expect((await t.wb.summary()).find((s) => s.dataset === 'PurchaseOrders')!.stagedFullLoad).toBeUndefined();
  });

  it('keeps a record written by a plain upsert while a split full load is under way', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Locations', { locations: [location('OLD')] });
    await t.wb.ingest('Locations', { locations: [location('A')] }, { fullLoad: true, moreRecordsAvailable: true });
    await t.wb.ingest('Locations', { locations: [location('NEW')] });
    await t.wb.ingest('Locations', { locations: [location('B')] }, { fullLoad: true });
    expect(await ids('Locations')).toEqual(['A', 'B', 'NEW']);
  });

  it('an invalid last call applies nothing and keeps the staged calls', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Locations', { locations: [location('OLD')] });
    await t.wb.ingest('Locations', { locations: [location('A')] }, { fullLoad: true, moreRecordsAvailable: true });
    await expect(
      t.wb.ingest('Locations', { locations: [{ locationId: 'B' }] }, { fullLoad: true }),
    ).rejects.toBeInstanceOf(ValidationFailed);
    expect(await ids('Locations')).toEqual(['OLD']);
    // The next full-load call continues the open load, as a corrected last call would.
    const last = await t.wb.ingest('Locations', { locations: [location('B')] }, { fullLoad: true });
    expect(await ids('Locations')).toEqual(['A', 'B']);
    expect(last.completed).toMatchObject({ calls: 2, records: 2 });
  });

  it('a full load of picked files drops a split load left open before it, and says so', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Locations', { locations: [location('OLD')] });
    await t.wb.ingest('Locations', { locations: [location('A')] }, { fullLoad: true, moreRecordsAvailable: true });
    const report = await t.wb.loadFiles(
      [{ name: 'Locations.json', text: JSON.stringify({ locations: [location('B')] }) }],
      { fullLoad: true },
    );
    expect(report.batches[0].result!.warnings).toEqual([
      {
        path: '',
        message:
          'a split full load of Locations left open (1 call, 1 records) was dropped: these files are the whole load',
      },
    ]);
    expect(await ids('Locations')).toEqual(['B']);
  });

  it('an abandoned split full load deletes nothing, and the call that meets it is refused', async () => {
    const clock = manualClock();
    t = await tempWorkbench({ clock });
    await t.wb.ingest('Locations', { locations: [location('A'), location('B'), location('C')] });
    await t.wb.ingest(
      'Locations',
      { locations: [location('A'), location('B')] },
      { fullLoad: true, moreRecordsAvailable: true },
    );
    clock.advanceMinutes(61);
    // The last call, too late: refused, and it deletes nothing (it is not a full load of its own).
    const late = await t.wb
      .ingest('Locations', { locations: [location('C')] }, { fullLoad: true, moreRecordsAvailable: false })
      .catch((e) => e);
    expect(late).toBeInstanceOf(RequestRejected);
    expect(late.status).toBe(409);
    expect(late.message).toMatch(/abandoned: nothing of it was applied or deleted/);
    expect(await ids('Locations')).toEqual(['A', 'B', 'C']);
    expect((await t.wb.summary()).find((s) => s.dataset === 'Locations')!.stagedFullLoad).toBeUndefined();
    // Sent again from its first call, the full load works.
    await t.wb.ingest('Locations', { locations: [location('A')] }, { fullLoad: true, moreRecordsAvailable: true });
    await t.wb.ingest('Locations', { locations: [location('C')] }, { fullLoad: true });
    expect(await ids('Locations')).toEqual(['A', 'C']);
  });
});

describe('stock', () => {
  /** A workbench whose one stock level: L1 held 5 of A on 1 March. */
  const countedFive = async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Stock', {
      stock: [{ locationId: 'L1', skuId: 'A', quantity: 5, stockDateTime: '2024-03-01T00:00:00Z' }],
    });
  };

  it('keeps dated levels as history; the latest level is the current stock', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Stock', {
      stock: [
        { locationId: 'L1', skuId: 'A', quantity: 5, stockDateTime: '2024-03-01T00:00:00Z' },
        { locationId: 'L1', skuId: 'A', quantity: 2, stockDateTime: '2024-03-08T00:00:00Z' },
      ],
    });
    await t.wb.ingest('Stock', {
      stock: [{ locationId: 'L1', skuId: 'A', quantity: 9, stockDateTime: '2024-02-01T00:00:00Z' }],
    });
    expect(await t.wb.stock('L1', 'A')).toMatchObject({ quantity: 2 });
    expect((await t.wb.list('Stock')).total).toBe(3);
    // The same location, SKU and moment sent again replaces that level only.
    const r = await t.wb.ingest('Stock', {
      stock: [{ locationId: 'L1', skuId: 'A', quantity: 1, stockDateTime: '2024-03-08T01:00:00+01:00' }],
    });
    expect(r).toMatchObject({ created: 0, updated: 1 });
    expect(await t.wb.stock('L1', 'A')).toMatchObject({ quantity: 1 });
    expect(await t.wb.read('Stock', ['L1', 'A', '2024-03-01T00:00:00Z'])).toEqual({
      locationId: 'L1',
      skuId: 'A',
      quantity: 5,
      stockDateTime: '2024-03-01T00:00:00.000Z',
    });
  });

  it('adds the mutations after the latest level', async () => {
    await countedFive();
    await t.wb.ingest('StockMutations', {
      stockMutations: [
        {
          stockMutationId: 'before',
          locationId: 'L1',
          skuId: 'A',
          quantity: 100,
          mutationDateTime: '2024-02-28T00:00:00Z',
        },
        {
          stockMutationId: 'after',
          locationId: 'L1',
          skuId: 'A',
          quantity: -2,
          mutationDateTime: '2024-03-02T00:00:00Z',
        },
        {
          stockMutationId: 'elsewhere',
          locationId: 'L2',
          skuId: 'A',
          quantity: 4,
          mutationDateTime: '2024-03-02T00:00:00Z',
        },
      ],
    });
    expect(await t.wb.stock('L1', 'A')).toMatchObject({ quantity: 3 });
    expect(await t.wb.stock('L2', 'A')).toMatchObject({ quantity: 4 });
    await t.wb.remove('StockMutations', { stockMutations: [{ stockMutationId: 'after' }] });
    expect(await t.wb.stock('L1', 'A')).toMatchObject({ quantity: 5 });
  });

  it('subtracts the net sales after the latest level, as the engine does', async () => {
    await countedFive();
    await t.wb.ingest('Sales', {
      sales: [
        sale('before', [salesLine('b-1', 'A', 4)], { salesDateTime: '2024-02-29T12:00:00Z' }),
        sale('after', [salesLine('a-1', 'A', 2)], { salesDateTime: '2024-03-01T12:00:00Z' }),
        sale('return', [salesLine('r-1', 'A', -1)], { salesDateTime: '2024-03-02T12:00:00Z' }),
      ],
    });
    expect(await t.wb.stock('L1', 'A')).toMatchObject({ quantity: 4 });
    // A full load that does not send L1/A sets it to 0 from its sold-down level.
    const r = await t.wb.ingest(
      'Stock',
      { stock: [{ locationId: 'L2', skuId: 'A', quantity: 1, stockDateTime: '2024-03-03T00:00:00Z' }] },
      { fullLoad: true },
    );
    expect(r.zeroed).toBe(1);
    expect(await t.wb.stock('L1', 'A')).toMatchObject({ quantity: 0 });
  });

  it('a stock full load sets every location/SKU not sent to 0, as of the load, and keeps the history', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Stock', {
      stock: [
        { locationId: 'L1', skuId: 'A', quantity: 5, stockDateTime: '2024-03-01T00:00:00Z' },
        { locationId: 'L1', skuId: 'B', quantity: 3, stockDateTime: '2024-03-01T00:00:00Z' },
        { locationId: 'L2', skuId: 'A', quantity: 0, stockDateTime: '2024-03-01T00:00:00Z' },
      ],
    });
    const r = await t.wb.ingest(
      'Stock',
      { stock: [{ locationId: 'L1', skuId: 'A', quantity: 4, stockDateTime: '2024-03-08T00:00:00Z' }] },
      { fullLoad: true },
    );
    expect(r.zeroed).toBe(1);
    expect(await t.wb.stock('L1', 'A')).toMatchObject({ quantity: 4 });
    expect(await t.wb.stock('L1', 'B')).toMatchObject({ quantity: 0 });
    expect(await t.wb.read('Stock', ['L1', 'B', '2024-03-08T00:00:00Z'])).toMatchObject({ quantity: 0 });
    expect(await t.wb.read('Stock', ['L1', 'B', '2024-03-01T00:00:00Z'])).toMatchObject({ quantity: 3 });
  });

  it('a split stock full load zeroes only after its last call, counting every call as sent', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Stock', {
      stock: [
        { locationId: 'L1', skuId: 'A', quantity: 5 },
        { locationId: 'L1', skuId: 'B', quantity: 5 },
        { locationId: 'L1', skuId: 'C', quantity: 5 },
      ],
    });
    await t.wb.ingest(
      'Stock',
      { stock: [{ locationId: 'L1', skuId: 'A', quantity: 1 }] },
      { fullLoad: true, moreRecordsAvailable: true },
    );
    expect(await t.wb.stock('L1', 'C')).toMatchObject({ quantity: 5 });
    const r = await t.wb.ingest(
      'Stock',
      { stock: [{ locationId: 'L1', skuId: 'B', quantity: 2 }] },
      { fullLoad: true },
    );
    expect(r.zeroed).toBe(1);
    expect((await t.wb.stock('L1', 'A'))!.quantity).toBe(1);
    expect((await t.wb.stock('L1', 'B'))!.quantity).toBe(2);
    expect((await t.wb.stock('L1', 'C'))!.quantity).toBe(0);
  });
});

describe('delete', () => {
  it('soft-deletes: the record is gone from reads, counted as deleted, and restored when sent again', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Brands', {
      brands: [
        { brandId: 'B1', code: 'X' },
        { brandId: 'B2', code: 'Y' },
      ],
    });
    const r = await t.wb.remove('Brands', { brands: [{ brandId: 'B1' }, { brandId: 'NOPE' }] });
    expect(r.deleted).toBe(1);
    expect(r.warnings).toEqual([{ path: '/brands', message: '1 record was not found or already deleted: NOPE' }]);
    expect(await t.wb.read('Brands', 'B1')).toBeUndefined();
    expect((await t.wb.summary()).find((s) => s.dataset === 'Brands')).toMatchObject({ live: 1, deleted: 1 });
    const [row] = await t.wb.workspace.rows(`SELECT count(*)::INTEGER AS n FROM brands WHERE brandId = 'B1'`);
    expect(row.n).toBe(1);
    await t.wb.ingest('Brands', { brands: [{ brandId: 'B1', code: 'X2' }] });
    expect(await t.wb.read('Brands', 'B1')).toEqual({ brandId: 'B1', code: 'X2' });
  });

  it('refuses DELETE where the spec lists none', async () => {
    t = await tempWorkbench();
    await expect(t.wb.remove('Stock', { stock: [] })).rejects.toBeInstanceOf(RequestRejected);
  });
});

describe('purchase order states', () => {
  it('moves open → partially received → closed, and DELETE makes it deleted', async () => {
    t = await tempWorkbench();
    const post = (po: Rec) => t.wb.ingest('PurchaseOrders', { purchaseOrders: [po] });
    await post(purchaseOrder('P', [poLine('P-1', 10, 10), poLine('P-2', 5, 5)]));
    expect(await t.wb.purchaseOrderStatus('P')).toBe('open');

    await post(
      purchaseOrder('P', [poLine('P-1', 10, 10), poLine('P-2', 5, 5)], { orderDueDate: '2024-05-01T00:00:00Z' }),
    );
    expect(await t.wb.purchaseOrderStatus('P')).toBe('open');
    expect((await t.wb.read('PurchaseOrders', 'P'))!.orderDueDate).toBe('2024-05-01T00:00:00.000Z');

    await post(purchaseOrder('P', [poLine('P-1', 10, 4), poLine('P-2', 5, 5)]));
    expect(await t.wb.purchaseOrderStatus('P')).toBe('partiallyReceived');

    await post(purchaseOrder('P', [poLine('P-1', 10, 0), poLine('P-2', 5, 0)], { completelyReceived: true }));
    expect(await t.wb.purchaseOrderStatus('P')).toBe('closed');

    await post(purchaseOrder('Q'));
    await t.wb.remove('PurchaseOrders', { purchaseOrders: [{ purchaseOrderId: 'Q' }] });
    expect(await t.wb.purchaseOrderStatus('Q')).toBe('deleted');
    expect(await t.wb.purchaseOrderStatus('NONE')).toBeUndefined();
  });

  it('a cancelled order sent as completely received with nothing outstanding is closed', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('PurchaseOrders', {
      purchaseOrders: [purchaseOrder('C', [poLine('C-1', 10, 0)], { completelyReceived: true })],
    });
    expect(await t.wb.purchaseOrderStatus('C')).toBe('closed');
  });
});

describe('reset and summary', () => {
  it('summarises counts and business date ranges, and reset empties every dataset', async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Sales', {
      sales: [
        sale('S1', undefined, { salesDateTime: '2024-01-05T10:00:00Z' }),
        sale('S2', undefined, { salesDateTime: '2024-02-05T10:00:00Z' }),
      ],
    });
    await t.wb.ingest('Locations', { locations: [location('A')] }, { fullLoad: true, moreRecordsAvailable: true });
    const sales = (await t.wb.summary()).find((s) => s.dataset === 'Sales')!;
    expect(sales).toMatchObject({ live: 2, from: '2024-01-05T10:00:00.000Z', to: '2024-02-05T10:00:00.000Z' });
    await t.wb.reset();
    const after = await t.wb.summary();
    expect(after.every((s) => s.live === 0 && s.deleted === 0 && !s.stagedFullLoad)).toBe(true);
  });
});
