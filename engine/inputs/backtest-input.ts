/** Loads what a backtest replays from a workspace: the start state, the actual days and their demand, set-based. */
import { DAY_MICROS } from '../model/datetime.js';
import { timestampValue } from '../store/values.js';
import type { Settings } from '../recommend/settings.js';
import type { EngineState } from '../recommend/state.js';
import { HISTORY_REACH_DAYS } from '../simulate/actual-demand.js';
import { demandLayout, periodDays, type BacktestInput, type PlannedReceipt } from '../simulate/input.js';
import { dailyLevels, EXACT } from '../store/daily-levels.js';
import { loadEngineState } from './engine-state.js';
import type { Workspace } from '../store/workspace.js';
import { cachedHistory, dataFingerprint, historyKey, type TypedRecord } from '../store/history-cache.js';
import { sharedAlloc, sharedCopy } from '../simulate/buffers.js';
import { worldTransit } from '../simulate/transit.js';
import { clientTransitDays } from './client-transit.js';
import { readStyleDiscounts } from './style-discounts.js';

/**
 * `fromDay` … `toDay` inclusive, in days since 1970-01-01. The history is read a reach beyond the period on both
 * sides: what customers wanted on a day without stock is estimated from the days around it, whichever side of the
 * period's edges they fall on, so a day's demand is the same in every backtest that covers it.
 */
export async function loadBacktestInput(
  ws: Workspace,
  fromDay: number,
  toDay: number,
  settings: Settings,
): Promise<BacktestInput> {
  const days = toDay - fromDay + 1;
  // In shared memory, as the rows below: a replay's threads read the start where it is.
  const start = await loadEngineState(ws, fromDay, settings, { kind: 'replay' }, sharedAlloc);
  const { value, cached } = await periodHistory(ws, start, fromDay, toDay);
  const { actual, out, selling, closed, salePrice, styleDiscount, levels } = historyParts(value);
  const locationIds = start.locations.ids;
  const transit = worldTransit(
    locationIds,
    selling,
    { days: levels.days, units: levels.units, network: levels.network[0], networkUnits: 0 },
    await clientTransitDays(ws, locationIds),
    settings.transitDays,
  );
  const skuIndex = new Map(start.skus.ids.map((id, k) => [id, k]));
  const cost = await readCosts(ws, skuIndex);
  const receipts = await readPlannedReceipts(ws, start, skuIndex, fromDay);
  const recordedRevenue = await readRecordedRevenue(ws, fromDay, toDay);
  return {
    start,
    days,
    actual,
    out,
    selling,
    closed,
    cost,
    salePrice,
    styleDiscount,
    receipts,
    transit,
    historyCached: cached,
    recordedRevenue,
  };
}

/**
 * The period's days as the history cache keeps them: one flat record of typed arrays (`actual.…`, `out.…`,
 * `transit.…` and the rest), read from the daily levels only when no run with the same data read them before.
 */
async function periodHistory(
  ws: Workspace,
  start: EngineState,
  fromDay: number,
  toDay: number,
): Promise<{ value: TypedRecord; cached: boolean }> {
  const days = toDay - fromDay + 1;
  const first = fromDay - HISTORY_REACH_DAYS;
  const range = {
    days: days + 2 * HISTORY_REACH_DAYS,
    firstDay: first,
    periodFrom: HISTORY_REACH_DAYS,
    periodTo: HISTORY_REACH_DAYS + days,
  };
  const layout = demandLayout(start);
  const { ids: locationIds, fulfilledFrom } = start.locations;
  const key = historyKey([range, locationIds, [...fulfilledFrom], start.skus.ids, layout, await dataFingerprint(ws)]);
  return cachedHistory(ws, key, async () => {
    const history = await dailyLevels(ws, locationIds, start.skus.ids, first, toDay + 1 + HISTORY_REACH_DAYS, {
      fulfilledFrom,
    });
    const p = sharedCopy(periodDays(history, range, layout));
    const styleDiscount = await readStyleDiscounts(ws, start.skus.style, start.styles.ids.length, fromDay, toDay + 1);
    return {
      styleDiscount,
      ...Object.fromEntries(Object.entries(p.actual).map(([k, v]) => [`actual.${k}`, v])),
      ...Object.fromEntries(Object.entries(p.out).map(([k, v]) => [`out.${k}`, v])),
      selling: p.selling,
      closed: p.closed,
      salePrice: p.salePrice,
      'transit.days': p.transit.days,
      'transit.units': p.transit.units,
      'transit.network': Int32Array.of(p.transit.network, 0),
    } as TypedRecord;
  });
}

