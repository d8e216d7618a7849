/**
 * bench:ingest — 10,000 sales × 3 lines per call through the application service into a file-backed
 * workspace, against DuckDB's own read_json of the same payload into the same tables (the file read once), in the
 * same run.
 * Budget: ratio ≤ 1.5 and ≥ 150,000 sales lines/s.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbench } from '../../engine/service/workbench.js';
import { getDataset } from '../../engine/model/datasets.js';
import { allTables, q, tableColumns, tablePlan } from '../../engine/store/table-plan.js';
import { salesPayload } from './payloads.js';
import { machine } from './machine.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SALES = 10_000;
const LINES = 3;

const dir = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
const service = await Workbench.open(join(dir, 'service'));
const baseline = await Workbench.open(join(dir, 'read_json'));

/**
 * INSERT … SELECT from read_json into the dataset's own tables, columns taken from the same table plan. The file
 * is read and parsed once, into a temporary table both inserts take from, as the service parses each body once.
 */
function readJsonSql(file: string, stampSql: string): string[] {
  const sales = getDataset('Sales');
  const [root, lines] = allTables(tablePlan(sales));
  const src = `read_json(${`'${file}'`}, maximum_object_size = 1073741824)`;
  const rootCols = tableColumns(root, sales).map((c) =>
    c.name === '_updated_at'
      ? stampSql
      : c.name === '_deleted_at'
        ? 'NULL'
        : c.type === 'TIMESTAMP'
          ? `s.${q(c.name)}::TIMESTAMP`
          : `s.${q(c.name)}`,
  );
  const lineCols = tableColumns(lines, sales).map((c) =>
    c.name === '_salesId' ? 'salesId' : c.name === '_ord' ? 'ord - 1' : `l.${q(c.name)}`,
  );
  return [
    `CREATE TEMP TABLE read_sales AS SELECT unnest(sales) AS s FROM ${src}`,
    `INSERT INTO ${q(root.table)} SELECT ${rootCols.join(', ')} FROM read_sales`,
    `INSERT INTO ${q(lines.table)} SELECT ${lineCols.join(', ')} FROM (
       SELECT s.salesId AS salesId, unnest(s.salesLines) AS l, generate_subscripts(s.salesLines, 1) AS ord
       FROM read_sales)`,
    'DROP TABLE read_sales',
  ];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const serviceMs: number[] = [];
const resendMs: number[] = [];
const readJsonMs: number[] = [];
let peakRss = 0;

console.log(machine());
console.log(
  `bench:ingest — ${SALES} sales × ${LINES} lines per call, ${ROUNDS} rounds, file-backed workspaces in ${dir}`,
);
for (let round = 0; round < ROUNDS; round++) {
  const text = JSON.stringify(salesPayload(round, SALES, LINES));
  const file = join(dir, `sales-${round}.json`);
  writeFileSync(file, text);

  let t = performance.now();
  const result = await service.ingest('Sales', JSON.parse(text));
  serviceMs.push(performance.now() - t);
  if (result.created !== SALES) throw new Error(`expected ${SALES} created, got ${JSON.stringify(result)}`);

  t = performance.now();
  await baseline.workspace.transaction(async () => {
    for (const sql of readJsonSql(file, 'now()::TIMESTAMP')) await baseline.workspace.run(sql);
  });
  readJsonMs.push(performance.now() - t);

  // The same batch again: every sale and line replaced (the upsert path with deletes).
  t = performance.now();
  const again = await service.ingest('Sales', JSON.parse(text));
  resendMs.push(performance.now() - t);
  if (again.updated !== SALES) throw new Error(`expected ${SALES} updated, got ${JSON.stringify(again)}`);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  console.log(
    `round ${round + 1}: service ${serviceMs[round].toFixed(0)} ms, resend ${resendMs[round].toFixed(0)} ms, ` +
      `read_json ${readJsonMs[round].toFixed(0)} ms (${(text.length / 1e6).toFixed(1)} MB)`,
  );
}

const [a] = await service.workspace.rows('SELECT count(*)::INTEGER AS n FROM sales__salesLines');
const [b] = await baseline.workspace.rows('SELECT count(*)::INTEGER AS n FROM sales__salesLines');
if (a.n !== b.n) throw new Error(`line counts differ: service ${a.n}, read_json ${b.n}`);

const lines = SALES * LINES;
const svc = median(serviceMs);
const base = median(readJsonMs);
const lps = Math.round(lines / (svc / 1000));
const ratio = svc / base;
console.log('');
console.log(
  `service (parse + validate + upsert), median: ${svc.toFixed(0)} ms per call, ` +
    `${lps.toLocaleString('en')} sales lines/s`,
);
console.log(
  `service resend (replace every sale), median: ${median(resendMs).toFixed(0)} ms per call, ` +
    `${Math.round(lines / (median(resendMs) / 1000)).toLocaleString('en')} sales lines/s`,
);
console.log(
  `DuckDB read_json into the same tables, median: ${base.toFixed(0)} ms per call, ` +
    `${Math.round(lines / (base / 1000)).toLocaleString('en')} sales lines/s`,
);
console.log(
  `ratio service / read_json: ${ratio.toFixed(2)} (budget ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'}); ` +
    `lines/s budget ≥ 150,000: ${lps >= 150_000 ? 'met' : 'NOT met'}`,
);
console.log(`peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);

await service.close();
await baseline.close();
rmSync(dir, { recursive: true, force: true });
