import { useState } from 'react';
import { count, whole } from '../../../common/format';
import type { RequestLogEntry } from '../client';
import { LogExchange } from './LogExchange';

/** Problems and warnings listed under a request; the rest are counted. */
const ERRORS_SHOWN = 10;
const WARNINGS_SHOWN = 5;

/**
 * The requests shown, one line each with its problems, opened to its request and response by a click; with none
 * shown, why (the screens' own calls hidden, the filters) and what brings some.
 */
export function RequestLogList({
  entries,
  total,
  hiddenOwn,
}: {
  entries: readonly RequestLogEntry[];
  /** How many requests were read, and how many of them are the screens' own calls left out. */
  total: number;
  hiddenOwn: number;
}) {
  /** The entries opened to their request and response. */
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((o) => {
      const next = new Set(o);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <>
      {entries.length === 0 && <LogEmpty total={total} hiddenOwn={hiddenOwn} />}
      <ul className="log" aria-label="Request log">
        {entries.map((e) => (
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
            {open.has(e.id) && <LogExchange entry={e} />}
            {e.errors.length > 0 && (
              <ul className="log__errors">
                {e.errors.slice(0, ERRORS_SHOWN).map((p, i) => (
                  <li key={i}>
                    {p.path && <code>{p.path}</code>}
                    {p.recordId ? ` [${p.recordId}]` : ''}
                    {p.path || p.recordId ? ': ' : ''}
                    {p.message}
                  </li>
                ))}
                {e.errorCount > ERRORS_SHOWN && <li>… and {whole(e.errorCount - ERRORS_SHOWN)} more</li>}
              </ul>
            )}
            {e.warnings.length > 0 && (
              <ul className="log__warnings">
                {e.warnings.slice(0, WARNINGS_SHOWN).map((w, i) => (
                  <li key={i}>
                    {w.path}: {w.message}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

/** No request shown: whether they are all the screens' own, or none matches the filters; and what brings some. */
function LogEmpty({ total, hiddenOwn }: { total: number; hiddenOwn: number }) {
  const verb = hiddenOwn === 1 ? 'is' : 'are';
  return (
    <div className="empty" data-testid="log-empty">
      {hiddenOwn > 0 && hiddenOwn === total ? (
        <p>
          The {count(hiddenOwn, 'request')} in the log {verb} the screens&apos; own calls to <code>/_workbench</code>,
          hidden: tick <em>The screens&apos; own calls</em> above to show them.
        </p>
      ) : total > 0 ? (
        <p>None of the {count(total, 'request')} matches the filters above.</p>
      ) : null}
      <p>
        A client&apos;s requests show here as they come in, each with what went wrong: get a token with the command
        above, then post a batch (the README&apos;s quickstart has one to paste).
      </p>
    </div>
  );
}
