/**
 * A parent's fields repeated on each of its rows (a sale's date on every line) that differ between those rows, told
 * once per record and field rather than once per row: an export that writes a sale's time to the second on each
 * line would otherwise bury the one real problem under thousands of copies.
 */
import { clip } from '../../model/problems.js';

/** A record whose rows give one of its fields differently. */
export interface Differing {
  /** The record in words ("sale") and its key ("536365"). */
  of: string;
  id: string;
  field: string;
  /** Each value given, in the order of the rows, with the rows that give it. */
  values: { text: string; rows: { file: string; row: number }[] }[];
}

const ROWS_NAMED = 5;
const EXAMPLES = 3;

const baseName = (file: string) => file.split(/[\\/]/).pop()!;

/** `rows 2, 3` in `file`; another file's rows with its name: `items.csv row 5`. */
function rowsText(rows: { file: string; row: number }[], file: string): string {
  const byFile = new Map<string, number[]>();
  for (const r of rows) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r.row]);
  return [...byFile]
    .map(([f, numbers]) => {
      const named = numbers.slice(0, ROWS_NAMED).join(', ');
      const more = numbers.length > ROWS_NAMED ? ` and ${numbers.length - ROWS_NAMED} more` : '';
      return `${f === file ? '' : `${baseName(f)} `}row${numbers.length === 1 ? '' : 's'} ${named}${more}`;
    })
    .join(', ');
}

const valuesText = (d: Differing, file: string) =>
  d.values.map((v) => `"${clip(v.text, 60)}" in ${rowsText(v.rows, file)}`).join('; ');

/** The problem of one record and field: its values and their rows, and the two ways out. */
export function differsMessage(d: Differing, file: string): string {
  return (
    `${d.field} differs between the rows of ${d.of} "${clip(d.id, 80)}": ${valuesText(d, file)}. ` +
    `One ${d.of} has one ${d.field}: correct the rows, or set "repeatedSaleFields": "first" in the mapping to ` +
    "take the first row's"
  );
}

const plural = (of: string, n: number) => (n === 1 ? of : of.endsWith('s') ? of : `${of}s`);

/** A file's records that took their first row's values, said once: how many, for which fields, a few examples. */
export function firstTakenMessage(all: readonly Differing[], file: string): string {
  const records = new Set(all.map((d) => `${d.of}\u0000${d.id}`)).size;
  const kinds = [...new Set(all.map((d) => d.of))];
  const of = kinds.length === 1 ? kinds[0] : 'record';
  const fields = new Map<string, number>();
  for (const d of all) fields.set(d.field, (fields.get(d.field) ?? 0) + 1);
  const examples = all
    .slice(0, EXAMPLES)
    .map((d) => `${d.of} "${clip(d.id, 80)}": ${d.field} ${valuesText(d, file)}`)
    .join(' | ');
  return (
    `${records} ${plural(of, records)} ${records === 1 ? 'has' : 'have'} fields that differ between their rows ` +
    `(${[...fields].map(([f, n]) => `${f} in ${n}`).join(', ')}); each took its first row's value ` +
    `("repeatedSaleFields": "first"). For example ${examples}`
  );
}
