/**
 * Bulk writes through DuckDB's appender, a data chunk at a time: records are walked once and their values
 * set straight into the chunk's column vectors of every table they fill.
 */
import { createRequire } from 'node:module';
import { endianness } from 'node:os';
import {
  BOOLEAN,
  DATE,
  DOUBLE,
  DuckDBDataChunk,
  INTEGER,
  TIMESTAMP,
  VARCHAR,
  type DuckDBType,
  type DuckDBValue,
  type DuckDBVector,
} from '@duckdb/node-api';
import type { DatasetDef } from '../model/datasets.js';
import type { JsonRecord } from '../model/fields.js';
import { allTables, tableColumns, type ColumnType, type TablePlan } from './table-plan.js';
import { converter, timestampValue, type ToDuck } from './values.js';
import type { Workspace } from './workspace.js';

const DUCK_TYPES: Record<ColumnType, DuckDBType> = { VARCHAR, TIMESTAMP, DATE, DOUBLE, INTEGER, BOOLEAN };

/** DuckDB's vector size: the most rows one data chunk holds. */
const CHUNK_ROWS = 2048;

/** The few calls of DuckDB's C API (through @duckdb/node-bindings) that write a text column in bulk. */
interface TextBindings {
  data_chunk_get_vector(chunk: DuckDBDataChunk['chunk'], column: number): unknown;
  copy_data_to_vector(vector: unknown, offset: number, source: ArrayBuffer, sourceOffset: number, bytes: number): void;
  vector_assign_string_element(vector: unknown, row: number, text: string): void;
}
// The very bindings @duckdb/node-api loaded (it pins their version): a vector handle is only good with them.
const nodeApi = createRequire(import.meta.url).resolve('@duckdb/node-api');
const bindings = createRequire(nodeApi)('@duckdb/node-bindings') as TextBindings;

/** A `duckdb_string_t`: the length (4 bytes), then the text itself when it fits in 12 bytes, else a pointer to it. */
const STRING_BYTES = 16;
const INLINE_BYTES = 12;
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * The non-null values of a VARCHAR column of one chunk. Text of at most 12 ASCII characters (ids, codes) is laid
 * out inline as DuckDB's C API defines it (length, then the bytes, zero-padded) and copied into the vector at once;
 * any other text is handed to DuckDB one value at a time, as the node-api vector does for every value.
 */
class TextColumn {
  private readonly slots = new Uint8Array(CHUNK_ROWS * STRING_BYTES);
  private readonly view = new DataView(this.slots.buffer);
  private readonly longRows: number[] = [];
  private readonly longTexts: string[] = [];

  constructor(private readonly vector: unknown) {}

  set(row: number, text: string): void {
    const n = text.length;
    if (n <= INLINE_BYTES) {
      const at = row * STRING_BYTES;
      let i = 0;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c > 0x7f) break;
        this.slots[at + 4 + i] = c;
      }
      if (i === n) {
        this.view.setUint32(at, n, LITTLE_ENDIAN);
        return;
      }
      // Not ASCII: handed over below, which writes the whole slot anew.
    }
    this.longRows.push(row);
    this.longTexts.push(text);
  }

  flush(rows: number): void {
    bindings.copy_data_to_vector(this.vector, 0, this.slots.buffer, 0, rows * STRING_BYTES);
    for (let i = 0; i < this.longRows.length; i++)
      bindings.vector_assign_string_element(this.vector, this.longRows[i], this.longTexts[i]);
  }
}

/** Fills data chunks row by row and hands each full one to `sink` (an appender, or a list kept for later). */
class ChunkWriter {
  private chunk!: DuckDBDataChunk;
  private vectors!: DuckDBVector[];
  /** Per column: its TextColumn when it is VARCHAR. */
  private texts!: (TextColumn | undefined)[];
  private row = 0;
  rows = 0;

  constructor(
    private readonly types: DuckDBType[],
    private readonly sink: (chunk: DuckDBDataChunk) => void,
  ) {
    this.fresh();
  }

  private fresh(): void {
    this.chunk = DuckDBDataChunk.create(this.types, CHUNK_ROWS);
    this.vectors = this.types.map((_, i) => this.chunk.getColumnVector(i));
    this.texts = this.types.map((t, i) =>
      t === VARCHAR ? new TextColumn(bindings.data_chunk_get_vector(this.chunk.chunk, i)) : undefined,
    );
    this.row = 0;
  }

  set(column: number, value: DuckDBValue): void {
    const text = this.texts[column];
    // A null (and anything but text) goes through the node-api vector, which keeps the column's validity.
    if (text !== undefined && typeof value === 'string') text.set(this.row, value);
    else this.vectors[column].setItem(this.row, value);
  }

