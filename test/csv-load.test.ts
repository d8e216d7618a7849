/**
 * CSV through the service's file load: a dataset's level files assembled into API-shaped records, mapped by
 * header or by a mapping, validated and ingested whole, every problem traced to its file, row and column.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  Bool,
  Float64,
  Int32,
  Table,
  TimestampMillisecond,
  Utf8,
  tableToIPC,
  vectorFromArray,
  type Vector,
} from 'apache-arrow';
import { levelFromFileName } from '../engine/ingest/csv/levels.js';
import { findLevel } from '../engine/ingest/csv/levels.js';
import { proposeTarget } from '../engine/ingest/csv/mapping.js';
import { CsvUnreadable, readable, readCsv } from '../engine/ingest/csv/read.js';
import type { LoadFile, LoadReport } from '../engine/service/file-load.js';
import { location, tempWorkbench, useTempDirs, type TempWorkbench } from './fixtures.js';

const CSV = join(process.cwd(), 'test', 'fixtures', 'csv');
const ITEMS = ['items.csv', 'skus.csv', 'barcodes.csv'].map((f) => join(CSV, 'items', f));
const MAPPING = JSON.parse(readFileSync(join(CSV, 'items-mapping.json'), 'utf8'));
const tempDir = useTempDirs('wb-csv-');

const byPath = (paths: string[]): LoadFile[] => paths.map((path) => ({ name: path, path }));
const text = (name: string, lines: string[]): LoadFile => ({ name, text: `${lines.join('\n')}\n` });

let t: TempWorkbench;
beforeEach(async () => {
  t = await tempWorkbench();
});
afterEach(async () => t.cleanup());

async function live(): Promise<Record<string, number>> {
  return Object.fromEntries((await t.wb.summary()).filter((s) => s.live).map((s) => [s.dataset, s.live]));
}

function rejected(report: LoadReport) {
  const bad = report.batches.filter((b) => b.error);
  expect(bad.length, JSON.stringify(report.batches)).toBeGreaterThan(0);
  return bad;
}

describe('which level a CSV file holds', () => {
  it('is told by the file name', () => {
    expect(levelFromFileName('/feed/items.csv')?.id).toBe('Items');
    expect(levelFromFileName('skus.csv')?.id).toBe('Items.skus');
    expect(levelFromFileName('Barcodes-2025.csv')?.id).toBe('Items.skus.barcodes');
    expect(levelFromFileName('items__skus.csv')?.id).toBe('Items.skus');
    expect(levelFromFileName('Sales-0001.csv')?.id).toBe('Sales');
    expect(levelFromFileName('sales_lines.csv')?.id).toBe('Sales.salesLines');
    expect(levelFromFileName('purchase_order_lines.csv')?.id).toBe('PurchaseOrders.purchaseOrderLines');
    expect(levelFromFileName('stock_mutations.csv')?.id).toBe('StockMutations');
    expect(levelFromFileName('Stockholm.csv')).toBeUndefined();
  });

  it('maps headers however they are spelled', () => {
    const skus = findLevel('Items.skus')!;
    for (const h of ['sku_id', 'SkuId', 'skuId', 'SKU ID']) expect(proposeTarget(skus, h)?.id).toBe('skuId');
    expect(proposeTarget(skus, 'item_id')?.id).toBe('Items.itemId');
    // The SKU's own code comes first; the item's is reached by its record's name.
    expect(proposeTarget(skus, 'code')?.id).toBe('code');
    expect(proposeTarget(skus, 'item code')?.id).toBe('Items.code');
    expect(proposeTarget(skus, 'colour')).toBeUndefined();
  });

  it('is told by the columns when the name does not tell, and refused when they do not either', async () => {
    const report = await t.wb.loadFiles([
      text('export-1.csv', ['locationId,code,name', 'L1,c1,Store one']),
      text('export-2.csv', ['foo,bar', '1,2']),
      text('export-3.csv', ['locationId,skuId,quantity', 'L1,S1,4']),
    ]);
    expect(report.batches.find((b) => b.files[0] === 'export-1.csv')).toMatchObject({
      dataset: 'Locations',
      records: 1,
      result: { created: 1 },
    });
    const [unknown, alike] = rejected(report);
    const unknownFile = new RegExp(
      '^cannot tell which data export-2\\.csv holds from its name or its columns \\(foo, bar\\)' +
        ': name the file after what it holds',
    );
    expect(unknown.error).toMatch(unknownFile);
    const twoKindsAlike = new RegExp(
      'cannot tell which data export-3\\.csv holds: its columns fit ' +
        '"Stock: one row per stock level" ' +
        'and "Stock not for replenishment: one row per stock not for replenishment" alike',
    );
    expect(alike.error).toMatch(twoKindsAlike);
    expect(await live()).toEqual({ Locations: 1 });
  });

  it('takes a file of one row per line for lines, even when a line field lacks its column', async () => {
    const preview = await t.wb.previewCsv([
      text('export.csv', [
        'salesId,salesDateTime,currencyCode,locationId,salesLineId,skuId,lineNumber,' +
          'originalSalesAmountInclVat,salesAmountInclVat,vatPercentage,online,quantitySold,quantityTransferred',
        'S1,2025-03-01T10:00:00Z,LOCAL,L1,S1-1,K1,1,10,10,21,false,1,1',
      ]),
    ]);
    expect(preview.files[0].level).toBe('Sales.salesLines');
    expect(preview.files[0].problems.map((p) => p.message)).toEqual([
      'no column is loaded into quantityCancelled, which every sales line needs',
    ]);
  });
});

describe('reading a CSV file', () => {
  it('detects the delimiter, keeps every cell as text, and names each row that does not fit the header', async () => {
    const semicolons = await readCsv({ name: 'a.csv', text: '\uFEFFid;code;note\nA;007;"x; y"\nB;;\n' });
    expect(semicolons).toEqual({
      name: 'a.csv',
      headers: ['id', 'code', 'note'],
      columns: [
        ['A', 'B'],
        ['007', null],
        ['x; y', null],
      ],
      rows: 2,
      // Cells split by semicolons: decimals may be written with a comma.
      decimalComma: true,
      firstRow: 2,
    });
    // The rows that fit are read, the others named: the file shows what it holds, and a load refuses it.
    const ragged = await readCsv({ name: 'b.csv', text: 'id,code\nA,1\nB\nC,3,4\nD,5\n' });
    expect(ragged.columns).toEqual([
      ['A', 'D'],
      ['1', '5'],
    ]);
    expect(ragged.unreadable).toBeInstanceOf(CsvUnreadable);
    await expect(
      readCsv({ name: 'b.csv', text: 'id,code\nA,1\nB\nC,3,4\nD,5\n' }).then(readable),
    ).rejects.toMatchObject({
      problemCount: 2,
      problems: [
        { row: 3, message: 'has 1 cell where the header has 2 columns' },
        { row: 4, message: 'has 3 cells where the header has 2 columns' },
      ],
    });
    // Rows rejected in one file are not held against the next.
    expect((await readCsv({ name: 'c.csv', text: 'id\nZ\n' })).columns).toEqual([['Z']]);
    await expect(readCsv({ name: 'd.csv', text: '' })).rejects.toThrow(
      'd.csv is empty: a CSV file starts with a header row naming its columns',
    );
  });

  const delimiterTitle =
    'tells the delimiter by the header line, ' +
    'so one unterminated quote is named by its row rather than read as one column';
  it(delimiterTitle, async () => {
    const broken = readCsv({
      name: 'items.csv',
      text: 'itemId,code,description\nIT-1,C1,Tee\nIT-9,C9,"Tee, 5 inch wide\n',
    }).then(readable);
    await expect(broken).rejects.toMatchObject({
      problemCount: 1,
      problems: [{ file: 'items.csv', row: 3, message: expect.stringMatching(/unterminated quote/) }],
    });
    const tabs = await readCsv({ name: 't.csv', text: '"id\tnote"\tcode\nA\t1\n' });
    expect(tabs.headers).toEqual(['id\tnote', 'code']);
    expect(tabs.columns).toEqual([['A'], ['1']]);
  });
});

describe('loading CSV', () => {
  const itemsTitle =
    'assembles items, SKUs and barcodes from their three files, with a mapping for what the headers do not say';
  it(itemsTitle, async () => {
    const report = await t.wb.loadFiles(byPath(ITEMS), { mapping: MAPPING });
    expect(report.rejected).toBe(0);
    expect(report.batches).toHaveLength(1);
    expect(report.batches[0]).toMatchObject({ dataset: 'Items', records: 3, result: { created: 3 } });
    expect(report.batches[0].files.map((f) => f.split('/').pop())).toEqual(['items.csv', 'skus.csv', 'barcodes.csv']);
    expect(await t.wb.read('Items', 'IT-100')).toEqual({
      itemId: 'IT-100',
      code: 'TEE-100',
      description: 'Basic tee',
      merchandiseCategoryId: 'MC-TOPS',
      brandId: 'BR-NORTH',
      seasonId: 'SS25',
      skus: [
        {
          skuId: 'SKU-100-S',
          code: 'TEE-100-WHT-S',
          colorId: 'WHT',
          sizeId: 'S',
          styleId: 'ST-100-WHT',
          // Barcodes stay text: every column is read as text and only numeric fields become numbers.
          barcodes: [
            { barcodeId: 'BC-1001', code: '8712345000011', isPrimary: true },
            { barcodeId: 'BC-1002', code: '2000000100012', isPrimary: false },
          ],
        },
        {
          skuId: 'SKU-100-M',
          code: 'TEE-100-WHT-M',
          colorId: 'WHT',
          sizeId: 'M',
          styleId: 'ST-100-WHT',
          barcodes: [{ barcodeId: 'BC-1003', code: '8712345000028', isPrimary: true }],
        },
        {
          skuId: 'SKU-100-L',
          code: 'TEE-100-BLK-L',
          colorId: 'BLK',
          sizeId: 'L',
          styleId: 'ST-100-BLK',
          barcodes: [{ barcodeId: 'BC-1004', code: '8712345000035', isPrimary: true }],
        },
      ],
    });
    const scarf = await t.wb.read('Items', 'IT-300');
    expect(scarf?.description).toBe('Wool scarf');
    expect(scarf?.seasonId).toBeUndefined();
    expect((scarf?.skus as { barcodes: unknown[] }[])[0].barcodes).toEqual([
      { barcodeId: 'BC-3001', code: '8712345000066', isPrimary: true },
    ]);
    expect((await t.wb.read('Items', 'IT-200'))?.description).toBe('Slim jeans, dark wash');
  });

  it('refuses the whole dataset when a required field has no column, naming the field', async () => {
    const report = await t.wb.loadFiles(byPath(ITEMS));
    const [items] = rejected(report);
    expect(items.dataset).toBe('Items');
    expect(items.problems).toContainEqual(
      expect.objectContaining({ file: ITEMS[1], message: 'no column is loaded into colorId, which every SKU needs' }),
    );
    expect(await live()).toEqual({});
  });

  it("reads a file named after items with one row per SKU as SKUs carrying their item's fields", async () => {
    const report = await t.wb.loadFiles([
      text('Items.csv', [
        'itemId,item_code,description,merchandiseCategoryId,skuId,code,colorId,sizeId,styleId',
        'I1,TEE,Tee,MC,K1,TEE-S,RED,S,ST',
        'I1,TEE,,MC,K2,TEE-M,RED,M,ST',
        'I2,CAP,Cap,MC,K3,CAP-1,BLU,OS,ST2',
        'I2,CAP,Hat,MC,K4,CAP-2,BLU,OS,ST2',
      ]),
    ]);
    const [items] = rejected(report);
    expect(items.problems).toEqual([
      {
        path: '/items/1/description',
        recordId: 'I2',
        file: 'Items.csv',
        row: 5,
        column: 'description',
        message:
          'description is "Hat" here but "Cap" in Items.csv row 4, for the same item: one item has one description',
      },
    ]);
    const fixed = await t.wb.loadFiles([
      text('Items.csv', [
        'itemId,item_code,description,merchandiseCategoryId,skuId,code,colorId,sizeId,styleId',
        'I1,TEE,,MC,K1,TEE-S,RED,S,ST',
        'I1,TEE,Tee,MC,K2,TEE-M,RED,M,ST',
      ]),
    ]);
    expect(fixed.rejected).toBe(0);
    expect(await t.wb.read('Items', 'I1')).toEqual({
      itemId: 'I1',
      code: 'TEE',
      description: 'Tee',
      merchandiseCategoryId: 'MC',
      skus: [
        { skuId: 'K1', code: 'TEE-S', colorId: 'RED', sizeId: 'S', styleId: 'ST' },
        { skuId: 'K2', code: 'TEE-M', colorId: 'RED', sizeId: 'M', styleId: 'ST' },
      ],
    });
  });

  it('groups sales lines into sales by their id, wherever their rows are', async () => {
    const report = await t.wb.loadFiles(byPath([join(CSV, 'transactions', 'Sales.csv')]));
    expect(report.batches[0]).toMatchObject({ dataset: 'Sales', records: 3, result: { created: 3 } });
    const r1001 = await t.wb.read('Sales', 'R-1001');
    expect(r1001).toMatchObject({
      salesId: 'R-1001',
      locationId: 'ST-001',
      currencyCode: 'LOCAL',
      salesDateTime: '2025-03-01T10:15:00.000Z',
    });
    expect((r1001?.salesLines as { salesLineId: string }[]).map((l) => l.salesLineId)).toEqual([
      'R-1001-1',
      'R-1001-2',
      'R-1001-3',
    ]);
    expect((r1001?.salesLines as unknown[])[2]).toEqual({
      salesLineId: 'R-1001-3',
      lineNumber: 3,
      skuId: 'SKU-100-S',
      quantitySold: 1,
      quantityTransferred: 1,
      quantityCancelled: 0,
      originalSalesAmountInclVat: 19.95,
      salesAmountInclVat: 9.98,
      vatPercentage: 21,
      costPrice: 6.5,
      online: false,
    });
    expect(await t.wb.read('Sales', 'R-1002')).toMatchObject({
      salesDateTime: '2025-03-01T11:02:00.000Z',
      salesLines: [{ online: true, quantitySold: 2 }],
    });
    expect(await t.wb.read('Sales', 'R-1003')).toMatchObject({
      salesLines: [{ quantitySold: -1, salesAmountInclVat: -19.95 }],
    });
  });

  it('groups purchase-order lines into orders, and an order whose row has no line has none', async () => {
    const report = await t.wb.loadFiles(byPath([join(CSV, 'transactions', 'PurchaseOrders.csv')]));
    expect(report.batches[0]).toMatchObject({ dataset: 'PurchaseOrders', records: 3 });
    expect(await t.wb.read('PurchaseOrders', 'PO-501')).toMatchObject({
      completelyReceived: false,
      currencyId: 'local',
      vendorId: 'VN-1',
      purchaseOrderLines: [
        { purchaseOrderLineId: 'PO-501-1', quantity: 120 },
        { purchaseOrderLineId: 'PO-501-2', quantity: 240, quantityOutstanding: 240 },
      ],
    });
    expect(await t.wb.read('PurchaseOrders', 'PO-502')).toMatchObject({
      completelyReceived: true,
      purchaseOrderLines: [{ quantityOutstanding: 0 }],
    });
    const noLines = await t.wb.read('PurchaseOrders', 'PO-503');
    expect(noLines).toMatchObject({ code: 'PO-503', orderDueDate: '2025-04-01T00:00:00.000Z' });
    expect(noLines?.purchaseOrderLines ?? []).toEqual([]);
    expect(await t.wb.purchaseOrderStatus('PO-503')).toBe('open');
  });

  it('names every bad value by file, row and column, and applies nothing of the dataset', async () => {
    const header =
      'salesId,salesDateTime,locationId,currencyCode,salesLineId,lineNumber,skuId,quantitySold,quantityTransferred,' +
      'quantityCancelled,originalSalesAmountInclVat,salesAmountInclVat,vatPercentage,online';
    const report = await t.wb.loadFiles([
      text('Sales.csv', [
        header,
        'S1,2025-03-01T10:00:00Z,L1,LOCAL,S1-1,1,K1,"1,5",1,0,10,10,21,false',
        'S1,2025-03-02T10:00:00Z,L1,LOCAL,S1-2,2,K2,1,1,0,10,10,21,maybe',
        'S2,2025-03-01T10:00:00Z,,LOCAL,S2-1,1,K1,1,1,0,10,10,121,true',
        'S3,2025-03-01T10:00:00Z,L1,LOCAL,S3-1,1,K1,1,1,0,10,10,21,true',
      ]),
    ]);
    const [sales] = rejected(report);
    expect(sales.error).toBe('rejected, nothing of it applied: 5 errors');
    expect(sales.problems).toEqual([
      {
        path: '/sales/0/salesLines/0/quantitySold',
        recordId: 'S1',
        file: 'Sales.csv',
        row: 2,
        column: 'quantitySold',
        message: expect.stringMatching(/^"1,5" is not a number \(write decimals with a dot/),
      },
      {
        path: '/sales/0/salesDateTime',
        recordId: 'S1',
        file: 'Sales.csv',
        row: 3,
        column: 'salesDateTime',
        message: expect.stringMatching(
          new RegExp(
            '^salesDateTime is "2025-03-02T10:00:00Z" here ' +
              'but "2025-03-01T10:00:00Z" in Sales.csv row 2, for the same sale',
          ),
        ),
      },
      {
        path: '/sales/0/salesLines/1/online',
        recordId: 'S1',
        file: 'Sales.csv',
        row: 3,
        column: 'online',
        message: expect.stringMatching(/^"maybe" is not true or false/),
      },
      {
        path: '/sales/1/locationId',
        recordId: 'S2',
        file: 'Sales.csv',
        row: 4,
        column: 'locationId',
        message: 'is required',
      },
      {
        path: '/sales/1/salesLines/0/vatPercentage',
        recordId: 'S2',
        file: 'Sales.csv',
        row: 4,
        column: 'vatPercentage',
        message: 'is 121; must be at most 100',
      },
    ]);
    // S3 was fine, and went with its batch.
    expect(await live()).toEqual({});
  });

  it('refuses a row it cannot place under a parent, or whose cells do not match the header', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'items.csv'), 'itemId,code,merchandiseCategoryId\nI1,C1,MC\n');
    writeFileSync(
      join(dir, 'skus.csv'),
      'itemId,skuId,code,colorId,sizeId,styleId\nI1,K1,k1,RED,M,ST\nI9,K9,k9,RED,M,ST\n,K8,k8,RED,M,ST\n',
    );
    writeFileSync(join(dir, 'Locations.csv'), 'locationId,code,name\nL1,c1,One\nL2,c2\nL3,c3,Three\n');
    const report = await t.wb.loadFiles(byPath(['items.csv', 'skus.csv', 'Locations.csv'].map((f) => join(dir, f))));
    const [items, locations] = rejected(report);
    expect(locations.problems).toEqual([
      { path: '', file: join(dir, 'Locations.csv'), row: 3, message: 'has 2 cells where the header has 3 columns' },
    ]);
    expect(items.problems).toEqual([
      {
        path: '',
        file: join(dir, 'skus.csv'),
        row: 3,
        column: 'itemId',
        message:
          'item "I9" is not loaded with this file, so the row has nothing to belong to; ' +
          'load its file (Items.csv) with it',
      },
      {
        path: '',
        file: join(dir, 'skus.csv'),
        row: 4,
        column: 'itemId',
        message: 'itemId is empty: the row cannot be placed under its item',
      },
    ]);
    expect(await live()).toEqual({});
  });

  const barcodeTitle =
    "finds a barcode's SKU by its id alone, " +
    'and asks for the item when two items share it (which the schema refuses too)';
  it(barcodeTitle, async () => {
    const report = await t.wb.loadFiles([
      text('items.csv', ['itemId,code,merchandiseCategoryId', 'I1,C1,MC', 'I2,C2,MC']),
      text('skus.csv', [
        'itemId,skuId,code,colorId,sizeId,styleId',
        'I1,K1,k1,RED,M,ST',
        'I2,K1,k1,RED,M,ST',
        'I2,K2,k2,RED,L,ST',
      ]),
      text('barcodes.csv', ['skuId,barcodeId,code', 'K2,B2,871', 'K1,B1,872']),
    ]);
    const [items] = rejected(report);
    expect(items.problems).toEqual([
      {
        path: '',
        file: 'barcodes.csv',
        row: 3,
        message: 'SKU "K1" is in 2 places; add a column with its itemId to tell which',
      },
      {
        path: '/items/1/skus/0',
        recordId: 'I2',
        file: 'skus.csv',
        row: 3,
        message: 'skuId "K1" is also sent at /items/0/skus/0; it must be unique across all Sku records',
      },
    ]);
    const found = await t.wb.loadFiles([
      text('items.csv', ['itemId,code,merchandiseCategoryId', 'I1,C1,MC', 'I2,C2,MC']),
      text('skus.csv', ['itemId,skuId,code,colorId,sizeId,styleId', 'I1,K1,k1,RED,M,ST', 'I2,K2,k2,RED,L,ST']),
      text('barcodes.csv', ['skuId,barcodeId,code', 'K2,B2,871', 'K1,B1,872']),
    ]);
    expect(found.rejected).toBe(0);
    expect(await t.wb.read('Items', 'I2')).toMatchObject({
      skus: [{ skuId: 'K2', barcodes: [{ barcodeId: 'B2', code: '871' }] }],
    });
  });

  const fullLoadTitle =
    "sends a dataset's CSV as one full load that deletes what it does not hold, and nothing when it is rejected";
  it(fullLoadTitle, async () => {
    await t.wb.ingest('Locations', { locations: [location('OLD'), location('A')] });
    const bad = await t.wb.loadFiles(
      [text('Locations.csv', ['locationId,code,name,latitude', 'A,a,Store A,52.1', 'B,b,Store B,north'])],
      { fullLoad: true },
    );
    expect(rejected(bad)[0].problems).toEqual([expect.objectContaining({ row: 3, column: 'latitude' })]);
    expect((await t.wb.list('Locations')).records.map((l) => l.locationId)).toEqual(['A', 'OLD']);

    const good = await t.wb.loadFiles(
      [text('Locations.csv', ['locationId,code,name,latitude', 'A,a,Store A,52.1', 'B,b,Store B,52.2'])],
      { fullLoad: true },
    );
    expect(good.batches[0].result).toMatchObject({ created: 1, updated: 1, deleted: 1 });
    expect((await t.wb.list('Locations')).records.map((l) => [l.locationId, l.latitude])).toEqual([
      ['A', 52.1],
      ['B', 52.2],
    ]);
  });

  const splitFullLoadTitle =
    "splits a full load over a dataset's JSON and CSV files and abandons it, deleting nothing, when one is rejected";
  it(splitFullLoadTitle, async () => {
    await t.wb.ingest('Locations', { locations: [location('OLD')] });
    const json = (locations: unknown[]): LoadFile => ({
      name: 'Locations-1.json',
      text: JSON.stringify({ locations }),
    });
    const bad = await t.wb.loadFiles([json([location('A')]), text('Locations-2.csv', ['locationId,code', 'B,b'])], {
      fullLoad: true,
    });
    expect(bad.batches.map((b) => [b.files.join(), b.result?.staged?.calls, b.error?.slice(0, 28)])).toEqual([
      ['Locations-1.json', 1, undefined],
      ['Locations-2.csv', undefined, 'rejected, nothing of it appl'],
    ]);
    const summary = (await t.wb.summary()).find((s) => s.dataset === 'Locations');
    expect(summary?.live).toBe(1);
    expect(summary?.stagedFullLoad).toBeUndefined();

    const good = await t.wb.loadFiles(
      [json([location('A')]), text('Locations-2.csv', ['locationId,code,name', 'B,b,Store B'])],
      { fullLoad: true },
    );
    expect(good.batches.map((b) => b.result?.deleted)).toEqual([0, 1]);
    expect((await t.wb.list('Locations')).records.map((l) => l.locationId)).toEqual(['A', 'B']);
  });

  it('counts each bad cell once, listed or not, and says so when checking stopped', async () => {
    const rows = Array.from({ length: 3_000 }, (_, i) => `L1,SKU${i},abc,2024-01-01T00:00:00Z`);
    const r = await t.wb.loadFiles([text('Stock.csv', ['locationId,skuId,quantity,stockDateTime', ...rows])]);
    expect(r.batches[0]).toMatchObject({ error: 'rejected, nothing of it applied: 3000 errors', problemCount: 3_000 });
    expect(r.batches[0].problemCountIsAtLeast).toBeUndefined();
    // Past the cap in JSON: the outcome says "or more".
    const many = { locations: Array.from({ length: 60_000 }, (_, i) => ({ locationId: `X${i}` })) };
    const big = await t.wb.loadFiles([{ name: 'Locations.json', text: JSON.stringify(many) }]);
    expect(big.batches[0]).toMatchObject({
      error: 'rejected, nothing of it applied: 100000 or more errors (checking stopped there)',
      problemCountIsAtLeast: true,
    });
  });

  it('with Full load ticked, still loads each file of a dataset that has no full load on its own', async () => {
    const brands = (id: string, code: unknown): LoadFile => ({
      name: `Brands-${id}.json`,
      text: JSON.stringify({ brands: [{ brandId: id, code }] }),
    });
    const r = await t.wb.loadFiles([brands('B1', 42), brands('B2', 'b2')], { fullLoad: true });
    expect(r.batches.map((b) => [b.files.join(), b.error?.slice(0, 8), b.result?.created])).toEqual([
      ['Brands-B1.json', 'rejected', undefined],
      ['Brands-B2.json', undefined, 1],
    ]);
  });
});

describe('Parquet and Arrow files', () => {
  /** The fixture sales written as Parquet by DuckDB, typed as a warehouse would type them. */
  async function salesParquet(dir: string, where = 'TRUE'): Promise<string> {
    const path = join(dir, 'Sales.parquet');
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    await db.run(
      `COPY (SELECT * REPLACE (salesDateTime::TIMESTAMPTZ AS salesDateTime) FROM read_csv($1) WHERE ${where})
       TO '${path}' (FORMAT parquet)`,
      [join(CSV, 'transactions', 'Sales.csv')],
    );
    db.closeSync();
    return path;
  }

  /** The fixture sales as Arrow IPC: instants as timestamps, numbers as doubles and integers, flags as booleans. */
  async function salesArrow(dir: string, change?: (row: Record<string, unknown>, i: number) => void): Promise<string> {
    const table = await readCsv({ name: 'Sales.csv', path: join(CSV, 'transactions', 'Sales.csv') });
    const rows = Array.from({ length: table.rows }, (_, i) =>
      Object.fromEntries(table.headers.map((h, c) => [h, table.columns[c][i]])),
    );
    rows.forEach((r, i) => change?.(r, i));
    const column = (h: string) => rows.map((r) => r[h]);
    const typed: Record<string, Vector> = {};
    for (const h of table.headers) {
      if (h === 'salesDateTime')
        typed[h] = vectorFromArray(
          column(h).map((v) => Date.parse(String(v))),
          new TimestampMillisecond(),
        );
      else if (h === 'lineNumber') typed[h] = vectorFromArray(column(h).map(Number), new Int32());
      else if (h === 'online')
        typed[h] = vectorFromArray(
          column(h).map((v) => v === 'true'),
          new Bool(),
        );
      else if (/^(quantity|original|sales|vat|cost)/.test(h) && h !== 'salesId' && h !== 'salesLineId')
        typed[h] = vectorFromArray(
          column(h).map((v) => (v === null ? null : Number(v))),
          new Float64(),
        );
      else typed[h] = vectorFromArray(column(h), new Utf8());
    }
    const path = join(dir, 'Sales.arrow');
    writeFileSync(path, tableToIPC(new Table(typed), 'file'));
    return path;
  }

  const allSales = async (wb: TempWorkbench['wb']) => (await wb.list('Sales', { limit: 100 })).records;

  it('loads the same sales from Parquet and from Arrow IPC as from the CSV they were written from', async () => {
    await t.wb.loadFiles(byPath([join(CSV, 'transactions', 'Sales.csv')]));
    const fromCsv = await allSales(t.wb);
    expect(fromCsv).toHaveLength(3);
    for (const write of [salesParquet, salesArrow]) {
      const other = await tempWorkbench();
      try {
        const path = await write(tempDir());
        const report = await other.wb.loadFiles(byPath([path]));
        expect(report.batches[0], JSON.stringify(report.batches)).toMatchObject({
          dataset: 'Sales',
          records: 3,
          result: { created: 3 },
        });
        expect(await allSales(other.wb)).toEqual(fromCsv);
      } finally {
        await other.cleanup();
      }
    }
  });

  it('names a bad cell by file, row and column (the first record is row 1), and applies nothing', async () => {
    const path = await salesArrow(tempDir(), (r, i) => {
      if (i === 1) r.vatPercentage = '121';
    });
    const [sales] = rejected(await t.wb.loadFiles(byPath([path])));
    expect(sales.problems).toEqual([
      {
        path: expect.stringMatching(/^\/sales\/0\/salesLines\/1\/vatPercentage$/),
        recordId: 'R-1001',
        file: path,
        row: 2,
        column: 'vatPercentage',
        message: 'is 121; must be at most 100',
      },
    ]);
    expect(await live()).toEqual({});
    // The mapping step shows a Parquet file's first record as row 1.
    const parquet = await salesParquet(tempDir());
    const preview = await t.wb.previewCsv(byPath([parquet]));
    expect(preview.files[0]).toMatchObject({ name: parquet, problems: [] });
    expect(preview.files[0].rows[0].row).toBe(1);
  });
});

