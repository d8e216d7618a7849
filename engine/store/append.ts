/**
 * Bulk writes through DuckDB's appender, a data chunk at a time: records are walked once and their values set
 * into plain typed arrays, a column's each, which are copied into the chunk's vectors at once when it is full. No
 * value passes through a node-api vector object: building those for every chunk cost more than the copying.
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
  type DuckDBDateValue,
  type DuckDBTimestampValue,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { DatasetDef } from '../model/datasets.js';
import type { JsonRecord } from '../model/fields.js';
import { allTables, tableColumns, type ColumnType, type TablePlan } from './table-plan.js';
import { converter, timestampValue, type ToDuck } from './values.js';
import type { Workspace } from './workspace.js';

const DUCK_TYPES: Record<ColumnType, DuckDBType> = { VARCHAR, TIMESTAMP, DATE, DOUBLE, INTEGER, BOOLEAN };

/** DuckDB's vector size: the most rows one data chunk holds. */
const CHUNK_ROWS = 2048;

/** The few calls of DuckDB's C API (through @duckdb/node-bindings) that write a chunk's columns in bulk. */
interface ChunkBindings {
  data_chunk_get_vector(chunk: DuckDBDataChunk['chunk'], column: number): unknown;
  copy_data_to_vector(vector: unknown, offset: number, source: ArrayBuffer, sourceOffset: number, bytes: number): void;
  copy_data_to_vector_validity(
    vector: unknown,
    offset: number,
    source: ArrayBuffer,
    sourceOffset: number,
    bytes: number,
  ): void;
  vector_ensure_validity_writable(vector: unknown): void;
  vector_assign_string_element(vector: unknown, row: number, text: string): void;
}
// The very bindings @duckdb/node-api loaded (it pins their version): a vector handle is only good with them.
const nodeApi = createRequire(import.meta.url).resolve('@duckdb/node-api');
const bindings = createRequire(nodeApi)('@duckdb/node-bindings') as ChunkBindings;

/** A `duckdb_string_t`: the length (4 bytes), then the text itself when it fits in 12 bytes, else a pointer to it. */
const STRING_BYTES = 16;
const INLINE_BYTES = 12;
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * A column's nulls in one chunk, as DuckDB's validity mask (a set bit per valid row, in 64-bit words). A column with
 * no null leaves the vector's mask as it is: all valid.
 */
class Nulls {
  private readonly mask = new Uint8Array(CHUNK_ROWS / 8);
  private any = false;

  set(row: number): void {
    if (!this.any) {
      this.mask.fill(0xff);
      this.any = true;
    }
    // Bit `row % 64` of word `row / 64`: on a big-endian machine that word's bytes run the other way.
    const byte = LITTLE_ENDIAN ? row >>> 3 : (row & ~63) / 8 + 7 - ((row >>> 3) & 7);
    this.mask[byte] &= ~(1 << (row & 7));
  }

  flush(vector: unknown, rows: number): void {
    if (!this.any) return;
    bindings.vector_ensure_validity_writable(vector);
    bindings.copy_data_to_vector_validity(vector, 0, this.mask.buffer, 0, Math.ceil(rows / 64) * 8);
    this.any = false;
  }
}

/** One column of a chunk being filled: its values kept in memory, copied into the chunk's vector at once. */
interface ColumnWriter {
  set(row: number, value: DuckDBValue): void;
  /** Copies the first `rows` values into the vector, and makes ready for the next chunk's. */
  flush(vector: unknown, rows: number): void;
}

/**
 * The values of a VARCHAR column of one chunk. Text of at most 12 ASCII characters (ids, codes) is laid out inline
 * as DuckDB's C API defines it (length, then the bytes, zero-padded) and copied into the vector at once; any other
 * text is handed to DuckDB one value at a time, as the node-api vector does for every value.
 */
class TextColumn implements ColumnWriter {
  private readonly slots = new Uint8Array(CHUNK_ROWS * STRING_BYTES);
  private readonly view = new DataView(this.slots.buffer);
  private readonly nulls = new Nulls();
  private longRows: number[] = [];
  private longTexts: string[] = [];

