/**
 * A workspace: one folder holding one DuckDB file, opened by exactly one owner. DuckDB locks the file against
 * other processes; this module refuses a second open of the same file inside one process, which DuckDB would
 * otherwise allow and corrupt.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import {
  DuckDBConnection,
  DuckDBInstance,
  type DuckDBPreparedStatement,
  type DuckDBResultReader,
  type DuckDBValue,
} from '@duckdb/node-api';
import { BACKTEST_FIGURE_COLUMNS } from '../model/backtest-columns.js';
import { DATASETS } from '../model/datasets.js';
import { MIGRATIONS, MIGRATIONS_TABLE, SCHEMA_VERSION } from './migrations.js';
import { allTables, tableColumns, tablePlan } from './table-plan.js';

export const DATABASE_FILE = 'workspace.duckdb';

/**
 * The write-ahead log's size at which DuckDB checkpoints within a commit. At its default (16 MiB) one call in a few
 * of an integrator's feed stopped for 0.2–0.5 s to write the tables out, more as they grew; this is above what a
 * burst of calls writes, and the workspace checkpoints when it falls idle instead (IDLE_CHECKPOINT_MS).
 */
export const WAL_AUTOCHECKPOINT = '256MiB';
/** A workspace with nothing queued for this long writes its log into its tables (CHECKPOINT). */
export const IDLE_CHECKPOINT_MS = 1000;

const openPaths = new Set<string>();

export class WorkspaceError extends Error {}

export class Workspace {
  private queue: Promise<unknown> = Promise.resolve();
  /** Calls queued or running (exclusive): the workspace is idle at 0. */
  private busy = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly prepared = new Map<string, DuckDBPreparedStatement>();

  private constructor(
    readonly dir: string,
    readonly file: string,
    private readonly instance: DuckDBInstance,
    readonly conn: DuckDBConnection,
  ) {}

  static async open(dir: string): Promise<Workspace> {
    mkdirSync(dir, { recursive: true });
    const realDir = realpathSync(dir);
    const file = join(realDir, DATABASE_FILE);
    if (openPaths.has(file))
      throw new WorkspaceError(
        `workspace ${realDir} is already open in this process; a workspace has exactly one owner`,
      );
    openPaths.add(file);
    let instance: DuckDBInstance | undefined;
    let conn: DuckDBConnection | undefined;
    try {
      try {
        instance = await DuckDBInstance.create(file);
      } catch (e) {
        const msg = (e as Error).message;
        if (/lock/i.test(msg))
          throw new WorkspaceError(`workspace ${realDir} is in use by another process (${msg.split('\n')[0]})`);
        throw new WorkspaceError(`cannot open workspace ${realDir}: ${msg}`);
      }
      conn = await instance.connect();
      await conn.run(`SET wal_autocheckpoint = '${WAL_AUTOCHECKPOINT}'`);
      const ws = new Workspace(realDir, file, instance, conn);
      await ws.migrate();
      await ws.checkSchema();
      return ws;
    } catch (e) {
      // A workspace this release refuses is released at once: its file lock must not outlive the refusal.
      conn?.closeSync();
      instance?.closeSync();
      openPaths.delete(file);
      throw e;
    }
  }

  /** Runs `fn` after every earlier queued call has finished: writes never interleave inside one workspace. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new WorkspaceError(`workspace ${this.dir} is closed`));
    clearTimeout(this.idleTimer);
    this.busy++;
    const next = this.queue.then(fn, fn);
    this.queue = next
      .catch(() => undefined)
      .finally(() => {
        if (--this.busy === 0 && !this.closed)
          this.idleTimer = setTimeout(() => this.checkpointIdle(), IDLE_CHECKPOINT_MS).unref();
      });
    return next;
  }

  /**
   * Writes the log into the tables while nothing else is asked of the workspace, so that no call waits for it. The
   * statement refuses while a transaction runs elsewhere (a query outside the queue): the next idle moment tries again.
   */
  private checkpointIdle(): void {
    if (this.closed || this.busy > 0) return;
    this.busy++;
    this.queue = this.queue
      .then(() => this.conn.run('CHECKPOINT'))
      .catch(() => undefined)
      .finally(() => this.busy--);
  }

