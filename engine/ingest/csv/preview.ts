/**
 * What a CSV file will load as, before it is loaded: its level, each column's field (proposed or chosen), the
 * fields it can fill, its first rows converted as they will be sent, and what is wrong — for the mapping step.
 */
import type { DatasetDef } from '../../model/datasets.js';
import { RequestRejected, type Problem } from '../../model/problems.js';
import { BadCell, convertCell, type CellValue } from './convert.js';
import { CSV_LEVELS, type CsvTarget } from './levels.js';
import { detectLevel } from './mapping.js';
import { guessColumns, guessLevel } from './guess.js';
import type { FileMapping } from './mapping-file.js';
import { resolveColumns, type ResolvedColumns } from './resolve.js';
import { rowCells, type CsvTable } from './read.js';

export interface CsvFilePreview {
  name: string;
  /** The level the file holds (its id, e.g. `Items.skus`), when it can be told. */
  level?: string;
  levelLabel?: string;
  dataset?: string;
  headers: string[];
  /**
   * Per column, as a mapping's `columns` says it: the id of the field it is loaded into, the ids when it fills
   * several, or null when it is left out.
   */
  columns: (string | string[] | null)[];
  /** Required fields no column gives, filled on every row by their default: from another field (its id), or a value. */
  derived: { field: string; from?: string; value?: number }[];
  /** The file writes decimals with a comma: as its mapping says, else as its delimiter tells. */
  decimalComma: boolean;
  /** The fields the file's columns can be loaded into: its level's, then its ancestors'. */
  targets: CsvTarget[];
  /** The first rows: their cells as read, and as they will be loaded (field id → value; null: empty cell). */
  rows: { row: number; cells: (string | null)[]; values: Record<string, CellValue | null> }[];
  problems: Problem[];
  /** What the file's load will say once: columns no field takes, fields filled by their default. */
  warnings: Problem[];
  /**
   * Columns nothing maps whose headers most likely mean a field (`Quantity`: quantitySold), for the mapping step to
   * propose as guesses: not applied until a mapping names them (guess.ts).
   */
  guesses: { header: string; target: string }[];
  /** The level the file most likely holds, when neither its name nor its fields' own names tell (a guess too). */
  guessedLevel?: string;
}

export interface CsvPreview {
  files: CsvFilePreview[];
  /** Every level a file may be said to hold. */
  levels: { id: string; label: string }[];
}

export const LEVEL_CHOICES = CSV_LEVELS.map((l) => ({ id: l.id, label: l.label }));

/** A file that could not be read (`error`), or its first rows. */
export function previewFile(
  name: string,
  read: CsvTable | Error,
  mapping: FileMapping,
  dataset?: DatasetDef,
): CsvFilePreview {
  if (read instanceof Error)
    return { ...emptyPreview(name), problems: [{ path: '', file: name, message: read.message }] };
  let level;
  try {
    level = detectLevel(name, read.headers, { level: mapping.level, dataset });
  } catch (e) {
    if (!(e instanceof RequestRejected)) throw e;
    return levelUnknown(name, read, mapping, e, dataset);
  }
  const resolved = resolveColumns(name, level, read, mapping);
  const { columns, derived, format } = resolved;
  const problems = [...(read.unreadable?.problems ?? []), ...resolved.problems];
  const rows = Array.from({ length: read.rows }, (_, i) => rowCells(read, i)).map((cells, i) =>
    previewRow(name, read, resolved, i, cells, problems),
  );
  return {
    name,
    level: level.id,
    levelLabel: level.label,
    dataset: level.dataset.name,
    headers: read.headers,
    columns: columns.map((ts) => (ts.length === 0 ? null : ts.length === 1 ? ts[0].id : ts.map((t) => t.id))),
    derived: derived.map((d) => ({ field: d.target.id, ...(d.from ? { from: d.from.id } : { value: d.value }) })),
    decimalComma: format.decimalComma,
    targets: level.targets,
    rows,
    problems,
    warnings: resolved.warnings,
    guesses: guessColumns(level, read.headers, columns, mapping),
  };
}

function emptyPreview(name: string): CsvFilePreview {
  return {
    name,
    headers: [],
    columns: [],
    derived: [],
    decimalComma: false,
    targets: [],
    rows: [],
    problems: [],
    warnings: [],
    guesses: [],
  };
}

/** A file whose level cannot be told (`refusal` says why): its headers, none mapped, and a guessed level if any. */
function levelUnknown(
  name: string,
  read: CsvTable,
  mapping: FileMapping,
  refusal: RequestRejected,
  dataset?: DatasetDef,
): CsvFilePreview {
  const guessed = mapping.level === undefined ? guessLevel(read.headers) : undefined;
  return {
    ...emptyPreview(name),
    headers: read.headers,
    columns: read.headers.map(() => null),
    decimalComma: mapping.decimalComma ?? read.decimalComma,
    problems: [...(read.unreadable?.problems ?? []), { path: '', file: name, message: refusal.message }],
    ...(guessed && (!dataset || guessed.dataset === dataset) ? { guessedLevel: guessed.id } : {}),
  };
}

/** Row `i`'s cells converted as they will load, its cells that cannot be added to `problems`. */
function previewRow(
  name: string,
  read: CsvTable,
  { columns, derived, format }: ResolvedColumns,
  i: number,
  cells: (string | null)[],
  problems: Problem[],
): CsvFilePreview['rows'][number] {
  const values: Record<string, CellValue | null> = {};
  columns.forEach((targets, c) => {
    for (const t of targets) {
      const text = cells[c];
      if (text === null) {
        values[t.id] = null;
        continue;
      }
      const converted = convertCell(text, t.type, format);
      if (converted instanceof BadCell) {
        values[t.id] = converted.text;
        // A column filling several fields of one type is one bad cell.
        if (targets.find((x) => x.type === t.type) === t)
          problems.push({
            path: '',
            file: name,
            row: i + read.firstRow,
            column: read.headers[c],
            message: converted.problem,
          });
      } else {
        values[t.id] = converted;
      }
    }
  });
  for (const d of derived) values[d.target.id] = d.from ? (values[d.from.id] ?? null) : d.value!;
  return { row: i + read.firstRow, cells, values };
}
