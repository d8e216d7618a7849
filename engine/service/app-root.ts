/**
 * The workbench's own folder: the nearest folder above the running module that holds its package.json. Files the
 * workbench ships (the demo's data, the built screens) are found from it, not from the module's depth, which differs
 * between the sources (`engine/…`), the built command (`out-cli/`) and the app's main bundle (`out/main`).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function appRoot(moduleUrl: string): string {
  const start = dirname(fileURLToPath(moduleUrl));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return dirname(start);
  }
}
