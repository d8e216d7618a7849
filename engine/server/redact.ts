/**
 * What the request log keeps of a request: never a secret or a token, wherever the client put it (a query
 * string, a mistyped token path, a JSON body sent to the wrong endpoint), and never more than its bounds.
 */
import type { Problem } from '../model/problems.js';
import { BODY_EXCERPT_CHARS, MAX_LOGGED_PROBLEMS } from '../service/request-log.js';
import type { RequestLogInput } from '../model/request-log.js';
import { REDACTED } from './auth.js';
import { decodeOrAsIs } from '../../common/uri.js';

/** Characters read past the excerpt, so that a secret cut by its end is still recognised and taken out whole. */
export const EXCERPT_MARGIN_CHARS = 256;

const SECRET_QUERY_NAME = /secret|password|token|key/i;
/** Narrower than for queries: `key` is a field of the API's own records (attributes). */
const SECRET_JSON_FIELD =
  /"([^"\\]*(?:secret|password|token|authorization|api_?key)[^"\\]*)"(\s*:\s*)"(?:[^"\\]|\\.)*"?/gi;

/** A logged query string keeps its names but not the values of secret-looking ones. */
export function redactQuery(query: string): string {
  return query
    .split('&')
    .map((part) => {
      const [name] = part.split('=', 1);
      return SECRET_QUERY_NAME.test(decodeOrAsIs(name)) ? `${name}=${REDACTED}` : part;
    })
    .join('&');
}

/** A JSON excerpt keeps its field names but not the values of secret-looking ones. */
export function redactJsonFields(json: string): string {
  return json.replace(SECRET_JSON_FIELD, (_m, name: string, colon: string) => `"${name}"${colon}"${REDACTED}"`);
}

/**
 * The entry as logged: `redact` (the token issuer's) takes out the client secret and issued tokens from every
 * text; the excerpt is cut to its bound after that. Only the problems the log keeps are rewritten; the others
 * stay for their count.
 */
export function redactEntry(entry: RequestLogInput, redact: (text: string) => string): RequestLogInput {
  const problems = (list: Problem[] | undefined) =>
    list && [
      ...list.slice(0, MAX_LOGGED_PROBLEMS).map((p) => ({
        ...p,
        path: redact(p.path),
        ...(p.recordId === undefined ? {} : { recordId: redact(p.recordId) }),
        message: redact(p.message),
      })),
      ...list.slice(MAX_LOGGED_PROBLEMS),
    ];
  return {
    ...entry,
    tenant: entry.tenant && redact(entry.tenant),
    path: redact(entry.path),
    query: entry.query && redact(redactQuery(entry.query)),
    errors: problems(entry.errors),
    warnings: problems(entry.warnings),
    bodyExcerpt: entry.bodyExcerpt && redact(redactJsonFields(entry.bodyExcerpt)).slice(0, BODY_EXCERPT_CHARS),
    responseExcerpt:
      entry.responseExcerpt && redact(redactJsonFields(entry.responseExcerpt)).slice(0, BODY_EXCERPT_CHARS),
  };
}
