/** The generated workspace the engine and backtest benchmarks run on: prepared once under .workspaces/. */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateFeed, loadFeed } from '../generated-feed.js';

export const ROOT = join(import.meta.dirname, '../..');
export const STORES = Number(process.env.BENCH_STORES ?? 100);
export const SKUS = Number(process.env.BENCH_SKUS ?? 5000);
export const DAYS = Number(process.env.BENCH_DAYS ?? 730);
export const BIG_WORKSPACE = join(ROOT, '.workspaces', `bench-${STORES}x${SKUS}x${DAYS}`);

export async function prepareBigWorkspace(): Promise<string> {
  if (existsSync(join(BIG_WORKSPACE, 'workspace.duckdb'))) return BIG_WORKSPACE;
  const data = `${BIG_WORKSPACE}-data`;
  console.log(`preparing ${BIG_WORKSPACE} (once): generating ${STORES} stores × ${SKUS} SKUs × ${DAYS} days …`);
  await generateFeed(data, ['--stores', String(STORES), '--skus', String(SKUS), '--days', String(DAYS)], {
    show: true,
  });
  console.log('loading it through the service …');
  const t = performance.now();
  await loadFeed(BIG_WORKSPACE, data, { show: true });
  console.log(`loaded in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  rmSync(data, { recursive: true, force: true });
  return BIG_WORKSPACE;
}
