/**
 * bench:csv — two parts, figures only.
 * 1. A sales-lines CSV (10,000 sales × 3 lines, one row per line) through the service's file load, against the same
 *    sales as an API-shaped JSON body through `ingest`, in the same run; with the time DuckDB takes to read the file
 *    and the time the rows take to become records.
 * 2. A messy spreadsheet export of 500,000 sales lines (messy-sales.ts) loaded with its mapping file in a fresh
 *    process, so its peak RSS is the load's own: it must load on the first try.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbench } from '../../engine/service/workbench.js';
import { readCsv } from '../../engine/ingest/csv/read.js';
import { detectLevel } from '../../engine/ingest/csv/mapping.js';
import { resolveColumns } from '../../engine/ingest/csv/resolve.js';
import { assemble } from '../../engine/ingest/csv/assemble.js';
import { getDataset } from '../../engine/model/datasets.js';
import { parseCsvMapping } from '../../engine/ingest/csv/mapping-file.js';
import { salesPayload } from './payloads.js';
import { messyMapping, writeMessySales } from './messy-sales.js';
import { machine } from './machine.js';

const MESSY_LINES = Number(process.env.BENCH_MESSY_LINES ?? 500_000);

/** Part 2's load, in its own process: `--messy FILE MAPPING WORKSPACE`; prints its figures as JSON. */
if (process.argv[2] === '--messy') {
  const [file, mappingFile, ws] = process.argv.slice(3);
  const wb = await Workbench.open(ws);
  const t0 = performance.now();
  const mapping = parseCsvMapping(JSON.parse(readFileSync(mappingFile, 'utf8')));
  const report = await wb.loadFiles([{ name: file, path: file }], { mapping });
  const seconds = (performance.now() - t0) / 1000;
  await wb.close();
  process.stdout.write(JSON.stringify({ seconds, maxRssKb: process.resourceUsage().maxRSS, batch: report.batches[0] }));
  process.exit(0);
}

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

console.log(machine());
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

  const file = join(dir, 'Sales-messy.csv');
  const mappingFile = join(dir, 'mapping.json');
  const { sales, differing } = writeMessySales(file, MESSY_LINES);
  writeFileSync(mappingFile, JSON.stringify(messyMapping('Sales-messy.csv')));
  console.log(
    `messy export: ${MESSY_LINES.toLocaleString('en')} sales lines of ${sales.toLocaleString('en')} sales ` +
      `(${(statSync(file).size / 2 ** 20).toFixed(0)} MiB; day-first dates, decimal comma, three required fields ` +
      `without a column, an unmapped column, ${differing} sales whose lines differ) with its mapping file`,
  );
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, '--messy', file, mappingFile, join(dir, 'messy')],
    { encoding: 'utf8', env: process.env, maxBuffer: 64 * 2 ** 20 },
  );
  if (r.status !== 0) throw new Error(`messy load failed: ${r.stderr}`);
  const m = JSON.parse(r.stdout);
  if (m.batch.error || m.batch.result?.created !== sales)
    throw new Error(`the messy export did not load on the first try: ${JSON.stringify(m.batch).slice(0, 2000)}`);
  console.log(
    `messy export load ${m.seconds.toFixed(1)} s ≈ ${Math.round(MESSY_LINES / m.seconds).toLocaleString('en')} ` +
      `sales lines/s, peak RSS ${(m.maxRssKb / 1024).toFixed(0)} MiB; loaded on the first try with ` +
      `${m.batch.result.warnings.length} warnings, each once for the file:`,
  );
  for (const w of m.batch.result.warnings) console.log(`  ${w.column ? `column "${w.column}": ` : ''}${w.message}`);
} finally {
  await csvWb.close();
  await jsonWb.close();
  rmSync(dir, { recursive: true, force: true });
}
