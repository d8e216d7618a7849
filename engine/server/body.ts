/** The body of a command endpoint (run, approve, settings): an object of options, or nothing at all. */
import { HttpProblem } from './problem.js';

/**
 * No body means no options; anything but a JSON object is refused. Read leniently, `null`, `"x"` or `[1]` would
 * mean "all defaults" and run or approve everything.
 */
export function optionsBody(body: unknown, shape: string): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpProblem(
      400,
      'invalid-body',
      `the body must be a JSON object ${shape} (or no body at all), ` +
        `got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`,
    );
  }
  return body as Record<string, unknown>;
}
