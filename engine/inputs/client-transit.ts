/** What the client's own transfers tell of transit times (simulate/transit.ts). */
import { DAY_MICROS } from '../model/datetime.js';
import { TRANSIT_MIN_TRANSFERS } from '../simulate/transit.js';
import type { Workspace } from '../store/workspace.js';

/**
 * Per location: the median days its received client transfers took from shipping to arrival, whole days; −1 where
 * fewer than TRANSIT_MIN_TRANSFERS say both.
 */
export async function clientTransitDays(ws: Workspace, locationIds: readonly string[]): Promise<Int32Array> {
  const days = new Int32Array(locationIds.length).fill(-1);
  const at = new Map(locationIds.map((id, l) => [id, l]));
  for (const r of await ws.rows<{ locationId: string; days: number; n: number }>(`
    SELECT toLocationId AS locationId, count(*)::INTEGER AS n,
           round(median(epoch_us(expectedArrivalDateTime) - epoch_us(shippedDateTime)) / ${DAY_MICROS})::INTEGER AS days
    FROM transfers
    WHERE _deleted_at IS NULL AND received AND shippedDateTime IS NOT NULL AND expectedArrivalDateTime IS NOT NULL
      AND expectedArrivalDateTime >= shippedDateTime
    GROUP BY 1`)) {
    const l = at.get(r.locationId);
    if (l !== undefined && Number(r.n) >= TRANSIT_MIN_TRANSFERS) days[l] = Number(r.days);
  }
  return days;
}
