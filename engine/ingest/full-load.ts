/**
 * Split full loads (`fullLoad=true&moreRecordsAvailable=true` … `=false`). The calls before the last are
 * validated and kept in the workspace, not applied; the last call applies them all with its own records in
 * one transaction. A load whose calls stop coming is abandoned: it is discarded and deletes nothing.
 */
import { timestampValue } from '../store/values.js';
import type { Workspace } from '../store/workspace.js';
import type { JsonRecord } from './validate.js';

/** A split full load with no call for this long is abandoned (microseconds). */
export const ABANDON_AFTER_MICROS = 60 * 60 * 1_000_000;

export interface StagedLoad {
  startedAt: number;
  lastCallAt: number;
  calls: number;
  records: number;
}

export async function stagedLoad(ws: Workspace, dataset: string): Promise<StagedLoad | undefined> {
  const [row] = await ws.rows<{ s: bigint; r: bigint; c: bigint; n: bigint }>(
    `SELECT epoch_us(min(started_at)) AS s, epoch_us(max(received_at)) AS r, count(*) AS c,
            sum(json_array_length(records)) AS n
     FROM full_load_staging WHERE dataset = $1 HAVING count(*) > 0`,
    [dataset],
  );
  return row
    ? { startedAt: Number(row.s), lastCallAt: Number(row.r), calls: Number(row.c), records: Number(row.n) }
    : undefined;
}

export async function discardStaged(ws: Workspace, dataset: string): Promise<void> {
  await ws.run('DELETE FROM full_load_staging WHERE dataset = $1', [dataset]);
}

/** Keeps one call's records; returns the load as it now stands. */
export async function stageCall(
  ws: Workspace,
  dataset: string,
  records: readonly JsonRecord[],
  startedAt: number,
  stamp: number,
  seq: number,
): Promise<void> {
  await ws.run('INSERT INTO full_load_staging VALUES ($1, $2, $3, $4, $5)', [
    dataset,
    timestampValue(startedAt),
    timestampValue(stamp),
    seq,
    JSON.stringify(records),
  ]);
}

export async function stagedRecords(ws: Workspace, dataset: string): Promise<JsonRecord[]> {
  const rows = await ws.rows<{ records: string }>(
    'SELECT records FROM full_load_staging WHERE dataset = $1 ORDER BY seq',
    [dataset],
  );
  return rows.flatMap((r) => JSON.parse(r.records) as JsonRecord[]);
}
