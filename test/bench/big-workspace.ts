/** The generated workspaces the engine and backtest benchmarks run on: each size prepared once under .workspaces/. */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateFeed, loadFeed } from '../generated-feed.js';

export const ROOT = join(import.meta.dirname, '../..');

/** A generated retailer's size: its stores, its SKUs and the days of its history. */
export interface BenchSize {
  stores: number;
  skus: number;
  days: number;
}

/** The big set: 100 stores × 5,000 SKUs × 730 days unless BENCH_STORES, BENCH_SKUS or BENCH_DAYS say otherwise. */
export const BIG: BenchSize = {
  stores: Number(process.env.BENCH_STORES ?? 100),
  skus: Number(process.env.BENCH_SKUS ?? 5000),
  days: Number(process.env.BENCH_DAYS ?? 730),
};
export const { stores: STORES, skus: SKUS, days: DAYS } = BIG;

export const workspaceOf = (size: BenchSize): string =>
  join(ROOT, '.workspaces', `bench-${size.stores}x${size.skus}x${size.days}`);

export const BIG_WORKSPACE = workspaceOf(BIG);

/**
 * Generates and loads a workspace of this size once, and answers where it is. The load goes to a folder of its own,
 * named as the workspace only once it is whole: a load that stopped halfway is never taken for the set.
 */
export async function prepareWorkspace(size: BenchSize): Promise<string> {
  const workspace = workspaceOf(size);
  if (existsSync(join(workspace, 'workspace.duckdb'))) return workspace;
  const { stores, skus, days } = size;
  const data = `${workspace}-data`;
  const loading = `${workspace}-loading`;
  for (const dir of [data, loading]) rmSync(dir, { recursive: true, force: true });
  console.log(`preparing ${workspace} (once): generating ${stores} stores × ${skus} SKUs × ${days} days …`);
  await generateFeed(data, ['--stores', String(stores), '--skus', String(skus), '--days', String(days)], {
    show: true,
  });
  console.log('loading it through the service …');
  const t = performance.now();
  await loadFeed(loading, data, { show: true });
  console.log(`loaded in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  rmSync(data, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
  renameSync(loading, workspace);
  return workspace;
}

export const prepareBigWorkspace = (): Promise<string> => prepareWorkspace(BIG);
