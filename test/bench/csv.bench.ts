/**
 * bench:csv — a sales-lines CSV (10,000 sales × 3 lines, one row per line) through the service's file load, against
 * the same sales as an API-shaped JSON body through `ingest`, in the same run; with the time DuckDB takes to read
 * the file and the time the rows take to become records. Prints figures only.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbench } from '../../engine/service/workbench.js';
import { readCsv } from '../../engine/ingest/csv/read.js';
import { detectLevel } from '../../engine/ingest/csv/mapping.js';
import { resolveColumns } from '../../engine/ingest/csv/resolve.js';
import { assemble } from '../../engine/ingest/csv/assemble.js';
import { getDataset } from '../../engine/model/datasets.js';
import { salesPayload } from './payloads.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SALES = 10_000;
const LINES = 3;
const HEADER = [
  'salesId',
  'code',
  'salesDateTime',
  'currencyCode',
  'locationId',
  'salesLineId',
  'skuId',
  'lineNumber',
  'originalSalesAmountInclVat',
  'salesAmountInclVat',
  'vatPercentage',
  'costPrice',
  'online',
  'quantitySold',
  'quantityTransferred',
  'quantityCancelled',
];

/** The payload's sales as one row per line, the sale's fields repeated on each. */
function salesCsv(round: number, jsonRound: number): { csv: string; json: string } {
  const rows = [HEADER.join(',')];
  for (const s of salesPayload(round, SALES, LINES).sales) {
    for (const l of s.salesLines as Record<string, unknown>[])
      rows.push(HEADER.map((h) => String(l[h] ?? s[h])).join(','));
  }
  return { csv: `${rows.join('\n')}\n`, json: JSON.stringify(salesPayload(jsonRound, SALES, LINES)) };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-csv-'));
const csvWb = await Workbench.open(join(dir, 'csv'));
const jsonWb = await Workbench.open(join(dir, 'json'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const loadMs: number[] = [];
const readMs: number[] = [];
const assembleMs: number[] = [];
const jsonMs: number[] = [];

console.log(
  `bench:csv — ${SALES} sales × ${LINES} lines per file (one row per line), ${ROUNDS} rounds, ` +
    `file-backed workspaces in ${dir}`,
);
try {
  for (let round = 0; round < ROUNDS; round++) {
    const { csv, json } = salesCsv(round, round + 1000);
    const file = join(dir, `Sales-${round}.csv`);
    writeFileSync(file, csv);

    let t = performance.now();
    const table = await readCsv({ name: file, path: file });
    readMs.push(performance.now() - t);
    t = performance.now();
    const sales = getDataset('Sales');
    const level = detectLevel(file, table.headers);
    const built = assemble(sales, [{ table, resolved: resolveColumns(file, level, table) }]);
    assembleMs.push(performance.now() - t);
    if (built.records !== SALES || built.problemCount)
      throw new Error(`assembled ${built.records} sales with ${built.problemCount} problems`);

    t = performance.now();
    const report = await csvWb.loadFiles([{ name: file, path: file }]);
    loadMs.push(performance.now() - t);
    if (report.batches[0]?.result?.created !== SALES) throw new Error(`CSV load: ${JSON.stringify(report.batches[0])}`);

    t = performance.now();
    await jsonWb.ingest('Sales', JSON.parse(json));
    jsonMs.push(performance.now() - t);
    console.log(
      `round ${round}: CSV file load ${loadMs[round].toFixed(0)} ms ` +
        `(read ${readMs[round].toFixed(0)} ms, rows → records ${assembleMs[round].toFixed(0)} ms); ` +
        `JSON ingest ${jsonMs[round].toFixed(0)} ms`,
    );
  }
  const lines = SALES * LINES;
  const perSecond = (ms: number) => Math.round(lines / (ms / 1000)).toLocaleString('en');
  console.log(
    `median CSV file load ${median(loadMs).toFixed(0)} ms ≈ ${perSecond(median(loadMs))} sales lines/s` +
      ` (DuckDB read ${median(readMs).toFixed(0)} ms, rows → records ${median(assembleMs).toFixed(0)} ms);` +
      ` JSON ingest of the same sales ${median(jsonMs).toFixed(0)} ms ≈ ${perSecond(median(jsonMs))} lines/s; ` +
      `ratio ${(median(loadMs) / median(jsonMs)).toFixed(2)}`,
  );
} finally {
  await csvWb.close();
  await jsonWb.close();
  rmSync(dir, { recursive: true, force: true });
}
