/**
 * A CSV cell's text as the JSON value its field takes. Every column is read as text, so the field's schema type,
 * not a guess from the first rows, decides; what cannot be converted is said in words and left as text.
 */
import type { ColumnType } from '../../store/table-plan.js';
import { clip } from '../../model/problems.js';
import type { DateFormat } from './date-format.js';

export type CellValue = string | number | boolean;

/** A cell that is not what its field takes: its text, and why. */
export class BadCell {
  constructor(
    readonly text: string,
    readonly problem: string,
  ) {}
}

/** How a file writes what is not text: its decimal mark, and its dates when they are not ISO 8601. */
export interface CellFormat {
  decimalComma: boolean;
  dateFormat?: DateFormat;
}

/** A plain decimal number: no thousands separators, a dot for decimals, an optional exponent. */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** A number with a decimal comma and no thousands separators: 2,5 or -1234,75. */
const COMMA_DECIMAL = /^[+-]?\d+,\d+$/;
const TRUE = new Set(['true', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'no', 'n', '0']);

/**
 * The value, or a BadCell (only a bad cell allocates: a file has millions of good ones). `decimalComma`: the file
 * writes decimals with a comma (2,5), as files whose cells are not split by commas do where the comma is the
 * decimal mark; a dot is read as the decimal mark there too. `dateFormat`: the file's dates, rewritten to ISO 8601.
 */
export function convertCell(text: string, type: ColumnType, format: CellFormat): CellValue | BadCell {
  const { decimalComma, dateFormat } = format;
  if (type === 'DOUBLE' || type === 'INTEGER') {
    const t = text.trim();
    if (NUMBER.test(t)) return Number(t);
    if (decimalComma && COMMA_DECIMAL.test(t)) return Number(t.replace(',', '.'));
    return new BadCell(
      text,
      `"${clip(text, 60)}" is not a number (write decimals with ` +
        `${decimalComma ? 'a comma or a dot' : 'a dot'} and no thousands separators, e.g. ` +
        `${decimalComma ? '1234,5' : '1234.5'})`,
    );
  }
  if (type === 'BOOLEAN') {
    const t = text.trim().toLowerCase();
    if (TRUE.has(t)) return true;
    if (FALSE.has(t)) return false;
    return new BadCell(text, `"${clip(text, 60)}" is not true or false (write true/false, yes/no or 1/0)`);
  }
  if (dateFormat && (type === 'TIMESTAMP' || type === 'DATE')) {
    const iso = dateFormat.read(text, type);
    if (iso !== undefined) return iso;
    return new BadCell(
      text,
      `"${clip(text, 60)}" is not a date in the mapping's dateFormat ${dateFormat.text} (e.g. ${dateFormat.example})`,
    );
  }
  // Text, and dates without a declared format, keep their text: the schema checks them, with the same messages as
  // in JSON.
  return text;
}
