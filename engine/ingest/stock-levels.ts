/**
 * Stock is a history of dated levels (docs/design.md §3): a level replaces only a level of the same location, SKU
 * and moment, and the current stock is the latest level plus the mutations after it.
 */
import { formatIsoMicros } from '../model/datetime.js';
import { timestampValue } from '../store/values.js';
import type { Workspace } from '../store/workspace.js';
import type { JsonRecord } from './validate.js';

/** A level sent without a time is a level as of the moment it arrived. */
export function stampStockLevels(records: readonly JsonRecord[], receivedAt: number): JsonRecord[] {
  const at = formatIsoMicros(receivedAt);
  return records.map((r) => (r.stockDateTime == null ? { ...r, stockDateTime: at } : r));
}

/**
 * Stock full load: every location/SKU whose current stock is not zero and that the load did not send (no
 * level written since the load began) gets a level of 0 at `at`, the load's own moment.
 */
export async function zeroStockNotSent(ws: Workspace, since: number, at: number, stamp: number): Promise<number> {
  await ws.run(
    `CREATE OR REPLACE TEMP TABLE stock_zeroed AS
    SELECT locationId, skuId FROM current_stock
    WHERE quantity <> 0 AND coalesce(updatedAt, TIMESTAMP '1970-01-01') < $1`,
    [timestampValue(since)],
  );
  await ws.run(
    `DELETE FROM stock AS s USING stock_zeroed AS z
    WHERE s.locationId = z.locationId AND s.skuId = z.skuId AND s.stockDateTime = $1`,
    [timestampValue(at)],
  );
  const n = await ws.run(
    `INSERT INTO stock (locationId, skuId, quantity, stockDateTime, _updated_at)
    SELECT locationId, skuId, 0, $1, $2 FROM stock_zeroed`,
    [timestampValue(at), timestampValue(stamp)],
  );
  await ws.run('DROP TABLE stock_zeroed');
  return n;
}

/** The moment a stock full load stands for: its latest level. */
export function latestLevel(records: readonly JsonRecord[], parse: (s: string) => number | undefined): number {
  let max = -Infinity;
  for (const r of records) {
    const t = parse(r.stockDateTime as string);
    if (t !== undefined && t > max) max = t;
  }
  return max;
}