  endRow(): void {
    this.rows++;
    if (++this.row === CHUNK_ROWS) this.flush();
  }

  /** Hands over the last, partly filled chunk. */
  flush(): void {
    if (this.row === 0) return;
    this.chunk.rowCount = this.row;
    // Text first: the node-api vector's own flush then sets the validity (and any value it was given).
    for (const t of this.texts) t?.flush(this.row);
    for (const v of this.vectors) v.flush();
    this.sink(this.chunk);
    this.fresh();
  }
}

interface TableWriter {
  plan: TablePlan;
  out: ChunkWriter;
  chunks: DuckDBDataChunk[];
  children: TableWriter[];
  /** Per field: its name and converter. */
  fields: { name: string; toDuck: ToDuck }[];
  /** Fields of the record's own key, handed to its children as ancestor keys. */
  key: { name: string; toDuck: ToDuck }[];
}

/** A batch's rows, every table's, laid out in data chunks: they need no connection until they are appended. */
export interface LaidOutRows {
  tables: { table: string; chunks: DuckDBDataChunk[] }[];
}

/**
 * Lays out records (and all their child records) of a dataset as the rows of its tables. Pure work in memory: a
 * caller can do it while a query of its own runs, then append the rows with `appendLaidOut`.
 */
export function layOutRecords(
  dataset: DatasetDef,
  root: TablePlan,
  records: readonly JsonRecord[],
  updatedAt: number,
): LaidOutRows {
  const writers = new Map<TablePlan, TableWriter>();
  for (const t of allTables(root)) {
    const types = tableColumns(t, dataset).map((c) => DUCK_TYPES[c.type]);
    const fields = t.fields.map((f) => ({ name: f.name, toDuck: converter(f.type) }));
    const key = (t.entity['x-key'] as string[]).map((k) => fields.find((f) => f.name === k)!);
    const chunks: DuckDBDataChunk[] = [];
    writers.set(t, { plan: t, out: new ChunkWriter(types, (c) => chunks.push(c)), chunks, children: [], fields, key });
  }
  for (const t of allTables(root)) writers.get(t)!.children = t.children.map((c) => writers.get(c)!);
  const stamp = timestampValue(updatedAt);

  const emit = (w: TableWriter, rec: JsonRecord, ancestors: DuckDBValue[], ord: number) => {
    const { plan, out } = w;
    let col = 0;
    for (const a of ancestors) out.set(col++, a);
    if (plan.depth > 0) out.set(col++, ord);
    for (const f of w.fields) out.set(col++, f.toDuck(rec[f.name]));
    if (plan.depth === 0) {
      out.set(col++, stamp);
      out.set(col++, null);
    }
    out.endRow();
    if (w.children.length === 0) return;
    const own = [...ancestors, ...w.key.map((k) => k.toDuck(rec[k.name]))];
    for (const child of w.children) {
      const list = rec[child.plan.arrayField!];
      if (Array.isArray(list)) for (let i = 0; i < list.length; i++) emit(child, list[i] as JsonRecord, own, i);
    }
  };

  const top = writers.get(root)!;
  for (const rec of records) emit(top, rec, [], 0);
  for (const w of writers.values()) w.out.flush();
  return { tables: [...writers.values()].map((w) => ({ table: w.plan.table, chunks: w.chunks })) };
}

/** Appends laid-out rows, each table through its appender. Runs inside the caller's transaction. */
export async function appendLaidOut(ws: Workspace, rows: LaidOutRows): Promise<void> {
  for (const { table, chunks } of rows.tables) {
    const appender = await ws.conn.createAppender(table);
    try {
      for (const chunk of chunks) appender.appendDataChunk(chunk);
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
  }
}

/**
 * Appends plain rows (values already DuckDB values, in the table's column order) to a table, a chunk at a time as
 * they come; `catalog` 'temp' for a temporary table of the connection.
 */
export async function appendRows(
  ws: Workspace,
  table: string,
  types: readonly ColumnType[],
  rows: Iterable<readonly DuckDBValue[]>,
  catalog?: 'temp',
): Promise<number> {
  const appender = await ws.conn.createAppender(table, null, catalog);
  try {
    const out = new ChunkWriter(
      types.map((t) => DUCK_TYPES[t]),
      (chunk) => appender.appendDataChunk(chunk),
    );
    for (const row of rows) {
      for (let i = 0; i < row.length; i++) out.set(i, row[i]);
      out.endRow();
    }
    out.flush();
    appender.flushSync();
    return out.rows;
  } finally {
    appender.closeSync();
  }
}
