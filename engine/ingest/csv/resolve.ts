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

/** Applies a file's mapping over the proposal from its headers, and names what keeps its rows from loading. */
export function resolveColumns(
  name: string,
  level: CsvLevel,
  table: { headers: readonly string[]; decimalComma: boolean },
  mapping: FileMapping = {},
): ResolvedColumns {
  const { headers } = table;
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const problem = (message: string, column?: string) =>
    problems.push({ path: '', file: name, ...(column === undefined ? {} : { column }), message });
  const given = mapping.columns ?? {};
  for (const header of Object.keys(given)) {
    if (!headers.includes(header))
      problem(
        `the mapping names a column "${clip(header, 80)}" that the file does not have ` +
          `(its columns: ${headers.map((h) => clip(h, 40)).join(', ')})`,
      );
  }
  const explicit = headers.map((h) => Object.hasOwn(given, h));
  const columns = headers.map((h, i): CsvTarget[] => {
    if (!explicit[i]) {
      const proposed = proposeTarget(level, h);
      return proposed ? [proposed] : [];
    }
    const to = given[h];
    const out: CsvTarget[] = [];
    for (const field of to === null ? [] : Array.isArray(to) ? to : [to]) {
      const t = namedTarget(level, field);
      if (!t) problem(`"${clip(field, 80)}" is not a field that "${level.label}" can be loaded into`, h);
      else if (!out.includes(t)) out.push(t);
    }
    return out;
  });
  // A column the user mapped takes its field from a proposed one; two columns the user mapped to one field is a
  // mistake, whether each names it alone or in a list.
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

  headers.forEach((h, i) => {
    if (columns[i].length === 0 && !(explicit[i] && given[h] === null))
      warnings.push({
        path: '',
        file: name,
        column: h,
        message: 'is not loaded: no field takes it (map it to one, or to null to leave it out on purpose)',
      });
  });
  for (const d of derived)
    warnings.push({
      path: '',
      file: name,
      message:
        `no column gives ${d.target.id}: ${d.from ? `filled from ${d.from.id}` : `set to ${d.value}`} on every row ` +
        `(${d.target.default!.why})`,
    });

  let dateFormat;
  if (mapping.dateFormat !== undefined) {
    const compiled = compileDateFormat(mapping.dateFormat);
    if ('error' in compiled) problem(dateFormatProblem(mapping.dateFormat)!);
    else dateFormat = compiled;
  }
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
