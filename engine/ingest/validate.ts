/**
 * Validates a request body against its dataset schema. Problems are collected, never thrown one by one, so
 * the client learns everything that is wrong with a batch in one answer.
 */
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import type { DatasetDef } from '../model/datasets.js';
import { entityKey, unwrapOptional, type JsonRecord } from '../model/fields.js';
import { parseIsoMicros } from '../model/datetime.js';
import { escapePointer } from '../model/schema-errors.js';
import { clip, ValidationFailed, type Problem } from '../model/problems.js';

/** Errors listed in one answer; the count says how many there were in all. */
export const MAX_LISTED_ERRORS = 1000;
/**
 * Past this many errors a batch stops being checked: it is refused either way, and counting every error of
 * millions of broken records would keep the server busy for seconds to tell a number nobody acts on.
 */
export const MAX_COUNTED_ERRORS = 100_000;
/** How many errors an answer lists and how far they are counted; a file of every error takes them all. */
export interface ErrorLimits {
  listed: number;
  counted: number;
}
export const ANSWER_LIMITS: ErrorLimits = { listed: MAX_LISTED_ERRORS, counted: MAX_COUNTED_ERRORS };
export const NO_LIMITS: ErrorLimits = { listed: Infinity, counted: Infinity };

/** Thrown by the error count when it reaches its cap, to leave whatever walk it is in. */
const STOP_CHECKING = Symbol('stop checking');
/**
 * Characters of a JSON pointer, record id or field name a problem repeats; any valid one is shorter, so only a
 * hostile body's (an id of megabytes, arrays nested a million deep) is cut.
 */
export const MAX_PROBLEM_TEXT = 1000;

export type { JsonRecord };

export interface ValidatedBatch {
  dataset: DatasetDef;
  records: JsonRecord[];
  warnings: Problem[];
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();
function checker(schema: TSchema): TypeCheck<TSchema> {
  let c = compiled.get(schema);
  if (!c) {
    c = TypeCompiler.Compile(schema);
    compiled.set(schema, c);
  }
  return c;
}

const deleteSchemas = new WeakMap<DatasetDef, TObject>();
/** The body of a DELETE: the same envelope holding only the key fields of each record. */
export function deleteRecordSchema(dataset: DatasetDef): TObject {
  let s = deleteSchemas.get(dataset);
  if (!s) {
    const props = Object.fromEntries(dataset.key.map((k) => [k, dataset.record.properties[k]]));
    s = Type.Object(props, { title: `${dataset.record.title} key`, 'x-key': dataset.key });
    deleteSchemas.set(dataset, s);
  }
  return s;
}

function describe(value: unknown): string {
  if (value === undefined) return 'no body';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : `"${value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function message(e: ValueError): string {
  const s = e.schema as TSchema;
  switch (e.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.StringMaxLength:
      return `is ${(e.value as string).length} characters long; at most ${s.maxLength} allowed`;
    case ValueErrorType.StringMinLength:
      return s.minLength === 1 ? 'must not be empty' : `must be at least ${s.minLength} characters long`;
    case ValueErrorType.StringFormat:
      return s.format === 'date'
        ? `${describe(e.value)} is not an ISO 8601 date (YYYY-MM-DD)`
        : `${describe(e.value)} is not an ISO 8601 datetime (for example 2024-03-01T10:15:00.000Z)`;
    case ValueErrorType.String:
      return `must be a string, got ${describe(e.value)}`;
    case ValueErrorType.Number:
      return `must be a number, got ${describe(e.value)}`;
    case ValueErrorType.Integer:
      return `must be a whole number, got ${describe(e.value)}`;
    case ValueErrorType.Boolean:
      return `must be true or false, got ${describe(e.value)}`;
    case ValueErrorType.Array:
      return `must be an array, got ${describe(e.value)}`;
    case ValueErrorType.Object:
      return `must be an object, got ${describe(e.value)}`;
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `is ${e.value}; must be at least ${s.minimum}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `is ${e.value}; must be at most ${s.maximum}`;
    case ValueErrorType.ArrayMinItems:
      return `must hold at least ${s.minItems} entr${s.minItems === 1 ? 'y' : 'ies'}`;
    case ValueErrorType.Union: {
      const consts = (s.anyOf as TSchema[] | undefined)
        ?.filter((m) => m.const !== undefined)
        .map((m) => String(m.const));
      if (consts?.length) return `${describe(e.value)} is not one of ${consts.join(', ')}`;
      return e.message;
    }
    default:
      return e.message;
  }
}

