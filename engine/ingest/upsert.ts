/**
 * The spec's write semantics on the tables of one dataset. Each function runs inside the caller's
 * transaction, so a batch is applied whole or not at all.
 */
import { listValue } from '@duckdb/node-api';
import type { TSchema } from '@sinclair/typebox';
import type { DatasetDef } from '../model/datasets.js';
import { entityKey } from '../model/fields.js';
import { appendLaidOut, appendRows, layOutRecords, type LaidOutRows } from '../store/append.js';
import { keyMatch, keySet, keyTypes } from '../store/keys.js';
import { allTables, DELETED_AT, q, tablePlan, UPDATED_AT, type TablePlan } from '../store/table-plan.js';
import { converter, timestampValue } from '../store/values.js';
import type { Workspace } from '../store/workspace.js';
import { MAX_LISTED_ERRORS, type JsonRecord } from './validate.js';
import type { Problem } from '../model/problems.js';

/** A child record (a SKU, a sales line) that a batch moved from the parent listing it to another. */
export interface MovedRecord {
  /** The child's kind (its schema's title), id field and id, and its parent's id field. */
  kind: string;
  field: string;
  parentField: string;
  id: string;
  from: string;
  to: string;
  /** Where the batch lists it now. */
  path: string;
}

/** Children whose id is unique across the dataset (`x-unique`), not only within their parent. */
const uniqueChildren = (plan: TablePlan) =>
  plan.children.filter((c) => (c.entity as TSchema)['x-unique'] === 'dataset' && c.ancestors.length === 1);

/**
 * The connection's temporary tables holding one batch's keys, and the ids of its children unique across the dataset:
 * never part of the workspace's file, and gone with the transaction when it rolls back.
 */
const BATCH_KEYS = '_batch_keys';
const batchIds = (child: TablePlan) => `_batch_ids_${child.table}`;

/**
 * Writes the batch's keys and unique child ids to their temporary tables through the appender: far cheaper than list
 * parameters built value by value.
 */
async function stageKeys(
  ws: Workspace,
  dataset: DatasetDef,
  plan: TablePlan,
  records: readonly JsonRecord[],
): Promise<void> {
  const unique = uniqueChildren(plan);
  const types = keyTypes(dataset);
  await ws.run(
    [
      `CREATE OR REPLACE TEMP TABLE ${BATCH_KEYS} (${types.map((t, i) => `k${i} ${t}`).join(', ')})`,
      ...unique.map((c) => `CREATE OR REPLACE TEMP TABLE ${q(batchIds(c))} (id VARCHAR)`),
    ].join('; '),
  );
  const convert = dataset.key.map((k, i) => ({ k, toDuck: converter(types[i]) }));
  await appendRows(
    ws,
    BATCH_KEYS,
    types,
    records.map((r) => convert.map((c) => c.toDuck(r[c.k]))),
    'temp',
  );
  for (const child of unique) {
    const own = entityKey(child.entity)[0];
    const field = child.arrayField!;
    const ids: [string][] = [];
    for (const r of records) {
      const list = r[field];
      if (Array.isArray(list)) for (const c of list as JsonRecord[]) ids.push([String(c[own])]);
    }
    await appendRows(ws, batchIds(child), ['VARCHAR'], ids, 'temp');
  }
}

/** Whether any of the staged keys is stored already, and any of the staged ids of each unique child. */
async function storedKeys(
  ws: Workspace,
  dataset: DatasetDef,
  plan: TablePlan,
): Promise<{ stored: boolean; childStored: boolean[] }> {
  const unique = uniqueChildren(plan);
  const tests = [
    `EXISTS (SELECT 1 FROM ${q(plan.table)} AS t JOIN temp.${BATCH_KEYS} AS k ON ${keyMatch(dataset.key, 't')})`,
    ...unique.map((c) => {
      const ids = `SELECT id FROM temp.${q(batchIds(c))}`;
      return `EXISTS (SELECT 1 FROM ${q(c.table)} AS t WHERE t.${q(entityKey(c.entity)[0])}::VARCHAR IN (${ids}))`;
    }),
  ];
  const [row] = await ws.rows<Record<string, boolean>>(`SELECT ${tests.map((t, i) => `${t} AS s${i}`).join(', ')}`);
  return { stored: row.s0, childStored: unique.map((_, i) => row[`s${i + 1}`]) };
}

/**
 * Upsert on the primary key: a resent record replaces the stored one whole, its child records included
 * (an item resent without a SKU no longer has it). A soft-deleted record that is sent again is restored.
 *
 * A child id unique across the dataset (a SKU, a sales line) belongs to the record that sent it last: a stored
 * record listing it (soft-deleted ones too) no longer does, and the move is returned and kept. Validation has
 * already refused a batch that lists one twice.
 *
 * A batch of records none of which is stored, listing no child id that is (new sales, the common case), deletes
 * nothing: a child row is never stored without its record's row, so none of the record's children is stored either.
 */
