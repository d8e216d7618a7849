/** The files `load` reads, and the endpoint a `--dataset` flag names. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DATASETS, findDataset, type DatasetDef } from '../model/datasets.js';

/** Files named on the command line; a folder stands for the JSON, CSV, Parquet and Arrow files in it. */
export function expandPaths(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (statSync(p).isDirectory()) {
      for (const f of readdirSync(p).sort())
        if (/\.(json|csv|parquet|arrow|feather|ipc)$/i.test(f)) out.push(join(p, f));
    } else {
      out.push(p);
    }
  }
  return out;
}

export function resolveDataset(flag: string | undefined): DatasetDef | undefined {
  if (flag === undefined) return undefined;
  const d = findDataset(flag.replace(/^\//, ''));
  if (!d) throw new Error(`--dataset ${flag}: unknown; known: ${DATASETS.map((x) => x.name).join(', ')}`);
  return d;
}
