/**
 * Bulk writes through DuckDB's appender, a data chunk at a time: records are walked once and their values
 * set straight into the chunk's column vectors of every table they fill.
 */
import {
  BOOLEAN,
  DATE,
  DOUBLE,
  DuckDBDataChunk,
  INTEGER,
  TIMESTAMP,
  VARCHAR,
  type DuckDBAppender,
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

class ChunkAppender {
  private chunk!: DuckDBDataChunk;
  private vectors!: DuckDBVector[];
  private row = 0;
  rows = 0;

  constructor(
    private readonly appender: DuckDBAppender,
    private readonly types: DuckDBType[],
  ) {
    this.fresh();
  }

  private fresh(): void {
    this.chunk = DuckDBDataChunk.create(this.types, CHUNK_ROWS);
    this.vectors = this.types.map((_, i) => this.chunk.getColumnVector(i));
    this.row = 0;
  }

  set(column: number, value: DuckDBValue): void {
    this.vectors[column].setItem(this.row, value);
  }

  endRow(): void {
    this.rows++;
    if (++this.row === CHUNK_ROWS) this.flush();
  }

  private flush(): void {
    if (this.row === 0) return;
    this.chunk.rowCount = this.row;
    for (const v of this.vectors) v.flush();
    this.appender.appendDataChunk(this.chunk);
    this.fresh();
  }

  close(): void {
    this.flush();
    this.appender.flushSync();
    this.appender.closeSync();
  }
}

interface TableWriter {
  plan: TablePlan;
  out: ChunkAppender;
  children: TableWriter[];
  /** Per field: its name and converter. */
  fields: { name: string; toDuck: ToDuck }[];
  /** Fields of the record's own key, handed to its children as ancestor keys. */
  key: { name: string; toDuck: ToDuck }[];
}

/**
 * Appends records (and all their child records) of a dataset. Runs inside the caller's transaction.
 * Returns the number of rows written per table.
 */
export async function appendRecords(
  ws: Workspace,
  dataset: DatasetDef,
  root: TablePlan,
  records: readonly JsonRecord[],
  updatedAt: number,
): Promise<Map<string, number>> {
  const writers = new Map<TablePlan, TableWriter>();
  for (const t of allTables(root)) {
    const types = tableColumns(t, dataset).map((c) => DUCK_TYPES[c.type]);
    const fields = t.fields.map((f) => ({ name: f.name, toDuck: converter(f.type) }));
    const key = (t.entity['x-key'] as string[]).map((k) => fields.find((f) => f.name === k)!);
    writers.set(t, {
      plan: t,
      out: new ChunkAppender(await ws.conn.createAppender(t.table), types),
      children: [],
      fields,
      key,
    });
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
  try {
    for (const rec of records) emit(top, rec, [], 0);
  } finally {
    for (const w of writers.values()) w.out.close();
  }
  return new Map([...writers.values()].map((w) => [w.plan.table, w.out.rows]));
}

/** Appends plain rows (values already DuckDB values, in the table's column order) to a table. */
export async function appendRows(
  ws: Workspace,
  table: string,
  types: readonly ColumnType[],
  rows: Iterable<readonly DuckDBValue[]>,
): Promise<number> {
  const out = new ChunkAppender(
    await ws.conn.createAppender(table),
    types.map((t) => DUCK_TYPES[t]),
  );
  try {
    for (const row of rows) {
      for (let i = 0; i < row.length; i++) out.set(i, row[i]);
      out.endRow();
    }
  } finally {
    out.close();
  }
  return out.rows;
}
