import { useEffect, useState } from 'react';
import { count, whole } from '../../../common/format';
import type { RequestLogEntry, AdminClient } from '../client';
import { download, toCsv } from '../csv';
import { LocalApi } from './LocalApi';
import { ApiFacts } from './ApiFacts';
import { Notices } from '../Notices';
import { useFetch } from '../use-fetch';
import { FilterSelect } from '../FilterSelect';

const POLL_MS = 2000;

/** The screens' own calls: the workbench's admin API, not the integrator's requests. */
const OWN_CALL = /^\/_workbench(\/|$)/i;

/** Answers by their class: the first digit of the status. */
const STATUS_CLASSES = ['2xx', '4xx', '5xx'] as const;

interface LogFilter {
  own: boolean;
  refusedOnly: boolean;
  /** A status class, or '' for every status. */
  status: '' | (typeof STATUS_CLASSES)[number];
  /** A method and path as listed (`POST /Sales`), or '' for every endpoint. */
  endpoint: string;
  text: string;
}

const endpointOf = (e: RequestLogEntry) => `${e.method} ${e.path}`;

function shown(e: RequestLogEntry, f: LogFilter): boolean {
  if (!f.own && OWN_CALL.test(e.path)) return false;
  if (f.refusedOnly && e.status < 400) return false;
  if (f.status && String(e.status)[0] !== f.status[0]) return false;
  if (f.endpoint && endpointOf(e) !== f.endpoint) return false;
  const text = f.text.trim().toLowerCase();
  if (!text) return true;
  const said = [e.status, e.method, e.path, e.query ?? '', e.dataset ?? '', ...e.errors.map((p) => p.message)];
  return said.join(' ').toLowerCase().includes(text);
}

/** The orders the log can be read in; the entries arrive newest first. */
const LOG_ORDERS = {
  newest: { label: 'newest first', compare: (a: RequestLogEntry, b: RequestLogEntry) => b.id - a.id },
  slowest: { label: 'slowest first', compare: (a: RequestLogEntry, b: RequestLogEntry) => b.durationMs - a.durationMs },
  status: {
    label: 'by status, highest first',
    compare: (a: RequestLogEntry, b: RequestLogEntry) => b.status - a.status || b.id - a.id,
  },
};

/** The requests shown, one row each, with their first problem in words. */
function exportLog(entries: RequestLogEntry[]): void {
  download(
    'requests.csv',
    toCsv(
      ['loggedAt', 'status', 'method', 'path', 'query', 'port', 'durationMs', 'records', 'errorCount', 'firstError'],
      entries.map((e) => [
        e.loggedAt,
        e.status,
        e.method,
        e.path,
        e.query,
        e.port,
        Math.round(e.durationMs),
        e.records,
        e.errorCount,
        e.errors[0] ? `${e.errors[0].path ? `${e.errors[0].path}: ` : ''}${e.errors[0].message}` : undefined,
      ]),
    ),
  );
}

