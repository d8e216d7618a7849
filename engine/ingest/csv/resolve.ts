/**
 * A file's columns resolved against its level and its mapping: the fields each column fills, the required fields
 * no column gives that their default fills (model/field-defaults.ts), how the file writes numbers and dates, and
 * everything that keeps its rows from loading or that its load will say once.
 */
import { clip, type Problem } from '../../model/problems.js';
import type { CellFormat } from './convert.js';
import { compileDateFormat } from './date-format.js';
import type { CsvLevel, CsvTarget } from './levels.js';
import { dateFormatProblem, type FileMapping } from './mapping-file.js';
import { namedTarget, proposeTarget } from './mapping.js';

/** A required field no column gives, filled on every row from another field of the row or with a constant. */
export interface DerivedField {
  target: CsvTarget;
  from?: CsvTarget;
  value?: number;
}

export interface ResolvedColumns {
  level: CsvLevel;
  /** Per column, the fields it is loaded into; none: it is left out. */
  columns: CsvTarget[][];
  problems: Problem[];
  /** Said once with the file's load: columns no field takes, fields filled by their default. */
  warnings: Problem[];
  derived: DerivedField[];
  format: CellFormat;
  /** A parent's fields that differ between its rows: the dataset is refused, or the first row's value is taken. */
  repeated: 'refuse' | 'first';
}

/** Says what keeps a file's rows from loading, naming the column where one is at fault. */
type ProblemOf = (message: string, column?: string) => void;
/** The mapping's columns: a field, a list of fields, or null (left out on purpose). */
type GivenColumns = NonNullable<FileMapping['columns']>;

/** Applies a file's mapping over the proposal from its headers, and names what keeps its rows from loading. */
export function resolveColumns(
  name: string,
  level: CsvLevel,
  table: { headers: readonly string[]; decimalComma: boolean },
  mapping: FileMapping = {},
): ResolvedColumns {
  const { headers } = table;
  const problems: Problem[] = [];
  const problem: ProblemOf = (message, column) =>
    problems.push({ path: '', file: name, ...(column === undefined ? {} : { column }), message });
  const given = mapping.columns ?? {};
  checkMappedHeaders(headers, given, problem);
  const explicit = headers.map((h) => Object.hasOwn(given, h));
  const columns = headers.map((h, i) =>
    explicit[i] ? mappedTargets(level, h, given[h], problem) : proposed(level, h),
  );
  settleSharedFields(headers, explicit, columns, problem);
  const derived = derivedFields(level, columns, problem);
  const warnings = [
    ...unloadedColumns(name, headers, explicit, given, columns),
    ...derived.map((d) => derivedWarning(name, d)),
  ];
  const dateFormat = dateFormatOf(mapping, problem);
  return {
    level,
    columns,
    problems,
    warnings,
    derived,
    format: { decimalComma: mapping.decimalComma ?? table.decimalComma, ...(dateFormat ? { dateFormat } : {}) },
    repeated: mapping.repeatedSaleFields ?? 'refuse',
  };
}

/** A mapping written for another version of the file: it names columns this one does not have. */
function checkMappedHeaders(headers: readonly string[], given: GivenColumns, problem: ProblemOf): void {
  for (const header of Object.keys(given)) {
    if (!headers.includes(header))
      problem(
        `the mapping names a column "${clip(header, 80)}" that the file does not have ` +
          `(its columns: ${headers.map((h) => clip(h, 40)).join(', ')})`,
      );
  }
}

/** The field proposed for a column the mapping does not name, from its header. */
function proposed(level: CsvLevel, header: string): CsvTarget[] {
  const target = proposeTarget(level, header);
  return target ? [target] : [];
}

/** The fields the mapping loads a column into, each once; a name the level has no field for is a problem. */
function mappedTargets(level: CsvLevel, header: string, to: GivenColumns[string], problem: ProblemOf): CsvTarget[] {
  const out: CsvTarget[] = [];
  for (const field of to === null ? [] : Array.isArray(to) ? to : [to]) {
    const t = namedTarget(level, field);
    if (!t) problem(`"${clip(field, 80)}" is not a field that "${level.label}" can be loaded into`, header);
    else if (!out.includes(t)) out.push(t);
  }
  return out;
}

/**
 * One column per field. A column the user mapped takes its field from a proposed one; two columns the user mapped
 * to one field is a mistake, whether each names it alone or in a list.
 */
function settleSharedFields(
  headers: readonly string[],
  explicit: boolean[],
  columns: CsvTarget[][],
  problem: ProblemOf,
): void {
  const owner = new Map<CsvTarget, number>();
  columns.forEach((targets, i) => {
    for (const t of [...targets]) {
      const j = owner.get(t);
      if (j === undefined) owner.set(t, i);
      else if (explicit[i] && explicit[j])
        problem(`columns "${headers[j]}" and "${headers[i]}" are both loaded into ${t.id}; choose one`, headers[i]);
      else if (explicit[i]) {
        columns[j] = columns[j].filter((x) => x !== t);
        owner.set(t, i);
      } else columns[i] = columns[i].filter((x) => x !== t);
    }
  });
}

/**
 * The level's required fields no column gives, filled by their default where they have one; one without (or a
 * parent's key, which places the rows) is a problem.
 */
function derivedFields(level: CsvLevel, columns: CsvTarget[][], problem: ProblemOf): DerivedField[] {
  const mapped = new Set(columns.flat());
  const own = level.path.length - 1;
  const derived: DerivedField[] = [];
  for (const t of level.targets) {
    const parentKey = t.depth === own - 1 && t.key && t.required;
    if (t.depth === own && t.required && !mapped.has(t)) {
      const rule = t.default;
      const from =
        rule && 'from' in rule ? level.targets.find((x) => x.depth === own && x.field === rule.from) : undefined;
      if (rule && 'value' in rule) derived.push({ target: t, value: rule.value });
      else if (from && mapped.has(from)) derived.push({ target: t, from });
      else
        problem(
          `no column is loaded into ${t.id}, which every ${t.of} needs` +
            (from ? ` (without one it is filled from ${from.id}, which has no column either)` : ''),
        );
    } else if (parentKey && !mapped.has(t))
      problem(`no column is loaded into ${t.id}: the rows cannot be placed under their ${t.of}`);
  }
  return derived;
}

/** A warning per column no field takes, unless the mapping left it out on purpose (null). */
function unloadedColumns(
  name: string,
  headers: readonly string[],
  explicit: boolean[],
  given: GivenColumns,
  columns: CsvTarget[][],
): Problem[] {
  const warnings: Problem[] = [];
  headers.forEach((h, i) => {
    if (columns[i].length === 0 && !(explicit[i] && given[h] === null))
      warnings.push({
        path: '',
        file: name,
        column: h,
        message: 'is not loaded: no field takes it (map it to one, or to null to leave it out on purpose)',
      });
  });
  return warnings;
}

function derivedWarning(name: string, d: DerivedField): Problem {
  return {
    path: '',
    file: name,
    message:
      `no column gives ${d.target.id}: ${d.from ? `filled from ${d.from.id}` : `set to ${d.value}`} on every row ` +
      `(${d.target.default!.why})`,
  };
}

/** The mapping's date format, compiled; one that cannot be read is a problem. */
function dateFormatOf(mapping: FileMapping, problem: ProblemOf) {
  if (mapping.dateFormat === undefined) return undefined;
  const compiled = compileDateFormat(mapping.dateFormat);
  if ('error' in compiled) {
    problem(dateFormatProblem(mapping.dateFormat)!);
    return undefined;
  }
  return compiled;
}
