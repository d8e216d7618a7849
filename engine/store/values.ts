/** Conversions between JSON values and DuckDB values, per column type: the one place that knows both sides. */
import { DuckDBDateValue, DuckDBTimestampValue, type DuckDBValue } from '@duckdb/node-api';
import { formatIsoMicros, parseIsoMicros } from '../model/datetime.js';
import type { ColumnType } from './table-plan.js';

const MICROS_PER_DAY = 86_400_000_000;

export function timestampValue(micros: number): DuckDBTimestampValue {
  return new DuckDBTimestampValue(BigInt(micros));
}

/** A validated JSON value to the DuckDB value of its column. */
export function toDuck(type: ColumnType, value: unknown): DuckDBValue {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'TIMESTAMP': {
      const micros = parseIsoMicros(value as string);
      if (micros === undefined) throw new Error(`not an ISO 8601 datetime: ${String(value)}`);
      return timestampValue(micros);
    }
    case 'DATE': {
      const micros = parseIsoMicros(value as string);
      if (micros === undefined) throw new Error(`not an ISO 8601 date: ${String(value)}`);
      return new DuckDBDateValue(Math.floor(micros / MICROS_PER_DAY));
    }
    default:
      return value as DuckDBValue;
  }
}

/** A stored DuckDB value back to its JSON form. */
export function fromDuck(type: ColumnType, value: DuckDBValue): unknown {
  if (value === null || value === undefined) return undefined;
  switch (type) {
    case 'TIMESTAMP':
      return formatIsoMicros((value as DuckDBTimestampValue).micros);
    case 'DATE':
      return new Date((value as DuckDBDateValue).days * 86_400_000).toISOString().slice(0, 10);
    case 'INTEGER':
    case 'DOUBLE':
      return typeof value === 'bigint' ? Number(value) : value;
    default:
      return value;
  }
}
