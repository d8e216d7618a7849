/**
 * A schema's errors in words a user reads: "must be a whole number of at least 7", not the validator's own text.
 * Each error keeps its JSON pointer into the value checked.
 */
import type { TSchema } from '@sinclair/typebox';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import type { TypeCheck } from '@sinclair/typebox/compiler';

/** A key as one token of a JSON pointer (RFC 6901): `~` and `/` escaped. */
export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

const FORMATS: Record<string, string> = {
  date: 'must be a date YYYY-MM-DD',
  'date-time': 'must be an ISO 8601 date and time',
};

const KINDS: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.String]: 'must be text',
  [ValueErrorType.Number]: 'must be a number',
  [ValueErrorType.Integer]: 'must be a whole number',
  [ValueErrorType.Boolean]: 'must be true or false',
  [ValueErrorType.Object]: 'must be an object',
  [ValueErrorType.Array]: 'must be an array',
  [ValueErrorType.Null]: 'must be null',
  [ValueErrorType.ObjectRequiredProperty]: 'is required',
  [ValueErrorType.ObjectAdditionalProperties]: 'is not a field here',
};

/** One error in words; a schema may name its own (`errorMessage`) for a rule only it can word, like a pattern. */
export function plainMessage(e: ValueError): string {
  const s = e.schema as TSchema & Record<string, unknown>;
  if (typeof s.errorMessage === 'string') return s.errorMessage;
  const kind = KINDS[e.type];
  if (kind) return kind;
  switch (e.type) {
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `must be at least ${s.minimum}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `must be at most ${s.maximum}`;
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMinimum:
      return `must be more than ${s.exclusiveMinimum}`;
    case ValueErrorType.NumberExclusiveMaximum:
    case ValueErrorType.IntegerExclusiveMaximum:
      return `must be less than ${s.exclusiveMaximum}`;
    case ValueErrorType.StringMinLength:
      return s.minLength === 1 ? 'must not be empty' : `must be at least ${s.minLength} characters`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${s.maxLength} characters`;
    case ValueErrorType.StringFormat:
      return FORMATS[String(s.format)] ?? `must be a ${s.format}`;
    case ValueErrorType.ArrayMinItems:
      return s.minItems === 1 ? 'must not be empty' : `must hold at least ${s.minItems} items`;
    case ValueErrorType.ArrayMaxItems:
      return `must hold at most ${s.maxItems} items`;
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(s.const)}`;
    case ValueErrorType.Union: {
      const options = ((s.anyOf ?? []) as { const?: unknown }[]).map((o) => o.const);
      return options.every((o) => o !== undefined)
        ? `must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`
        : 'is none of the forms allowed here';
    }
    default:
      return e.message;
  }
}

/**
 * A value's errors against a compiled schema, at most `max`, one per place (the first found): a field of the wrong
 * type is not also told every rule of the type it is not.
 */
export function schemaProblems<T extends TSchema>(
  check: TypeCheck<T>,
  value: unknown,
  max: number,
): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  for (const e of check.Errors(value)) {
    if (seen.has(e.path)) continue;
    seen.add(e.path);
    out.push({ path: e.path, message: plainMessage(e) });
    if (out.length >= max) break;
  }
  return out;
}