  set(row: number, value: DuckDBValue): void {
    const at = row * STRING_BYTES;
    if (value === null || value === undefined) {
      this.nulls.set(row);
      return;
    }
    const text = value as string;
    const n = text.length;
    if (n <= INLINE_BYTES) {
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

  flush(vector: unknown, rows: number): void {
    bindings.copy_data_to_vector(vector, 0, this.slots.buffer, 0, rows * STRING_BYTES);
    for (let i = 0; i < this.longRows.length; i++)
      bindings.vector_assign_string_element(vector, this.longRows[i], this.longTexts[i]);
    this.longRows = [];
    this.longTexts = [];
    this.nulls.flush(vector, rows);
    // Zeroed for the next chunk: an inline text's padding is zero, as DuckDB compares the inline bytes whole, and a
    // null's slot is empty text.
    this.slots.fill(0, 0, rows * STRING_BYTES);
  }
}

/** Values of fixed width (numbers, booleans, days, microseconds) as DuckDB lays them out in a vector. */
type Slots = Float64Array | Int32Array | Uint8Array | BigInt64Array;

/** A column of fixed-width values of one chunk: `toSlot` turns a value into what its vector holds. */
class FixedColumn<S extends Slots> implements ColumnWriter {
  private readonly nulls = new Nulls();

  constructor(
    private readonly slots: S,
    private readonly toSlot: (value: NonNullable<DuckDBValue>) => S[number],
    private readonly zero: S[number],
  ) {}

  set(row: number, value: DuckDBValue): void {
    if (value === null || value === undefined) {
      this.slots[row] = this.zero;
      this.nulls.set(row);
    } else this.slots[row] = this.toSlot(value);
  }

  flush(vector: unknown, rows: number): void {
    bindings.copy_data_to_vector(vector, 0, this.slots.buffer as ArrayBuffer, 0, rows * this.slots.BYTES_PER_ELEMENT);
    this.nulls.flush(vector, rows);
  }
}

/** What each column type's vector holds per row, as the node-api vectors of the same types write it. */
const COLUMN_WRITERS: Record<ColumnType, () => ColumnWriter> = {
  VARCHAR: () => new TextColumn(),
  DOUBLE: () => new FixedColumn(new Float64Array(CHUNK_ROWS), (v) => v as number, 0),
  INTEGER: () => new FixedColumn(new Int32Array(CHUNK_ROWS), (v) => v as number, 0),
  BOOLEAN: () => new FixedColumn(new Uint8Array(CHUNK_ROWS), (v) => (v ? 1 : 0), 0),
  TIMESTAMP: () => new FixedColumn(new BigInt64Array(CHUNK_ROWS), (v) => (v as DuckDBTimestampValue).micros, 0n),
  DATE: () => new FixedColumn(new Int32Array(CHUNK_ROWS), (v) => (v as DuckDBDateValue).days, 0),
};

/**
 * Fills data chunks row by row and hands each full one to `sink` (an appender, or a list kept for later). The
 * columns' values are kept in plain typed arrays and copied into a chunk's vectors once it is full.
 */
class ChunkWriter {
  private readonly types: DuckDBType[];
  private readonly columns: ColumnWriter[];
  private row = 0;
  rows = 0;

  constructor(
    types: readonly ColumnType[],
    private readonly sink: (chunk: DuckDBDataChunk) => void,
  ) {
    this.types = types.map((t) => DUCK_TYPES[t]);
    this.columns = types.map((t) => COLUMN_WRITERS[t]());
  }

  set(column: number, value: DuckDBValue): void {
    this.columns[column].set(this.row, value);
  }

  endRow(): void {
    this.rows++;
    if (++this.row === CHUNK_ROWS) this.flush();
  }

  /** Hands over the last, partly filled chunk. */
  flush(): void {
    if (this.row === 0) return;
    const chunk = DuckDBDataChunk.create(this.types, this.row);
    for (let c = 0; c < this.columns.length; c++)
      this.columns[c].flush(bindings.data_chunk_get_vector(chunk.chunk, c), this.row);
    this.sink(chunk);
    this.row = 0;
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
    const types = tableColumns(t, dataset).map((c) => c.type);
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
    const out = new ChunkWriter(types, (chunk) => appender.appendDataChunk(chunk));
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
