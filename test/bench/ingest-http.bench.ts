/**
 * bench:ingest-http — the service's ingest over HTTP as a black box, against DuckDB's own `read_json` reading the
 * same files, in the same run. 100,000 sales lines as 10 files of 2,000 sales × 5 lines are POSTed one after the
 * other to `workbench serve` in its own process (validated, upserted, logged: everything an integrator's call
 * gets); DuckDB reads the same 10 files into two flat tables (sales, and their lines) in a database file of its own.
 * It prints both rates and their ratio (goal: HTTP ≤ 1.2 × read_json). The server writes its log into its tables
 * (a checkpoint) once it falls idle, not within a call: each round's read_json runs first, and the bench waits for
 * that checkpoint to end before the next round, printing how long it still ran.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { setTimeout as sleep } from 'node:timers/promises';
import { IDLE_CHECKPOINT_MS } from '../../engine/store/workspace.js';
import { apiClient, spawnServe } from '../serve-process.js';
import { salesPayload } from './payloads.js';
import { machine } from './machine.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FILES = 10;
const SALES = 2_000;
const LINES = 5;
const CREDENTIALS = { tenant: 'BENCH', clientId: 'workbench', clientSecret: 'bench' };
const lines = FILES * SALES * LINES;

const dir = mkdtempSync(join(tmpdir(), 'bench-ingest-http-'));

/** A round's files: ids of their own, so that every round inserts rather than replaces. */
function writeRound(round: number): string[] {
  const at = join(dir, `round-${round}`);
  mkdirSync(at);
  return Array.from({ length: FILES }, (_, f) => {
    const file = join(at, `Sales-${String(f + 1).padStart(4, '0')}.json`);
    writeFileSync(file, JSON.stringify(salesPayload(round * FILES + f, SALES, LINES)));
    return file;
  });
}

const server = await spawnServe(join(dir, 'workspace'), CREDENTIALS);
const api = apiClient(server.url, CREDENTIALS);
// The token is asked for before the first timed call.
await api.call('GET', '/_workbench/summary');

const duck = await DuckDBInstance.create(join(dir, 'read-json.duckdb'));
const db = await duck.connect();

async function overHttp(files: string[]): Promise<number> {
  const t = performance.now();
  for (const file of files) {
    const res = await api.call('POST', '/Sales', readFileSync(file), { 'content-type': 'application/json' });
    if (res.status !== 200) throw new Error(`POST /Sales answered ${res.status}: ${res.text}`);
  }
  return performance.now() - t;
}

/**
 * Once the server has fallen idle and begun its checkpoint, how much longer a call waits than the same call made
 * before it fell idle: what was left of the checkpoint.
 */
async function settle(): Promise<number> {
  const call = async () => {
    const t = performance.now();
    await api.call('GET', '/_workbench/summary');
    return performance.now() - t;
  };
  const busy = await call();
  await sleep(IDLE_CHECKPOINT_MS + 100);
  return Math.max(0, (await call()) - busy);
}

async function readJson(round: number): Promise<number> {
  const glob = join(dir, `round-${round}`, '*.json').replaceAll("'", "''");
  const t = performance.now();
  await db.run(`DROP TABLE IF EXISTS sales; DROP TABLE IF EXISTS sales_lines`);
  await db.run(`
    CREATE TEMP TABLE raw AS
      SELECT unnest(sales) AS s FROM read_json('${glob}', maximum_object_size = 1073741824)`);
  await db.run(`
    CREATE TABLE sales AS
      SELECT s.salesId, s.code, s.salesDateTime::TIMESTAMP AS salesDateTime, s.currencyCode, s.locationId FROM raw`);
  await db.run(`
    CREATE TABLE sales_lines AS
      SELECT salesId, unnest(lines, recursive := true)
      FROM (SELECT s.salesId AS salesId, unnest(s.salesLines) AS lines FROM raw)`);
  await db.run(`DROP TABLE raw`);
  const ms = performance.now() - t;
  const counted = Number((await db.runAndReadAll('SELECT count(*) FROM sales_lines')).getRows()[0][0]);
  if (counted !== lines) throw new Error(`read_json read ${counted} lines of ${lines}`);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (ms: number) => `${Math.round(lines / (ms / 1000)).toLocaleString('en')} lines/s`;
console.log(machine());
console.log(
  `bench:ingest-http — ${lines.toLocaleString('en')} sales lines as ${FILES} files of ${SALES} sales × ${LINES} ` +
    `lines, ${ROUNDS} rounds; server process at ${server.url}`,
);
const httpMs: number[] = [];
const duckMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const files = writeRound(round);
  // read_json first: the server's checkpoint, and the writing back of its file, must not fall in its time.
  duckMs.push(await readJson(round));
  httpMs.push(await overHttp(files));
  const idle = await settle();
  console.log(
    `round ${round + 1}: HTTP POST /Sales ${httpMs[round].toFixed(0)} ms (${rate(httpMs[round])}), ` +
      `read_json ${duckMs[round].toFixed(0)} ms (${rate(duckMs[round])}); the idle checkpoint after the calls ` +
      `held a call ${idle.toFixed(0)} ms more`,
  );
}
const h = median(httpMs);
const d = median(duckMs);
console.log('');
console.log(`HTTP POST /Sales, median: ${h.toFixed(0)} ms, ${rate(h)}`);
console.log(`DuckDB read_json into sales + lines, median: ${d.toFixed(0)} ms, ${rate(d)}`);
console.log(`ratio HTTP / read_json: ${(h / d).toFixed(2)} (goal ≤ 1.2: ${h / d <= 1.2 ? 'met' : 'NOT met'})`);

await server.stop('SIGTERM');
db.closeSync();
duck.closeSync();
rmSync(dir, { recursive: true, force: true });
