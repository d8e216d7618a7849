/**
 * Field builders: every length limit and type rule of the spec is written once here and reused by the dataset
 * schemas, so the TypeScript types, the request validation and the OpenAPI text all agree.
 */
import {
  Type,
  FormatRegistry,
  type TSchema,
  type TObject,
  type TProperties,
  type ObjectOptions,
} from '@sinclair/typebox';
import { isIsoDateTime } from './datetime.js';

FormatRegistry.Set('date-time', isIsoDateTime);
FormatRegistry.Set('date', (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && isIsoDateTime(v));

/** Length limits the spec gives, and the ones docs/design.md §3 decides where the spec shows none. */
export const LIMITS = {
  id: 80,
  code: 60,
  description: 255,
  /** Attribute keys and values, Sale.code: not shown in the spec; generous bounds that still stop abuse. */
  attributeKey: 255,
  attributeValue: 1000,
  saleCode: 255,
  freeText: 1000,
  url: 2048,
} as const;

/** Integers are stored as DuckDB INTEGER. */
const INT32_MAX = 2_147_483_647;

export const Str = (maxLength: number, description?: string) => Type.String({ maxLength, description });
/** Ids are text of any characters, but never empty: an empty id cannot be referred to. */
export const Id = (description?: string) => Type.String({ minLength: 1, maxLength: LIMITS.id, description });
export const Code = (description = 'Business key known to end users.') =>
  Type.String({ minLength: 1, maxLength: LIMITS.code, description });
export const Description = (description = 'Name or description.') =>
  Type.String({ maxLength: LIMITS.description, description });
export const DateTime = (description?: string) =>
  Type.String({
    format: 'date-time',
    maxLength: 40,
    description: `${description ?? ''} ISO 8601, UTC (a value without a zone is read as UTC).`.trim(),
  });
export const DateOnly = (description?: string) => Type.String({ format: 'date', description });
/**
 * No amount or quantity of a retailer comes near a million million: a bound here keeps a stray value (1e15, a
 * typo'd exponent) out of the exact sums the engine and the backtest take (DECIMAL(18, 4), daily-levels.ts).
 */
export const MAX_MAGNITUDE = 1e12;
export const Decimal = (description?: string, range: { minimum?: number; maximum?: number } = {}) =>
  Type.Number({ description, minimum: -MAX_MAGNITUDE, maximum: MAX_MAGNITUDE, ...range });
export const Quantity = (description?: string) => Type.Number({ description, minimum: 0, maximum: MAX_MAGNITUDE });
export const Percentage = (description?: string) => Type.Number({ description, minimum: 0, maximum: 100 });
export const Integer = (description?: string, minimum = 0) =>
  Type.Integer({ description, minimum, maximum: INT32_MAX });
/**
 * Ten years of days: no review period, lead time, cover or age a retailer sets comes near it, and day arithmetic
 * on it stays within the dates the workspace stores.
 */
export const MAX_DAYS = 3660;
/** A whole number of days. */
export const Days = (description?: string, minimum = 0) => Type.Integer({ description, minimum, maximum: MAX_DAYS });
/** A number of days that may have a fraction (a half-weight, a cover). */
export const DaysSpan = (description?: string) => Type.Number({ description, minimum: 0, maximum: MAX_DAYS });
export const Bool = (description?: string) => Type.Boolean({ description });

/**
 * An optional field. Clients built on common JSON serializers send `null` for an absent value, so null is
 * accepted and means "not sent".
 */
export const Opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** A record as JSON carries it. */
export type JsonRecord = Record<string, unknown>;

/** The schema inside an optional field's `X | null`. */
export function unwrapOptional(schema: TSchema): TSchema {
  if (Array.isArray(schema.anyOf)) {
    const real = (schema.anyOf as TSchema[]).filter((m) => m.type !== 'null');
    if (real.length === 1) return real[0];
  }
  return schema;
}

/** Keys that the storage and the duplicate checks read from an entity schema. */
export interface EntityMeta {
  /** The fields that identify one record among its siblings (a root record: in the dataset). */
  'x-key': readonly string[];
  /** A human name of the record, for error messages. */
  title: string;
  /**
   * `dataset`: a child's id is unique across the whole dataset, not only within its parent (a SKU, a sales line).
   * One batch may not list it twice; a later record that lists it takes it from the one that did (upsert.ts).
   */
  'x-unique'?: 'dataset';
}

/** An object that has an identity: a dataset record or a child record such as a SKU or a sales line. */
export function Entity<P extends TProperties>(
  title: string,
  key: readonly (keyof P & string)[],
  properties: P,
  options: ObjectOptions & Pick<EntityMeta, 'x-unique'> = {},
): TObject<P> {
  return Type.Object(properties, { title, 'x-key': key, ...options });
}

export function entityKey(schema: TSchema): readonly string[] {
  const key = (schema as TSchema & Partial<EntityMeta>)['x-key'];
  if (!key) throw new Error(`schema ${schema.title ?? '?'} has no x-key`);
  return key;
}
