/**
 * The committed demo retailer (`samples/demo`): two years of a small fashion chain in the API's own JSON, loaded
 * into an empty workspace from the screens (a button rather than a command) and by `npm run demo`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadFile } from './file-load.js';
import { appRoot } from './app-root.js';

/** In the workbench's folder; the packaged app carries it beside `out` (electron-builder.json). */
export const DEMO_DIR = join(appRoot(import.meta.url), 'samples', 'demo');

/** The demo's files as a load takes them (each file named after its endpoint), or undefined where it is missing. */
export function demoFiles(dir = DEMO_DIR): LoadFile[] | undefined {
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((f) => /\.json$/i.test(f))
    .sort()
    .map((name) => ({ name, path: join(dir, name) }));
}