/**
 * The useful errors of a value: an optional field's union (`X | null`) is explained by X's own error, not
 * by "expected union value".
 */
function* explain(schema: TSchema, value: unknown, prefix: string): Generator<{ path: string; message: string }> {
  for (const e of checker(schema).Errors(value)) {
    // An absent field is reported once, as required, not again as a wrong type.
    if (e.value === undefined && e.type !== ValueErrorType.ObjectRequiredProperty) continue;
    const s = e.schema as TSchema;
    if (e.type === ValueErrorType.Union && Array.isArray(s.anyOf)) {
      const real = (s.anyOf as TSchema[]).filter((m) => m.type !== 'null');
      if (real.length === 1) {
        yield* explain(real[0], e.value, prefix + e.path);
        continue;
      }
    }
    yield { path: prefix + e.path, message: message(e) };
  }
}

/**
 * Strings must be well-formed UTF-16: an unpaired surrogate cannot be stored as sent (it would become U+FFFD,
 * and two different ids could collapse into one). Both walks keep a stack of their own instead of recursing:
 * an unknown field may nest arrays a million deep, which would overflow the call stack.
 */
function wellFormed(value: unknown): boolean {
  const todo: unknown[] = [value];
  while (todo.length) {
    const v = todo.pop();
    if (typeof v === 'string') {
      if (!v.isWellFormed()) return false;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) todo.push(v[i]);
    } else if (v !== null && typeof v === 'object') {
      for (const k in v) {
        if (!k.isWellFormed()) return false;
        todo.push((v as JsonRecord)[k]);
      }
    }
  }
  return true;
}

/** Names the strings that are not well-formed; only walked for a record that has one (rare). */
function checkWellFormed(value: unknown, path: string, push: (p: string, m: string) => void): void {
  if (wellFormed(value)) return;
  const todo: [unknown, string][] = [[value, path]];
  // Past the length a problem keeps, a pointer stops growing: a million levels would make each one megabytes.
  const below = (at: string, step: string) => (at.length > MAX_PROBLEM_TEXT ? at : `${at}/${step}`);
  while (todo.length) {
    const [v, at] = todo.pop()!;
    if (typeof v === 'string') {
      if (!v.isWellFormed()) push(at, 'contains an unpaired UTF-16 surrogate: it cannot be stored as sent');
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) todo.push([v[i], below(at, String(i))]);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v).reverse()) {
        const here = below(at, escapePointer(k));
        if (!k.isWellFormed())
          push(here, 'is a field name with an unpaired UTF-16 surrogate: it cannot be stored as sent');
        todo.push([child, here]);
      }
    }
  }
}

/** Fields the schema does not know: ignored, and reported once per field with a count. */
function collectUnknown(
  schema: TSchema,
  value: unknown,
  path: string,
  pattern: string,
  out: Map<string, { path: string; count: number }>,
): void {
  const s = unwrapOptional(schema);
  if (s.type === 'object' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const props = s.properties as Record<string, TSchema>;
    for (const [k, v] of Object.entries(value)) {
      const p = props[k];
      if (p === undefined) {
        const key = `${pattern}/${k}`;
        const seen = out.get(key);
        if (seen) seen.count++;
        else out.set(key, { path: `${path}/${escapePointer(k)}`, count: 1 });
      } else if (v !== null && typeof v === 'object') {
        collectUnknown(p, v, `${path}/${escapePointer(k)}`, `${pattern}/${k}`, out);
      }
    }
  } else if (s.type === 'array' && Array.isArray(value)) {
    value.forEach((item, i) => collectUnknown(s.items as TSchema, item, `${path}/${i}`, `${pattern}/*`, out));
  }
}

