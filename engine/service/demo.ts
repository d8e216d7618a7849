/**
 * The committed demo retailer (`samples/demo`): two years of a small fashion chain in the API's own JSON, loaded
 * into an empty workspace from the screens (a button rather than a command) and by `npm run demo`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadFile } from './file-load.js';

/**
 * `samples/demo` in the nearest folder upwards from this module that holds one: from the sources
 * (`engine/service`), the built main bundle (`out/main`) and any bundle of the command alike, however deep it was
 * written; the packaged app carries the folder beside `out` (electron-builder.json).
 */
function findDemoDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = dirname(dir)) {
    const demo = join(dir, 'samples', 'demo');
    if (existsSync(demo)) return demo;
    if (dirname(dir) === dir) return join(here, '..', '..', 'samples', 'demo');
  }
}

export const DEMO_DIR = findDemoDir();

/** The demo's files as a load takes them (each file named after its endpoint), or undefined where it is missing. */
export function demoFiles(dir = DEMO_DIR): LoadFile[] | undefined {
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((f) => /\.json$/i.test(f))
    .sort()
    .map((name) => ({ name, path: join(dir, name) }));
}
