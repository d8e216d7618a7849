/**
 * bench:recommend — one recommendation run on a generated workspace of 100 stores × 5,000 SKUs × 730 days
 * (prepared once under .workspaces/, reused afterwards). The run is measured in a fresh process so its peak
 * RSS is the run's own. Budget (issue 4): ≤ 5 s.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Workbench } from '../../engine/service/workbench.js';

const ROOT = join(import.meta.dirname, '../..');
const STORES = Number(process.env.BENCH_STORES ?? 100);
const SKUS = Number(process.env.BENCH_SKUS ?? 5000);
const DAYS = Number(process.env.BENCH_DAYS ?? 730);
const WS = join(ROOT, '.workspaces', `bench-${STORES}x${SKUS}x${DAYS}`);

if (process.argv[2] === '--measure') {
  const t0 = performance.now();
  const wb = await Workbench.open(WS);
  const opened = performance.now();
  const summary = await wb.runRecommendations();
  const ran = performance.now();
  await wb.close();
  process.stdout.write(JSON.stringify({ openMs: opened - t0, runMs: ran - opened, summary, maxRssKb: process.resourceUsage().maxRSS }));
  process.exit(0);
}

if (!existsSync(join(WS, 'workspace.duckdb'))) {
  const data = `${WS}-data`;
  console.log(`preparing ${WS} (once): generating ${STORES} stores × ${SKUS} SKUs × ${DAYS} days …`);
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'samples/generate.ts'), '--out', data, '--stores', String(STORES), '--skus', String(SKUS), '--days', String(DAYS)], { stdio: 'inherit', cwd: ROOT });
  console.log('loading it through the service …');
  const t = performance.now();
  execFileSync(process.execPath, [join(ROOT, 'bin/workbench.mjs'), 'load', '-q', '-w', WS, data], { stdio: 'inherit', cwd: ROOT });
  console.log(`loaded in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  rmSync(data, { recursive: true, force: true });
}

const r = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--measure'], { cwd: ROOT, encoding: 'utf8', env: process.env });
if (r.status !== 0) throw new Error(`measure run failed: ${r.stderr}`);
const m = JSON.parse(r.stdout);
console.log(`bench:recommend — ${STORES} stores × ${SKUS} SKUs × ${DAYS} days of history (${WS})`);
console.log(`one run (state from the workspace, engine, proposals stored): ${(m.runMs / 1000).toFixed(2)} s; workspace open ${(m.openMs / 1000).toFixed(2)} s`);
console.log(`proposals ${m.summary.proposals}: ${JSON.stringify(m.summary.byType)}`);
console.log(`peak RSS ${(m.maxRssKb / 1024).toFixed(0)} MiB`);
console.log(`budget ≤ 5 s: ${m.runMs <= 5000 ? 'met' : 'NOT met'}`);