  async run(sql: string, params?: DuckDBValue[]): Promise<number> {
    const result = await this.conn.run(sql, params);
    return result.rowsChanged;
  }

  /**
   * `run` for one statement that runs on every request (the request log's insert), prepared once per workspace: each
   * run is then one round trip to DuckDB rather than three (split, prepare, run), each waiting for the event loop.
   */
  async runPrepared(sql: string, params: DuckDBValue[]): Promise<number> {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = await this.conn.prepare(sql);
      this.prepared.set(sql, statement);
    }
    statement.bind(params);
    const result = await statement.run();
    return result.rowsChanged;
  }

  /**
   * A query's rows as objects. `T` names the row's columns and must tell the truth about what DuckDB returns for
   * the SQL (nothing checks it): VARCHAR → string; INTEGER, DOUBLE, FLOAT and anything cast `::INTEGER` or
   * `::DOUBLE` → number; BIGINT, UBIGINT and HUGEINT (a bare `count(*)`, `epoch_us(…)`, `datediff`, a sum of
   * integers) → bigint; BOOLEAN → boolean; TIMESTAMP → DuckDBTimestampValue; DATE → DuckDBDateValue; DECIMAL
   * (a bare `0.5` too) → DuckDBDecimalValue; a column that can be NULL → `| null`.
   */
  /** A query's whole result, with its column names and types (for writers that need them). */
  result(sql: string, params?: DuckDBValue[]): Promise<DuckDBResultReader> {
    return this.conn.runAndReadAll(sql, params);
  }

  async rows<T extends object = Record<string, DuckDBValue>>(sql: string, params?: DuckDBValue[]): Promise<T[]> {
    const reader = await this.conn.runAndReadAll(sql, params);
    return reader.getRowObjects() as T[];
  }

  /**
   * Column arrays of a query's result: far cheaper than row objects for large results. `T` is one row, held to the
   * truth as in `rows`, but the values here are plain JS: TIMESTAMP and DATE → Date, DECIMAL → number; BIGINT,
   * UBIGINT and HUGEINT stay bigint, and the others are as in `rows`.
   */
  async columns<T extends object = Record<string, unknown>>(
    sql: string,
    params?: DuckDBValue[],
  ): Promise<{ [K in keyof T]: T[K][] }> {
    const reader = await this.conn.runAndReadAll(sql, params);
    const names = reader.columnNames();
    const cols = reader.getColumnsJS();
    // An empty result has no column arrays at all: give each column an empty one.
    return Object.fromEntries(names.map((n, i) => [n, (cols[i] ?? []) as unknown[]])) as { [K in keyof T]: T[K][] };
  }

  /** The arrays `typedColumns` and `eachChunk` fill: a column cast `::INTEGER`, or one cast `::DOUBLE`. */
  static readonly int32 = (n: number) => new Int32Array(n);
  static readonly float64 = (n: number) => new Float64Array(n);

  /**
   * Numeric columns of a large result as typed arrays, read vector by vector (NULL → NaN): the way millions of rows
   * reach the engine, where `columns` would make a JS value of each. The SQL must give each named column the type
   * its array holds (`::INTEGER` for Int32Array, `::DOUBLE` for Float64Array).
   */
  async typedColumns<T extends { [K in keyof T]: Int32Array | Float64Array }>(
    sql: string,
    params: DuckDBValue[],
    make: { [K in keyof T]: (n: number) => T[K] },
  ): Promise<T> {
    const chunks: { rows: number; columns: T }[] = [];
    await this.eachChunk(sql, params, make, (columns, rows) => chunks.push({ rows, columns }));
    const keys = Object.keys(make) as (keyof T & string)[];
    const total = chunks.reduce((n, c) => n + c.rows, 0);
    const out = Object.fromEntries(keys.map((k) => [k, make[k](total)])) as unknown as T;
    let offset = 0;
    for (const chunk of chunks) {
      for (const k of keys) out[k].set(chunk.columns[k], offset);
      offset += chunk.rows;
    }
    return out;
  }

  /**
   * The same typed columns handed over one chunk at a time, in the result's order, for a caller that folds them as
   * they come and never needs them all at once.
   */
  async eachChunk<T extends { [K in keyof T]: Int32Array | Float64Array }>(
    sql: string,
    params: DuckDBValue[],
    make: { [K in keyof T]: (n: number) => T[K] },
    visit: (columns: T, rows: number) => void,
  ): Promise<void> {
    const result = await this.conn.run(sql, params);
    const names = result.columnNames();
    const keys = Object.keys(make) as (keyof T & string)[];
    const at = keys.map((k) => {
      const i = names.indexOf(k);
      if (i < 0) throw new Error(`typedColumns: the query has no column ${k}`);
      return i;
    });
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const rows = chunk.rowCount;
      const columns = {} as T;
      keys.forEach((k, c) => {
        const vector = chunk.getColumnVector(at[c]);
        const out = make[k](rows);
        for (let r = 0; r < rows; r++) {
          const v = vector.getItem(r);
          out[r] = v === null ? Number.NaN : (v as number);
        }
        columns[k] = out;
      });
      visit(columns, rows);
    }
  }

  /** Runs `fn` in one transaction: everything it writes is applied, or nothing is. */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.conn.run('BEGIN TRANSACTION');
    try {
      const result = await fn();
      await this.conn.run('COMMIT');
      return result;
    } catch (e) {
      await this.conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  async schemaVersion(): Promise<number> {
    const [row] = await this.rows<{ v: number }>(
      'SELECT coalesce(max(version), 0)::INTEGER AS v FROM schema_migrations',
    );
    return row.v;
  }

  private async migrate(): Promise<void> {
    await this.run(MIGRATIONS_TABLE);
    const current = await this.schemaVersion();
    if (current > SCHEMA_VERSION) {
      throw new WorkspaceError(
        `workspace ${this.dir} has schema version ${current}, newer than this release (${SCHEMA_VERSION}); ` +
          `use a newer workbench`,
      );
    }
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      await this.transaction(async () => {
        for (const sql of m.statements()) await this.run(sql);
        await this.run('INSERT INTO schema_migrations VALUES ($1, $2, now()::TIMESTAMP)', [m.version, m.description]);
      });
    }
  }

  /**
   * Every table and column the schemas and a run's figures call for exists, a run's figures in their order (they are
   * appended by position): a schema or a figure changed without a migration is caught here.
   */
  private async checkSchema(): Promise<void> {
    const existing = await this.rows<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'main'
       ORDER BY table_name, ordinal_position`,
    );
    const have = new Set(existing.map((r) => `${r.table_name}.${r.column_name}`));
    const missing: string[] = [];
    for (const d of DATASETS) {
      for (const t of allTables(tablePlan(d))) {
        for (const c of tableColumns(t, d)) if (!have.has(`${t.table}.${c.name}`)) missing.push(`${t.table}.${c.name}`);
      }
    }
    for (const [table, columns] of Object.entries(BACKTEST_FIGURE_COLUMNS))
      for (const c of columns) if (!have.has(`${table}.${c}`)) missing.push(`${table}.${c}`);
    if (missing.length) {
      throw new WorkspaceError(
        `workspace ${this.dir} lacks ${missing.slice(0, 5).join(', ')}` +
          (missing.length > 5 ? ` and ${missing.length - 5} more` : '') +
          `: the schemas changed without a migration`,
      );
    }
    for (const [table, columns] of Object.entries(BACKTEST_FIGURE_COLUMNS)) {
      const held = existing.filter((r) => r.table_name === table && columns.includes(r.column_name));
      const at = held.findIndex((r, i) => r.column_name !== columns[i]);
      if (at >= 0)
        throw new WorkspaceError(
          `workspace ${this.dir} holds ${table}.${columns[at]} elsewhere than this release writes it ` +
            `(${at ? `after ${columns[at - 1]}` : 'first'}): the figures changed without a migration`,
        );
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.exclusive(async () => undefined);
    // The queue's own bookkeeping after that call, which sets the idle timer, has run once it settles.
    await this.queue;
    clearTimeout(this.idleTimer);
    this.closed = true;
    this.conn.closeSync();
    this.instance.closeSync();
    openPaths.delete(this.file);
  }
}
