/**
 * bench:recommend — live recommendation runs on a generated workspace of 100 stores × 5,000 SKUs × 730 days
 * (prepared once under .workspaces/, reused afterwards; measured on a copy, as the runs write to it). In a fresh
 * process: the first run, which derives its days whole; then a day is posted as a feed posts it (the last day's
 * sales again, a day later, and the last count's levels on that day) and the next run measured, which reads only
 * the days since the first (engine/inputs/live-days.ts), against the same run in a workbench opened anew. Its peak
 * RSS is the process's own. Goal (issue 30): the run after a day posted ≤ 1 s.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbench } from '../../engine/service/workbench.js';
import { getDataset } from '../../engine/model/datasets.js';
import { readRecords } from '../../engine/store/read.js';
import { BIG_WORKSPACE, DAYS, prepareBigWorkspace, ROOT, SKUS, STORES } from './big-workspace.js';
import { machine } from './machine.js';

const DAY_MS = 86_400_000;
const later = (iso: string) => new Date(Date.parse(iso) + DAY_MS).toISOString();

/** The last day's sales again a day later (new ids), and the levels of the last count on the day after the sales. */
async function postNextDay(wb: Workbench): Promise<{ sales: number; levels: number }> {
  const ws = wb.workspace;
  const ids = await ws.rows<{ salesId: string }>(
    `SELECT salesId FROM sales WHERE _deleted_at IS NULL
       AND salesDateTime >= (SELECT date_trunc('day', max(salesDateTime)) FROM sales WHERE _deleted_at IS NULL)`,
  );
  const sales = await readRecords(ws, getDataset('Sales'), { keys: ids.map((r) => ({ salesId: r.salesId })) });
  const next = sales.map((s) => ({
    ...s,
    salesId: `${s.salesId}-next`,
    salesDateTime: later(String(s.salesDateTime)),
    salesLines: (s.salesLines as Record<string, unknown>[]).map((l) => ({
      ...l,
      salesLineId: `${l.salesLineId}-next`,
    })),
  }));
  await wb.ingest('Sales', { sales: next });
  const [{ day }] = await ws.rows<{ day: string }>(
    `SELECT strftime(date_trunc('day', max(salesDateTime)), '%Y-%m-%dT00:00:00Z') AS day FROM sales`,
  );
  const levels = await ws.rows<{ locationId: string; skuId: string; quantity: number }>(
    `SELECT locationId, skuId, quantity FROM stock WHERE stockDateTime = (SELECT max(stockDateTime) FROM stock)`,
  );
  await wb.ingest('Stock', { stock: levels.map((r) => ({ ...r, stockDateTime: day })) });
  return { sales: next.length, levels: levels.length };
}

if (process.argv[2] === '--measure') {
  const copy = mkdtempSync(join(tmpdir(), 'bench-recommend-'));
  try {
    cpSync(BIG_WORKSPACE, copy, { recursive: true });
    const t0 = performance.now();
    const wb = await Workbench.open(copy);
    const opened = performance.now();
    const first = await wb.runRecommendations();
    const ran = performance.now();
    const posted = await postNextDay(wb);
    const t1 = performance.now();
    const next = await wb.runRecommendations();
    const t2 = performance.now();
    await wb.close();
    // The same run in a workbench opened anew, as a fresh process would make it: its days derived whole.
    const again = await Workbench.open(copy);
    const t3 = performance.now();
    const whole = await again.runRecommendations();
    const t4 = performance.now();
    await again.close();
    if (whole.proposals !== next.proposals) throw new Error('the run on kept days proposed otherwise than a fresh one');
    process.stdout.write(
      JSON.stringify({
        openMs: opened - t0,
        firstMs: ran - opened,
        nextMs: t2 - t1,
        wholeMs: t4 - t3,
        posted,
        first,
        next,
        maxRssKb: process.resourceUsage().maxRSS,
      }),
    );
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
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
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(machine());
console.log(`bench:recommend — ${STORES} stores × ${SKUS} SKUs × ${DAYS} days of history (${BIG_WORKSPACE})`);
console.log(
  `a fresh process's first run (its days derived whole, proposals stored): ${s(m.firstMs)}; open ${s(m.openMs)}`,
);
console.log(`  proposals ${m.first.proposals}: ${JSON.stringify(m.first.byType)}`);
console.log(
  `the run after a day posted (${m.posted.sales} sales, ${m.posted.levels} stock levels), on the days kept: ` +
    `${s(m.nextMs)}`,
);
console.log(`  proposals ${m.next.proposals}: ${JSON.stringify(m.next.byType)}`);
console.log(
  `the same run in a workbench opened anew (its days derived whole): ${s(m.wholeMs)}; ` +
    `on the days kept ${(m.nextMs / m.wholeMs).toFixed(2)} × its time`,
);
console.log(`peak RSS ${(m.maxRssKb / 1024).toFixed(0)} MiB`);
console.log(`goal: the run after a day posted ≤ 1 s: ${m.nextMs <= 1000 ? 'met' : 'NOT met'}`);
