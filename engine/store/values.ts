/** Conversions between JSON values and DuckDB values, per column type: the one place that knows both sides. */
import { DuckDBDateValue, DuckDBTimestampValue, type DuckDBValue } from '@duckdb/node-api';
import { DAY_MICROS, dayText, formatIsoMicros, parseIsoMicros } from '../model/datetime.js';
import type { ColumnType } from './table-plan.js';

export function timestampValue(micros: number): DuckDBTimestampValue {
  return new DuckDBTimestampValue(BigInt(micros));
}

export type ToDuck = (value: unknown) => DuckDBValue;

const asIs: ToDuck = (value) => (value === undefined ? null : (value as DuckDBValue));

function micros(value: unknown): number {
  const m = parseIsoMicros(value as string);
  if (m === undefined) throw new Error(`not an ISO 8601 datetime: ${String(value)}`);
  return m;
}

const CONVERTERS: Record<ColumnType, ToDuck> = {
  VARCHAR: asIs,
  DOUBLE: asIs,
  INTEGER: asIs,
  BOOLEAN: asIs,
  TIMESTAMP: (value) => (value == null ? null : timestampValue(micros(value))),
  DATE: (value) => (value == null ? null : new DuckDBDateValue(Math.floor(micros(value) / DAY_MICROS))),
};

/** The converter of a column type, looked up once per column rather than per value. */
export function converter(type: ColumnType): ToDuck {
  return CONVERTERS[type];
}

/** A validated JSON value to the DuckDB value of its column. */
export function toDuck(type: ColumnType, value: unknown): DuckDBValue {
  return CONVERTERS[type](value);
}

/** A stored DuckDB value back to its JSON form. */
export function fromDuck(type: ColumnType, value: DuckDBValue): unknown {
  if (value === null || value === undefined) return undefined;
  switch (type) {
    case 'TIMESTAMP':
      return formatIsoMicros((value as DuckDBTimestampValue).micros);
    case 'DATE':
      return dayText((value as DuckDBDateValue).days);
    case 'INTEGER':
    case 'DOUBLE':
      return typeof value === 'bigint' ? Number(value) : value;
    default:
      return value;
  }
}