/** What an integrator needs: where the API is, how to get a token, and what each request did. */
export function Integration({ client }: { client: AdminClient }) {
  const { data: info, error: infoError } = useFetch(() => client.call('GET /integration'), [client]);
  const [entries, setEntries] = useState<RequestLogEntry[]>([]);
  const [error, setError] = useState<string>();
  const [filter, setFilter] = useState<LogFilter>({
    own: false,
    refusedOnly: false,
    status: '',
    endpoint: '',
    text: '',
  });
  const [order, setOrder] = useState<keyof typeof LOG_ORDERS>('newest');
  const visible = entries.filter((e) => shown(e, filter)).sort(LOG_ORDERS[order].compare);
  const endpoints = [...new Set(entries.filter((e) => filter.own || !OWN_CALL.test(e.path)).map(endpointOf))].sort();
  /** The screens' own calls left out of the list while they are not asked for. */
  const hiddenOwn = filter.own ? 0 : entries.filter((e) => OWN_CALL.test(e.path)).length;
  /** The entries opened to their request and response. */
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((o) => {
      const next = new Set(o);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  useEffect(() => {
    let last: number | undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const { entries: fresh } = await client.call('GET /log', {
          query: last === undefined ? { limit: 200 } : { afterId: last, limit: 1000 },
        });
        if (fresh.length) {
          last = fresh[fresh.length - 1].id;
          setEntries((old) => [...fresh.reverse(), ...old].slice(0, 500));
        }
      } catch (e) {
        setError((e as Error).message);
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    let timer = setTimeout(poll, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [client]);
  return (
    <section aria-label="Integration">
      <Notices error={error ?? infoError} />
      <LocalApi client={client} />
      {info?.url && (
        <>
          <h2>This window's server</h2>
          <p className="hint">The server showing these screens answers the API too, with the workspace's own tenant.</p>
          <ApiFacts label="API" {...info} url={info.url} testIds={{ curl: 'curl' }} />
        </>
      )}
      <p>
        <button
          type="button"
          onClick={() =>
            void client.call('GET /openapi').then(
              (doc) => download('openapi.json', JSON.stringify(doc, null, 2), 'application/json'),
              (e: Error) => setError(e.message),
            )
          }
        >
          Download the OpenAPI document
        </button>
      </p>
      <h2>Requests</h2>
      <div className="log__filters">
        <input
          type="search"
          name="log-text"
          aria-label="Filter the requests"
          placeholder="Filter: path, status, dataset, message"
          value={filter.text}
          onChange={(ev) => setFilter({ ...filter, text: ev.target.value })}
        />
        <select
          name="log-order"
          aria-label="Order"
          value={order}
          onChange={(ev) => setOrder(ev.target.value as keyof typeof LOG_ORDERS)}
        >
          {Object.entries(LOG_ORDERS).map(([key, o]) => (
            <option key={key} value={key}>
              {o.label}
            </option>
          ))}
        </select>
        <FilterSelect
          name="log-status"
          label="Status"
          value={filter.status}
          values={STATUS_CLASSES}
          every="every status"
          onChange={(status) => setFilter({ ...filter, status: status as LogFilter['status'] })}
        />
        <FilterSelect
          name="log-endpoint"
          label="Endpoint"
          value={filter.endpoint}
          values={endpoints}
          every="every endpoint"
          onChange={(endpoint) => setFilter({ ...filter, endpoint })}
        />
        <label>
          <input
            type="checkbox"
            name="log-refused"
            checked={filter.refusedOnly}
            onChange={(ev) => setFilter({ ...filter, refusedOnly: ev.target.checked })}
          />{' '}
          Refused only (4xx, 5xx)
        </label>
        <label>
          <input
            type="checkbox"
            name="log-own"
            checked={filter.own}
            onChange={(ev) => setFilter({ ...filter, own: ev.target.checked })}
          />{' '}
          The screens' own calls (/_workbench)
        </label>
        <span className="hint" data-testid="log-count">
          {whole(visible.length)} of {count(entries.length, 'request')}
          {hiddenOwn > 0 ? ` (${whole(hiddenOwn)} of the screens' own hidden)` : ''}
        </span>
        <button type="button" onClick={() => exportLog(visible)} disabled={visible.length === 0}>
          Export CSV
        </button>
      </div>
      {visible.length === 0 && (
        <div className="empty" data-testid="log-empty">
          {hiddenOwn > 0 && hiddenOwn === entries.length ? (
            <p>
              The {count(hiddenOwn, 'request')} in the log {hiddenOwn === 1 ? 'is' : 'are'} the screens&apos; own calls
              to <code>/_workbench</code>, hidden: tick <em>The screens&apos; own calls</em> above to show them.
            </p>
          ) : entries.length > 0 ? (
            <p>None of the {count(entries.length, 'request')} matches the filters above.</p>
          ) : null}
          <p>
            A client&apos;s requests show here as they come in, each with what went wrong: get a token with the command
            above, then post a batch (the README&apos;s quickstart has one to paste).
          </p>
        </div>
      )}
      <ul className="log" aria-label="Request log">
        {visible.map((e) => (
          <li
            key={e.id}
            className={e.status >= 400 ? 'log__entry log__entry--bad' : 'log__entry'}
            data-status={e.status}
          >
            <button
              type="button"
              className="log__head"
              aria-expanded={open.has(e.id)}
              aria-label={`${e.status} ${e.method} ${e.path}: ${open.has(e.id) ? 'close' : 'open'}`}
              onClick={() => toggle(e.id)}
            >
              <span className="log__status">{e.status}</span> <span>{e.method}</span>{' '}
              <code>
                {e.path}
                {e.query ? `?${e.query}` : ''}
              </code>
              <span className="log__meta">
                {e.loggedAt.replace('T', ' ').slice(0, 19)} · {e.durationMs.toFixed(0)} ms
                {e.records !== undefined ? ` · ${count(e.records, 'record')}` : ''}
                {e.port !== undefined ? ` · port ${e.port}` : ''}
              </span>
            </button>
            {open.has(e.id) && <Exchange entry={e} />}
            {e.errors.length > 0 && (
              <ul className="log__errors">
                {e.errors.slice(0, 10).map((p, i) => (
                  <li key={i}>
                    {p.path && <code>{p.path}</code>}
                    {p.recordId ? ` [${p.recordId}]` : ''}
                    {p.path || p.recordId ? ': ' : ''}
                    {p.message}
                  </li>
                ))}
                {e.errorCount > 10 && <li>… and {whole(e.errorCount - 10)} more</li>}
              </ul>
            )}
            {e.warnings.length > 0 && (
              <ul className="log__warnings">
                {e.warnings.slice(0, 5).map((w, i) => (
                  <li key={i}>
                    {w.path}: {w.message}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A JSON excerpt laid out for reading; one cut short (or not JSON) as it was kept. */
function readable(excerpt: string): string {
  try {
    return JSON.stringify(JSON.parse(excerpt), null, 2);
  } catch {
    return excerpt;
  }
}

/** One request opened: what came in and what went out, as the log keeps them (secrets taken out, excerpts cut). */
function Exchange({ entry: e }: { entry: RequestLogEntry }) {
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
