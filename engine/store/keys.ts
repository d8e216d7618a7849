/**
 * Sets of record keys passed to SQL as parallel list parameters: `unnest` of equal-length lists zips them
 * into rows, so one statement touches every record of a batch, whatever its size.
 */
import { listValue, type DuckDBValue } from '@duckdb/node-api';
import type { DatasetDef } from '../model/datasets.js';
import type { JsonRecord } from '../model/fields.js';
import { q, tablePlan, type ColumnType } from './table-plan.js';
import { toDuck } from './values.js';

export interface KeySet {
  /** `SELECT unnest($1::VARCHAR[]) AS k0, …` */
  select: string;
  params: DuckDBValue[];
  fields: readonly string[];
}

export function keyTypes(dataset: DatasetDef): ColumnType[] {
  const plan = tablePlan(dataset);
  return dataset.key.map((k) => plan.fields.find((f) => f.name === k)!.type);
}

export function keySet(dataset: DatasetDef, records: readonly JsonRecord[], firstParam = 1): KeySet {
  const types = keyTypes(dataset);
  const params = dataset.key.map((k, i) => listValue(records.map((r) => toDuck(types[i], r[k]))));
  const select = `SELECT ${dataset.key.map((_, i) => `unnest($${firstParam + i}::${types[i]}[]) AS k${i}`).join(', ')}`;
  return { select, params, fields: dataset.key };
}

/** `t.a = k.k0 AND t.b = k.k1`, for the dataset's table (`prefix` '') or a child table (`prefix` '_'). */
export function keyMatch(fields: readonly string[], table: string, keys = 'k', prefix = ''): string {
  return fields.map((f, i) => `${table}.${q(prefix + f)} = ${keys}.k${i}`).join(' AND ');
}
