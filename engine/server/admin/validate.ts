/**
 * Validation of the admin routes' parts against their TypeBox schemas: a part that does not fit is a 400 problem
 * naming each field and why, before the handler runs, so nothing is changed.
 */
import { Kind, type TObject, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { asciiLower } from '../../model/ascii.js';
import { schemaProblems } from '../../model/schema-errors.js';
import { HttpProblem } from '../problem.js';
import { BOOLEAN_TEXT, WHOLE_NUMBER_TEXT } from '../query.js';

/** How many of a part's errors a problem lists. */
const LISTED_ERRORS = 20;

const PARTS: Record<string, { name: string; slug: string }> = {
  body: { name: 'body', slug: 'invalid-body' },
  querystring: { name: 'query', slug: 'invalid-query' },
  params: { name: 'path', slug: 'invalid-path' },
};

/** Query names as the schema spells them: the router lowercases them (matching is case-insensitive). */
function canonicalQuery(schema: TSchema, raw: Record<string, unknown>): Record<string, unknown> {
  const names = new Map(
    Object.keys(schema[Kind] === 'Object' ? (schema as TObject).properties : {}).map((n) => [asciiLower(n), n]),
  );
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const name = names.get(asciiLower(key));
    if (!name) {
      const known = [...names.values()];
      throw new HttpProblem(
        400,
        'invalid-query',
        `unknown query parameter "${key}"` +
          (known.length ? `; known: ${known.join(', ')}` : '; this route takes none'),
        { errors: [{ path: `/${key}`, message: 'unknown query parameter' }] },
      );
    }
    if (Array.isArray(value))
      throw new HttpProblem(400, 'invalid-query', `query parameter ${name} is given ${value.length} times; once`, {
        errors: [{ path: `/${name}`, message: 'given more than once' }],
      });
    out[name] = value;
  }
  return out;
}

/**
 * A number as text: up to 17 digits after the point, as many as the shortest text of a double has (a client's
 * 92.6 / 100 is 0.9259999999999999), and a bound on the rest.
 */
const NUMBER_TEXT = /^-?\d{1,15}(\.\d{1,17})?$/;

/**
 * Query and path values arrive as text: '5' is the number 5 where the schema asks for one, 'true' the boolean. Only
 * text that spells the value whole converts ('1.5' stays text where a whole number is asked, and is refused).
 */
function fromText(schema: TSchema, value: unknown): unknown {
  if (schema[Kind] !== 'Object' || value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, property] of Object.entries((schema as TObject).properties)) {
    const v = out[name];
    if (typeof v !== 'string') continue;
    const kind = (property as TSchema)[Kind];
    if (kind === 'Integer' && WHOLE_NUMBER_TEXT.test(v)) out[name] = Number(v);
    else if (kind === 'Number' && NUMBER_TEXT.test(v)) out[name] = Number(v);
    else if (kind === 'Boolean' && BOOLEAN_TEXT.test(v)) out[name] = v.toLowerCase() === 'true';
  }
  return out;
}

/** The route-level validator compiler of every admin route. */
export const adminValidator: FastifySchemaCompiler<FastifySchema> = (route) => {
  const schema = route.schema as TSchema;
  const httpPart = route.httpPart;
  const part = PARTS[httpPart ?? 'body'] ?? PARTS.body;
  const check = TypeCompiler.Compile(schema);
  const textual = httpPart === 'querystring' || httpPart === 'params';
  return (data: unknown) => {
    let value = data;
    try {
      if (httpPart === 'querystring') value = canonicalQuery(schema, (data ?? {}) as Record<string, unknown>);
    } catch (e) {
      return { error: e as Error };
    }
    if (textual) value = fromText(schema, value);
    if (check.Check(value)) return { value };
    const errors = schemaProblems(check, value, LISTED_ERRORS);
    const text = errors.map((e) => `${e.path ? e.path.slice(1) : part.name}: ${e.message}`).join('; ');
    return { error: new HttpProblem(400, part.slug, `the ${part.name} is not valid: ${text}`, { errors }) };
  };
};
