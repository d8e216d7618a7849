import type { RequestLogEntry } from '../client';

/** A JSON excerpt laid out for reading; one cut short (or not JSON) as it was kept. */
function readable(excerpt: string): string {
  try {
    return JSON.stringify(JSON.parse(excerpt), null, 2);
  } catch {
    return excerpt;
  }
}

/** One request opened: what came in and what went out, as the log keeps them (secrets taken out, excerpts cut). */
export function LogExchange({ entry: e }: { entry: RequestLogEntry }) {
  return (
    <dl className="log__exchange" data-testid="log-exchange">
      <dt>Request</dt>
      <dd>
        <code>
          {e.method} {e.path}
          {e.query ? `?${e.query}` : ''}
        </code>
        {` · id ${e.requestId}`}
        {e.tenant ? ` · tenant ${e.tenant}` : ''}
        {e.port !== undefined ? ` · port ${e.port}` : ' · no port (the app itself)'}
        {e.dataset ? ` · ${e.dataset}` : ''}
      </dd>
      <dt>Request body</dt>
      <dd>{e.bodyExcerpt ? <pre>{readable(e.bodyExcerpt)}</pre> : <span className="hint">none kept</span>}</dd>
      <dt>Response: {e.status}</dt>
      <dd>{e.responseExcerpt ? <pre>{readable(e.responseExcerpt)}</pre> : <span className="hint">no body</span>}</dd>
    </dl>
  );
}
