/** Loads what a backtest replays from a workspace: the start state and the actual days, set-based. */
import { DAY_MICROS } from '../model/datetime.js';
import type { Settings } from '../recommend/settings.js';
import type { BacktestInput, PlannedReceipt } from '../simulate/input.js';
import { sellingLife } from '../simulate/input.js';
import { dailyLevels, EXACT } from './daily-levels.js';
import { loadEngineState } from './engine-state.js';
import type { Workspace } from './workspace.js';


/** `fromDay` … `toDay` inclusive, in days since 1970-01-01. */
export async function loadBacktestInput(ws: Workspace, fromDay: number, toDay: number, settings: Settings): Promise<BacktestInput> {
  const days = toDay - fromDay + 1;
  const start = await loadEngineState(ws, fromDay, settings, { kind: 'replay' });
  const K = start.skus.ids.length;
  const levels = await dailyLevels(ws, start.locations.ids, start.skus.ids, fromDay, toDay + 1);

  // Rows per day, each day's rows by cell: a counting sort of the (cell, day)-ordered rows.
  const n = levels.cell.length;
  const counts = new Int32Array(days + 1);
  for (let j = 0; j < n; j++) if (levels.d[j] >= 0 && levels.d[j] < days) counts[levels.d[j] + 1]++;
  const dayStart = new Int32Array(days + 1);
  for (let i = 0; i < days; i++) dayStart[i + 1] = dayStart[i] + counts[i + 1];
  const m = dayStart[days];
  const fill = Int32Array.from(dayStart.subarray(0, days));
  const actual = {
    dayStart, cell: new Int32Array(m), endLevel: new Float64Array(m), peak: new Float64Array(m),
    sold: new Float64Array(m), net: new Float64Array(m), mutations: new Float64Array(m), revenue: new Float64Array(m),
  };
  for (let j = 0; j < n; j++) {
    const d = levels.d[j];
    if (d < 0 || d >= days) continue;
    const at = fill[d]++;
    actual.cell[at] = levels.cell[j];
    actual.endLevel[at] = levels.endLevel[j];
    actual.peak[at] = levels.peak[j];
    actual.sold[at] = levels.sold[j];
    actual.net[at] = levels.net[j];
    actual.mutations[at] = levels.mutations[j];
    actual.revenue[at] = levels.revenue[j];
  }
  const { activeFrom, activeTo } = sellingLife(start, actual, days);

  const skuIndex = new Map(start.skus.ids.map((id, k) => [id, k]));
  const cost = new Float64Array(K);
  for (const r of await ws.rows(`
    SELECT skuId, avg(c::${EXACT})::DOUBLE AS cost FROM (
      SELECT l.skuId, l.costPrice AS c FROM sales__salesLines AS l WHERE l.costPrice > 0
      UNION ALL SELECT skuId, unitCostLocalCurrency FROM purchase_orders__purchaseOrderLines WHERE unitCostLocalCurrency > 0)
    GROUP BY 1`)) {
    const k = skuIndex.get(r.skuId as string);
    if (k !== undefined) cost[k] = Number(r.cost);
  }

  const locIndex = new Map(start.locations.ids.map((id, l) => [id, l]));
  const firstWarehouse = start.locations.kind.indexOf('warehouse');
  const receipts: PlannedReceipt[] = [];
  for (const r of await ws.rows(`
    SELECT p.locationId, l.skuId, l.quantity::DOUBLE AS q, (epoch_us(p.orderDate) // ${DAY_MICROS})::INTEGER AS ordered,
           (epoch_us(l.plannedReceiptDate) // ${DAY_MICROS})::INTEGER AS due
    FROM purchase_orders AS p JOIN purchase_orders__purchaseOrderLines AS l ON l._purchaseOrderId = p.purchaseOrderId
    WHERE p._deleted_at IS NULL`)) {
    const l = r.locationId === null ? firstWarehouse : locIndex.get(r.locationId as string) ?? -1;
    const k = skuIndex.get(r.skuId as string);
    if (l < 0 || k === undefined) continue;
    receipts.push({ cell: l * K + k, orderDay: Number(r.ordered) - fromDay, dueDay: Number(r.due) - fromDay, quantity: Number(r.q), style: start.skus.style[k] });
  }
  return { start, days, actual, activeFrom, activeTo, cost, receipts };
}
