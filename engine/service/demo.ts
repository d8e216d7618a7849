/**
 * The committed demo retailer (`samples/demo`): two years of a small fashion chain in the API's own JSON, loaded
 * into an empty workspace from the screens (a button rather than a command) and by `npm run demo`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadFile } from './file-load.js';

/**
 * Two folders up from here, from the sources (`engine/service`) and from the built main bundle (`out/main`) alike;
 * one folder up from a command bundled one folder below the root (the test suite's, in `test-output/`). The packaged
 * app carries the folder beside `out` (electron-builder.json).
 */
const PLACES = ['../../samples/demo/', '../samples/demo/'].map((up) => fileURLToPath(new URL(up, import.meta.url)));
export const DEMO_DIR = PLACES.find((dir) => existsSync(dir)) ?? PLACES[0];

/** The demo's files as a load takes them (each file named after its endpoint), or undefined where it is missing. */
export function demoFiles(dir = DEMO_DIR): LoadFile[] | undefined {
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((f) => /\.json$/i.test(f))
    .sort()
    .map((name) => ({ name, path: join(dir, name) }));
}
