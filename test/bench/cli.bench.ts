/**
 * bench:cli — how soon the `workbench` command answers: `workbench --help`, and `workbench info` on the demo
 * (samples/demo loaded into a workspace of its own first, untimed), each started 7 times as `npx workbench` ends up
 * starting it (`node bin/workbench.mjs`), the median printed with the range. The command is built first if a source
 * changed (bin/cli-build.mjs), so no start below builds. In the same run, for comparison: the same commands
 * compiled from their TypeScript at every start (through tsx, as the command used to run), and `--help` through
 * `npx` (npm's own start added).
 * Goals: `workbench --help` ≤ 0.3 s, `workbench info` on the demo ≤ 0.6 s.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentCli } from '../../bin/cli-build.mjs';
import { machine } from './machine.js';
import { ROOT } from './big-workspace.js';

const RUNS = 7;
const BIN = join(ROOT, 'bin', 'workbench.mjs');
const FROM_SOURCE = ['--import', 'tsx', join(ROOT, 'engine', 'cli.ts')];

/** Starts the command and answers its wall time in seconds; a failure stops the benchmark. */
function timed(command: string, args: string[]): number {
  const t = performance.now();
  const r = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  const s = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${r.stderr}`);
  return s;
}

/** RUNS starts, median first. */
function series(command: string, args: string[], runs = RUNS): { median: number; min: number; max: number } {
  const times = Array.from({ length: runs }, () => timed(command, args)).sort((a, b) => a - b);
  return { median: times[Math.floor(runs / 2)], min: times[0], max: times[runs - 1] };
}

const text = (s: { median: number; min: number; max: number }) =>
  `${s.median.toFixed(2)} s (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;

console.log(machine());
const t = performance.now();
await currentCli();
console.log(`built command current (checked or built in ${((performance.now() - t) / 1000).toFixed(2)} s)`);
const dir = mkdtempSync(join(tmpdir(), 'wb-bench-cli-'));
try {
  const ws = join(dir, 'ws');
  timed(process.execPath, [BIN, 'load', '-q', '-w', ws, join(ROOT, 'samples', 'demo')]);
  const help = series(process.execPath, [BIN, '--help']);
  const info = series(process.execPath, [BIN, 'info', '-w', ws]);
  const helpSource = series(process.execPath, [...FROM_SOURCE, '--help'], 3);
  const infoSource = series(process.execPath, [...FROM_SOURCE, 'info', '-w', ws], 3);
  const npx = series('npx', ['workbench', '--help'], 3);
  console.log(`bench:cli — median of ${RUNS} starts (fastest–slowest)`);
  console.log(`workbench --help: ${text(help)}; compiled from TypeScript at the start ${text(helpSource)}`);
  console.log(`workbench info on the demo: ${text(info)}; compiled from TypeScript at the start ${text(infoSource)}`);
  console.log(`npx workbench --help (npm's own start added): ${text(npx)}`);
  const goals: [string, boolean][] = [
    [`workbench --help ≤ 0.3 s (${help.median.toFixed(2)} s)`, help.median <= 0.3],
    [`workbench info ≤ 0.6 s (${info.median.toFixed(2)} s)`, info.median <= 0.6],
  ];
  for (const [goal, met] of goals) console.log(`goal ${goal}: ${met ? 'met' : 'NOT met'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
