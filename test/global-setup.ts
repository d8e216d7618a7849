/**
 * Once per run, before any test file: `out/` built from the sources as they are (build-stamp.ts), since the
 * browser tests serve its renderer and the bridge test loads its main bundle. Current, it costs a hash of the
 * sources; else it is built here, as `npm run build` would.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { outIsCurrent } from '../build-stamp.js';

const ROOT = join(import.meta.dirname, '..');

export default function setup(): void {
  if (outIsCurrent()) return;
  console.log('out/ is missing or not built from these sources: building it (npm run build)');
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!outIsCurrent()) throw new Error('the build left no stamp of the sources it read in out/ (build-stamp.ts)');
}