/** The cached record of periodHistory back in the input's shape; `levels` is the transit the stock levels measured. */
function historyParts(h: TypedRecord) {
  const part = <T>(prefix: string) =>
    Object.fromEntries(
      Object.entries(h)
        .filter(([k]) => k.startsWith(prefix))
        .map(([k, v]) => [k.slice(prefix.length), v]),
    ) as T;
  const { selling, closed, salePrice, styleDiscount } = h as unknown as Pick<
    BacktestInput,
    'selling' | 'closed' | 'salePrice' | 'styleDiscount'
  >;
  return {
    actual: part<BacktestInput['actual']>('actual.'),
    out: part<BacktestInput['out']>('out.'),
    selling,
    closed,
    salePrice,
    styleDiscount,
    levels: part<{ days: Int32Array; units: Float64Array; network: Int32Array }>('transit.'),
  };
}

/** Each SKU's unit cost: the mean of the cost prices its sales lines and purchase order lines record (0: none). */
async function readCosts(ws: Workspace, skuIndex: Map<string, number>): Promise<Float64Array> {
  const cost = new Float64Array(skuIndex.size);
  for (const r of await ws.rows<{ skuId: string; cost: number }>(`
    SELECT skuId, avg(c::${EXACT})::DOUBLE AS cost FROM (
      SELECT l.skuId, l.costPrice AS c FROM sales__salesLines AS l WHERE l.costPrice > 0
      UNION ALL SELECT skuId, unitCostLocalCurrency FROM purchase_orders__purchaseOrderLines
        WHERE unitCostLocalCurrency > 0)
    GROUP BY 1`)) {
    const k = skuIndex.get(r.skuId);
    if (k !== undefined) cost[k] = Number(r.cost);
  }
  return cost;
}

/**
 * Every purchase order line as a receipt the replay plans for, on days counted from `fromDay`; an order with no
 * location goes to the first warehouse.
 */
async function readPlannedReceipts(
  ws: Workspace,
  start: EngineState,
  skuIndex: Map<string, number>,
  fromDay: number,
): Promise<PlannedReceipt[]> {
  const { ids: locationIds, fulfilledFrom } = start.locations;
  const locIndex = new Map(locationIds.map((id, l) => [id, l]));
  const firstWarehouse = start.locations.kind.indexOf('warehouse');
  const receipts: PlannedReceipt[] = [];
  for (const r of await ws.rows<{ locationId: string | null; skuId: string; q: number; ordered: number; due: number }>(`
    SELECT p.locationId, l.skuId, l.quantity::DOUBLE AS q, (epoch_us(p.orderDate) // ${DAY_MICROS})::INTEGER AS ordered,
           (epoch_us(l.plannedReceiptDate) // ${DAY_MICROS})::INTEGER AS due
    FROM purchase_orders AS p JOIN purchase_orders__purchaseOrderLines AS l ON l._purchaseOrderId = p.purchaseOrderId
    WHERE p._deleted_at IS NULL`)) {
    const at = r.locationId === null ? firstWarehouse : (locIndex.get(r.locationId) ?? -1);
    const k = skuIndex.get(r.skuId);
    if (at < 0 || k === undefined) continue;
    // Received where the stock is: a location selling from a warehouse's holds none of its own.
    const l = fulfilledFrom[at] >= 0 ? fulfilledFrom[at] : at;
    receipts.push({
      cell: k * locationIds.length + l,
      orderDay: Number(r.ordered) - fromDay,
      dueDay: Number(r.due) - fromDay,
      quantity: Number(r.q),
      style: start.skus.style[k],
    });
  }
  return receipts;
}

/** The revenue the sales recorded on each day of the period. */
async function readRecordedRevenue(ws: Workspace, fromDay: number, toDay: number): Promise<Float64Array> {
  const recordedRevenue = new Float64Array(toDay - fromDay + 1);
  for (const r of await ws.rows<{ day: number; amount: number }>(
    `SELECT (epoch_us(s.salesDateTime) // ${DAY_MICROS})::INTEGER AS day,
            sum(l.salesAmountInclVat::${EXACT})::DOUBLE AS amount
     FROM sales AS s JOIN sales__salesLines AS l ON l._salesId = s.salesId
     WHERE s._deleted_at IS NULL AND s.salesDateTime >= $1 AND s.salesDateTime < $2 GROUP BY 1`,
    [timestampValue(fromDay * DAY_MICROS), timestampValue((toDay + 1) * DAY_MICROS)],
  ))
    recordedRevenue[Number(r.day) - fromDay] = Number(r.amount);
  return recordedRevenue;
}
