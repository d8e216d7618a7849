/** Which endpoint a file holds: told by the file's name, or by the one array in its body. */
import { basename, extname } from 'node:path';
import { DATASETS, type DatasetDef } from '../model/datasets.js';
import { RequestRejected } from '../model/problems.js';

/** `Sales-0001.json`, `sales.json`, `PurchaseOrders_2024.json` → the dataset whose name starts the file name. */
export function datasetFromFileName(file: string): DatasetDef | undefined {
  return byFileName(
    basename(file, extname(file)).toLowerCase(),
    DATASETS.map((d) => [d.name.toLowerCase(), d]),
  );
}

/**
 * What a file's (lower-case) stem names: the value of the longest name that starts it and is not followed by a
 * letter (`stockholm` is not `stock`). Shared by JSON files (datasets) and CSV files (levels).
 */
export function byFileName<T>(stem: string, names: readonly (readonly [string, T])[]): T | undefined {
  let best: readonly [string, T] | undefined;
  for (const entry of names) {
    const [name] = entry;
    if (!stem.startsWith(name) || /[a-z]/.test(stem[name.length] ?? '')) continue;
    if (!best || name.length > best[0].length) best = entry;
  }
  return best?.[1];
}

export function datasetFromBody(body: unknown): DatasetDef | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const keys = Object.keys(body);
  const matches = DATASETS.filter((d) => keys.includes(d.envelope));
  return matches.length === 1 ? matches[0] : undefined;
}

/** The endpoint a file is for, by its name or else its body; a clear error when neither tells. */
export function datasetForFile(file: string, body: unknown, orElse = ''): DatasetDef {
  const dataset = datasetFromFileName(file) ?? datasetFromBody(body);
  if (!dataset)
    throw new RequestRejected(
      `cannot tell which endpoint ${basename(file)} is for: name it after the endpoint (Sales-0001.json), ` +
        `give it one array named after one (e.g. {"sales": [...]})${orElse}`,
    );
  return dataset;
}
