/**
 * The request log: what every API request did, kept in the workspace and bounded, so an integrator can see
 * why a call failed long after their client forgot it.
 */
import type { DuckDBTimestampValue } from '@duckdb/node-api';
import { formatIsoMicros } from '../model/datetime.js';
import { clip, type Problem } from '../model/problems.js';
import { timestampValue } from '../store/values.js';
import type { Workspace } from '../store/workspace.js';
import type { RequestLogEntry, RequestLogInput } from '../model/request-log.js';

/** Entries kept; older ones are pruned. */
export const MAX_LOG_ENTRIES = 10_000;
/** Problems kept per entry (the count is always exact). */
export const MAX_LOGGED_PROBLEMS = 100;
/** Characters of a request body kept. */
export const BODY_EXCERPT_CHARS = 2_000;
/** Characters kept of each problem's pointer, record id and message, and of the path and query. */
export const LOGGED_TEXT_CHARS = 500;

/** An entry's problems as kept: at most MAX_LOGGED_PROBLEMS, each text bounded, whatever the request held. */
function keptProblems(problems: Problem[]): string | null {
  if (!problems.length) return null;
  return JSON.stringify(
    problems.slice(0, MAX_LOGGED_PROBLEMS).map((p) => ({
      ...p,
      path: clip(p.path, LOGGED_TEXT_CHARS),
      ...(p.recordId === undefined ? {} : { recordId: clip(p.recordId, LOGGED_TEXT_CHARS) }),
      message: clip(p.message, LOGGED_TEXT_CHARS),
    })),
  );
}

/** A row of request_log (migration 2), with its moment in microseconds (`us`). */
interface RequestLogRow {
  id: bigint;
  loggedAt: DuckDBTimestampValue;
  requestId: string;
  tenant: string | null;
  method: string;
  path: string;
  query: string | null;
  status: number;
  durationMs: number;
  dataset: string | null;
  records: number | null;
  errorCount: number;
  errors: string | null;
  warningCount: number;
  warnings: string | null;
  bodyExcerpt: string | null;
  port: number | null;
  responseExcerpt: string | null;
  us: bigint;
}

export class RequestLog {
  private nextId = 0;

  constructor(
    private readonly ws: Workspace,
    private readonly maxEntries = MAX_LOG_ENTRIES,
  ) {}

  async init(): Promise<void> {
    const [row] = await this.ws.rows<{ id: bigint }>('SELECT coalesce(max(id), 0) AS id FROM request_log');
    this.nextId = Number(row.id) + 1;
  }

  /** Runs inside the workspace queue (the caller's `exclusive`). */
  async append(entry: RequestLogInput, at: number): Promise<number> {
    const id = this.nextId++;
    const errors = entry.errors ?? [];
    const warnings = entry.warnings ?? [];
    await this.ws.runPrepared(
      `INSERT INTO request_log (id, loggedAt, requestId, tenant, method, path, query, status, durationMs, dataset,
         records, errorCount, errors, warningCount, warnings, bodyExcerpt, port, responseExcerpt)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [
        id,
        timestampValue(at),
        entry.requestId,
        entry.tenant ?? null,
        entry.method,
        clip(entry.path, LOGGED_TEXT_CHARS),
        entry.query ? clip(entry.query, LOGGED_TEXT_CHARS) : null,
        entry.status,
        entry.durationMs,
        entry.dataset ?? null,
        entry.records ?? null,
        entry.errorCount ?? errors.length,
        keptProblems(errors),
        warnings.length,
        keptProblems(warnings),
        entry.bodyExcerpt ? entry.bodyExcerpt.slice(0, BODY_EXCERPT_CHARS) : null,
        entry.port ?? null,
        entry.responseExcerpt ? entry.responseExcerpt.slice(0, BODY_EXCERPT_CHARS) : null,
      ],
    );
    // Pruned in steps, not on every insert: the log holds between maxEntries and twice that.
    if (id % Math.min(100, this.maxEntries) === 0)
      await this.ws.run('DELETE FROM request_log WHERE id <= $1', [id - this.maxEntries]);
    return id;
  }

  /** Several entries in one transaction, in order; their ids. Runs inside the workspace queue. */
  async appendAll(entries: readonly { entry: RequestLogInput; at: number }[]): Promise<number[]> {
    // One entry is one INSERT, a transaction of its own: one call to DuckDB rather than three (begin, insert, commit),
    // each of which would wait for the event loop while the next request's body is being parsed.
    if (entries.length === 1) return [await this.append(entries[0].entry, entries[0].at)];
    return this.ws.transaction(async () => {
      const ids: number[] = [];
      for (const { entry, at } of entries) ids.push(await this.append(entry, at));
      return ids;
    });
  }

  /** The newest `limit` entries (or those after `afterId`), oldest first. */
  async read(query: { afterId?: number; limit?: number } = {}): Promise<RequestLogEntry[]> {
    const limit = Math.min(MAX_LOG_ENTRIES, Math.max(1, Math.floor(query.limit ?? 100)));
    const rows =
      query.afterId !== undefined
        ? await this.ws.rows<RequestLogRow>(
            'SELECT *, epoch_us(loggedAt) AS us FROM request_log WHERE id > $1 ORDER BY id LIMIT $2',
            [query.afterId, limit],
          )
        : (
            await this.ws.rows<RequestLogRow>(
              'SELECT *, epoch_us(loggedAt) AS us FROM request_log ORDER BY id DESC LIMIT $1',
              [limit],
            )
          ).reverse();
    return rows.map((r) => {
      const e: RequestLogEntry = {
        id: Number(r.id),
        loggedAt: formatIsoMicros(Number(r.us)),
        requestId: r.requestId,
        method: r.method,
        path: r.path,
        status: Number(r.status),
        durationMs: Number(r.durationMs),
        errorCount: Number(r.errorCount),
        errors: r.errors ? JSON.parse(r.errors) : [],
        warningCount: Number(r.warningCount),
        warnings: r.warnings ? JSON.parse(r.warnings) : [],
      };
      if (r.tenant !== null) e.tenant = r.tenant;
      if (r.query !== null) e.query = r.query;
      if (r.dataset !== null) e.dataset = r.dataset;
      if (r.records !== null) e.records = Number(r.records);
      if (r.bodyExcerpt !== null) e.bodyExcerpt = r.bodyExcerpt;
      if (r.port !== null) e.port = Number(r.port);
      if (r.responseExcerpt !== null) e.responseExcerpt = r.responseExcerpt;
      return e;
    });
  }
}
