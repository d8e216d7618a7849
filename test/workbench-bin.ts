/**
 * The `workbench` command, and the sample generator's, as the tests start them. `bin/workbench.mjs` (SOURCE_BIN,
 * what `npx workbench` runs) compiles engine/cli.ts through tsx on every start, about a second and a half of CPU
 * before the command begins, and again in each backtest worker thread it starts. The suite's global setup bundles
 * the same sources once per run with esbuild (the compiler tsx itself uses) into test-output/, with the backtest's
 * worker entries beside it under the names the engine asks for, as the desktop build does; one folder below the
 * root, as engine/ is, so the paths the command takes relative to itself (the built renderer in out/) are the same.
 * Under vitest BIN is that bundle; elsewhere (the benchmarks, which have no global setup) it is SOURCE_BIN. A few
 * tests start SOURCE_BIN themselves, so that the command as shipped runs on every run too.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
export const SOURCE_BIN = join(ROOT, 'bin', 'workbench.mjs');
const BUNDLE_DIR = join(ROOT, 'test-output');
export const BUNDLED_BIN = join(BUNDLE_DIR, 'workbench.mjs');
export const BIN = process.env.VITEST ? BUNDLED_BIN : SOURCE_BIN;
/** The sample generator's command (samples/generate.ts) the same way: Node's arguments before its own. */
export const GENERATE = process.env.VITEST
  ? [join(BUNDLE_DIR, 'generate.mjs')]
  : ['--import', 'tsx', join(ROOT, 'samples', 'generate.ts')];

/**
 * Bundles the commands and the worker entries into BIN's folder (a few hundred milliseconds). A file is replaced
 * only when its bundle differs, and then in one rename: a run beside this one may be starting it.
 */
export async function bundleBin(): Promise<void> {
  const { build } = await import('esbuild');
  const { outputFiles } = await build({
    absWorkingDir: ROOT,
    entryPoints: {
      workbench: 'engine/cli.ts',
      generate: 'samples/generate.ts',
      'worker-entry': 'engine/simulate/worker.ts',
      'partition-worker-entry': 'engine/simulate/partition-worker.ts',
      'partition-child-entry': 'engine/simulate/partition-child.ts',
    },
    outdir: BUNDLE_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Dependencies load from node_modules as they do for bin/workbench.mjs (DuckDB's native binding among them).
    packages: 'external',
    logLevel: 'warning',
    write: false,
  });
  // A fresh clone has no test-output/ yet.
  mkdirSync(BUNDLE_DIR, { recursive: true });
  for (const file of outputFiles) {
    if (existsSync(file.path) && readFileSync(file.path).equals(file.contents)) continue;
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
}
