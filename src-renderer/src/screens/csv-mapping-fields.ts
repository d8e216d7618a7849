import type { CsvFilePreview, CsvTarget } from '../client';

/** What a file's mapping holds by a guess from its headers: its level, and per column header its field. */
export interface Guessed {
  level?: string;
  columns: Record<string, string>;
}

/** A column's fields as a list, whether the mapping names one, several or none. */
export const fieldsOf = (column: string | string[] | null): string[] =>
  column === null ? [] : Array.isArray(column) ? column : [column];
/** Fields back as a mapping's column value: one field alone, several as a list. */
export const asColumn = (fields: string[]): string | string[] | null =>
  fields.length === 0 ? null : fields.length === 1 ? fields[0] : fields;

/** A cell as the preview shows it: empty for no value. */
export function shown(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/** A required field no column gives, filled on every row by its default. */
export type DerivedField = CsvFilePreview['derived'][number] & { target: CsvTarget };

/**
 * The fields a file's rows load into: each column's (with the header it comes from) and those its default fills,
 * each with its target as the file's level knows it; and how a default fills a field, in words.
 */
export function mappingFields(file: CsvFilePreview) {
  const target = (id: string) => file.targets.find((t) => t.id === id);
  const mapped = file.columns.flatMap((column, i) =>
    fieldsOf(column).flatMap((id) => (target(id) ? [{ target: target(id)!, header: file.headers[i] }] : [])),
  );
  const derived: DerivedField[] = file.derived.flatMap((d) =>
    target(d.field) ? [{ ...d, target: target(d.field)! }] : [],
  );
  const filled = (d: DerivedField) =>
    d.from === undefined ? `set to ${d.value}` : `filled from ${target(d.from)?.field ?? d.from}`;
  return { target, mapped, derived, filled };
}
