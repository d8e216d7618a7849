/**
 * Reads a CSV file with DuckDB's reader: the delimiter (comma, semicolon, tab or bar) is told by the header, every
 * cell comes back as text (or null when empty), and a row with too few or too many cells is named with its line,
 * never skipped. DuckDB reads files, so text from a request goes through a temporary one.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { RequestRejected, type Problem } from '../../model/problems.js';

export type CsvSource =
  { name: string; path: string } | { name: string; text: string } | { name: string; bytes: Uint8Array };

export interface CsvTable {
  name: string;
  /** The first row's cells; an empty one reads `(column 3)`. */
  headers: string[];
  /**
   * The cells below the header, column by column (a column of a million cells is far cheaper to read than a million
   * rows).
   */
  columns: (string | null)[][];
  rows: number;
  /**
   * Decimals are written with a comma (2,5): the file's cells are split by something else (a semicolon, a tab, a
   * bar), as spreadsheets export where the comma is the decimal mark.
   */
  decimalComma: boolean;
  /** Rows that could not be split into the header's columns (left out of `columns`): the file cannot load. */
  unreadable?: CsvUnreadable;
  /**
   * The number a problem gives the first row below the header: 2 in a CSV file, whose header is row 1; 1 in a
   * Parquet or Arrow file, whose column names are no row.
   */
  firstRow: number;
}

/** Row `i` (0 = the first after the header) of a table, as its cells. */
export function rowCells(table: CsvTable, i: number): (string | null)[] {
  return table.columns.map((c) => c[i]);
}

/** Rows the reader could not split into the header's columns; the file is not loaded. */
export class CsvUnreadable extends Error {
  constructor(
    readonly file: string,
    readonly problems: Problem[],
    readonly problemCount: number,
  ) {
    super(
      `${file}: ${problemCount} row${problemCount === 1 ? '' : 's'} cannot be read: ${problems
        .slice(0, 3)
        .map((p) => `row ${p.row}: ${p.message}`)
        .join('; ')}`,
    );
  }
}

/** A file's table when every row of it could be read; else its unreadable rows, thrown. */
export function readable(table: CsvTable): CsvTable {
  if (table.unreadable) throw table.unreadable;
  return table;
}

/** Delimiters a header line is tried with, the likeliest first when counts tie. */
const DELIMITERS = [',', ';', '\t', '|'];

/** The first line of a file (without its line break), read in pieces: a file may be gigabytes. */
function firstLine(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(64 * 1024);
    const parts: Buffer[] = [];
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      const end = chunk.subarray(0, read).indexOf(10);
      parts.push(Buffer.from(chunk.subarray(0, end < 0 ? read : end)));
      if (end >= 0) break;
    }
    return Buffer.concat(parts)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .replace(/\r$/, '');
  } finally {
    closeSync(fd);
  }
}

/** Cells of a line split on `delimiter`, outside double quotes. */
function cellCount(line: string, delimiter: string): number {
  let cells = 1;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === delimiter && !quoted) cells++;
  }
  return cells;
}

/** The header's delimiter (the one that splits it into the most cells) and its number of columns. */
export function headerShape(line: string): { delimiter: string; columns: number } {
  let best = { delimiter: DELIMITERS[0], columns: cellCount(line, DELIMITERS[0]) };
  for (const delimiter of DELIMITERS.slice(1)) {
    const columns = cellCount(line, delimiter);
    if (columns > best.columns) best = { delimiter, columns };
  }
  return best;
}

/** Rejected rows named in one answer. */
const LISTED = 100;

/**
 * One in-memory DuckDB for every read, made on first use: it holds no data, and each read gets a connection of its
 * own (its rejected rows are that connection's temporary tables).
 */
let reader: Promise<DuckDBInstance> | undefined;

/**
 * Header and rows of a file (`limit`: at most that many rows after the header). Quotes are the standard double
 * quote, doubled inside a quoted cell. `listAllRejects`: every row that cannot be read is named, not the first 100.
 */
