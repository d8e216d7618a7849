/** Which endpoint a file holds: named by a flag, by the file's name, or by the one array in its body. */
import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { DATASETS, findDataset, type DatasetDef } from '../model/datasets.js';

/** `Sales-0001.json`, `sales.json`, `PurchaseOrders_2024.json` → the dataset whose name starts the file name. */
export function datasetFromFileName(file: string): DatasetDef | undefined {
  const stem = basename(file, extname(file)).toLowerCase();
  let best: DatasetDef | undefined;
  for (const d of DATASETS) {
    const n = d.name.toLowerCase();
    if (stem === n || (stem.startsWith(n) && !/[a-z]/.test(stem[n.length]))) {
      if (!best || n.length > best.name.length) best = d;
    }
  }
  return best;
}

export function datasetFromBody(body: unknown): DatasetDef | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const keys = Object.keys(body);
  const matches = DATASETS.filter((d) => keys.includes(d.envelope));
  return matches.length === 1 ? matches[0] : undefined;
}

/** Files named on the command line; a folder stands for the JSON files in it. */
export function expandPaths(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (statSync(p).isDirectory()) {
      for (const f of readdirSync(p).sort()) if (f.toLowerCase().endsWith('.json')) out.push(join(p, f));
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
