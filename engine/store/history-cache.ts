/**
 * The history a backtest replays (the actual days and the demand they show or imply) depends on the data alone —
 * never on a scenario — and deriving it is most of a run's loading. It is kept on disk in the workspace, keyed by
 * the period, the layout of ids and a fingerprint of every data table, so a run over data that has not changed
 * (another scenario, a sweep, a rerun) reads it back instead of deriving it again. Any write to the data changes
 * the fingerprint: a row count, the newest `_updated_at` or the newest `_deleted_at` of some table.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { DATASETS, type DatasetDef } from '../model/datasets.js';
import { allTables, DELETED_AT, q, tablePlan, UPDATED_AT } from './table-plan.js';
import type { Workspace } from './workspace.js';

/** Bumped whenever what is derived from the same data changes (the demand estimate, the layout of the arrays). */
export const HISTORY_FORMAT = 11;
/** Periods kept: the newest ones read or written. */
const KEEP = 3;

type Typed = Int32Array | Float64Array | Uint8Array;
const KINDS = { Int32Array, Float64Array, Uint8Array } as const;
type Kind = keyof typeof KINDS;

/** Counts and newest change of every data table (of `datasets`: all by default), in one query. */
export async function dataFingerprint(ws: Workspace, datasets: readonly DatasetDef[] = DATASETS): Promise<string> {
  const parts: string[] = [];
  for (const d of datasets) {
    for (const t of allTables(tablePlan(d))) {
      const stamps = t.depth === 0 ? `, max(${q(UPDATED_AT)})::VARCHAR, max(${q(DELETED_AT)})::VARCHAR` : '';
      parts.push(`SELECT '${t.table}' AS t, concat_ws('|', count(*)::VARCHAR${stamps}) AS v FROM ${q(t.table)}`);
    }
  }
  const rows = await ws.rows<{ t: string; v: string }>(parts.join(' UNION ALL ') + ' ORDER BY 1');
  return rows.map((r) => `${r.t}=${r.v}`).join(';');
}

export function historyKey(parts: unknown): string {
  const hash = createHash('sha256');
  hash.update(String(HISTORY_FORMAT));
  const add = (x: unknown): void => {
    if (ArrayBuffer.isView(x)) hash.update(new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
    else if (Array.isArray(x)) {
      hash.update(`[${x.length}`);
      x.forEach(add);
    } else if (x !== null && typeof x === 'object') {
      for (const k of Object.keys(x).sort()) {
        hash.update(k);
        add((x as Record<string, unknown>)[k]);
      }
    } else hash.update(JSON.stringify(x) ?? 'undefined');
    hash.update('\u0000');
  };
  add(parts);
  return hash.digest('hex').slice(0, 32);
}

/** A flat record of typed arrays, written as a JSON header and then the arrays' bytes (no copy of the whole). */
export type TypedRecord = Record<string, Typed>;

function write(file: string, record: TypedRecord): void {
  const header = Buffer.from(
    JSON.stringify(Object.entries(record).map(([name, a]) => [name, a.constructor.name as Kind, a.length])),
  );
  const size = Buffer.alloc(4);
  size.writeUInt32LE(header.length);
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, size);
    writeSync(fd, header);
    for (const a of Object.values(record)) {
      const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, Math.min(1 << 26, bytes.length - at));
    }
  } finally {
    closeSync(fd);
  }
}

function read(file: string): TypedRecord {
  const fd = openSync(file, 'r');
  try {
    const size = Buffer.alloc(4);
    readSync(fd, size, 0, 4, 0);
    const header = Buffer.alloc(size.readUInt32LE());
    readSync(fd, header, 0, header.length, 4);
    let position = 4 + header.length;
    const out: TypedRecord = {};
    for (const [name, kind, length] of JSON.parse(header.toString()) as [string, Kind, number][]) {
      // In shared memory: a replay's threads read the rows where they are.
      const Kind = KINDS[kind] as new (buffer: SharedArrayBuffer) => Typed;
      const a = new Kind(new SharedArrayBuffer(length * KINDS[kind].BYTES_PER_ELEMENT));
      const bytes = new Uint8Array(a.buffer);
      for (let at = 0; at < bytes.length;) {
        const n = readSync(fd, bytes, at, Math.min(1 << 26, bytes.length - at), position);
        if (n === 0) throw new Error(`history cache ${file} is cut short`);
        at += n;
        position += n;
      }
      out[name] = a;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/**
 * The record kept under `key`, or `derive`'s, which is then kept. A cache file that cannot be read is derived
 * again; one that cannot be written leaves the run as it is (the cache is an optimisation, never a source).
 */
export async function cachedHistory<T extends TypedRecord>(
  ws: Workspace,
  key: string,
  derive: () => Promise<T>,
): Promise<{ value: T; cached: boolean }> {
  const dir = join(ws.dir, 'cache');
  const file = join(dir, `history-${key}.bin`);
  try {
    const value = read(file) as T;
    const now = new Date();
    utimesSync(file, now, now);
    return { value, cached: true };
  } catch {
    // Not kept yet, or unreadable: derived below.
  }
  const value = await derive();
  try {
    mkdirSync(dir, { recursive: true });
    const part = `${file}.${randomUUID()}.part`;
    write(part, value);
    renameSync(part, file);
    const kept = readdirSync(dir)
      .filter((f) => f.startsWith('history-'))
      .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of kept.slice(KEEP)) rmSync(join(dir, f), { force: true });
  } catch {
    // A full disk or a read-only workspace: the run goes on without keeping it.
  }
  return { value, cached: false };
}
