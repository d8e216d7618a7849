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
import { compileDateFormat } from '../engine/ingest/csv/date-format.js';
import { parseCsvMapping } from '../engine/ingest/csv/mapping-file.js';
import type { LoadFile, LoadReport } from '../engine/service/file-load.js';
import { location, sale, tempWorkbench, useTempDirs, type TempWorkbench } from './fixtures.js';

const CSV = join(process.cwd(), 'test', 'fixtures', 'csv');
const ITEMS = ['items.csv', 'skus.csv', 'barcodes.csv'].map((f) => join(CSV, 'items', f));
const MAPPING = JSON.parse(readFileSync(join(CSV, 'items-mapping.json'), 'utf8'));
const tempDir = useTempDirs('wb-csv-');

const byPath = (paths: string[]): LoadFile[] => paths.map((path) => ({ name: path, path }));
const text = (name: string, lines: string[]) => ({ name, text: `${lines.join('\n')}\n` });

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
          'originalSalesAmountInclVat,salesAmountInclVat,online,quantitySold,quantityTransferred',
        'S1,2025-03-01T10:00:00Z,LOCAL,L1,S1-1,K1,1,10,10,false,1,1',
      ]),
    ]);
    expect(preview.files[0].level).toBe('Sales.salesLines');
    expect(preview.files[0].problems.map((p) => p.message)).toEqual([
      'no column is loaded into vatPercentage, which every sales line needs',
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
          'description differs between the rows of item "I2": "Cap" in row 4; "Hat" in row 5. One item has one ' +
          'description: correct the rows, or set "repeatedSaleFields": "first" in the mapping to take the first ' +
          "row's",
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
        path: '/sales/0/salesLines/1/online',
        recordId: 'S1',
        file: 'Sales.csv',
        row: 3,
        column: 'online',
        message: expect.stringMatching(/^"maybe" is not true or false/),
      },
      {
        path: '/sales/0/salesDateTime',
        recordId: 'S1',
        file: 'Sales.csv',
        row: 3,
        column: 'salesDateTime',
        message: expect.stringMatching(
          /^salesDateTime differs between the rows of sale "S1": "2025-03-01T10:00:00Z" in row 2; "2025-03-02T10/,
        ),
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

describe('a spreadsheet export of sales', () => {
  const EXPORT = join(CSV, 'export', 'Sales-export.csv');
  const EXPORT_MAPPING = JSON.parse(readFileSync(join(CSV, 'export-mapping.json'), 'utf8'));
  const options = EXPORT_MAPPING['Sales-export.csv'];
  /** The export's text as a file of another name (a mapping is found by the name), changed by `edit`. */
  const exported = (name = 'Sales-export.csv', edit = (t: string) => t) =>
    text(name, edit(readFileSync(EXPORT, 'utf8')).trimEnd().split('\n'));
  const LINE = ['Invoice', 'Line ID', 'Line', 'StockCode', 'Quantity', 'InvoiceDate', 'Amount', 'VAT', 'Store'];
  /** A sales-lines file of a few columns, mapped by their names, with the export's other options. */
  const lines = (rows: string[], columns: Record<string, string | null> = {}) => ({
    file: text('lines.csv', [`${LINE.join(';')};Web;Currency`, ...rows]),
    mapping: { 'lines.csv': { ...options, columns: { ...options.columns, ...columns } } },
  });

  const firstTry =
    'loads on the first try with its mapping: dates, decimal commas, defaults, one column into two fields';
  it(firstTry, async () => {
    const report = await t.wb.loadFiles(byPath([EXPORT]), { mapping: EXPORT_MAPPING });
    expect(report.batches[0]).toMatchObject({ dataset: 'Sales', records: 4, result: { created: 4 } });
    expect(await t.wb.read('Sales', '536365')).toEqual({
      salesId: '536365',
      code: '536365',
      salesDateTime: '2010-12-01T08:26:00.000Z',
      currencyCode: 'LOCAL',
      locationId: 'ST-001',
      salesLines: [
        {
          salesLineId: '536365-1',
          skuId: 'SKU-100-M',
          lineNumber: 1,
          originalSalesAmountInclVat: 15.3,
          salesAmountInclVat: 15.3,
          vatPercentage: 21,
          online: false,
          quantitySold: 6,
          quantityTransferred: 6,
          quantityCancelled: 0,
        },
        expect.objectContaining({ salesLineId: '536365-2', salesAmountInclVat: 20.34, quantityTransferred: 6 }),
      ],
    });
    // A return: every default follows its own row.
    expect(await t.wb.read('Sales', '536366')).toMatchObject({
      salesLines: [{ quantitySold: -2, quantityTransferred: -2, originalSalesAmountInclVat: -3.7, online: true }],
    });
    // A date without its time is midnight UTC; a sale whose lines give two times takes its first line's.
    expect(await t.wb.read('Sales', '536368')).toMatchObject({ salesDateTime: '2010-12-02T00:00:00.000Z' });
    expect(await t.wb.read('Sales', '536367')).toMatchObject({ salesDateTime: '2010-12-01T08:34:00.000Z' });
    // Each rule the load applied is said once for the file, not once per row.
    expect(report.batches[0].result!.warnings.map((w) => [w.column, w.message])).toEqual([
      ['Description', 'is not loaded: no field takes it (map it to one, or to null to leave it out on purpose)'],
      [
        undefined,
        'no column gives originalSalesAmountInclVat: filled from salesAmountInclVat on every row ' +
          '(the price before discounts; without it, the amount after them is the best known)',
      ],
      [
        undefined,
        'no column gives quantityTransferred: filled from quantitySold on every row ' +
          '(the specification: "Default: same as quantitySold")',
      ],
      [undefined, 'no column gives quantityCancelled: set to 0 on every row (the specification: "Default: 0")'],
      [
        undefined,
        "1 sale has fields that differ between their rows (salesDateTime in 1); each took its first row's value " +
          '("repeatedSaleFields": "first"). For example sale "536367": salesDateTime "2010-12-01T08:34:00Z" in ' +
          'row 5; "2010-12-01T08:35:00Z" in row 6',
      ],
    ]);
    expect(report.batches[0].result!.warnings.every((w) => w.file === EXPORT)).toBe(true);
  });

  it('shows the derived fields, the column into two fields and the warnings in the preview and the check', async () => {
    const preview = await t.wb.previewCsv([exported()], { mapping: EXPORT_MAPPING });
    const file = preview.files[0];
    expect(file.problems).toEqual([]);
    expect(file.columns[0]).toEqual(['Sales.salesId', 'Sales.code']);
    expect(file.decimalComma).toBe(true);
    expect(file.derived).toEqual([
      { field: 'originalSalesAmountInclVat', from: 'salesAmountInclVat' },
      { field: 'quantityTransferred', from: 'quantitySold' },
      { field: 'quantityCancelled', value: 0 },
    ]);
    expect(file.rows[2].values).toMatchObject({
      'Sales.salesId': '536366',
      'Sales.code': '536366',
      'Sales.salesDateTime': '2010-12-01T08:28:00Z',
      salesAmountInclVat: -3.7,
      originalSalesAmountInclVat: -3.7,
      quantityTransferred: -2,
      quantityCancelled: 0,
    });
    expect(file.warnings.map((w) => w.column ?? w.message.slice(0, 44))).toEqual([
      'Description',
      'no column gives originalSalesAmountInclVat: ',
      'no column gives quantityTransferred: filled ',
      'no column gives quantityCancelled: set to 0 ',
    ]);
    const [checked] = await t.wb.checkFiles([exported()], { mapping: EXPORT_MAPPING });
    expect(checked.error).toBeUndefined();
    expect(checked.records).toBe(4);
    expect(checked.warnings?.map((w) => w.message.slice(0, 20))).toEqual([
      'is not loaded: no fi',
      'no column gives orig',
      'no column gives quan',
      'no column gives quan',
      '1 sale has fields th',
    ]);
    expect(await live()).toEqual({});
  });

  it('refuses a required field whose default has no source either, naming both', async () => {
    const { file, mapping } = lines(['1;1-1;1;K1;2;01/12/2010 08:26;5;21;L1;no;LOCAL'], { Quantity: null });
    const [refused] = rejected(await t.wb.loadFiles([file], { mapping }));
    expect(refused.problems!.map((p) => p.message)).toEqual([
      'no column is loaded into quantitySold, which every sales line needs',
      'no column is loaded into quantityTransferred, which every sales line needs ' +
        '(without one it is filled from quantitySold, which has no column either)',
    ]);
  });

  it('tells a bad or empty cell once, not again at the field filled from it', async () => {
    const { file, mapping } = lines([
      '1;1-1;1;K1;2x;01/12/2010 08:26;5;21;L1;no;LOCAL',
      '2;2-1;1;K1;;01/12/2010 08:26;;21;L1;no;LOCAL',
    ]);
    const [refused] = rejected(await t.wb.loadFiles([file], { mapping }));
    expect(refused.problems!.map((p) => [p.row, p.column, p.path, p.message.slice(0, 24)])).toEqual([
      [2, 'Quantity', '/sales/0/salesLines/0/quantitySold', '"2x" is not a number (wr'],
      [3, 'Amount', '/sales/1/salesLines/0/salesAmountInclVat', 'is required'],
      [3, 'Quantity', '/sales/1/salesLines/0/quantitySold', 'is required'],
    ]);
    expect(refused.problemCount).toBe(3);
  });

  it("fills a purchase-order line's quantityToReceive from its quantityOutstanding", async () => {
    const header = 'purchaseOrderId,code,completelyReceived,orderDate,orderDueDate,currencyId,purchaseOrderLineId,';
    const report = await t.wb.loadFiles([
      text('PurchaseOrders.csv', [
        `${header}lineNumber,skuId,quantity,quantityOutstanding,unitCostLocalCurrency,plannedReceiptDate`,
        'P1,P1,false,2025-03-01,2025-04-01,local,P1-1,1,K1,10,4,2.5,2025-04-01',
        'P1,P1,false,2025-03-01,2025-04-01,local,P1-2,2,K2,8,8,2.5,2025-04-01',
      ]),
    ]);
    expect(report.batches[0].result!.warnings.map((w) => w.message)).toEqual([
      'no column gives quantityToReceive: filled from quantityOutstanding on every row ' +
        '(the specification: "default: the value of quantityOutstanding")',
    ]);
    expect(await t.wb.read('PurchaseOrders', 'P1')).toMatchObject({
      purchaseOrderLines: [
        { quantityOutstanding: 4, quantityToReceive: 4 },
        { quantityOutstanding: 8, quantityToReceive: 8 },
      ],
    });
  });
  it("reads its dates in the mapping's dateFormat, and names a cell the format cannot read", async () => {
    const { file, mapping } = lines([
      '1;1-1;1;K1;2;01/12/2010 08:26;5;21;L1;no;LOCAL',
      '2;2-1;1;K1;2;2010-12-01 08:26;5;21;L1;no;LOCAL',
      '3;3-1;1;K1;2;31/02/2010 08:26;5;21;L1;no;LOCAL',
    ]);
    const [refused] = rejected(await t.wb.loadFiles([file], { mapping }));
    expect(refused.problems).toEqual([
      {
        path: '/sales/1/salesDateTime',
        recordId: '2',
        file: 'lines.csv',
        row: 3,
        column: 'InvoiceDate',
        message:
          '"2010-12-01 08:26" is not a date in the mapping\'s dateFormat DD/MM/YYYY HH:mm (e.g. 31/12/2025 14:05)',
      },
      expect.objectContaining({
        row: 4,
        column: 'InvoiceDate',
        message: expect.stringMatching(/^"31\/02\/2010 08:26" is not/),
      }),
    ]);
    // A format that is none is the file's problem, and the mapping file's.
    const wrong = { 'lines.csv': { ...mapping['lines.csv'], dateFormat: 'DD/MM/YY' } };
    const [badFormat] = rejected(await t.wb.loadFiles([file], { mapping: wrong }));
    const why =
      'dateFormat "DD/MM/YY" is not a date format: "YY" is not one of its tokens; write it with YYYY, MM, DD, HH, ' +
      'mm, ss between separators, e.g. "DD/MM/YYYY HH:mm"';
    expect(badFormat.problems).toEqual([{ path: '', file: 'lines.csv', message: why }]);
    expect(() => parseCsvMapping(wrong)).toThrow(`/lines.csv/dateFormat: ${why}`);
    expect(await live()).toEqual({});
  });

  it('reads decimals as the mapping says, whatever the delimiter', async () => {
    const { file, mapping } = lines(['1;1-1;1;K1;2;01/12/2010 08:26;15,30;21;L1;no;LOCAL']);
    const [dot] = rejected(
      await t.wb.loadFiles([file], { mapping: { 'lines.csv': { ...mapping['lines.csv'], decimalComma: false } } }),
    );
    expect(dot.problems!.map((p) => [p.row, p.column, p.message])).toEqual([
      [2, 'Amount', '"15,30" is not a number (write decimals with a dot and no thousands separators, e.g. 1234.5)'],
    ]);
    const commas = text('lines.csv', [
      file.text.split('\n')[0].replaceAll(';', ','),
      '1,1-1,1,K1,2,01/12/2010 08:26,"15,30",21,L1,no,LOCAL',
    ]);
    await t.wb.loadFiles([commas], { mapping });
    expect(await t.wb.read('Sales', '1')).toMatchObject({ salesLines: [{ salesAmountInclVat: 15.3 }] });
  });

  const differTitle = "tells a sale whose rows differ once per field, naming values and rows, or takes the first row's";
  it(differTitle, async () => {
    const rows = [
      'S1;S1-1;1;K1;1;01/12/2010 08:26;5;21;L1;no;LOCAL',
      'S1;S1-2;2;K1;1;01/12/2010 08:26;5;21;L1;no;LOCAL',
      'S1;S1-3;3;K1;1;01/12/2010 08:27;5;21;L2;no;LOCAL',
      'S1;S1-4;4;K1;1;01/12/2010 08:28;5;21;L2;no;LOCAL',
      'S2;S2-1;1;K1;1;01/12/2010 09:00;5;21;L1;no;LOCAL',
    ];
    const refuse = lines(rows);
    refuse.mapping['lines.csv'].repeatedSaleFields = 'refuse';
    const [refused] = rejected(await t.wb.loadFiles([refuse.file], { mapping: refuse.mapping }));
    expect(refused.problemCount).toBe(2);
    const tail = 'correct the rows, or set "repeatedSaleFields": "first" in the mapping to take the first row\'s';
    expect(refused.problems).toEqual([
      {
        path: '/sales/0/salesDateTime',
        recordId: 'S1',
        file: 'lines.csv',
        row: 4,
        column: 'InvoiceDate',
        message:
          'salesDateTime differs between the rows of sale "S1": "2010-12-01T08:26:00Z" in rows 2, 3; ' +
          '"2010-12-01T08:27:00Z" in row 4; "2010-12-01T08:28:00Z" in row 5. One sale has one salesDateTime: ' +
          tail,
      },
      {
        path: '/sales/0/locationId',
        recordId: 'S1',
        file: 'lines.csv',
        row: 4,
        column: 'Store',
        message:
          'locationId differs between the rows of sale "S1": "L1" in rows 2, 3; "L2" in rows 4, 5. ' +
          `One sale has one locationId: ${tail}`,
      },
    ]);
    expect(await live()).toEqual({});
    // One instant spelled two ways is one value.
    const spelled = lines([
      'T1;T1-1;1;K1;1;2010-12-01T08:26:00Z;5;21;L1;no;LOCAL',
      'T1;T1-2;2;K1;1;2010-12-01 08:26:00.000+00:00;5;21;L1;no;LOCAL',
    ]);
    spelled.mapping['lines.csv'] = {
      ...spelled.mapping['lines.csv'],
      dateFormat: undefined,
      repeatedSaleFields: 'refuse',
    };
    expect((await t.wb.loadFiles([spelled.file], { mapping: spelled.mapping })).rejected).toBe(0);

    // Taking the first row's value, the load says so once for the file, with a count and a few examples.
    const many = Array.from({ length: 5 }, (_, i) => [
      `M${i};M${i}-1;1;K1;1;01/12/2010 08:26;5;21;L1;no;LOCAL`,
      `M${i};M${i}-2;2;K1;1;01/12/2010 08:26;5;21;L${i};no;LOCAL`,
    ]).flat();
    const first = lines([...rows, ...many]);
    const report = await t.wb.loadFiles([first.file], { mapping: first.mapping });
    expect(report.batches[0].result).toMatchObject({ created: 7 });
    expect(await t.wb.read('Sales', 'S1')).toMatchObject({
      salesDateTime: '2010-12-01T08:26:00.000Z',
      locationId: 'L1',
    });
    const taken = report.batches[0].result!.warnings.filter((w) => /differ/.test(w.message));
    expect(taken).toEqual([
      {
        path: '',
        file: 'lines.csv',
        message:
          '5 sales have fields that differ between their rows (salesDateTime in 1, locationId in 5); each took its ' +
          'first row\'s value ("repeatedSaleFields": "first"). For example sale "S1": salesDateTime ' +
          '"2010-12-01T08:26:00Z" in rows 2, 3; "2010-12-01T08:27:00Z" in row 4; "2010-12-01T08:28:00Z" in row 5 | ' +
          'sale "S1": locationId "L1" in rows 2, 3; "L2" in rows 4, 5 | ' +
          'sale "M0": locationId "L1" in row 7; "L0" in row 8',
      },
    ]);
  });

  it('lists every problem when asked, past the 1,000 an answer lists', async () => {
    const bad = (vat: string, qty: string) =>
      lines(Array.from({ length: 1200 }, (_, i) => `${i};${i}-1;1;K1;${qty};01/12/2010 08:26;5;${vat};L1;no;LOCAL`));
    // The records' own rules (a VAT of 121), found by the ingest's check.
    const schema = bad('121', '1');
    const [capped] = rejected(await t.wb.loadFiles([schema.file], { mapping: schema.mapping }));
    expect([capped.problems!.length, capped.problemCount]).toEqual([1000, 1200]);
    const [every] = rejected(await t.wb.loadFiles([schema.file], { mapping: schema.mapping, allProblems: true }));
    expect([every.problems!.length, every.problemCount]).toEqual([1200, 1200]);
    expect(every.problems![1199]).toMatchObject({
      row: 1201,
      column: 'VAT',
      recordId: '1199',
      message: 'is 121; must be at most 100',
    });
    // Cells that are no number, found while the rows become records.
    const cells = bad('21', 'x');
    const [checked] = await t.wb.checkFiles([cells.file], { mapping: cells.mapping, allProblems: true });
    expect([checked.problems!.length, checked.problemCount]).toEqual([1200, 1200]);
    // API-shaped JSON alike.
    const sales = { sales: Array.from({ length: 1100 }, (_, i) => sale(`J${i}`, undefined, { locationId: '' })) };
    const json = { name: 'Sales.json', text: JSON.stringify(sales) };
    const [jsonCapped] = rejected(await t.wb.loadFiles([json]));
    const [jsonEvery] = rejected(await t.wb.loadFiles([json], { allProblems: true }));
    expect([jsonCapped.problems!.length, jsonEvery.problems!.length, jsonEvery.problemCount]).toEqual([
      1000, 1100, 1100,
    ]);
    expect(await live()).toEqual({});
  });
});

describe('one column into several fields', () => {
  const header = 'salesId,salesDateTime,currencyCode,locationId,salesLineId,skuId,lineNumber,salesAmountInclVat,';
  const sales = (qty = 'Qty', cells = '3') =>
    text('Sales.csv', [
      `${header}vatPercentage,online,${qty}`,
      `S1,2025-03-01T10:00:00Z,LOCAL,L1,S1-1,K1,1,10,21,no,${cells}`,
    ]);

  it('fills each field from the column, and a field named twice is refused naming both columns', async () => {
    const mapping = { 'Sales.csv': { columns: { Qty: ['quantitySold', 'quantityTransferred'] } } };
    const report = await t.wb.loadFiles([sales()], { mapping });
    expect(await t.wb.read('Sales', 'S1')).toMatchObject({
      salesLines: [{ quantitySold: 3, quantityTransferred: 3, quantityCancelled: 0, originalSalesAmountInclVat: 10 }],
    });
    // quantityTransferred has its column: only the fields without one are filled by their default.
    expect(report.batches[0].result!.warnings.map((w) => w.message.slice(0, 40))).toEqual([
      'no column gives originalSalesAmountInclV',
      'no column gives quantityCancelled: set t',
    ]);

    const twice = await t.wb.previewCsv([sales('Qty,Sold', '3,3')], {
      mapping: {
        'Sales.csv': { columns: { Qty: ['quantitySold', 'quantityTransferred', 'colour'], Sold: 'quantitySold' } },
      },
    });
    expect(twice.files[0].problems.map((p) => [p.column, p.message])).toEqual([
      ['Qty', '"colour" is not a field that "Sales: one row per sales line" can be loaded into'],
      ['Sold', 'columns "Qty" and "Sold" are both loaded into quantitySold; choose one'],
    ]);
  });

  it('is one bad cell however many fields it fills', async () => {
    const mapping = { 'Sales.csv': { columns: { Qty: ['quantitySold', 'quantityTransferred'] } } };
    const [refused] = rejected(await t.wb.loadFiles([sales('Qty', 'three')], { mapping }));
    expect(refused.problems!.map((p) => [p.column, p.message.slice(0, 26)])).toEqual([
      ['Qty', '"three" is not a number (w'],
    ]);
  });
});

describe('date formats', () => {
  const read = (format: string, cell: string, type: 'TIMESTAMP' | 'DATE' = 'TIMESTAMP') => {
    const f = compileDateFormat(format);
    if ('error' in f) throw new Error(f.error);
    return f.read(cell, type);
  };

  it('reads day-first and month-first dates between / - . separators, with or without their time', () => {
    expect(read('DD/MM/YYYY HH:mm', '01/12/2010 08:26')).toBe('2010-12-01T08:26:00Z');
    expect(read('DD/MM/YYYY HH:mm', '1/2/2010 8:05')).toBe('2010-02-01T08:05:00Z');
    // A spreadsheet leaves the time out at midnight; a date field takes the day alone.
    expect(read('DD/MM/YYYY HH:mm', '01/12/2010')).toBe('2010-12-01T00:00:00Z');
    expect(read('DD/MM/YYYY HH:mm', '01/12/2010 08:26', 'DATE')).toBe('2010-12-01');
    expect(read('MM-DD-YYYY', '12-31-2010')).toBe('2010-12-31T00:00:00Z');
    expect(read('DD.MM.YYYY HH:mm:ss', ' 29.02.2012 23:59:59 ')).toBe('2012-02-29T23:59:59Z');
    expect(read('YYYY-MM-DDTHH:mm', '2010-12-01T08:26')).toBe('2010-12-01T08:26:00Z');
  });

  it('reads no cell that is not in its format or names no real day or time', () => {
    for (const cell of [
      '12/31/2010',
      '31/02/2010',
      '29/02/2011',
      '01/12/2010 24:00',
      '01/12/2010 08:60',
      '01/12/10',
      '01/12/2010 08',
      '01-12-2010',
      'x',
    ])
      expect(read('DD/MM/YYYY HH:mm', cell), cell).toBeUndefined();
    expect(read('DD.MM.YYYY', '01x12x2010')).toBeUndefined();
  });

  it('names what is wrong with a format', () => {
    const error = (format: string) => (compileDateFormat(format) as { error: string }).error;
    expect(error('DD/MM/YY')).toBe('"YY" is not one of its tokens');
    expect(error('D/M/YYYY')).toBe('"D" is not one of its tokens');
    expect(error('DD/MM')).toBe('it has no YYYY: a date needs a year, a month and a day');
    expect(error('DD/MM/YYYY mm')).toBe('it has minutes (mm) but no hours (HH)');
    expect(error('HH:mm DD/MM/YYYY')).toBe('its time comes before its date');
    expect(error('DD/DD/YYYY')).toBe('DD appears twice');
  });
});
