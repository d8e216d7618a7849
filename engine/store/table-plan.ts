/**
 * Derives the DuckDB tables of a dataset from its schema: the record's scalar fields become columns of the
 * dataset's table, and each array of child records becomes a table of its own that carries the keys of its
 * ancestors (`_itemId`, `_skuId`) and its position in the array (`_ord`). Reading a record back reverses this.
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import type { DatasetDef } from '../model/datasets.js';
import { entityKey, unwrapOptional } from '../model/fields.js';

export type ColumnType = 'VARCHAR' | 'TIMESTAMP' | 'DATE' | 'DOUBLE' | 'INTEGER' | 'BOOLEAN';

export interface FieldColumn {
  /** JSON field name, also the column name. */
  name: string;
  type: ColumnType;
  required: boolean;
}

export interface AncestorKey {
  /** Column name: the ancestor's key field with a leading underscore. */
  column: string;
  field: string;
  /** 0 = the dataset record, 1 = its child, … */
  depth: number;
  type: ColumnType;
}

export interface TablePlan {
  table: string;
  entity: TObject;
  /** Field of the parent record holding this array; undefined for the dataset's own table. */
  arrayField?: string;
  depth: number;
  /** Keys of every ancestor, outermost first (child tables only). */
  ancestors: AncestorKey[];
  fields: FieldColumn[];
  children: TablePlan[];
}

/** Bookkeeping columns of a dataset's own table. */
export const UPDATED_AT = '_updated_at';
export const DELETED_AT = '_deleted_at';
export const ORD = '_ord';

function columnType(schema: TSchema, where: string): ColumnType {
  if (Array.isArray(schema.anyOf) && (schema.anyOf as TSchema[]).every((m) => typeof m.const === 'string'))
    return 'VARCHAR';
  if (schema.type === 'string')
    return schema.format === 'date-time' ? 'TIMESTAMP' : schema.format === 'date' ? 'DATE' : 'VARCHAR';
  if (schema.type === 'number') return 'DOUBLE';
  if (schema.type === 'integer') return 'INTEGER';
  if (schema.type === 'boolean') return 'BOOLEAN';
  throw new Error(`${where}: no column type for schema ${JSON.stringify(schema)}`);
}

function plan(entity: TObject, table: string, depth: number, ancestors: AncestorKey[], arrayField?: string): TablePlan {
  const required = new Set(entity.required ?? []);
  const fields: FieldColumn[] = [];
  const childSchemas: [string, TObject][] = [];
  for (const [name, raw] of Object.entries(entity.properties)) {
    const schema = unwrapOptional(raw);
    if (schema.type === 'array') {
      childSchemas.push([name, schema.items as TObject]);
    } else {
      fields.push({ name, type: columnType(schema, `${table}.${name}`), required: required.has(name) });
    }
  }
  const key = entityKey(entity);
  const ownKeys: AncestorKey[] = key.map((field) => ({
    column: `_${field}`,
    field,
    depth,
    type: fields.find((f) => f.name === field)?.type ?? 'VARCHAR',
  }));
  const children = childSchemas.map(([name, child]) =>
    plan(child, `${table}__${name}`, depth + 1, [...ancestors, ...ownKeys], name),
  );
  return { table, entity, arrayField, depth, ancestors, fields, children };
}

const cache = new WeakMap<DatasetDef, TablePlan>();

export function tablePlan(dataset: DatasetDef): TablePlan {
  let p = cache.get(dataset);
  if (!p) {
    p = plan(dataset.record, dataset.table, 0, []);
    cache.set(dataset, p);
  }
  return p;
}

/** Every table of a dataset, the dataset's own first. */
export function allTables(p: TablePlan): TablePlan[] {
  return [p, ...p.children.flatMap(allTables)];
}

export interface ColumnDef {
  name: string;
  type: ColumnType;
  notNull: boolean;
}

/** The columns of a table in storage order. */
export function tableColumns(p: TablePlan, dataset: DatasetDef): ColumnDef[] {
  const cols: ColumnDef[] = [];
  for (const a of p.ancestors) cols.push({ name: a.column, type: a.type, notNull: true });
  if (p.depth > 0) cols.push({ name: ORD, type: 'INTEGER', notNull: true });
  for (const f of p.fields) {
    // A stock level without a time is stamped with the arrival time, so the stored column is never null.
    const notNull = f.required || (p.depth === 0 && dataset.key.includes(f.name));
    cols.push({ name: f.name, type: f.type, notNull });
  }
  if (p.depth === 0) {
    cols.push({ name: UPDATED_AT, type: 'TIMESTAMP', notNull: true });
    cols.push({ name: DELETED_AT, type: 'TIMESTAMP', notNull: false });
  }
  return cols;
}

export const q = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

export function createTableSql(p: TablePlan, dataset: DatasetDef): string {
  const cols = tableColumns(p, dataset).map((c) => `${q(c.name)} ${c.type}${c.notNull ? ' NOT NULL' : ''}`);
  return `CREATE TABLE IF NOT EXISTS ${q(p.table)} (${cols.join(', ')})`;
}
