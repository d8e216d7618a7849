import type { RequestLogEntry } from '../client';
import { download, toCsv } from '../csv';

/** The screens' own calls: the workbench's admin API, not the integrator's requests. */
const OWN_CALL = /^\/_workbench(\/|$)/i;

/** Answers by their class: the first digit of the status. */
export const STATUS_CLASSES = ['2xx', '4xx', '5xx'] as const;

export interface LogFilter {
  own: boolean;
  refusedOnly: boolean;
  /** A status class, or '' for every status. */
  status: '' | (typeof STATUS_CLASSES)[number];
  /** A method and path as listed (`POST /Sales`), or '' for every endpoint. */
  endpoint: string;
  text: string;
}

export const EVERY_REQUEST: LogFilter = { own: false, refusedOnly: false, status: '', endpoint: '', text: '' };

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
export const LOG_ORDERS = {
  newest: { label: 'newest first', compare: (a: RequestLogEntry, b: RequestLogEntry) => b.id - a.id },
  slowest: { label: 'slowest first', compare: (a: RequestLogEntry, b: RequestLogEntry) => b.durationMs - a.durationMs },
  status: {
    label: 'by status, highest first',
    compare: (a: RequestLogEntry, b: RequestLogEntry) => b.status - a.status || b.id - a.id,
  },
};
export type LogOrder = keyof typeof LOG_ORDERS;

/**
 * The log as the filters and the order show it: the entries shown, the endpoints to pick among (the screens' own
 * only while they are asked for), and how many of the screens' own calls are left out.
 */
export function viewLog(entries: readonly RequestLogEntry[], filter: LogFilter, order: LogOrder) {
  const visible = entries.filter((e) => shown(e, filter)).sort(LOG_ORDERS[order].compare);
  const endpoints = [...new Set(entries.filter((e) => filter.own || !OWN_CALL.test(e.path)).map(endpointOf))].sort();
  const hiddenOwn = filter.own ? 0 : entries.filter((e) => OWN_CALL.test(e.path)).length;
  return { visible, endpoints, hiddenOwn };
}

/** The requests shown, one row each, with their first problem in words. */
export function exportLog(entries: readonly RequestLogEntry[]): void {
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
