/**
 * bench:load — clients ingesting at once into `workbench serve` in its own process for a fixed time: sales calls
 * (1,000 sales × 3 lines) and stock calls (2,000 levels), each with ids no other call uses. Prints requests/s,
 * records/s, lines/s, latency percentiles and errors, then checks that the workspace holds exactly the records
 * that were acknowledged. Exits non-zero on any error or any difference.
 *
 *   npm run bench:load [-- --seconds 60 --clients 8]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { apiClient, spawnServe } from '../serve-process.js';
import { salesPayload, stockPayload } from './payloads.js';
import { machine } from './machine.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '60' }, clients: { type: 'string', default: '8' } },
});
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
if (!(SECONDS > 0) || !Number.isInteger(CLIENTS) || CLIENTS < 1)
  throw new Error('--seconds must be a positive number and --clients a whole number ≥ 1');
const SALES = 1_000;
const LINES = 3;
const LEVELS = 2_000;
const CREDENTIALS = { tenant: 'LOAD', clientId: 'load', clientSecret: 'bench-load' };

const dir = mkdtempSync(join(tmpdir(), 'bench-load-'));
const server = await spawnServe(join(dir, 'ws'), CREDENTIALS);
console.log(machine());
console.log(
  `bench:load — ${CLIENTS} clients for ${SECONDS} s against ${server.url}: ` +
    `POST /Sales (${SALES} sales × ${LINES} lines), every fourth call POST /Stock (${LEVELS} levels)`,
);

const latencies: number[] = [];
const acknowledged = { Sales: 0, Stock: 0 };
let lines = 0;
let errors = 0;
let next = 0;
const started = performance.now();
const deadline = started + SECONDS * 1000;

/** One call's body; `n` is unique across all clients, so no two calls share a record id. */
function call(n: number): { dataset: 'Sales' | 'Stock'; body: string; records: number; lines: number } {
  return n % 4 === 3
    ? { dataset: 'Stock', body: JSON.stringify(stockPayload(n, LEVELS)), records: LEVELS, lines: LEVELS }
    : { dataset: 'Sales', body: JSON.stringify(salesPayload(n, SALES, LINES)), records: SALES, lines: SALES * LINES };
}

async function client(): Promise<void> {
  const api = apiClient(server.url, CREDENTIALS);
  await api.token();
  while (performance.now() < deadline) {
    const c = call(next++);
    const t = performance.now();
    try {
      const res = await api.call('POST', `/${c.dataset}`, c.body, { 'content-type': 'application/json' });
      latencies.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${res.status} ${res.text.slice(0, 300)}`);
      acknowledged[c.dataset] += c.records;
      lines += c.lines;
    } catch (e) {
      if (errors++ < 5) console.error(`POST /${c.dataset}: ${(e as Error).message}`);
    }
  }
}

const progress = setInterval(() => {
  const s = (performance.now() - started) / 1000;
  console.log(
    `  ${s.toFixed(0).padStart(3)} s: ${latencies.length} requests, ` +
      `${Math.round(lines / s).toLocaleString('en')} lines/s`,
  );
}, 10_000);
await Promise.all(Array.from({ length: CLIENTS }, client));
clearInterval(progress);
const seconds = (performance.now() - started) / 1000;

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const records = acknowledged.Sales + acknowledged.Stock;

// Stored must equal acknowledged: every id was sent once, so any difference is a record lost or doubled.
const summary = (await apiClient(server.url, CREDENTIALS).call('GET', '/_workbench/summary')).json as {
  dataset: string;
  live: number;
}[];
const stored = (d: string) => summary.find((s) => s.dataset === d)?.live ?? 0;
const differences = (['Sales', 'Stock'] as const).filter((d) => stored(d) !== acknowledged[d]);

console.log('');
console.log(
  `requests: ${latencies.length} in ${seconds.toFixed(1)} s = ${(latencies.length / seconds).toFixed(1)} requests/s`,
);
console.log(
  `records:  ${records.toLocaleString('en')} = ${Math.round(records / seconds).toLocaleString('en')} records/s; ` +
    `lines (sales lines + stock levels): ${Math.round(lines / seconds).toLocaleString('en')} lines/s`,
);
console.log(
  `latency:  p50 ${pct(50).toFixed(0)} ms, p95 ${pct(95).toFixed(0)} ms, p99 ${pct(99).toFixed(0)} ms, ` +
    `max ${sorted[sorted.length - 1]?.toFixed(0)} ms`,
);
console.log(`errors:   ${errors}`);
console.log(
  `stored:   Sales ${stored('Sales').toLocaleString('en')} ` +
    `of ${acknowledged.Sales.toLocaleString('en')} acknowledged, ` +
    `Stock ${stored('Stock').toLocaleString('en')} of ${acknowledged.Stock.toLocaleString('en')} ` +
    '(records lost or doubled: ' +
    `${differences.length ? differences.map((d) => `${d} ${stored(d) - acknowledged[d]}`).join(', ') : 0})`,
);

await server.stop('SIGTERM');
rmSync(dir, { recursive: true, force: true });
if (errors || differences.length || latencies.length === 0) {
  console.error('bench:load FAILED: the load must hold with no error and every acknowledged record stored');
  process.exit(1);
}
