/** The admin API's file load: the CSV mapping step, a load of picked files, in one call or in the background. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Bool, Float64, Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { location } from './fixtures.js';
import { testServer, type TestServer } from './api-helpers.js';

const CSV = join(process.cwd(), 'test', 'fixtures', 'csv');
const picked = (...paths: string[]) =>
  paths.map((p) => ({ name: p.split('/').pop()!, text: readFileSync(join(CSV, p), 'utf8') }));
const ITEMS = picked('items/items.csv', 'items/skus.csv', 'items/barcodes.csv');

let t: TestServer;
beforeAll(async () => {
  t = await testServer();
});
afterAll(async () => t.close());

/** Sends a Sales file whose line R-1001-2 has a VAT of 121%: refused whole, the one bad cell named by file and row. */
async function expectVat121Refused(file: { name: string; base64: string }): Promise<void> {
  const refused = await t.call('POST', '/_workbench/load/files', { files: [file] });
  expect(refused.json.batches[0].problems).toEqual([
    expect.objectContaining({
      file: file.name,
      row: 2,
      column: 'vatPercentage',
      message: 'is 121; must be at most 100',
    }),
  ]);
  expect(refused.json.rejected).toBe(1);
}

describe('POST /_workbench/load/preview', () => {
  it("proposes each CSV file's level and mapping, and takes a changed one", async () => {
    const auto = await t.call('POST', '/_workbench/load/preview', { files: ITEMS });
    expect(auto.status).toBe(200);
    expect(auto.json.files.map((f: { name: string; level: string }) => [f.name, f.level])).toEqual([
      ['items.csv', 'Items'],
      ['skus.csv', 'Items.skus'],
      ['barcodes.csv', 'Items.skus.barcodes'],
    ]);
    expect(auto.json.files[1].problems).toEqual([
      { path: '', file: 'skus.csv', message: 'no column is loaded into colorId, which every SKU needs' },
    ]);
    const mapped = await t.call('POST', '/_workbench/load/preview', {
      files: ITEMS,
      mapping: { 'skus.csv': { columns: { colour: 'colorId' } } },
    });
    expect(mapped.json.files[1].problems).toEqual([]);
    expect(mapped.json.files[1].rows[2].values).toMatchObject({ skuId: 'SKU-100-L', colorId: 'BLK' });
  });

  it('refuses a request that is not files with names and text (or bytes)', async () => {
    const bad = await t.call('POST', '/_workbench/load/preview', { files: [{ name: 'items.csv' }] });
    expect(bad.status).toBe(400);
    expect(bad.json.detail).toBe('files/0 (items.csv): give its text, or base64 for a Parquet or Arrow file');
    expect(
      (
        await t.call('POST', '/_workbench/load/preview', {
          files: ITEMS,
          mapping: { 'skus.csv': { columns: { colour: 7 } } },
        })
      ).status,
    ).toBe(400);
  });
});