export async function readCsv(
  source: CsvSource,
  limit?: number,
  options: { listAllRejects?: boolean } = {},
): Promise<CsvTable> {
  const temp = 'path' in source ? undefined : mkdtempSync(join(tmpdir(), 'workbench-csv-'));
  const path = 'path' in source ? source.path : join(temp!, 'file.csv');
  reader ??= DuckDBInstance.create(':memory:');
  const conn = await (await reader).connect();
  try {
    if (!('path' in source)) writeFileSync(path, 'text' in source ? source.text : source.bytes);
    let all: (string | null)[][];
    let count: number;
    let decimalComma = false;
    try {
      // The delimiter and the number of columns come from the header line: left to guess from the rows, one
      // unterminated quote would make the whole file one column, and the error would blame the header.
      const { delimiter, columns } = headerShape(firstLine(path));
      decimalComma = delimiter !== ',';
      const types = Array.from({ length: columns }, (_, i) => `'c${i}': 'VARCHAR'`).join(', ');
      const reader = await conn.runAndReadAll(
        `SELECT * FROM read_csv($1, header = false, auto_detect = false, delim = $2, columns = {${types}}, ` +
          `quote = '"', escape = '"', skip = 0, strict_mode = true, null_padding = false, store_rejects = true)` +
          (limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(limit)) + 1}`),
        [path, delimiter],
      );
      all = reader.getColumns() as (string | null)[][];
      count = reader.currentRowCount;
    } catch (e) {
      const why = (e as Error).message.split('\n')[0];
      throw new RequestRejected(
        `${source.name} cannot be read as CSV (${why}); save it as UTF-8 text with a header row`,
      );
    }
    const rejects = (
      await conn.runAndReadAll(
        `SELECT line, error_message FROM reject_errors ORDER BY line` +
          (options.listAllRejects ? '' : ` LIMIT ${LISTED}`),
      )
    ).getRowObjects();
    let unreadable: CsvUnreadable | undefined;
    if (rejects.length) {
      const [{ n }] = (await conn.runAndReadAll('SELECT count(*) AS n FROM reject_errors')).getRowObjects();
      const problems = rejects.map((r) => ({
        path: '',
        file: source.name,
        row: Number(r.line),
        message: String(r.error_message).replace(
          /^Expected Number of Columns: (\d+) Found: (\d+)$/,
          (_, want, got) =>
            `has ${got} cell${got === '1' ? '' : 's'} where the header has ${want} column${want === '1' ? '' : 's'}`,
        ),
      }));
      // Named, not thrown: the rows that could be read still show what the file holds (the mapping step needs
      // them); a load refuses the file (`readable`). A file in another encoding is told once, with the way out.
      const encoding = rejects.some((r) => /invalid unicode/i.test(String(r.error_message)))
        ? notUtf8(source.name, readFileSync(path))
        : undefined;
      unreadable = encoding
        ? new CsvUnreadable(source.name, [encoding], 1)
        : new CsvUnreadable(source.name, problems, Number(n));
    }
    if (count === 0)
      throw new RequestRejected(`${source.name} is empty: a CSV file starts with a header row naming its columns`);
    return {
      name: source.name,
      headers: all.map((c, i) => c[0]?.trim() || `(column ${i + 1})`),
      columns: all.map((c) => c.slice(1)),
      rows: count - 1,
      decimalComma,
      firstRow: 2,
      ...(unreadable ? { unreadable } : {}),
    };
  } finally {
    conn.closeSync();
    if (temp) rmSync(temp, { recursive: true, force: true });
  }
}

/** The encodings a file may declare (the mapping's `encoding`), besides UTF-8. */
export const CSV_ENCODINGS = ['utf-8', 'windows-1252', 'iso-8859-1', 'utf-16le'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

/** A file's text in the encoding it declares. */
export function decodeCsv(bytes: Uint8Array, encoding: CsvEncoding): string {
  return new TextDecoder(encoding).decode(bytes);
}

/** Where a file stops being UTF-8: its first byte that starts no valid sequence, and that byte's row. */
function firstInvalidByte(bytes: Uint8Array): { at: number; row: number } | undefined {
  let row = 1;
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    if (b === 10) row++;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (need < 0) return { at: i, row };
    for (let k = 1; k <= need; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return { at: i, row };
    i += need + 1;
  }
  return undefined;
}

/** A file that is not UTF-8, said once: where, what its byte would be in Windows-1252, and the two ways out. */
function notUtf8(name: string, bytes: Uint8Array): Problem {
  const bad = firstInvalidByte(bytes);
  const where = bad
    ? ` (row ${bad.row} holds byte 0x${bytes[bad.at].toString(16).toUpperCase().padStart(2, '0')}, ` +
      `"${decodeCsv(bytes.subarray(bad.at, bad.at + 1), 'windows-1252')}" in Windows-1252)`
    : '';
  return {
    path: '',
    file: name,
    ...(bad ? { row: bad.row } : {}),
    message:
      `is not UTF-8 text${where}: save it as "CSV UTF-8" (Excel: Save As, CSV UTF-8), or declare its encoding ` +
      `in the mapping, e.g. {"${name.split(/[\\/]/).pop()}": {"encoding": "windows-1252"}}`,
  };
}