describe('columns no field takes', () => {
  it('are loaded nowhere and said so with the load, unless the mapping leaves them out by name', async () => {
    const file = text('Locations.csv', ['locationId,code,name,Customer note', 'L1,c1,One,call before noon']);
    const told = await t.wb.loadFiles([file]);
    expect(told.batches[0].result!.warnings).toEqual([
      {
        path: '',
        file: 'Locations.csv',
        column: 'Customer note',
        message: 'is not loaded: no field takes it (map it to one, or to null to leave it out on purpose)',
      },
    ]);
    const quiet = await t.wb.loadFiles([file], {
      mapping: { 'Locations.csv': { columns: { 'Customer note': null } } },
    });
    expect(quiet.batches[0].result!.warnings).toEqual([]);
  });
});

describe('encodings', () => {
  // "Café £3" as a spreadsheet on Windows saves it: é and £ are one byte each, which UTF-8 never writes alone.
  const latin = (name: string) => {
    const path = join(tempDir(), name);
    writeFileSync(path, Buffer.from('locationId,code,name\nL1,c1,Caf\xe9 \xa33\n', 'latin1'));
    return path;
  };

  it('names a file that is not UTF-8 once, with its row, its odd byte and the two ways out', async () => {
    const path = latin('Locations.csv');
    const [refused] = rejected(await t.wb.loadFiles(byPath([path])));
    expect(refused.problems).toEqual([
      {
        path: '',
        file: path,
        row: 2,
        message:
          'is not UTF-8 text (row 2 holds byte 0xE9, "é" in Windows-1252): save it as "CSV UTF-8" (Excel: Save As, ' +
          'CSV UTF-8), or declare its encoding in the mapping, e.g. {"Locations.csv": {"encoding": "windows-1252"}}',
      },
    ]);
    expect(await live()).toEqual({});
  });

  it('reads a file in the encoding its mapping declares, from a path or as bytes', async () => {
    const path = latin('Locations.csv');
    const mapping = { 'Locations.csv': { encoding: 'windows-1252' as const } };
    await t.wb.loadFiles(byPath([path]), { mapping });
    expect((await t.wb.read('Locations', 'L1'))!.name).toBe('Café £3');
    const other = await tempWorkbench();
    try {
      await other.wb.loadFiles([{ name: 'Locations.csv', bytes: readFileSync(path) }], { mapping });
      expect((await other.wb.read('Locations', 'L1'))!.name).toBe('Café £3');
    } finally {
      await other.cleanup();
    }
  });
});

