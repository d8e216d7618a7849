/** Reads records back into their JSON shape: a dataset row with its child rows nested as they were sent. */
import type { DuckDBValue } from '@duckdb/node-api';
import type { DatasetDef } from '../model/datasets.js';
import type { JsonRecord } from '../model/fields.js';
import { keyMatch, keySet } from './keys.js';
import { allTables, DELETED_AT, ORD, q, tablePlan, type TablePlan } from './table-plan.js';
import { fromDuck } from './values.js';
import type { Workspace } from './workspace.js';

export interface ReadQuery {
  /** Only these records (key fields only). */
  keys?: readonly JsonRecord[];
  offset?: number;
  limit?: number;
}

function toJson(plan: TablePlan, row: Record<string, DuckDBValue>): JsonRecord {
  const out: JsonRecord = {};
  for (const f of plan.fields) {
    const v = fromDuck(f.type, row[f.name]);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

const text = (values: unknown[]) => values.map((v) => String(v)).join('\u0000');

export async function readRecords(ws: Workspace, dataset: DatasetDef, query: ReadQuery = {}): Promise<JsonRecord[]> {
  const plan = tablePlan(dataset);
  const order = dataset.key.map((k) => q(k)).join(', ');
  let sql = `SELECT * FROM ${q(plan.table)} AS t WHERE t.${DELETED_AT} IS NULL`;
  let params: DuckDBValue[] = [];
  if (query.keys) {
    if (query.keys.length === 0) return [];
    const ks = keySet(dataset, query.keys);
    sql += ` AND EXISTS (SELECT 1 FROM (${ks.select}) AS k WHERE ${keyMatch(ks.fields, 't')})`;
    params = ks.params;
  }
  sql += ` ORDER BY ${order}`;
  if (query.limit !== undefined) sql += ` LIMIT ${Math.max(0, Math.floor(query.limit))}`;
  if (query.offset) sql += ` OFFSET ${Math.max(0, Math.floor(query.offset))}`;
  const rootRows = await ws.rows(sql, params);
  const records = rootRows.map((r) => toJson(plan, r));
  if (records.length === 0 || plan.children.length === 0) return records;

  // Index every record by its own key path, so each child row finds its parent.
  const index = new Map<string, JsonRecord>();
  rootRows.forEach((r, i) => index.set(text(dataset.key.map((k) => r[k])), records[i]));
  const roots = keySet(dataset, records);
  for (const t of allTables(plan).slice(1)) {
    const ancestorCols = t.ancestors.map((a) => q(a.column));
    const rows = await ws.rows(
      `SELECT * FROM ${q(t.table)} AS t
       WHERE EXISTS (SELECT 1 FROM (${roots.select}) AS k WHERE ${keyMatch(roots.fields, 't', 'k', '_')})
       ORDER BY ${[...ancestorCols, ORD].join(', ')}`,
      roots.params,
    );
    const ownKey = t.entity['x-key'] as string[];
    for (const row of rows) {
      const ancestors = t.ancestors.map((a) => row[a.column]);
      const parent = index.get(text(ancestors));
      if (!parent) continue;
      const child = toJson(t, row);
      (
        (parent[t.arrayField!] as JsonRecord[] | undefined) ??
        ((parent[t.arrayField!] = [] as JsonRecord[]) as JsonRecord[])
      ).push(child);
      if (t.children.length) index.set(text([...ancestors, ...ownKey.map((k) => row[k])]), child);
    }
  }
  return records;
}

export async function countRecords(
  ws: Workspace,
  dataset: DatasetDef,
): Promise<{ live: number; deleted: number; lastWrite?: number }> {
  const [row] = await ws.rows<{ live: bigint; deleted: bigint; last: bigint | null }>(
    `SELECT count(*) FILTER (WHERE ${DELETED_AT} IS NULL) AS live,
            count(*) FILTER (WHERE ${DELETED_AT} IS NOT NULL) AS deleted,
            epoch_us(max(_updated_at)) AS last FROM ${q(dataset.table)}`,
  );
  return {
    live: Number(row.live),
    deleted: Number(row.deleted),
    lastWrite: row.last === null ? undefined : Number(row.last),
  };
}