/** A record's identity as text; datetimes compare by instant, not by spelling. */
function keyText(schema: TObject, record: JsonRecord, key: readonly string[]): string {
  return key
    .map((k) => {
      const v = record[k];
      if (v == null) return '';
      const s = unwrapOptional(schema.properties[k]);
      if (s.format === 'date-time' && typeof v === 'string') return String(parseIsoMicros(v) ?? v);
      return String(v);
    })
    .join('\u0000');
}

/** A dataset record's identity as text (the same rule the duplicate check uses). */
export function recordKeyText(dataset: DatasetDef, record: JsonRecord): string {
  return keyText(dataset.record, record, dataset.key);
}

function displayKey(record: unknown, key: readonly string[]): string | undefined {
  if (record === null || typeof record !== 'object') return undefined;
  const parts = key.map((k) => (record as JsonRecord)[k]).filter((v) => typeof v === 'string' || typeof v === 'number');
  return parts.length ? clip(parts.join('/'), MAX_PROBLEM_TEXT) : undefined;
}

/** How a record of one entity schema is checked beyond its compiled schema: worked out once per schema. */
interface Shape {
  /** Each known field, and the shape of its child records when it is an array of them (null otherwise). */
  fields: Map<string, Shape | null>;
  /** The arrays of child records, in the schema's order. */
  arrays: ChildArray[];
  /** The record's identity as text (keyText). */
  keyOf: (record: JsonRecord) => string;
}

interface ChildArray {
  field: string;
  shape: Shape;
  schema: TObject;
  key: readonly string[];
  /** The child's id is unique across the dataset, not only within its parent. */
  unique: boolean;
}

const shapes = new WeakMap<TSchema, Shape>();
function shapeOf(schema: TObject): Shape {
  let shape = shapes.get(schema);
  if (shape) return shape;
  const key = entityKey(schema);
  const [k0] = key;
  shape = {
    fields: new Map(),
    arrays: [],
    // One key field that is not a datetime (nearly every entity): keyText without its map and join.
    keyOf:
      key.length === 1 && unwrapOptional(schema.properties[k0]).format !== 'date-time'
        ? (record) => {
            const v = record[k0];
            return v == null ? '' : String(v);
          }
        : (record) => keyText(schema, record, key),
  };
  shapes.set(schema, shape);
  for (const [field, raw] of Object.entries(schema.properties)) {
    const s = unwrapOptional(raw);
    if (s.type !== 'array') {
      shape.fields.set(field, null);
      continue;
    }
    const childSchema = s.items as TObject;
    const child = shapeOf(childSchema);
    shape.fields.set(field, child);
    shape.arrays.push({
      field,
      shape: child,
      schema: childSchema,
      key: entityKey(childSchema),
      unique: (childSchema as TSchema)['x-unique'] === 'dataset',
    });
  }
  return shape;
}

/**
 * True when a record that passed its compiled schema has neither a field the schema does not know nor a string
 * that is not well-formed anywhere in it: the common case, told in one walk. Any other record is walked again for
 * its problems and warnings (checkWellFormed, collectUnknown); a value this walk does not expect sends it there too.
 */
function clean(shape: Shape, record: JsonRecord): boolean {
  for (const k in record) {
    const child = shape.fields.get(k);
    if (child === undefined) return false;
    const v = record[k];
    if (typeof v === 'string') {
      if (!v.isWellFormed()) return false;
    } else if (v !== null && typeof v === 'object') {
      if (child === null || !Array.isArray(v)) return false;
      for (let i = 0; i < v.length; i++) {
        const c = v[i];
        if (c === null || typeof c !== 'object' || Array.isArray(c) || !clean(child, c as JsonRecord)) return false;
      }
    }
  }
  return true;
}

/** Where a child id unique across the dataset was first sent: its parent's array (a pointer) and its place in it. */
interface FirstSent {
  at: string[];
  index: number[];
  ids: Map<string, number>;
}

/** Past this many children a parent's duplicates are looked up in a map rather than among the ids before. */
const LINEAR_DUPLICATES = 16;