describe('decimal commas', () => {
  it('reads 2,5 as 2.5 in a file split by semicolons, and refuses it in one split by commas', async () => {
    await t.wb.ingest('Locations', { locations: [location('L1')] });
    await t.wb.ingest('Items', {
      items: [
        {
          itemId: 'I1',
          code: 'I1',
          merchandiseCategoryId: 'MC',
          skus: [{ skuId: 'K1', code: 'K1', styleId: 'S1', colorId: 'C', sizeId: 'M' }],
        },
      ],
    });
    const semicolons = await t.wb.loadFiles([
      text('Stock.csv', ['locationId;skuId;quantity;stockDateTime', 'L1;K1;2,5;2025-03-01T00:00:00Z']),
    ]);
    expect(semicolons.batches[0].error).toBeUndefined();
    expect(await t.wb.stock('L1', 'K1')).toMatchObject({ quantity: 2.5 });
    const [commas] = await t.wb.checkFiles([
      text('Stock.csv', ['locationId,skuId,quantity,stockDateTime', 'L1,K1,"2,5",2025-03-02T00:00:00Z']),
    ]);
    expect(commas.problems?.[0]).toMatchObject({
      row: 2,
      column: 'quantity',
      message: expect.stringMatching(/^"2,5" is not a number \(write decimals with a dot/),
    });
  });
});

describe('checking before loading', () => {
  const SALES_HEADER =
    'salesId,salesDateTime,currencyCode,locationId,salesLineId,skuId,lineNumber,originalSalesAmountInclVat,' +
    'salesAmountInclVat,vatPercentage,online,quantitySold,quantityTransferred,quantityCancelled';
  const sales = () =>
    text('Sales.csv', [
      SALES_HEADER,
      'S1,2025-03-01T10:00:00Z,LOCAL,L1,S1-1,K1,1,10,10,21,false,1,1,0',
      'S2,2025-02-30T10:00:00Z,LOCAL,L1,S2-1,K1,1,10,10,21,false,1,1,0',
      'S3,2025-03-01T11:00:00Z,LOCAL,,S3-1,K1,1,10,10,21,false,1,1,0',
      'S4,2025-03-01T12:00:00Z,LOCAL,L1,S4-1,K1,1.5,10,10,21,false,1,1,0',
    ]);
  const locations = () => ({ name: 'Locations.json', text: JSON.stringify({ locations: [location('L1')] }) });

  it('finds every problem the load will refuse, by file, row and column, and loads nothing', async () => {
    const [checked] = await t.wb.checkFiles([sales()]);
    expect(await live()).toEqual({});
    const report = await t.wb.loadFiles([sales()]);
    const [loaded] = rejected(report);
    // The same refusal, problem for problem: a bad date, a missing location and a line number that is no integer.
    expect(checked.error).toBe(loaded.error);
    expect(checked.problems).toEqual(loaded.problems);
    expect(checked.problems!.map((p) => [p.row, p.column])).toEqual([
      [3, 'salesDateTime'],
      [4, 'locationId'],
      [5, 'lineNumber'],
    ]);
    // A file that passes is counted as it would load.
    const [ok] = await t.wb.checkFiles([locations()]);
    expect(ok).toMatchObject({ dataset: 'Locations', records: 1 });
    expect(ok.error).toBeUndefined();
  });

  it('loads nothing when asked to load only if every file passes, and each dataset on its own otherwise', async () => {
    const all = await t.wb.loadFiles([locations(), sales()], { onlyIfAllPass: true });
    expect(all.batches.map((b) => [b.dataset, b.error?.slice(0, 24)])).toEqual([
      ['Locations', 'not loaded: it passes, b'],
      ['Sales', 'rejected, nothing of it '],
    ]);
    expect(await live()).toEqual({});
    const each = await t.wb.loadFiles([locations(), sales()]);
    expect(each.batches.map((b) => [b.dataset, b.error === undefined])).toEqual([
      ['Locations', true],
      ['Sales', false],
    ]);
    expect(await live()).toEqual({ Locations: 1 });
  });
});

describe('the mapping step', () => {
  const files = () => ITEMS.map((path) => ({ name: path.split('/').pop()!, text: readFileSync(path, 'utf8') }));

  const mappingTitle =
    'proposes a mapping from the headers, names what is missing, and shows the first rows as they will load';
  it(mappingTitle, async () => {
    const preview = await t.wb.previewCsv(files());
    const skus = preview.files.find((f) => f.name === 'skus.csv')!;
    expect(skus).toMatchObject({ level: 'Items.skus', levelLabel: 'Items: one row per SKU', dataset: 'Items' });
    expect(skus.headers).toEqual(['item_id', 'sku_id', 'code', 'colour', 'size_id', 'style_id', 'remark']);
    expect(skus.columns).toEqual(['Items.itemId', 'skuId', 'code', null, 'sizeId', 'styleId', null]);
    expect(skus.problems.map((p) => p.message)).toEqual(['no column is loaded into colorId, which every SKU needs']);
    expect(skus.targets.find((x) => x.id === 'colorId')).toMatchObject({
      of: 'SKU',
      kind: 'text',
      required: true,
      key: false,
    });
    const barcodes = preview.files.find((f) => f.name === 'barcodes.csv')!;
    expect(barcodes.rows[0]).toEqual({
      row: 2,
      cells: ['SKU-100-S', 'BC-1001', '8712345000011', 'yes'],
      values: { 'Items.skus.skuId': 'SKU-100-S', barcodeId: 'BC-1001', code: '8712345000011', isPrimary: true },
    });
    expect(preview.levels).toContainEqual({ id: 'Sales.salesLines', label: 'Sales: one row per sales line' });
  });

  it('takes a chosen field per column, a chosen level, and names a bad cell of the first rows', async () => {
    const preview = await t.wb.previewCsv(files(), {
      mapping: { 'skus.csv': { columns: { colour: 'colorId', code: null } } },
    });
    const skus = preview.files.find((f) => f.name === 'skus.csv')!;
    expect(skus.columns).toEqual(['Items.itemId', 'skuId', null, 'colorId', 'sizeId', 'styleId', null]);
    expect(skus.problems.map((p) => p.message)).toEqual(['no column is loaded into code, which every SKU needs']);
    expect(skus.rows[1].values).toEqual({
      'Items.itemId': 'IT-100',
      skuId: 'SKU-100-M',
      colorId: 'WHT',
      sizeId: 'M',
      styleId: 'ST-100-WHT',
    });

    const moved = await t.wb.previewCsv([{ name: 'export.csv', text: 'skuId,quantity\nK1,2\nK2,two\n' }], {
      mapping: { 'export.csv': { level: 'StockTargets', columns: { quantity: 'targetQuantity', skuId: 'skuId' } } },
    });
    expect(moved.files[0]).toMatchObject({ level: 'StockTargets', columns: ['skuId', 'targetQuantity'] });
    expect(moved.files[0].problems).toEqual([
      { path: '', file: 'export.csv', message: 'no column is loaded into locationId, which every stock target needs' },
      {
        path: '',
        file: 'export.csv',
        row: 3,
        column: 'quantity',
        message: expect.stringMatching(/^"two" is not a number/),
      },
    ]);
  });

  it('refuses a mapping that names a column the file lacks, a field the level lacks, or one field twice', async () => {
    const preview = await t.wb.previewCsv(files(), {
      mapping: {
        'skus.csv': { columns: { Colour: 'colorId', colour: 'colour', size_id: 'sizeId', style_id: 'sizeId' } },
      },
    });
    expect(preview.files.find((f) => f.name === 'skus.csv')!.problems.map((p) => p.message)).toEqual([
      'the mapping names a column "Colour" that the file does not have ' +
        '(its columns: item_id, sku_id, code, colour, size_id, style_id, remark)',
      '"colour" is not a field that "Items: one row per SKU" can be loaded into',
      'columns "size_id" and "style_id" are both loaded into sizeId; choose one',
      'no column is loaded into colorId, which every SKU needs',
      'no column is loaded into styleId, which every SKU needs',
    ]);
  });
});
