/**
 * A feed from the sample generator, a workspace loaded with it through the CLI, and the truth it hides: for tests
 * and benchmarks.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TRUTH_DAILY, type TruthTotals } from '../samples/generator/truth.js';
import { BIN, GENERATE } from './workbench-bin.js';

const ROOT = join(import.meta.dirname, '..');
const run = promisify(execFile);

/** Runs a command of the project; with `show`, its output goes to the console (a benchmark's long preparation). */
async function node(args: string[], show: boolean): Promise<void> {
  if (!show) {
    await run(process.execPath, args, { cwd: ROOT, maxBuffer: 1 << 26 });
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}`))));
  });
}

/** `samples/generate.ts --out data [--truth truth] …flags`. */
export function generateFeed(data: string, flags: string[], options: { truth?: string; show?: boolean } = {}) {
  const truth = options.truth ? ['--truth', options.truth] : [];
  return node([...GENERATE, '--out', data, ...truth, ...flags], !!options.show);
}

/** `workbench load -q -w workspace data`. */
export function loadFeed(workspace: string, data: string, options: { show?: boolean } = {}) {
  return node([BIN, 'load', '-q', '-w', workspace, data], !!options.show);
}

/** The truth's totals that its daily file sums over outlets and days. */
export type DailyTruthTotals = Pick<TruthTotals, 'carriedDays' | 'stockOutDays' | 'demand' | 'sales' | 'lost'>;

/** The truth's totals over all outlets (or one), days `from` … `to` (YYYY-MM-DD) of its truth-daily.csv. */
export function truthTotals(truthDir: string, from: string, to: string, locationId?: string): DailyTruthTotals {
  const [header, ...lines] = readFileSync(join(truthDir, TRUTH_DAILY), 'utf8').trim().split('\n');
  const col = Object.fromEntries(header.split(',').map((c, i) => [c, i]));
  const t: DailyTruthTotals = { carriedDays: 0, stockOutDays: 0, demand: 0, sales: 0, lost: 0 };
  for (const line of lines) {
    const v = line.split(',');
    if (v[col.date] < from || v[col.date] > to || (locationId && v[col.locationId] !== locationId)) continue;
    for (const k of Object.keys(t) as (keyof DailyTruthTotals)[]) t[k] += Number(v[col[k]]);
  }
  return t;
}
