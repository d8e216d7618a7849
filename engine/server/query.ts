/**
 * Query parameters, matched case-insensitively as an ASP.NET service matches them (docs/design.md §3): names are
 * lowercased when parsed, and each route reads the ones it knows by their canonical name.
 */
import { asciiLower } from '../model/ascii.js';
import { parseIsoMicros } from '../model/datetime.js';
import { HttpProblem } from './problem.js';

export type RawQuery = Record<string, string | string[] | undefined>;

/** The text a query or path value spells a whole number, or a boolean, in (nothing before or after it). */
export const WHOLE_NUMBER_TEXT = /^-?\d{1,15}$/;
export const BOOLEAN_TEXT = /^(true|false)$/i;

export function parseQueryString(text: string): RawQuery {
  const out: RawQuery = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const key = asciiLower(k);
    const prev = out[key];
    out[key] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

type Kind = 'boolean' | 'integer' | 'datetime' | 'string';
type Parsed<K extends Kind> = K extends 'boolean'
  ? boolean
  : K extends 'integer'
    ? number
    : K extends 'datetime'
      ? number
      : string;

export interface QuerySpec {
  [name: string]: { kind: Kind; min?: number; max?: number };
}

export type QueryValues<S extends QuerySpec> = { [N in keyof S]?: Parsed<S[N]['kind']> };

/** Reads the known parameters; a malformed value is a 400, an unknown name is a warning. */
export function readQuery<S extends QuerySpec>(raw: RawQuery, spec: S): { values: QueryValues<S>; unknown: string[] } {
  const values: Record<string, unknown> = {};
  const known = new Map(Object.keys(spec).map((n) => [asciiLower(n), n]));
  const unknown: string[] = [];
  for (const [key, rawValue] of Object.entries(raw)) {
    const name = known.get(key);
    if (!name) {
      unknown.push(key);
      continue;
    }
    if (Array.isArray(rawValue))
      throw new HttpProblem(
        400,
        'invalid-query',
        `query parameter ${name} is given ${rawValue.length} times; give it once`,
      );
    const v = rawValue ?? '';
    const { kind, min, max } = spec[name];
    if (kind === 'boolean') {
      if (!BOOLEAN_TEXT.test(v))
        throw new HttpProblem(
          400,
          'invalid-query',
          `query parameter ${name} must be true or false, got "${v.slice(0, 40)}"`,
        );
      values[name] = v.toLowerCase() === 'true';
    } else if (kind === 'integer') {
      if (!WHOLE_NUMBER_TEXT.test(v))
        throw new HttpProblem(
          400,
          'invalid-query',
          `query parameter ${name} must be a whole number, got "${v.slice(0, 40)}"`,
        );
      const n = Number(v);
      if (min !== undefined && n < min)
        throw new HttpProblem(400, 'invalid-query', `query parameter ${name} must be at least ${min}, got ${n}`);
      if (max !== undefined && n > max)
        throw new HttpProblem(400, 'invalid-query', `query parameter ${name} must be at most ${max}, got ${n}`);
      values[name] = n;
    } else if (kind === 'datetime') {
      const micros = parseIsoMicros(v);
      if (micros === undefined)
        throw new HttpProblem(
          400,
          'invalid-query',
          `query parameter ${name} must be an ISO 8601 UTC datetime, got "${v.slice(0, 40)}"`,
        );
      values[name] = micros;
    } else {
      values[name] = v;
    }
  }
  return { values: values as QueryValues<S>, unknown };
}