describe('POST /_workbench/load/files', () => {
  it('loads CSV and JSON files with a mapping, each dataset whole or not at all', async () => {
    const res = await t.call('POST', '/_workbench/load/files', {
      files: [
        ...ITEMS,
        ...picked('transactions/Sales.csv'),
        { name: 'Brands.json', text: JSON.stringify({ brands: [{ brandId: 'BR-NORTH', code: 'N' }] }) },
      ],
      mapping: { 'skus.csv': { columns: { colour: 'colorId' } } },
    });
    expect(res.status).toBe(200);
    expect(
      res.json.batches.map((b: { dataset: string; files: string[]; records: number }) => [
        b.dataset,
        b.files.join(),
        b.records,
      ]),
    ).toEqual([
      ['Brands', 'Brands.json', 1],
      ['Items', 'items.csv,skus.csv,barcodes.csv', 3],
      ['Sales', 'Sales.csv', 3],
    ]);
    expect((await t.call('GET', '/_workbench/data/Items/IT-200')).json.skus).toHaveLength(2);
    expect((await t.call('GET', '/_workbench/data/Sales/R-1001')).json.salesLines).toHaveLength(3);
  });

  it('loads a Parquet file sent as base64, mapped like CSV, naming a bad cell by file, row and column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-parquet-'));
    try {
      const db = await (await DuckDBInstance.create(':memory:')).connect();
      const write = async (name: string, vat: string) => {
        await db.run(
          `COPY (SELECT * REPLACE (${vat} AS vatPercentage) FROM read_csv($1))
           TO '${join(dir, name)}' (FORMAT parquet)`,
          [join(CSV, 'transactions', 'Sales.csv')],
        );
        return { name, base64: readFileSync(join(dir, name)).toString('base64') };
      };
      const bad = await write('Sales.parquet', `CASE WHEN salesLineId = 'R-1001-2' THEN 121 ELSE vatPercentage END`);
      await expectVat121Refused(bad);
      const good = await write('Sales.parquet', 'vatPercentage');
      db.closeSync();
      const loaded = await t.call('POST', '/_workbench/load/files', { files: [good] });
      expect(loaded.json.batches).toMatchObject([{ dataset: 'Sales', files: ['Sales.parquet'], records: 3 }]);
      expect((await t.call('GET', '/_workbench/data/Sales/R-1001')).json.salesLines).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loads an Arrow IPC (Feather v2) file sent as base64, naming a bad cell by file, row and column', async () => {
    // The fixture's sales as typed Arrow columns: numbers as doubles, the online flag as a boolean, the rest text.
    const [header, ...lines] = readFileSync(join(CSV, 'transactions', 'Sales.csv'), 'utf8')
      .trim()
      .split('\n');
    const names = header.split(',');
    const cells = lines.map((l) => l.split(','));
    const numeric = /^(lineNumber|quantity\w+|\w+Amount\w*|vatPercentage|costPrice)$/;
    const arrowFile = (name: string, vatOf: (salesLineId: string, vat: number) => number) => {
      const column = (c: number) => {
        const values = cells.map((row) => row[c]);
        if (names[c] === 'online')
          return vectorFromArray(
            values.map((v) => v === 'true'),
            new Bool(),
          );
        if (names[c] === 'vatPercentage')
          return vectorFromArray(
            cells.map((row) => vatOf(row[names.indexOf('salesLineId')], Number(row[c]))),
            new Float64(),
          );
        if (numeric.test(names[c])) return vectorFromArray(values.map(Number), new Float64());
        // Ids of their own: the sales of the other file loads stay apart.
        if (names[c] === 'salesId' || names[c] === 'salesLineId')
          return vectorFromArray(
            values.map((v) => `AR-${v}`),
            new Utf8(),
          );
        return vectorFromArray(values, new Utf8());
      };
      const table = new Table(Object.fromEntries(names.map((n, c) => [n, column(c)])));
      return { name, base64: Buffer.from(tableToIPC(table, 'file')).toString('base64') };
    };
    const bad = arrowFile('Sales.arrow', (id, vat) => (id === 'R-1001-2' ? 121 : vat));
    await expectVat121Refused(bad);
    expect((await t.call('GET', '/_workbench/data/Sales/AR-R-1002')).status).toBe(404);
    const loaded = await t.call('POST', '/_workbench/load/files', { files: [arrowFile('Sales.feather', (_, v) => v)] });
    expect(loaded.json.batches).toMatchObject([{ dataset: 'Sales', files: ['Sales.feather'], records: 3 }]);
    const sale = (await t.call('GET', '/_workbench/data/Sales/AR-R-1002')).json;
    expect(sale).toMatchObject({ locationId: 'ST-002', salesDateTime: '2025-03-01T11:02:00.000Z' });
    expect(sale.salesLines).toEqual([
      expect.objectContaining({ salesLineId: 'AR-R-1002-1', quantitySold: 2, salesAmountInclVat: 49.9, online: true }),
    ]);
    expect((await t.call('GET', '/_workbench/data/Sales/AR-R-1001')).json.salesLines).toHaveLength(3);
  });

  it('sends a full load and answers what it deleted', async () => {
    await t.call('POST', '/Locations', { locations: [location('GONE'), location('KEPT')] });
    const res = await t.call('POST', '/_workbench/load/files', {
      files: [{ name: 'Locations.csv', text: 'locationId,code,name\nKEPT,k,Kept store\nNEW,n,New store\n' }],
      fullLoad: true,
    });
    expect(res.json.batches[0].result).toMatchObject({ dataset: 'Locations', created: 1, updated: 1, deleted: 1 });
    expect((await t.call('GET', '/_workbench/data/Locations/GONE')).status).toBe(404);
  });
});

