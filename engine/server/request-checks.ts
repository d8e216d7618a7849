/**
 * What a request must be before any route reads it, checked as it arrives (an onRequest hook), each refusal a
 * problem body saying what to change: HTTP/1.1's Host header, no expectation but 100-continue, a body in no
 * content coding, and a path that names its route in ASCII letters (docs/design.md §3.9, §3.10).
 */
import type { FastifyRequest } from 'fastify';
import { clip } from '../model/problems.js';
import { MAX_PROBLEM_TEXT } from '../ingest/validate.js';
import { asciiLower } from '../model/ascii.js';
import { HttpProblem } from './problem.js';

/** The route's fixed segments, as the request spelled them, are its own in any ASCII case. */
export function spellsRoute(pattern: string, url: string): boolean {
  // An absolute-form target (http://host/path) routes by its path, as the router reads it.
  const path = (url.startsWith('/') ? url : url.replace(/^[^/]*\/\/[^/]*/, '')).split('?')[0];
  const segments = path.split('/').filter((s) => s !== '');
  const fixed = pattern.split('/').filter((s) => s !== '');
  for (let i = 0; i < fixed.length; i++) {
    const part = fixed[i];
    if (part === '*') return true;
    if (part.startsWith(':')) continue;
    const segment = segments[i];
    if (segment === undefined) return false;
    let text: string;
    try {
      text = decodeURIComponent(segment);
    } catch {
      return false;
    }
    if (asciiLower(text) !== asciiLower(part)) return false;
  }
  return true;
}

const hasBody = (req: FastifyRequest) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

export async function checkRequest(req: FastifyRequest): Promise<void> {
  // RFC 9112 §3.2: an HTTP/1.1 request without Host is refused.
  if (req.raw.httpVersion === '1.1' && req.headers.host === undefined)
    throw new HttpProblem(
      400,
      'missing-host',
      'an HTTP/1.1 request carries a Host header: send Host: with the address and port you reach this server at',
    );

  const expect = req.headers.expect;
  if (expect !== undefined && !/^\s*100-continue\s*$/i.test(expect))
    throw new HttpProblem(
      417,
      'expectation-failed',
      `this server meets no expectation but 100-continue (got Expect: ${expect.slice(0, 100)}): ` +
        'send the request without that Expect header',
    );

  // A route found by folding a letter that is not ASCII (the Kelvin sign for k) is not the route: it is a path no
  // proxy or real service would take for it.
  const route = req.routeOptions.url;
  if (route !== undefined && !spellsRoute(route, req.url))
    throw new HttpProblem(
      404,
      'not-found',
      `no endpoint ${req.method} ${clip(req.url.split('?')[0], MAX_PROBLEM_TEXT)}; paths match in any case ` +
        'of ASCII letters only; see GET /openapi.json',
    );

  // The server decodes no content coding: a compressed body would otherwise be read as broken JSON.
  const coding = req.headers['content-encoding'];
  if (coding !== undefined && hasBody(req) && !/^\s*(identity\s*)?$/i.test(coding))
    throw new HttpProblem(
      415,
      'unsupported-encoding',
      `the body is sent with Content-Encoding: ${coding.slice(0, 100)}, which this server does not decode: ` +
        'send it uncompressed, without a Content-Encoding header',
      {},
      { 'Accept-Encoding': 'identity' },
    );
}
