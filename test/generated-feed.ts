/**
 * A feed from the sample generator, a workspace loaded with it through the CLI, and the truth it hides: for tests
 * and benchmarks.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

/** The truth's totals over all outlets (or one), days `from` … `to` (YYYY-MM-DD) of its truth-daily.csv. */
export interface TruthTotals {
  carriedDays: number;
  stockOutDays: number;
  demand: number;
  sales: number;
  lost: number;
}

export function truthTotals(truthDir: string, from: string, to: string, locationId?: string): TruthTotals {
  const [header, ...lines] = readFileSync(join(truthDir, 'truth-daily.csv'), 'utf8').trim().split('\n');
  const col = Object.fromEntries(header.split(',').map((c, i) => [c, i]));
  const t: TruthTotals = { carriedDays: 0, stockOutDays: 0, demand: 0, sales: 0, lost: 0 };
  for (const line of lines) {
    const v = line.split(',');
    if (v[col.date] < from || v[col.date] > to || (locationId && v[col.locationId] !== locationId)) continue;
    for (const k of Object.keys(t) as (keyof TruthTotals)[]) t[k] += Number(v[col[k]]);
  }
  return t;
}
