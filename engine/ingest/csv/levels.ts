/**
 * The CSV shapes of the datasets. A dataset is flattened the way its tables are (store/table-plan): one level per
 * array of child records — Items, Items.skus, Items.skus.barcodes; Sales, Sales.salesLines — and a CSV file holds
 * one row per record of one level. Its columns give that level's fields and, to place the row under its parent,
 * the parent's key; a file may also carry any field of its ancestors (one row per sales line, the sale's own fields
 * repeated on each).
 */
import { DATASETS, type DatasetDef } from '../../model/datasets.js';
import { entityKey } from '../../model/fields.js';
import { fieldDefault, type FieldDefault } from '../../model/field-defaults.js';
import { byFileName } from '../file-dataset.js';
import { tablePlan, type ColumnType, type TablePlan } from '../../store/table-plan.js';

/** What a column can be loaded into. */
export interface CsvTarget {
  /** `colorId` for a field of the file's own level; `Items.code` for an ancestor's: its level id, a dot, the field. */
  id: string;
  field: string;
  /** 0 = the dataset record, 1 = its child, …; the file's own level is the deepest. */
  depth: number;
  type: ColumnType;
  /** In words: text, number, whole number, true/false, date and time, date. */
  kind: string;
  required: boolean;
  /** Part of the key that identifies a record of its level. */
  key: boolean;
  /** The record it belongs to, in words: "sale", "sales line". */
  of: string;
  /** Where a file without a column for this field takes its value from (model/field-defaults.ts). */
  default?: FieldDefault;
}

export interface CsvLevel {
  /** The dataset's name followed by the array fields down to the level: `Items.skus.barcodes`. */
  id: string;
  dataset: DatasetDef;
  /** Table plans from the dataset's own down to this level's. */
  path: TablePlan[];
  /** In words: "Items: one row per SKU". */
  label: string;
  /** The level's fields first, then each ancestor's, nearest first. */
  targets: CsvTarget[];
}

const KINDS: Record<ColumnType, string> = {
  VARCHAR: 'text',
  TIMESTAMP: 'date and time',
  DATE: 'date',
  DOUBLE: 'number',
  INTEGER: 'whole number',
  BOOLEAN: 'true/false',
};

/** Lower case letters and digits only: `sku_id`, `SkuId` and `Sku Id` all read `skuid`. */
export function normalizeName(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Names whose words are not their parts': the specification's plurals and paths, as a person says them. */
const SAID: Record<string, string> = { UnitOfMeasures: 'units of measure', 'Images/urls': 'image URLs' };

/** `SalesLine` → `sales line`, `Skus` → `SKUs`, `PurchaseOrders` → `purchase orders`, `ImageUrl` → `image URL`. */
export function inWords(name: string): string {
  return (
    SAID[name] ??
    name
      .replace(/\//g, ' ')
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      // Abbreviations in capitals, a plural's s not.
      .replace(/\b(sku|url)(s?)\b/g, (_, word: string, plural: string) => `${word.toUpperCase()}${plural}`)
  );
}

function levelId(path: TablePlan[], dataset: DatasetDef): string {
  return [dataset.name, ...path.slice(1).map((p) => p.arrayField!)].join('.');
}

function targetsOf(path: TablePlan[], dataset: DatasetDef): CsvTarget[] {
  const out: CsvTarget[] = [];
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const p = path[depth];
    const key = entityKey(p.entity);
    const prefix = depth === path.length - 1 ? '' : `${levelId(path.slice(0, depth + 1), dataset)}.`;
    for (const f of p.fields) {
      const byDefault = fieldDefault(p.entity, f.name);
      out.push({
        id: prefix + f.name,
        field: f.name,
        depth,
        type: f.type,
        kind: KINDS[f.type],
        required: f.required,
        key: key.includes(f.name),
        of: inWords(p.entity.title ?? p.table),
        ...(byDefault ? { default: byDefault } : {}),
      });
    }
  }
  return out;
}

function levelsOf(dataset: DatasetDef): CsvLevel[] {
  const out: CsvLevel[] = [];
  const walk = (path: TablePlan[]) => {
    const own = path[path.length - 1];
    const title = inWords(own.entity.title ?? own.table);
    const name = inWords(dataset.name);
    out.push({
      id: levelId(path, dataset),
      dataset,
      path,
      label: `${name[0].toUpperCase()}${name.slice(1)}: one row per ${title}`,
      targets: targetsOf(path, dataset),
    });
    for (const child of own.children) walk([...path, child]);
  };
  walk([tablePlan(dataset)]);
  return out;
}

/** Every level of every dataset, in the datasets' order. */
export const CSV_LEVELS: readonly CsvLevel[] = DATASETS.flatMap(levelsOf);

const byId = new Map(CSV_LEVELS.map((l) => [l.id.toLowerCase(), l]));

export function findLevel(id: string): CsvLevel | undefined {
  return byId.get(id.toLowerCase());
}

export function levelsOfDataset(dataset: DatasetDef): CsvLevel[] {
  return CSV_LEVELS.filter((l) => l.dataset === dataset);
}

/** The levels below `level` in its dataset. */
export function descendants(level: CsvLevel): CsvLevel[] {
  return CSV_LEVELS.filter(
    (l) => l.dataset === level.dataset && l.path.length > level.path.length && l.id.startsWith(`${level.id}.`),
  );
}

/**
 * Names a file name may start with to mean a level: the dataset's name, body array and record name for its own
 * level (`Sales`, `sale`), the array's name, record name and table for a child level (`skus`, `sku`, `items__skus`).
 */
function namesOf(level: CsvLevel): string[] {
  const own = level.path[level.path.length - 1];
  const names = [own.table, own.entity.title ?? ''];
  if (level.path.length === 1) names.push(level.dataset.name, level.dataset.envelope);
  else names.push(own.arrayField!);
  return [...new Set(names.map(normalizeName).filter((n) => n !== ''))];
}

const NAMES: [string, CsvLevel][] = CSV_LEVELS.flatMap((l) => namesOf(l).map((n) => [n, l] as [string, CsvLevel]));

/**
 * The level a file's name tells: `skus.csv`, `Sales-0001.csv`, `purchase_order_lines.csv`; the longest name that
 * starts the file's name and is not followed by a letter (`Stockholm.csv` is not Stock).
 */
export function levelFromFileName(file: string): CsvLevel | undefined {
  const base = file.split(/[\\/]/).pop()!;
  return byFileName(normalizeName(base.replace(/\.[^.]*$/, '')), NAMES);
}
