/**
 * bench:api — POST /Sales with 10,000 sales × 3 lines over loopback to `workbench serve` in its own process
 * (as an integrator's client would reach it), against the same batch through the application service
 * directly, in the same run. Budget (issue 3): HTTP / service ≤ 1.3.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbench } from '../../engine/service/workbench.js';
import { apiClient, spawnServe } from '../serve-process.js';
import { salesPayload } from './payloads.js';
import { machine } from './machine.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SALES = 10_000;
const LINES = 3;
const CREDENTIALS = { tenant: 'BENCH', clientId: 'workbench', clientSecret: 'bench' };

const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
const server = await spawnServe(join(dir, 'http'), CREDENTIALS);
const api = apiClient(server.url, CREDENTIALS);
const direct = await Workbench.open(join(dir, 'direct'));
// The token is asked for before the first timed call.
await api.call('GET', '/_workbench/summary');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const httpMs: number[] = [];
const directMs: number[] = [];
console.log(machine());
console.log(
  `bench:api — POST /Sales, ${SALES} sales × ${LINES} lines per call, ${ROUNDS} rounds, ` +
    `server process at ${server.url}`,
);
for (let round = 0; round < ROUNDS; round++) {
  const text = JSON.stringify(salesPayload(round, SALES, LINES));
  // Both sides start from the serialized batch: the client's bytes, the service's text.
  const bytes = Buffer.from(text);
  let t = performance.now();
  const res = await api.call('POST', '/Sales', bytes, { 'content-type': 'application/json' });
  httpMs.push(performance.now() - t);
  if (res.status !== 200) throw new Error(`POST /Sales answered ${res.status}`);

  t = performance.now();
  await direct.ingest('Sales', JSON.parse(text));
  directMs.push(performance.now() - t);
  console.log(
    `round ${round + 1}: HTTP ${httpMs[round].toFixed(0)} ms, service ${directMs[round].toFixed(0)} ms ` +
      `(${(text.length / 1e6).toFixed(1)} MB)`,
  );
}

const lines = SALES * LINES;
const h = median(httpMs);
const d = median(directMs);
const ratio = h / d;
console.log('');
console.log(
  `HTTP POST /Sales, median: ${h.toFixed(0)} ms per call, ` +
    `${Math.round(lines / (h / 1000)).toLocaleString('en')} sales lines/s`,
);
console.log(
  `service directly, median: ${d.toFixed(0)} ms per call, ` +
    `${Math.round(lines / (d / 1000)).toLocaleString('en')} sales lines/s`,
);
console.log(`ratio HTTP / service: ${ratio.toFixed(2)} (budget ≤ 1.3: ${ratio <= 1.3 ? 'met' : 'NOT met'})`);

await server.stop('SIGTERM');
await direct.close();
rmSync(dir, { recursive: true, force: true });