export async function upsertRecords(
  ws: Workspace,
  dataset: DatasetDef,
  records: readonly JsonRecord[],
  stamp: number,
): Promise<{ created: number; updated: number; moved: MovedRecord[] }> {
  if (records.length === 0) return { created: 0, updated: 0, moved: [] };
  const plan = tablePlan(dataset);
  await stageKeys(ws, dataset, plan, records);
  // DuckDB looks the keys up in its own threads while the rows are laid out here; nothing else may use the connection
  // until it has answered.
  const lookup = storedKeys(ws, dataset, plan);
  let rows: LaidOutRows;
  try {
    rows = layOutRecords(dataset, plan, records, stamp);
  } finally {
    await lookup.catch(() => undefined);
  }
  const { stored, childStored } = await lookup;
  let replaced = 0;
  if (stored) {
    const keys = `temp.${BATCH_KEYS}`;
    replaced = await ws.run(`DELETE FROM ${q(plan.table)} AS t USING ${keys} AS k WHERE ${keyMatch(dataset.key, 't')}`);
    for (const child of allTables(plan).slice(1))
      await ws.run(
        `DELETE FROM ${q(child.table)} AS t USING ${keys} AS k WHERE ${keyMatch(dataset.key, 't', 'k', '_')}`,
      );
  }
  const moved = childStored.some(Boolean) ? await takeOverStored(ws, plan, records, childStored) : [];
  if (moved.length) await keepMoves(ws, plan, moved, stamp);
  await appendLaidOut(ws, rows);
  return { created: records.length - replaced, updated: replaced, moved };
}

/** Removes the batch's unique children from the stored records that listed them, and keeps each move. */
async function takeOverStored(
  ws: Workspace,
  plan: TablePlan,
  records: readonly JsonRecord[],
  childStored: readonly boolean[],
): Promise<MovedRecord[]> {
  const moved: MovedRecord[] = [];
  for (const [c, child] of uniqueChildren(plan).entries()) {
    if (!childStored[c]) continue;
    const parent = child.ancestors[0];
    const own = entityKey(child.entity)[0];
    const field = child.arrayField!;
    // The batch's own records hold none of their children any more (deleted above): what matches is elsewhere.
    const found = await ws.rows<{ id: string; from: string }>(
      `SELECT t.${q(own)}::VARCHAR AS id, t.${q(parent.column)}::VARCHAR AS "from" FROM ${q(child.table)} AS t
       WHERE t.${q(own)}::VARCHAR IN (SELECT id FROM temp.${q(batchIds(child))})`,
    );
    if (found.length === 0) continue;
    // Where the batch lists each id now: its record's key and its place.
    const at = new Map<string, { to: string; path: string; n: number }>();
    records.forEach((r, i) =>
      ((r[field] as JsonRecord[] | undefined) ?? []).forEach((c, j) =>
        at.set(String(c[own]), { to: String(r[parent.field]), path: `/${i}/${field}/${j}`, n: at.size }),
      ),
    );
    const from = listValue(found.map((m) => m.from));
    const id = listValue(found.map((m) => m.id));
    const pairs = `SELECT unnest($1::VARCHAR[]) AS parent, unnest($2::VARCHAR[]) AS id`;
    for (const t of allTables(child).slice(1)) {
      await ws.run(
        `DELETE FROM ${q(t.table)} AS t USING (${pairs}) AS m
         WHERE t.${q(parent.column)}::VARCHAR = m.parent AND t.${q('_' + own)}::VARCHAR = m.id`,
        [from, id],
      );
    }
    await ws.run(
      `DELETE FROM ${q(child.table)} AS t USING (${pairs}) AS m
       WHERE t.${q(parent.column)}::VARCHAR = m.parent AND t.${q(own)}::VARCHAR = m.id`,
      [from, id],
    );
    // Told in the batch's order.
    found.sort((x, y) => at.get(x.id)!.n - at.get(y.id)!.n || (x.from < y.from ? -1 : 1));
    for (const m of found) {
      const { to, path } = at.get(m.id)!;
      moved.push({
        kind: child.entity.title!,
        field: own,
        parentField: parent.field,
        id: m.id,
        from: m.from,
        to,
        path,
      });
    }
  }
  return moved;
}

async function keepMoves(ws: Workspace, plan: TablePlan, moved: readonly MovedRecord[], stamp: number) {
  await ws.run(
    `INSERT INTO record_moves
     SELECT $1, unnest($2::VARCHAR[]), unnest($3::VARCHAR[]), unnest($4::VARCHAR[]), unnest($5::VARCHAR[]), $6`,
    [
      plan.table,
      listValue(moved.map((m) => m.kind)),
      listValue(moved.map((m) => m.id)),
      listValue(moved.map((m) => m.from)),
      listValue(moved.map((m) => m.to)),
      timestampValue(stamp),
    ],
  );
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

/** How a move is told in a write's answer: at the record that took the child over. */
export function moveWarnings(moved: readonly MovedRecord[], envelope: string): Problem[] {
  const told: Problem[] = moved.slice(0, MAX_LISTED_ERRORS).map((m) => ({
    path: `/${envelope}${m.path}`,
    recordId: m.to,
    message:
      `${m.field} "${m.id}" was listed by ${m.parentField} "${m.from}" and now belongs to "${m.to}" only ` +
      `(a ${m.field} is unique across the dataset; the later record takes it over)`,
  }));
  if (moved.length > told.length)
    told.push({
      path: `/${envelope}`,
      message: `${moved.length - told.length} more moved the same way`,
    });
  return told;
}
