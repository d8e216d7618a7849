/**
 * Once per run, before any test file:
 * - `out/` built from the sources as they are (build-stamp.ts), since the browser tests serve its renderer and the
 *   bridge test loads its main bundle. Current, it costs a hash of the sources; else it is built here, as
 *   `npm run build` would.
 * - the `workbench` command bundled from them, for the tests that start it (workbench-bin.ts);
 * - samples/demo loaded by that command into a workspace the tests copy (demo-workspace.ts) rather than each
 *   loading it again; sample-load.test.ts loads it itself, as a user would.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { outIsCurrent } from '../build-stamp.js';
import { BUNDLED_BIN, bundleBin } from './workbench-bin.js';
import type {} from './demo-workspace.js';

const ROOT = join(import.meta.dirname, '..');

function buildOut(): void {
  if (outIsCurrent()) return;
  console.log('out/ is missing or not built from these sources: building it (npm run build)');
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!outIsCurrent()) throw new Error('the build left no stamp of the sources it read in out/ (build-stamp.ts)');
}

export default async function setup(project: TestProject): Promise<() => void> {
  await bundleBin();
  buildOut();
  const demo = mkdtempSync(join(tmpdir(), 'wb-suite-demo-'));
  execFileSync(process.execPath, [BUNDLED_BIN, 'load', '-q', '-w', join(demo, 'ws'), join(ROOT, 'samples', 'demo')]);
  project.provide('demoWorkspace', join(demo, 'ws'));
  return () => rmSync(demo, { recursive: true, force: true });
}