/** Duplicate child ids inside one parent (and, for ids unique across the dataset, inside the whole batch). */
function checkChildren(
  shape: Shape,
  record: JsonRecord,
  path: string,
  batchSeen: Map<Shape, FirstSent>,
  push: (p: string, m: string) => void,
): void {
  for (const a of shape.arrays) {
    const children = record[a.field];
    if (!Array.isArray(children) || children.length === 0) continue;
    const { field, key, schema: childSchema } = a;
    const keyOf = a.shape.keyOf;
    let first: FirstSent | undefined;
    if (a.unique) {
      first = batchSeen.get(a.shape);
      if (!first) batchSeen.set(a.shape, (first = { at: [], index: [], ids: new Map() }));
    }
    const at = `${path}/${field}`;
    const n = children.length;
    const keys: string[] = new Array(n);
    const seen = n > LINEAR_DUPLICATES ? new Map<string, number>() : undefined;
    for (let i = 0; i < n; i++) {
      const child = children[i] as JsonRecord;
      const k = keyOf(child);
      keys[i] = k;
      let twice = -1;
      if (seen) {
        const f = seen.get(k);
        if (f === undefined) seen.set(k, i);
        else twice = f;
      } else {
        for (let j = 0; j < i; j++)
          if (keys[j] === k) {
            twice = j;
            break;
          }
      }
      if (twice >= 0)
        push(
          `${at}/${i}`,
          `${key.join('+')} "${displayKey(child, key)}" appears twice in ${field} (first at ${at}/${twice})`,
        );
      if (first) {
        const other = first.ids.get(k);
        if (other !== undefined && twice < 0)
          push(
            `${at}/${i}`,
            `${key.join('+')} "${displayKey(child, key)}" is also sent at ${first.at[other]}/${first.index[other]}; ` +
              `it must be unique across all ${childSchema.title} records`,
          );
        else if (other === undefined) {
          first.ids.set(k, first.at.length);
          first.at.push(at);
          first.index.push(i);
        }
      }
      if (a.shape.arrays.length) checkChildren(a.shape, child, `${at}/${i}`, batchSeen, push);
    }
  }
}

export type BatchMode = 'upsert' | 'delete';

type UnknownFields = Map<string, { path: string; count: number }>;

/**
 * What a batch's check finds: the errors listed up to the limit and counted up to theirs, at which the check stops
 * (STOP_CHECKING), and the warnings. `push` is a bound field: the walks below take it as their callback.
 */
class BatchProblems {
  readonly errors: Problem[] = [];
  errorCount = 0;
  readonly warnings: Problem[] = [];
  private countStopped = false;

  constructor(
    private readonly dataset: DatasetDef,
    private readonly limits: ErrorLimits,
    private readonly alreadyFound?: (path: string) => boolean,
  ) {}

  readonly push = (path: string, message: string, recordId?: string) => {
    if (this.alreadyFound?.(path)) return;
    // Also within one record: a sale with a million broken lines stops as soon as a million records would.
    if (this.errorCount >= this.limits.counted) {
      this.countStopped = true;
      throw STOP_CHECKING;
    }
    this.errorCount++;
    if (this.errors.length >= this.limits.listed) return;
    const at = clip(path, MAX_PROBLEM_TEXT);
    this.errors.push(recordId === undefined ? { path: at, message } : { path: at, recordId, message });
  };

  /** The refusal of the batch, with everything found so far. */
  failure(): ValidationFailed {
    return new ValidationFailed(this.dataset.name, this.errors, this.errorCount, this.warnings, this.countStopped);
  }
}

/**
 * `alreadyFound`: places (JSON pointers) whose problems the caller has found and counted itself (a CSV's cells that
 * could not be read as their type): the schema's findings there are neither listed nor counted again.
 */
