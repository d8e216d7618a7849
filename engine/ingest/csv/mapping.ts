/**
 * Which level a CSV file holds and which field a header names: a field is proposed from the header (`sku_id`,
 * `SkuId` and `Sku Id` all mean skuId) or named in the mapping (resolve.ts applies it); the level is told by the
 * file's name, else by its columns, or chosen.
 */
import type { DatasetDef } from '../../model/datasets.js';
import { clip, RequestRejected } from '../../model/problems.js';
import {
  CSV_LEVELS,
  descendants,
  findLevel,
  levelFromFileName,
  levelsOfDataset,
  normalizeName,
  type CsvLevel,
  type CsvTarget,
} from './levels.js';

const aliasCache = new WeakMap<CsvLevel, Map<string, CsvTarget>>();

/**
 * The header names each target answers to, most specific first: the level's own fields by name and by record name
 * plus field (`skuCode`); then the ancestors', nearest first, by record or array name plus field (`itemCode`,
 * `sales_code`) and by bare name where the level itself has no field of that name.
 */
function aliases(level: CsvLevel): Map<string, CsvTarget> {
  let map = aliasCache.get(level);
  if (map) return map;
  map = new Map();
  const add = (alias: string, t: CsvTarget) => {
    if (!map!.has(alias)) map!.set(alias, t);
  };
  const own = level.path.length - 1;
  const prefixes = (depth: number) => {
    const p = level.path[depth];
    return [p.entity.title ?? '', p.arrayField ?? level.dataset.name].map(normalizeName);
  };
  for (const t of level.targets) if (t.depth === own) add(normalizeName(t.field), t);
  for (const t of level.targets) for (const pre of prefixes(t.depth)) add(pre + normalizeName(t.field), t);
  for (const t of level.targets) if (t.depth < own) add(normalizeName(t.field), t);
  for (const t of level.targets) add(normalizeName(t.id), t);
  aliasCache.set(level, map);
  return map;
}

/** The target a header would be loaded into without a mapping. */
export function proposeTarget(level: CsvLevel, header: string): CsvTarget | undefined {
  return aliases(level).get(normalizeName(header));
}

/** A target named in a mapping: its id (`colorId`, `Items.code`), or any name the header proposal knows. */
export function namedTarget(level: CsvLevel, name: string): CsvTarget | undefined {
  return level.targets.find((t) => t.id === name) ?? aliases(level).get(normalizeName(name));
}

const requiredKey = (t: CsvTarget) => t.key && t.required;

/** How well the headers fit a level: undefined when they cannot place a row of it (its key or its parent's missing). */
function fit(level: CsvLevel, headers: readonly string[]): { mapped: number; missing: number } | undefined {
  const mapped = new Set(headers.map((h) => proposeTarget(level, h)).filter((t) => t !== undefined));
  const own = level.path.length - 1;
  const needs = level.targets.filter((t) => (t.depth === own || t.depth === own - 1) && requiredKey(t));
  if (!needs.every((t) => mapped.has(t))) return undefined;
  const missing = level.targets.filter((t) => t.depth === own && t.required && !mapped.has(t)).length;
  return { mapped: mapped.size, missing };
}

/** Headers that name fields only `level` has, none of its ancestors. */
function ownOnly(level: CsvLevel, headers: readonly string[]): number {
  const own = level.path.length - 1;
  const above = new Set(level.targets.filter((t) => t.depth < own).map((t) => normalizeName(t.field)));
  const fields = new Set(
    level.targets
      .filter((t) => t.depth === own)
      .map((t) => normalizeName(t.field))
      .filter((f) => !above.has(f)),
  );
  return headers.filter((h) => fields.has(normalizeName(h))).length;
}

/**
 * A file named after a level may hold a deeper one: `Sales.csv` with one row per sales line (it has skuId), an
 * `Items.csv` with one row per SKU. The deepest level whose own fields the headers name wins.
 */
function deepen(level: CsvLevel, headers: readonly string[]): CsvLevel {
  let best = level;
  let bestScore = 0;
  for (const d of descendants(level)) {
    if (ownOnly(d, headers) === 0) continue;
    let score = 0;
    for (const step of descendants(level).filter((x) => d.id === x.id || d.id.startsWith(`${x.id}.`)))
      score += ownOnly(step, headers);
    if (score > bestScore || (score === bestScore && d.path.length > best.path.length)) [best, bestScore] = [d, score];
  }
  return best;
}

/** The level of a file: chosen, else told by its name (deepened by its columns), else by its columns alone. */
export function detectLevel(
  name: string,
  headers: readonly string[],
  options: { level?: string; dataset?: DatasetDef } = {},
): CsvLevel {
  if (options.level !== undefined) {
    const chosen = findLevel(options.level);
    if (!chosen)
      throw new RequestRejected(
        `${name}: no level "${options.level}"; levels are named like Items, Items.skus, Sales.salesLines`,
      );
    return chosen;
  }
  const named = levelFromFileName(name);
  if (named && (!options.dataset || named.dataset === options.dataset)) return deepen(named, headers);
  const candidates = options.dataset ? levelsOfDataset(options.dataset) : CSV_LEVELS;
  const scored = candidates.map((level) => ({ level, f: fit(level, headers) })).filter((s) => s.f !== undefined) as {
    level: CsvLevel;
    f: { mapped: number; missing: number };
  }[];
  // Most columns used first: a sales-lines file lacking one line field must not pass for a file of sales alone.
  scored.sort((a, b) => b.f.mapped - a.f.mapped || a.f.missing - b.f.missing);
  const [first, second] = scored;
  const hint =
    'name the file after what it holds ' +
    '(items.csv, skus.csv, barcodes.csv, Sales.csv, PurchaseOrders.csv, Locations.csv, …) or choose its level';
  if (!first)
    throw new RequestRejected(
      `cannot tell which data ${name} holds from its name or its columns (${headers
        .slice(0, 8)
        .map((h) => clip(h, 40))
        .join(', ')}${headers.length > 8 ? ', …' : ''}): ${hint}`,
    );
  if (second && second.f.missing === first.f.missing && second.f.mapped === first.f.mapped) {
    throw new RequestRejected(
      `cannot tell which data ${name} holds: ` +
        `its columns fit "${first.level.label}" and "${second.level.label}" alike; ${hint}`,
    );
  }
  return first.level;
}
