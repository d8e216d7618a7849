/** The fields of a dataset's record schema, and a record with one of them changed: what the rule tests vary. */
import type { TObject, TSchema } from '@sinclair/typebox';
import { unwrapOptional } from '../engine/model/fields.js';
import type { Rec } from './fixtures.js';

export interface Site {
  path: (string | number)[];
  schema: TSchema;
  required: boolean;
}

/** Every field of a record schema, children included (through the first element of each child array). */
export function sites(schema: TObject, prefix: (string | number)[] = []): Site[] {
  const required = new Set(schema.required ?? []);
  const out: Site[] = [];
  for (const [name, raw] of Object.entries(schema.properties)) {
    const s = unwrapOptional(raw);
    out.push({ path: [...prefix, name], schema: s, required: required.has(name) });
    if (s.type === 'array') out.push(...sites(s.items as TObject, [...prefix, name, 0]));
  }
  return out;
}

/** A copy of the record with the field at `path` set to `value` (removed when undefined). */
export function setAt(record: Rec, path: (string | number)[], value: unknown): Rec {
  const copy = structuredClone(record);
  let o: any = copy;
  for (const p of path.slice(0, -1)) o = o[p];
  if (value === undefined) delete o[path[path.length - 1]];
  else o[path[path.length - 1]] = value;
  return copy;
}

/** The sites a record actually has: a field inside a child array is reachable only when the record has that child. */
export function sitesIn(schema: TObject, record: Rec): Site[] {
  return sites(schema).filter((s) => {
    let o: any = record;
    for (const p of s.path.slice(0, -1)) o = o?.[p];
    return o !== undefined;
  });
}