export function validateBatch(
  dataset: DatasetDef,
  body: unknown,
  mode: BatchMode = 'upsert',
  alreadyFound?: (path: string) => boolean,
  limits: ErrorLimits = ANSWER_LIMITS,
): ValidatedBatch {
  const problems = new BatchProblems(dataset, limits, alreadyFound);
  const list = recordsOf(dataset, body, problems);
  const unknown = checkRecords(dataset, list, mode, problems);
  warnUnknownFields(unknown, problems.warnings);
  if (problems.errorCount) throw problems.failure();
  return { dataset, records: list as JsonRecord[], warnings: problems.warnings };
}

/** The body's array of records; a body that holds none is refused at once, its other fields only warned of. */
function recordsOf(dataset: DatasetDef, body: unknown, problems: BatchProblems): unknown[] {
  const env = dataset.envelope;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    problems.push('', `the body must be a JSON object holding an array "${env}", got ${describe(body)}`);
    throw problems.failure();
  }
  const envelope = body as JsonRecord;
  for (const k of Object.keys(envelope)) {
    if (k !== env)
      problems.warnings.push({
        path: clip(`/${escapePointer(k)}`, MAX_PROBLEM_TEXT),
        message: `unknown field "${clip(k, MAX_PROBLEM_TEXT)}" ignored; the records go in "${env}"`,
      });
  }
  const list = envelope[env];
  if (!Array.isArray(list)) {
    problems.push(
      `/${env}`,
      list === undefined
        ? `is required: the body holds its records in an array "${env}"`
        : `must be an array, got ${describe(list)}`,
    );
    throw problems.failure();
  }
  return list;
}

/**
 * Checks each record against the schema, the dataset's own rules, duplicates in the batch and duplicate children,
 * until the error count reaches its cap; returns the fields the schema does not know.
 */
function checkRecords(dataset: DatasetDef, list: unknown[], mode: BatchMode, problems: BatchProblems): UnknownFields {
  const { push } = problems;
  const env = dataset.envelope;
  const schema = mode === 'delete' ? deleteRecordSchema(dataset) : dataset.record;
  const check = checker(schema);
  const shape = shapeOf(schema);
  const key = dataset.key;
  const seen = new Map<string, number>();
  const batchSeen = new Map<Shape, FirstSent>();
  const unknown: UnknownFields = new Map();

  try {
    for (let i = 0; i < list.length; i++) {
      const record = list[i];
      const path = `/${env}/${i}`;
      if (!check.Check(record)) {
        const id = displayKey(record, key);
        for (const e of explain(schema, record, path)) push(e.path, e.message, id);
        continue;
      }
      const rec = record as JsonRecord;
      // The record's id, named by its problems: worked out at the first, since most records have none.
      let id: string | undefined;
      let named = false;
      const pushHere = (p: string, m: string) => {
        if (!named) [id, named] = [displayKey(rec, key), true];
        push(p, m, id);
      };
      const tidy = clean(shape, rec);
      if (!tidy) checkWellFormed(rec, path, pushHere);
      if (mode === 'upsert' && dataset.check) for (const p of dataset.check(rec)) pushHere(path + p.path, p.message);
      const k = shape.keyOf(rec);
      const first = seen.get(k);
      if (first !== undefined)
        pushHere(
          path,
          `${key.join('+')} "${displayKey(rec, key) ?? ''}" appears twice in this batch (first at /${env}/${first}); ` +
            `send each record once`,
        );
      else seen.set(k, i);
      // A record sent twice is told once: its children are not told again as sent twice.
      if (mode === 'upsert' && first === undefined) checkChildren(shape, rec, path, batchSeen, pushHere);
      if (!tidy) collectUnknown(schema, rec, path, '', unknown);
    }
  } catch (e) {
    if (e !== STOP_CHECKING) throw e;
  }
  return unknown;
}

/** A warning per unknown field, with how many records held it. */
function warnUnknownFields(unknown: UnknownFields, warnings: Problem[]): void {
  for (const [pattern, u] of unknown) {
    const field = pattern.slice(pattern.lastIndexOf('/') + 1);
    warnings.push({
      path: clip(u.path, MAX_PROBLEM_TEXT),
      message:
        `unknown field "${clip(field, MAX_PROBLEM_TEXT)}" ignored` + (u.count > 1 ? ` (in ${u.count} records)` : ''),
    });
  }
}
