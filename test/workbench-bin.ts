/**
 * The `workbench` command, and the sample generator's, as the tests start them. `bin/workbench.mjs` (SOURCE_BIN,
 * what `npx workbench` runs) starts the command built into out-cli/, building it first when a source changed
 * (bin/cli-build.mjs). The suite's global setup builds it once per run (bundleBin), so under vitest BIN is the
 * built command itself; elsewhere (the benchmarks, which have no global setup) it is SOURCE_BIN. A few tests start
 * SOURCE_BIN themselves, so that the command as shipped runs on every run too. The generator is bundled the same
 * way into test-output/, one folder below the root as samples/ is.
 */
import { join } from 'node:path';
import { bundleOptions, CLI_BIN, currentCli, writeBundle } from '../bin/cli-build.mjs';

const ROOT = join(import.meta.dirname, '..');
export const SOURCE_BIN = join(ROOT, 'bin', 'workbench.mjs');
const BUNDLE_DIR = join(ROOT, 'test-output');
export const BUNDLED_BIN = CLI_BIN;
export const BIN = process.env.VITEST ? BUNDLED_BIN : SOURCE_BIN;
/** The sample generator's command (samples/generate.ts) the same way: Node's arguments before its own. */
export const GENERATE = process.env.VITEST
  ? [join(BUNDLE_DIR, 'generate.mjs')]
  : ['--import', 'tsx', join(ROOT, 'samples', 'generate.ts')];

/** Builds the command when its sources changed, and bundles the generator (a few hundred milliseconds). */
export async function bundleBin(): Promise<void> {
  await currentCli();
  const { build } = await import('esbuild');
  const { outputFiles } = await build(bundleOptions({ generate: 'samples/generate.ts' }, BUNDLE_DIR));
  writeBundle(outputFiles!, BUNDLE_DIR);
}