describe('POST /_workbench/load/jobs', () => {
  it('loads in the background: the job tells files done, records and every rejected record once it ends', async () => {
    const start = await t.call('POST', '/_workbench/load/jobs', {
      files: [
        ...picked('transactions/PurchaseOrders.csv'),
        {
          name: 'Sales.csv',
          text: picked('transactions/Sales.csv')[0]
            .text.replace('2025-03-02T09:30:00Z', 'soon')
            .replace(/R-10/g, 'J-10'),
        },
      ],
    });
    expect(start.status).toBe(200);
    expect(start.json).toMatchObject({ jobId: expect.any(String), status: 'running', progress: { files: 2 } });
    let job = start.json;
    while (job.status === 'running') job = (await t.call('GET', `/_workbench/load/jobs/${job.jobId}`)).json;
    expect(job.status).toBe('completed');
    expect(job.progress).toMatchObject({ files: 2, filesDone: 2, records: 3 });
    expect(job.report.rejected).toBe(1);
    const sales = job.report.batches.find((b: { dataset: string }) => b.dataset === 'Sales');
    expect(sales.problems).toEqual([
      {
        path: '/sales/2/salesDateTime',
        recordId: 'J-1003',
        file: 'Sales.csv',
        row: 5,
        column: 'salesDateTime',
        message: '"soon" is not an ISO 8601 datetime (for example 2024-03-01T10:15:00.000Z)',
      },
    ]);
    expect((await t.call('GET', '/_workbench/data/Sales/J-1001')).status).toBe(404);
    expect((await t.call('GET', '/_workbench/data/PurchaseOrders/PO-501')).status).toBe(200);
    expect((await t.call('GET', '/_workbench/load/jobs/load-999')).status).toBe(404);
  });
});

describe('POST /_workbench/load/check', () => {
  it('lists the first 1,000 problems of a refused batch, and every one when asked', async () => {
    const header = 'salesId,salesDateTime,currencyCode,locationId,salesLineId,skuId,lineNumber,salesAmountInclVat,';
    const rows = Array.from({ length: 1500 }, (_, i) => `C${i},2025-03-01,LOCAL,L1,C${i}-1,K1,1,10,121,no,1`);
    const files = [{ name: 'Sales.csv', text: [`${header}vatPercentage,online,quantitySold`, ...rows].join('\n') }];
    const capped = await t.call('POST', '/_workbench/load/check', { files });
    expect(capped.status).toBe(200);
    expect([capped.json.batches[0].problems.length, capped.json.batches[0].problemCount]).toEqual([1000, 1500]);
    const every = await t.call('POST', '/_workbench/load/check', { files, allProblems: true });
    const [batch] = every.json.batches;
    expect([batch.problems.length, batch.problemCount]).toEqual([1500, 1500]);
    expect(batch.problems[1499]).toMatchObject({ file: 'Sales.csv', row: 1501, column: 'vatPercentage' });
    // What the load would say once, beside its refusal: the fields the file has no column for.
    expect(batch.warnings.map((w: { message: string }) => w.message.slice(0, 36))).toEqual([
      'no column gives originalSalesAmountI',
      'no column gives quantityTransferred:',
      'no column gives quantityCancelled: s',
    ]);
  });
});
