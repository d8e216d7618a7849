/**
 * What `out/` was built from: a hash of every file the build reads (the engine, the two shells, the renderer, the
 * build's configuration and the locked dependencies). The build leaves it in `out/`; the tests that use `out/` (the
 * browser tests serve the built renderer, the bridge test loads the built main bundle) build again when it is
 * missing or names other sources than those checked out, so they never test an old bundle.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = import.meta.dirname;
export const STAMP = join(ROOT, 'out', 'sources.sha256');
const SOURCE_DIRS = ['engine', 'common', 'src-main', 'src-renderer'];
const SOURCE_FILES = ['build-stamp.ts', 'electron.vite.config.ts', 'package-lock.json', 'tsconfig.base.json'];

/** The hash of the sources as they are now (about 200 files: a few milliseconds). */
export function sourcesHash(): string {
  const files = [
    ...SOURCE_FILES,
    ...SOURCE_DIRS.flatMap((dir) =>
      readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => relative(ROOT, join(e.parentPath, e.name))),
    ),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(ROOT, file)))
      .update('\0');
  return hash.digest('hex');
}

/** Whether `out/` holds a build of the sources as they are. */
export function outIsCurrent(): boolean {
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8') === sourcesHash();
}
