/**
 * bench:recommend — one recommendation run on a generated workspace of 100 stores × 5,000 SKUs × 730 days
 * (prepared once under .workspaces/, reused afterwards). The run is measured in a fresh process so its peak
 * RSS is the run's own. Budget (issue 4): ≤ 5 s.
 */
import { spawnSync } from 'node:child_process';
import { Workbench } from '../../engine/service/workbench.js';
import { BIG_WORKSPACE as WS, DAYS, prepareBigWorkspace, ROOT, SKUS, STORES } from './big-workspace.js';
import { machine } from './machine.js';

if (process.argv[2] === '--measure') {
  const t0 = performance.now();
  const wb = await Workbench.open(WS);
  const opened = performance.now();
  const summary = await wb.runRecommendations();
  const ran = performance.now();
  await wb.close();
  process.stdout.write(
    JSON.stringify({ openMs: opened - t0, runMs: ran - opened, summary, maxRssKb: process.resourceUsage().maxRSS }),
  );
  process.exit(0);
}

await prepareBigWorkspace();

const r = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--measure'], {
  cwd: ROOT,
  encoding: 'utf8',
  env: process.env,
});
if (r.status !== 0) throw new Error(`measure run failed: ${r.stderr}`);
const m = JSON.parse(r.stdout);
console.log(machine());
console.log(`bench:recommend — ${STORES} stores × ${SKUS} SKUs × ${DAYS} days of history (${WS})`);
console.log(
  `one run (state from the workspace, engine, proposals stored): ${(m.runMs / 1000).toFixed(2)} s; ` +
    `workspace open ${(m.openMs / 1000).toFixed(2)} s`,
);
console.log(`proposals ${m.summary.proposals}: ${JSON.stringify(m.summary.byType)}`);
console.log(`peak RSS ${(m.maxRssKb / 1024).toFixed(0)} MiB`);
console.log(`budget ≤ 5 s: ${m.runMs <= 5000 ? 'met' : 'NOT met'}`);
