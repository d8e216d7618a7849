import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN, SOURCE_BIN } from './workbench-bin.js';
import { DuckDBInstance } from '@duckdb/node-api';
import { Float64, Table, tableFromIPC, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { Workbench } from '../engine/service/workbench.js';
import { datasetFromFileName } from '../engine/ingest/file-dataset.js';
import { item, location, sale, salesLine, useTempDirs } from './fixtures.js';
import { appRoot } from '../engine/service/app-root.js';
import { DEMO_DIR } from '../engine/service/demo.js';
import { pathToFileURL } from 'node:url';

const run = promisify(execFile);

async function workbench(args: string[], bin = BIN): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { encoding: 'utf8' });
    return { code: 0, out: stdout + stderr };
  } catch (e: any) {
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

const tempDir = useTempDirs('wb-cli-');

async function counts(ws: string): Promise<Record<string, number>> {
  const wb = await Workbench.open(ws);
  try {
    return Object.fromEntries((await wb.summary()).filter((s) => s.live).map((s) => [s.dataset, s.live]));
  } finally {
    await wb.close();
  }
}

/** Writes two Locations files to `src`, A's and B's, where B lacks its required fields; answers their paths. */
function locationsOneBad(src: string): string[] {
  writeFileSync(join(src, 'Locations-1.json'), JSON.stringify({ locations: [location('A')] }));
  writeFileSync(join(src, 'Locations-2.json'), JSON.stringify({ locations: [{ locationId: 'B' }] }));
  return [join(src, 'Locations-1.json'), join(src, 'Locations-2.json')];
}

describe('workbench load', () => {
  it('names the endpoint from the file name, a flag, or the body', () => {
    expect(datasetFromFileName('/x/Sales-0001.json')?.name).toBe('Sales');
    expect(datasetFromFileName('stock.json')?.name).toBe('Stock');
    expect(datasetFromFileName('StockMutations_2024.json')?.name).toBe('StockMutations');
    expect(datasetFromFileName('MerchandiseCategorySettings.json')?.name).toBe('MerchandiseCategorySettings');
    expect(datasetFromFileName('Stockholm.json')).toBeUndefined();
  });

  const loadTitle =
    'loads files and folders, reports a rejected file with its errors, and leaves the workspace as it was';
  it(loadTitle, async () => {
    const src = tempDir();
    const ws = join(tempDir(), 'ws');
    mkdirSync(join(src, 'feed'));
    writeFileSync(join(src, 'feed', 'Locations.json'), JSON.stringify({ locations: [location('A'), location('B')] }));
    writeFileSync(join(src, 'feed', 'export.json'), JSON.stringify({ brands: [{ brandId: 'BR', code: 'BR' }] }));
    writeFileSync(join(src, 'Sales-0001.json'), JSON.stringify({ sales: [sale('S1'), sale('S2')] }));
    writeFileSync(
      join(src, 'Sales-0002.json'),
      JSON.stringify({ sales: [sale('S3'), sale('S4', undefined, { locationId: '' })] }),
    );

    // The command as shipped (bin/workbench.mjs, through tsx), as `npx workbench` runs it.
    const r = await workbench(
      ['load', '--workspace', ws, join(src, 'feed'), join(src, 'Sales-0001.json'), join(src, 'Sales-0002.json')],
      SOURCE_BIN,
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/REJECTED .*Sales-0002\.json \(Sales\): rejected, nothing of it applied: 1 error/);
    expect(r.out).toContain('/sales/1/locationId [S4]: must not be empty');
    expect(r.out).toMatch(/5 records from 3 of 4 files/);
    expect(await counts(ws)).toEqual({ Brands: 1, Locations: 2, Sales: 2 });
  });

  it('sends a full load split over the files of a dataset, and abandons it when a file is rejected', async () => {
    const src = tempDir();
    const ws = join(tempDir(), 'ws');
    writeFileSync(join(src, 'Locations-1.json'), JSON.stringify({ locations: [location('OLD')] }));
    expect((await workbench(['load', '-w', ws, '-q', join(src, 'Locations-1.json')])).code).toBe(0);

    const files = locationsOneBad(src);
    const fullLoad = () => workbench(['load', '-w', ws, '--full-load', ...files]);
    expect((await fullLoad()).code).toBe(1);
    expect(await counts(ws)).toEqual({ Locations: 1 });

    writeFileSync(join(src, 'Locations-2.json'), JSON.stringify({ locations: [location('B')] }));
    expect((await fullLoad()).code).toBe(0);
    const wb = await Workbench.open(ws);
    expect((await wb.list('Locations')).records.map((l) => l.locationId)).toEqual(['A', 'B']);
    await wb.close();
  });

  it('loads nothing with --only-if-all-pass when one file would be refused', async () => {
    const src = tempDir();
    const ws = join(tempDir(), 'ws');
    const files = locationsOneBad(src);
    const all = await workbench(['load', '-w', ws, '-q', '--only-if-all-pass', ...files]);
    expect(all.code).toBe(1);
    expect(all.out).toMatch(/Locations-1\.json \(Locations\): not loaded: it passes/);
    expect(await counts(ws)).toEqual({});
    expect((await workbench(['load', '-w', ws, '-q', ...files])).code).toBe(1);
    expect(await counts(ws)).toEqual({ Locations: 1 });
  });

  it('explains a file it cannot place and an unknown dataset flag', async () => {
    const src = tempDir();
    const ws = join(tempDir(), 'ws');
    writeFileSync(join(src, 'data.json'), JSON.stringify({ things: [] }));
    const r = await workbench(['load', '-w', ws, join(src, 'data.json')]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/cannot tell which endpoint \S+\.json is for: .* or pass --dataset/);
    const f = await workbench(['load', '-w', ws, '--dataset', 'Nope', join(src, 'data.json')]);
    expect(f.code).toBe(2);
    expect(f.out).toMatch(/--dataset Nope: unknown/);
  });
});

describe('workbench load with CSV', () => {
  const CSV = join(process.cwd(), 'test', 'fixtures', 'csv');

  it('loads a folder of level files and a sales-lines file, mapped by header and by --map', async () => {
    const ws = join(tempDir(), 'ws');
    const r = await workbench([
      'load',
      '-w',
      ws,
      '--map',
      join(CSV, 'items-mapping.json'),
      join(CSV, 'items'),
      join(CSV, 'transactions'),
    ]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^Items\s+3\s+3\s+3\s+0\s+0\s+0\s+0$/m);
    expect(r.out).toMatch(/^Sales\s+1\s+3\s+3\s/m);
    expect(r.out).toMatch(/9 records from 5 of 5 files/);
    expect(await counts(ws)).toEqual({ Items: 3, PurchaseOrders: 3, Sales: 3 });
  });

  const csvRejectTitle =
    'rejects a dataset whose CSV lacks a required field, names the file, ' +
    'row and column of bad cells, and applies nothing of it';
  it(csvRejectTitle, async () => {
    const src = tempDir();
    const ws = join(tempDir(), 'ws');
    // Split by semicolons, the file may write 52,2 for 52.2 (L2); 52°N (L1) is no number at all.
    writeFileSync(join(src, 'Locations.csv'), 'locationId;code;name;latitude\nL1;c1;One;52°N\nL2;c2;Two;52,2\n');
    const r = await workbench(['load', '-w', ws, join(CSV, 'items'), join(src, 'Locations.csv')]);
    expect(r.code).toBe(1);
    const itemsRejected = new RegExp(
      'REJECTED \\S+items\\.csv, \\S+skus\\.csv, \\S+barcodes\\.csv \\(Items\\): ' +
        'rejected, nothing of it applied: 1 error\\n' +
        ' {2}skus\\.csv: no column is loaded into colorId, which every SKU needs',
    );
    expect(r.out).toMatch(itemsRejected);
    expect(r.out).toContain(
      '  Locations.csv row 2, column "latitude" /locations/0/latitude [L1]: "52°N" is not a number',
    );
    expect(r.out).not.toContain('row 3');
    expect(await counts(ws)).toEqual({});
  });

  it('loads a folder holding Parquet and Arrow files, naming a bad cell by file, row and column', async () => {
    const src = tempDir();
    const ws = join(tempDir(), 'ws');
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    await db.run(`COPY (SELECT * FROM read_csv($1)) TO '${join(src, 'Sales.parquet')}' (FORMAT parquet)`, [
      join(CSV, 'transactions', 'Sales.csv'),
    ]);
    db.closeSync();
    const locations = new Table({
      locationId: vectorFromArray(['L1', 'L2'], new Utf8()),
      code: vectorFromArray(['c1', 'c2'], new Utf8()),
      name: vectorFromArray(['One', 'Two'], new Utf8()),
      latitude: vectorFromArray([52.1, 152.2], new Float64()),
    });
    writeFileSync(join(src, 'Locations.feather'), tableToIPC(locations, 'file'));
    const r = await workbench(['load', '-w', ws, src]);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/^Sales\s+1\s+3\s+3\s/m);
    expect(r.out).toMatch(/Locations\.feather row 2, column "latitude" \/locations\/1\/latitude \[L2\]: is 152\.2/);
    expect(await counts(ws)).toEqual({ Sales: 3 });
  });

  const exportTitle =
    "loads a retailer's spreadsheet export on the first try with its mapping file, telling each rule once";
  it(exportTitle, async () => {
    const ws = join(tempDir(), 'ws');
    const r = await workbench([
      'load',
      '-w',
      ws,
      '--map',
      join(CSV, 'export-mapping.json'),
      join(CSV, 'export', 'Sales-export.csv'),
    ]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^Sales\s+1\s+4\s+4\s+0\s+0\s+0\s+5$/m);
    const warnings = r.out.split('\n').filter((l) => l.startsWith('warning '));
    expect(warnings).toEqual([
      'warning Sales-export.csv, column "Description": is not loaded: no field takes it (map it to one, or to null ' +
        'to leave it out on purpose)',
      expect.stringMatching(/^warning Sales-export\.csv: no column gives originalSalesAmountInclVat: filled from /),
      expect.stringMatching(
        /^warning Sales-export\.csv: no column gives quantityTransferred: filled from quantitySold/,
      ),
      expect.stringMatching(/^warning Sales-export\.csv: no column gives quantityCancelled: set to 0 on every row/),
      expect.stringMatching(/^warning Sales-export\.csv: 1 sale has fields that differ between their rows/),
    ]);
    expect(await counts(ws)).toEqual({ Sales: 4 });
  });

  it('writes every problem of a rejected file to --errors as CSV, past the ones it prints', async () => {
    const src = tempDir();
    const ws = join(tempDir(), 'ws');
    const rows = Array.from({ length: 30 }, (_, i) => `L${i};c${i};Store, "${i}";${i < 25 ? `${i}°N` : '52,1'}`);
    writeFileSync(join(src, 'Locations.csv'), ['locationId;code;name;latitude', ...rows].join('\n'));
    writeFileSync(join(src, 'Brands.json'), '{"brands": [');
    const errors = join(src, 'errors.csv');
    const r = await workbench(['load', '-w', ws, '--errors', errors, src]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('  … and 5 more');
    expect(r.out).toContain(`every problem written to ${errors} (26 rows)`);
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    const read = await db.runAndReadAll(
      `SELECT * FROM read_csv($1, header = true, all_varchar = true, quote = '"', escape = '"')`,
      [errors],
    );
    db.closeSync();
    const table = read.getRowObjects();
    expect(read.columnNames()).toEqual(['file', 'row', 'column', 'path', 'recordId', 'message']);
    expect(table).toHaveLength(26);
    expect(table[0]).toEqual({
      file: join(src, 'Brands.json'),
      row: null,
      column: null,
      path: null,
      recordId: null,
      message: expect.stringMatching(/^not JSON: /),
    });
    expect(table[25]).toEqual({
      file: join(src, 'Locations.csv'),
      row: '26',
      column: 'latitude',
      path: '/locations/24/latitude',
      recordId: 'L24',
      message: '"24°N" is not a number (write decimals with a comma or a dot and no thousands separators, e.g. 1234,5)',
    });
    expect(await counts(ws)).toEqual({});
  });

  it('refuses a mapping file that is not one', async () => {
    const src = tempDir();
    writeFileSync(join(src, 'map.json'), JSON.stringify({ 'skus.csv': { columns: { colour: 3 } } }));
    const r = await workbench([
      'load',
      '-w',
      join(tempDir(), 'ws'),
      '--map',
      join(src, 'map.json'),
      join(CSV, 'items'),
    ]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/--map \S+map\.json: the column mapping is not valid: \/skus\.csv\/columns\/colour: /);
  });
});

describe('workbench export', () => {
  it('writes a part of a run as Arrow IPC holding the rows and columns of its CSV export', async () => {
    const ws = join(tempDir(), 'ws');
    const out = tempDir();
    const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
    const wb = await Workbench.open(ws);
    let runId: string;
    try {
      await wb.ingest('Locations', { locations: [location('L1'), location('L2')] });
      await wb.ingest('Items', { items: [item('I1', ['SKU1'])] });
      await wb.ingest('Stock', {
        stock: ['L1', 'L2'].map((l) => ({
          locationId: l,
          skuId: 'SKU1',
          quantity: 6,
          stockDateTime: '2024-02-20T00:00:00Z',
        })),
      });
      await wb.ingest('Sales', {
        sales: ['2024-03-01', '2024-03-05', '2024-03-10'].map((d, i) =>
          sale(`EX-${i}`, [salesLine(`EX-${i}-1`, 'SKU1', 2)], {
            salesDateTime: `${d}T12:00:00Z`,
            locationId: `L${1 + (i % 2)}`,
          }),
        ),
      });
      runId = (await wb.runBacktest({ fromDay: day('2024-03-01'), toDay: day('2024-03-10'), inProcess: true })).run
        .runId;
    } finally {
      await wb.close();
    }
    const csvFile = join(out, 'daily.csv');
    const arrowFile = join(out, 'daily.arrow');
    expect(await workbench(['export', '-w', ws, runId, csvFile, '--part', 'daily'])).toMatchObject({ code: 0 });
    const arrowRun = await workbench(['export', '-w', ws, runId, arrowFile, '--part', 'daily', '--format', 'arrow']);
    expect(arrowRun.code, arrowRun.out).toBe(0);
    expect(arrowRun.out).toContain(`written daily of ${runId} to ${arrowFile}`);

    const [header, ...lines] = readFileSync(csvFile, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(10 * 2);
    const table = tableFromIPC(readFileSync(arrowFile));
    expect(table.schema.fields.map((f) => f.name).join(',')).toBe(header);
    expect(table.numRows).toBe(lines.length);
    // Every row the same: the date as a date, the side as text, each figure the number the CSV holds (or none).
    const fields = table.schema.fields.map((f) => f.name);
    lines.forEach((line, i) => {
      const [date, side, ...figures] = line.split(',');
      const row = table.get(i)!.toJSON();
      expect(new Date(row.date as number).toISOString().slice(0, 10), `row ${i}`).toBe(date);
      expect(row.side).toBe(side);
      expect(fields.slice(2).map((f) => row[f])).toEqual(figures.map((c) => (c === '' ? null : Number(c))));
    });
    expect(
      lines.some((l) =>
        l
          .split(',')
          .slice(2)
          .some((c) => c !== '' && Number(c) !== 0),
      ),
    ).toBe(true);
  });
});

describe('the files the workbench ships', () => {
  it('are found from the sources, the built command and the app bundle alike', () => {
    const root = process.cwd();
    for (const at of ['engine/service/demo.ts', 'engine/cli.ts', 'out-cli/chunk-ABC.mjs', 'out/main/index.js'])
      expect(appRoot(pathToFileURL(join(root, at)).href), at).toBe(root);
    expect(DEMO_DIR).toBe(join(root, 'samples', 'demo'));
  });
});
