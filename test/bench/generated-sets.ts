/**
 * The generated retailers the benchmarks judge the backtest and the engine on: each a feed from the sample
 * generator with the truth it hides, loaded into a workspace under .workspaces/ once per set and seed. The backtest
 * covers the second year; the first is the history the engine and the estimates stand on.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SettingsOverride } from '../../engine/recommend/settings.js';
import { generateFeed, loadFeed } from '../generated-feed.js';
import { ROOT } from './big-workspace.js';

export const START = '2024-01-01';
export const DAYS = 730;
export const FROM_DAY = Date.parse(`${START}T00:00:00Z`) / 86_400_000 + 365;
export const TO_DAY = FROM_DAY + DAYS - 365 - 1;

export interface GeneratedSet {
  flags: string[];
  /** What every scenario run on the set says beyond its settings: facts of the data (where a webshop sells from). */
  said?: SettingsOverride;
  /** The location whose own figures are judged too (a webshop selling from a warehouse's stock). */
  alsoJudged?: string;
}

const WEBSHOP_FROM_WAREHOUSE: SettingsOverride = { fulfilledFrom: { 'WEB-01': 'WH-01' } };

export const SETS: Record<string, GeneratedSet> = {
  fashion: { flags: ['--assortment', 'fashion', '--stores', '10', '--skus', '1000'] },
  basics: { flags: ['--assortment', 'basics', '--stores', '10', '--skus', '200'] },
  slow: { flags: ['--assortment', 'slow', '--stores', '10', '--skus', '1500'] },
  // Slow one-size movers filled weekly to the expected week (at least one unit), the goods three days on the road.
  'slow-naive': { flags: ['--assortment', 'slow-naive', '--stores', '10', '--skus', '100'] },
  // Lumpy intermittent sellers with outages of weeks, and stores listing and delisting styles in the history.
  intermittent: { flags: ['--assortment', 'intermittent', '--stores', '10', '--skus', '600'] },
  webshop: {
    flags: ['--assortment', 'basics', '--stores', '10', '--skus', '200', '--webshop-from-warehouse'],
    said: WEBSHOP_FROM_WAREHOUSE,
    alsoJudged: 'WEB-01',
  },
  'fashion-webshop': {
    flags: ['--assortment', 'fashion', '--stores', '10', '--skus', '1000', '--webshop-from-warehouse'],
    said: WEBSHOP_FROM_WAREHOUSE,
    alsoJudged: 'WEB-01',
  },
};

/** Picks sets by a comma-separated list (an environment variable), all when it is unset. */
export function pickedSets(list: string | undefined, all: string[] = Object.keys(SETS)): string[] {
  const picked = (list ?? all.join(',')).split(',').filter(Boolean);
  for (const name of picked) if (!all.includes(name)) throw new Error(`no set "${name}": one of ${all.join(', ')}`);
  return picked;
}

/** Generates and loads a set once (for a seed), and answers where its workspace and truth are. */
export async function prepareSet(name: string, seed = 1): Promise<{ workspace: string; truthDir: string }> {
  const set = SETS[name];
  const base = join(ROOT, '.workspaces', seed === 1 ? `truth-${name}` : `truth-${name}-seed${seed}`);
  const flags = ['--seed', String(seed), ...set.flags, '--days', String(DAYS), '--start', START];
  const workspace = join(base, 'workspace');
  const truthDir = join(base, 'truth');
  const stamp = join(base, 'flags.json');
  if (
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8') === JSON.stringify(flags) &&
    existsSync(join(workspace, 'workspace.duckdb'))
  )
    return { workspace, truthDir };
  rmSync(base, { recursive: true, force: true });
  const data = join(base, 'data');
  console.log(`preparing ${base} (once): ${flags.join(' ')}`);
  await generateFeed(data, flags, { truth: truthDir, show: true });
  await loadFeed(workspace, data, { show: true });
  rmSync(data, { recursive: true, force: true });
  writeFileSync(stamp, JSON.stringify(flags));
  return { workspace, truthDir };
}
