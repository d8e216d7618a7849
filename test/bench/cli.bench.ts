/**
 * bench:cli — how soon the `workbench` command answers: `workbench --help`, and `workbench info` on the demo
 * (samples/demo loaded into a workspace of its own first, untimed), each started 7 times as `npx workbench` ends up
 * starting it (`node bin/workbench.mjs`), the median printed with the range. The command is built first if a source
 * changed (bin/cli-build.mjs), so no start below builds. In the same run, for comparison: the same commands
 * compiled from their TypeScript at every start (through tsx, as the command used to run), and `--help` through
 * `npx` (npm's own start added). Each with its CPU time where Linux tells it, which a busy machine moves less.
 * Goals: `workbench --help` ≤ 0.3 s, `workbench info` on the demo ≤ 0.6 s.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentCli } from '../../bin/cli-build.mjs';
import { machine } from './machine.js';
import { ROOT } from './big-workspace.js';

const RUNS = 7;
const BIN = join(ROOT, 'bin', 'workbench.mjs');
const FROM_SOURCE = ['--import', 'tsx', join(ROOT, 'engine', 'cli.ts')];

/**
 * The CPU time (user and system, seconds) of the children this process has waited for, where Linux tells it
 * (/proc/self/stat, in ticks of 10 ms): on a machine busy with other work a start waits for a core, and its CPU
 * time moves less than its wall time.
 */
function childrenCpu(): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Starts the command and answers its wall and CPU time in seconds; a failure stops the benchmark. */
function timed(command: string, args: string[]): { wall: number; cpu?: number } {
  const c = childrenCpu();
  const t = performance.now();
  const r = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${r.stderr}`);
  const cpu = childrenCpu();
  return { wall, cpu: c === undefined || cpu === undefined ? undefined : cpu - c };
}

interface Series {
  median: number;
  min: number;
  max: number;
  cpu?: number;
}

/** RUNS starts: the median wall time, its range, and the median CPU time. */
function series(command: string, args: string[], runs = RUNS): Series {
  const starts = Array.from({ length: runs }, () => timed(command, args));
  const mid = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(runs / 2)];
  const walls = starts.map((s) => s.wall).sort((a, b) => a - b);
  const cpus = starts.flatMap((s) => (s.cpu === undefined ? [] : [s.cpu]));
  return { median: mid(walls), min: walls[0], max: walls[runs - 1], cpu: cpus.length ? mid(cpus) : undefined };
}

const text = (s: Series) =>
  `${s.median.toFixed(2)} s (${s.min.toFixed(2)}–${s.max.toFixed(2)})` +
  (s.cpu === undefined ? '' : `, CPU ${s.cpu.toFixed(2)} s`);

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
  console.log(`bench:cli — median of ${RUNS} starts (fastest–slowest), median CPU time (user + system)`);
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
