/**
 * The spec's write semantics on the tables of one dataset. Each function runs inside the caller's
 * transaction, so a batch is applied whole or not at all.
 */
import type { DatasetDef } from '../model/datasets.js';
import { appendRecords } from '../store/append.js';
import { keyMatch, keySet } from '../store/keys.js';
import { allTables, DELETED_AT, q, tablePlan, UPDATED_AT } from '../store/table-plan.js';
import { timestampValue } from '../store/values.js';
import type { Workspace } from '../store/workspace.js';
import type { JsonRecord } from './validate.js';

/**
 * Upsert on the primary key: a resent record replaces the stored one whole, its child records included
 * (an item resent without a SKU no longer has it). A soft-deleted record that is sent again is restored.
 */
export async function upsertRecords(
  ws: Workspace,
  dataset: DatasetDef,
  records: readonly JsonRecord[],
  stamp: number,
): Promise<{ created: number; updated: number }> {
  if (records.length === 0) return { created: 0, updated: 0 };
  const plan = tablePlan(dataset);
  const ks = keySet(dataset, records);
  const replaced = await ws.run(
    `DELETE FROM ${q(plan.table)} AS t USING (${ks.select}) AS k WHERE ${keyMatch(ks.fields, 't')}`,
    ks.params,
  );
  for (const child of allTables(plan).slice(1)) {
    await ws.run(
      `DELETE FROM ${q(child.table)} AS t USING (${ks.select}) AS k WHERE ${keyMatch(ks.fields, 't', 'k', '_')}`,
      ks.params,
    );
  }
  await appendRecords(ws, dataset, plan, records, stamp);
  return { created: records.length - replaced, updated: replaced };
}

/** Full load: every live record not written since the load began is soft-deleted. */
export async function softDeleteNotWrittenSince(
  ws: Workspace,
  dataset: DatasetDef,
  since: number,
  stamp: number,
): Promise<number> {
  return ws.run(
    `UPDATE ${q(dataset.table)} SET ${DELETED_AT} = $1 WHERE ${DELETED_AT} IS NULL AND ${UPDATED_AT} < $2`,
    [timestampValue(stamp), timestampValue(since)],
  );
}

/** DELETE: soft-deletes the records named by key. Returns how many were deleted and which were not found. */
export async function softDeleteRecords(
  ws: Workspace,
  dataset: DatasetDef,
  records: readonly JsonRecord[],
  stamp: number,
): Promise<{ deleted: number; notFound: string[]; notFoundCount: number }> {
  if (records.length === 0) return { deleted: 0, notFound: [], notFoundCount: 0 };
  const t = q(dataset.table);
  const probe = keySet(dataset, records);
  const missing = await ws.rows<Record<`k${number}`, string | null> & { n: bigint }>(
    // No `count(*) OVER ()`: it hit an internal DuckDB error (1.5.5) now and then.
    `WITH missing AS (SELECT ${probe.fields.map((_, i) => `k.k${i}::VARCHAR AS k${i}`).join(', ')}
       FROM (${probe.select}) AS k
       WHERE NOT EXISTS (SELECT 1 FROM ${t} AS t WHERE ${keyMatch(probe.fields, 't')} AND t.${DELETED_AT} IS NULL))
     SELECT *, (SELECT count(*) FROM missing) AS n FROM missing LIMIT 20`,
    probe.params,
  );
  const ks = keySet(dataset, records, 2);
  const deleted = await ws.run(
    `UPDATE ${t} AS t SET ${DELETED_AT} = $1 FROM (${ks.select}) AS k
     WHERE ${keyMatch(ks.fields, 't')} AND t.${DELETED_AT} IS NULL`,
    [timestampValue(stamp), ...ks.params],
  );
  return {
    deleted,
    notFound: missing.map((r) => ks.fields.map((_, i) => String(r[`k${i}`])).join('/')),
    notFoundCount: missing.length ? Number(missing[0].n) : 0,
  };
}
