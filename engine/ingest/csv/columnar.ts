/**
 * Parquet and Arrow IPC (Feather v2) files as the tables a CSV file gives: one level of a dataset each, its column
 * names the header, every cell text (or null), so they are mapped, assembled, validated and applied exactly as CSV
 * is and a bad cell is named by file, row and column. Parquet is read by DuckDB (`read_parquet`), Arrow by
 * apache-arrow. A cell's text is what the CSV would hold: numbers as written, dates as YYYY-MM-DD, instants in ISO
 * 8601 UTC.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DataType, tableFromIPC, type Field, type Vector } from 'apache-arrow';
import { RequestRejected } from '../../model/problems.js';
import type { CsvTable } from './read.js';

/** A columnar file as picked: a path (the CLI) or its bytes (the Load screen). */
export type ColumnarSource = { name: string; path: string } | { name: string; bytes: Uint8Array };

export type ColumnarKind = 'parquet' | 'arrow';

/** The columnar kind a file's name says, if any: `.parquet`, `.arrow`, `.feather` or `.ipc`. */
export function columnarKind(name: string): ColumnarKind | undefined {
  const ext = /\.([a-z]+)$/i.exec(name)?.[1].toLowerCase();
  if (ext === 'parquet') return 'parquet';
  if (ext === 'arrow' || ext === 'feather' || ext === 'ipc') return 'arrow';
  return undefined;
}

let reader: Promise<DuckDBInstance> | undefined;

/** A column's cells as text, per DuckDB type: the select expression for it. */
function asText(column: string, type: string): string {
  const c = `"${column.replace(/"/g, '""')}"`;
  if (type === 'DATE') return `strftime(${c}, '%Y-%m-%d')`;
  if (type.startsWith('TIMESTAMP WITH TIME ZONE') || type === 'TIMESTAMPTZ')
    return `strftime(timezone('UTC', ${c}), '%Y-%m-%dT%H:%M:%S.%fZ')`;
  if (type.startsWith('TIMESTAMP')) return `strftime(${c}::TIMESTAMP, '%Y-%m-%dT%H:%M:%S.%fZ')`;
  return `${c}::VARCHAR`;
}

async function readParquet(source: ColumnarSource, limit?: number): Promise<CsvTable> {
  const temp = 'bytes' in source ? mkdtempSync(join(tmpdir(), 'workbench-parquet-')) : undefined;
  const path = 'bytes' in source ? join(temp!, 'file.parquet') : source.path;
  reader ??= DuckDBInstance.create(':memory:');
  const conn = await (await reader).connect();
  try {
    if ('bytes' in source) writeFileSync(path, source.bytes);
    let described: { column_name: string; column_type: string }[];
    try {
      described = (await conn.runAndReadAll('DESCRIBE SELECT * FROM read_parquet($1)', [path])).getRowObjects() as {
        column_name: string;
        column_type: string;
      }[];
    } catch (e) {
      throw new RequestRejected(`${source.name} cannot be read as Parquet (${(e as Error).message.split('\n')[0]})`);
    }
    const select = described.map((d) => asText(d.column_name, d.column_type)).join(', ');
    const read = await conn.runAndReadAll(
      `SELECT ${select} FROM read_parquet($1)` + (limit === undefined ? '' : ` LIMIT ${Math.max(0, limit)}`),
      [path],
    );
    return {
      name: source.name,
      headers: described.map((d) => d.column_name),
      columns: read.getColumns() as (string | null)[][],
      rows: read.currentRowCount,
      decimalComma: false,
      firstRow: 1,
    };
  } finally {
    conn.closeSync();
    if (temp) rmSync(temp, { recursive: true, force: true });
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** One Arrow column's cells as text; a type with no CSV form is refused with its column named. */
function arrowCells(file: string, field: Field, vector: Vector, rows: number): (string | null)[] {
  const out: (string | null)[] = new Array(rows);
  const t = field.type;
  let text: (v: unknown) => string;
  if (DataType.isTimestamp(t)) text = (v) => new Date(Number(v)).toISOString();
  else if (DataType.isDate(t))
    text = (v) => {
      const d = v instanceof Date ? v : new Date(Number(v));
      return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    };
  else if (DataType.isUtf8(t) || DataType.isLargeUtf8(t) || DataType.isDictionary(t) || DataType.isBool(t))
    text = (v) => String(v);
  else if (DataType.isInt(t) || DataType.isFloat(t)) text = (v) => String(v);
  else
    throw new RequestRejected(
      `${file}: column "${field.name}" is of Arrow type ${String(t)}, which has no CSV form; ` +
        'write it as text, a number, a date or a timestamp',
    );
  for (let i = 0; i < rows; i++) {
    const v = vector.get(i);
    out[i] = v === null || v === undefined ? null : text(v);
  }
  return out;
}

function readArrow(source: ColumnarSource, limit?: number): CsvTable {
  let table;
  try {
    table = tableFromIPC('bytes' in source ? source.bytes : readFileSync(source.path));
  } catch (e) {
    throw new RequestRejected(`${source.name} cannot be read as Arrow IPC (${(e as Error).message.split('\n')[0]})`);
  }
  const rows = limit === undefined ? table.numRows : Math.min(table.numRows, Math.max(0, limit));
  const fields = table.schema.fields;
  return {
    name: source.name,
    headers: fields.map((f) => f.name),
    columns: fields.map((f, i) => arrowCells(source.name, f, table.getChildAt(i)!, rows)),
    rows,
    decimalComma: false,
    firstRow: 1,
  };
}

/** A Parquet or Arrow file's header and rows (`limit`: at most that many rows), as a CSV file gives them. */
export async function readColumnar(source: ColumnarSource, limit?: number): Promise<CsvTable> {
  return columnarKind(source.name) === 'parquet' ? readParquet(source, limit) : readArrow(source, limit);
}
