/**
 * Actual stock per location×SKU and day, reconstructed from the dated stock levels and the stock mutations
 * and net sales between them: a level resets the running stock, every mutation and sale after it moves it.
 * The engine reads its demand window from it; the backtest reads the actual side of the comparison.
 */
import { DAY_MICROS } from '../model/datetime.js';
import { listValue } from '@duckdb/node-api';
import { timestampValue } from './values.js';
import { LevelFold, type DailyLevels, type LevelEvents } from './level-fold.js';
import { Workspace } from './workspace.js';

export type { DailyLevels } from './level-fold.js';

const { int32, float64 } = Workspace;

/** How far before the first day a stock level is looked for; older levels count as unknown (0). */
export const STOCK_LOOK_BACK_DAYS = 400;
/**
 * Sums are taken in this exact type: floating-point sums depend on the order of their terms, which parallel
 * aggregation does not fix, and a backtest of the same data must give the same days (a ten-thousandth is finer
 * than any quantity or amount the feed sends).
 */
export const EXACT = 'DECIMAL(18, 4)';
/** Mutation types that record a transfer: the simulation makes its own transfers, so it does not replay these. */
export const TRANSFER_MUTATION = /transfer/i;

/**
 * Numbers the state's locations and SKUs in the session's `level_locations (locationId, l)` and `level_skus (skuId,
 * k)`, so a query can hand back a location×SKU as the integer `l × skuCount + k` instead of two strings.
 */
export async function writeCellIndex(ws: Workspace, locationIds: readonly string[], skuIds: readonly string[]) {
  await ws.run('CREATE OR REPLACE TEMP TABLE level_locations (locationId VARCHAR, l INTEGER)');
  await ws.run('CREATE OR REPLACE TEMP TABLE level_skus (skuId VARCHAR, k INTEGER)');
  // (An empty list has no type to bind with: an empty table needs no insert.)
  if (locationIds.length)
    await ws.run('INSERT INTO level_locations SELECT unnest($1::VARCHAR[]), unnest(range(0, $2))', [
      listValue([...locationIds]),
      locationIds.length,
    ]);
  if (skuIds.length)
    await ws.run('INSERT INTO level_skus SELECT unnest($1::VARCHAR[]), unnest(range(0, $2))', [
      listValue([...skuIds]),
      skuIds.length,
    ]);
}

/** What an event is, as the query hands it over. The fold tells a level from a move; the rest follows from `v`. */
const LEVEL = 0;
const MUTATION = 1;
const TRANSFER = 2;
const SALE = 3;

/** The events as the query hands them over: five columns where the fold reads eight. */
export interface QueryEvents {
  cell: Int32Array;
  t: Float64Array;
  /** LEVEL, MUTATION (other than a transfer), TRANSFER (a mutation naming one) or SALE (a sales line). */
  kind: Int32Array;
  /** The level; the units a mutation moves; minus the net units a sales line sold. */
  v: Float64Array;
  /** Sales value incl. VAT of a line that sold units, else 0. */
  revenue: Float64Array;
}

/** Each column of QueryEvents, as the arrays it is read into are made. */
const EVENT_COLUMNS = { cell: int32, t: float64, kind: int32, v: float64, revenue: float64 };

/** Empty columns for `n` events. */
export function newEvents(n: number): QueryEvents {
  const { cell, t, kind, v, revenue } = EVENT_COLUMNS;
  return { cell: cell(n), t: t(n), kind: kind(n), v: v(n), revenue: revenue(n) };
}

/**
 * A column array used again for every chunk, grown to the largest: the fold keeps nothing of a chunk it has folded,
 * and fresh arrays for a million events would be garbage for the collector to chase.
 */
function reused<A extends Int32Array | Float64Array>(make: (n: number) => A): (n: number) => A {
  let array = make(0);
  return (n) => {
    if (array.length < n) array = make(n);
    return array.subarray(0, n) as A;
  };
}

/** The fold's events from the query's: a sales line's units sold and a mutation's units follow from `v`. */
function levelEvents() {
  const kinds = reused(int32);
  const solds = reused(float64);
  const nets = reused(float64);
  const muts = reused(float64);
  return (e: QueryEvents, rows: number): LevelEvents => {
    const kind = kinds(rows);
    const sold = solds(rows);
    const net = nets(rows);
    const mut = muts(rows);
    for (let i = 0; i < rows; i++) {
      const k = e.kind[i];
      const v = e.v[i];
      const units = k === SALE ? 0 - v : 0;
      kind[i] = k === LEVEL ? 0 : 1;
      net[i] = units;
      sold[i] = units > 0 ? units : 0;
      mut[i] = k === MUTATION ? v : 0;
    }
    return { cell: e.cell, t: e.t, kind, v: e.v, sold, net, mut, revenue: e.revenue };
  };
}

/** What else a read of the daily levels may be told. */
export interface LevelOptions {
  /** Read up to this moment (exclusive) instead of `toDay`'s midnight: the last day is then a part of one. */
  untilMicros?: number;
  /**
   * Per location (as `locationIds`): the warehouse whose stock it sells from, or −1 (see EngineState.locations).
   * Such a location's own stock records are not read; its sales move the warehouse's level; and its days are the
   * warehouse's level, its own sales its sales: it is in stock when the warehouse is.
   */
  fulfilledFrom?: Int32Array;
}

/**
 * Rows only for days with an event; a day without one keeps the level it started with. What is stamped at a
 * level's own instant comes after it, whether the level is the one the period starts from or one within it.
 */
export async function dailyLevels(
  ws: Workspace,
  locationIds: readonly string[],
  skuIds: readonly string[],
  fromDay: number,
  toDay: number,
  { untilMicros = toDay * DAY_MICROS, fulfilledFrom }: LevelOptions = {},
): Promise<DailyLevels> {
  await writeCellIndex(ws, locationIds, skuIds);
  const fold = levelFolder(fromDay);
  // The database gathers and orders each cell's events; the running level is one pass over them (level-fold.ts),
  // far cheaper than the window functions that would number, sum and regroup them in SQL.
  await gatherEvents(
    ws,
    locationIds,
    { fromMicros: fromDay * DAY_MICROS, untilMicros, lookBackMicros: lookBackOf(fromDay) },
    fulfilledFrom,
    fold.push,
  );
  return fold.finish();
}

/**
 * The tables sales lines are read from: the workspace's own, or a copy of the few a live run reads (live-days.ts),
 * with the same columns.
 */
export interface SalesTables {
  sales: string;
  lines: string;
}
export const SALES_TABLES: SalesTables = { sales: 'sales', lines: 'sales__salesLines' };
/** Sales (`s`) joined with their lines (`l`). */
export const salesJoin = (t: SalesTables): string => `${t.sales} AS s JOIN ${t.lines} AS l ON l._salesId = s.salesId`;

/** Where a read of days from `fromDay` on looks for the level it starts from. */
export const lookBackOf = (fromDay: number): number => (fromDay - STOCK_LOOK_BACK_DAYS) * DAY_MICROS;

/** The moments a gathering of events covers (µs): see gatherEvents. */
export interface EventSpan {
  fromMicros: number;
  untilMicros: number;
  lookBackMicros: number;
}

/**
 * Every event the days from `fromMicros` to `untilMicros` are folded from, ordered by cell, moment and kind, handed
 * over chunk by chunk (the arrays are used again for the next chunk: copy what you keep). Before `fromMicros`, only
 * each cell's latest level since `lookBackMicros` and what moved the stock after it (all that moved it since
 * `lookBackMicros` where there is none). An event crosses over as five numbers rather than the fold's eight:
 * handing rows from the database to JavaScript is paid per value. Cells as numbered by `writeCellIndex`.
 */
export async function gatherEvents(
  ws: Workspace,
  locationIds: readonly string[],
  span: EventSpan,
  fulfilledFrom: Int32Array | undefined,
  visit: (events: QueryEvents, rows: number) => void,
  tables: SalesTables = SALES_TABLES,
): Promise<void> {
  const { sql, params } = await eventsRead(ws, locationIds, span, fulfilledFrom, tables);
  const { cell, t, kind, v, revenue } = EVENT_COLUMNS;
  await ws.eachChunk<QueryEvents>(
    sql,
    params,
    { cell: reused(cell), t: reused(t), kind: reused(kind), v: reused(v), revenue: reused(revenue) },
    visit,
  );
}

/** The same events, all at once: for a caller that keeps them. */
export async function readEvents(
  ws: Workspace,
  locationIds: readonly string[],
  span: EventSpan,
  fulfilledFrom: Int32Array | undefined,
  tables: SalesTables = SALES_TABLES,
): Promise<QueryEvents> {
  const { sql, params } = await eventsRead(ws, locationIds, span, fulfilledFrom, tables);
  return ws.typedColumns<QueryEvents>(sql, params, EVENT_COLUMNS);
}

/** The query that gathers the events, and its parameters. */
async function eventsRead(
  ws: Workspace,
  locationIds: readonly string[],
  span: EventSpan,
  fulfilledFrom: Int32Array | undefined,
  tables: SalesTables,
) {
  const fulfilled = await writeFulfilment(ws, locationIds, fulfilledFrom);
  const L = locationIds.length;
  return {
    sql: fulfilled ? fulfilledEventsQuery(L, tables) : eventsQuery(L, tables),
    params: [timestampValue(span.fromMicros), timestampValue(span.untilMicros), timestampValue(span.lookBackMicros)],
  };
}

/** A fold of gathered events into days from `fromDay` on (day −1: all before it). */
export function levelFolder(fromDay: number) {
  const fold = new LevelFold(fromDay);
  const toFold = levelEvents();
  return {
    push: (events: QueryEvents, rows: number) => fold.push(toFold(events, rows), rows),
    finish: () => fold.finish(),
  };
}

/** Events of the query's kind LEVEL: a stock level (the others move the stock). */
export const LEVEL_EVENT = LEVEL;

/** A mutation's kind: a transfer (the simulation makes its own) or another move (replayed). */
const MUTATION_KIND = `CASE WHEN regexp_matches(coalesce(m.type, ''), '${TRANSFER_MUTATION.source}', 'i')
                    THEN ${TRANSFER} ELSE ${MUTATION} END`;
/** The events as the fold reads them, numbered by cell, in its order. */
const numbered = (L: number) => `
    SELECT (es.k * ${L} + el.l)::INTEGER AS cell, epoch_us(ev.t)::DOUBLE AS t, ev.kind::INTEGER AS kind,
           ev.v::DOUBLE AS v, ev.revenue::DOUBLE AS revenue
    FROM ev JOIN level_locations AS el ON el.locationId = ev.locationId JOIN level_skus AS es ON es.skuId = ev.skuId
    ORDER BY 1, 2, 3`;

/** Every location sells from its own stock: its levels, its mutations and its sales. */
function eventsQuery(L: number, tables: SalesTables): string {
  return `
    WITH base AS (
      SELECT locationId, skuId, arg_max(quantity, stockDateTime) AS quantity, max(stockDateTime) AS t
      FROM stock WHERE stockDateTime >= $3 AND stockDateTime < $1 GROUP BY 1, 2),
    ev AS (
      SELECT locationId, skuId, t, ${LEVEL} AS kind, quantity AS v, 0 AS revenue FROM base
      UNION ALL SELECT locationId, skuId, stockDateTime, ${LEVEL}, quantity, 0
        FROM stock WHERE stockDateTime >= $1 AND stockDateTime < $2
      UNION ALL SELECT m.locationId, m.skuId, m.mutationDateTime, ${MUTATION_KIND}, m.quantity, 0
        FROM stock_mutations AS m
        LEFT JOIN base AS b ON b.locationId = m.locationId AND b.skuId = m.skuId
        WHERE m._deleted_at IS NULL AND m.mutationDateTime >= $3 AND m.mutationDateTime < $2
          AND (b.t IS NULL OR m.mutationDateTime >= b.t)
      UNION ALL SELECT s.locationId, l.skuId, s.salesDateTime, ${SALE}, -l.quantitySold,
               CASE WHEN l.quantitySold > 0 THEN l.salesAmountInclVat ELSE 0 END
        FROM ${salesJoin(tables)}
        LEFT JOIN base AS b ON b.locationId = s.locationId AND b.skuId = l.skuId
        WHERE s._deleted_at IS NULL AND s.salesDateTime >= $3 AND s.salesDateTime < $2
          AND (b.t IS NULL OR s.salesDateTime >= b.t))
    ${numbered(L)}`;
}

/**
 * Some online locations sell from a warehouse's stock (`level_fulfilment`). Each event is first put where the stock
 * it moves is: an online location's sale at its warehouse, keeping who sold (`seller`); its own stock records are
 * not read. At the warehouse, another location's sale moves the level as a transfer does (not a sale of its own,
 * and not replayed as a mutation: the simulation serves that demand from the warehouse's stock itself). Each online
 * location then sees every event of its warehouse: the levels as levels, its own sales as sales, everything else
 * as a transfer, so its days are the warehouse's level and its own sales.
 */
function fulfilledEventsQuery(L: number, tables: SalesTables): string {
  return `
    WITH f AS (SELECT online, warehouse FROM level_fulfilment),
    counts AS (SELECT * FROM stock WHERE locationId NOT IN (SELECT online FROM f)),
    base AS (
      SELECT locationId, skuId, arg_max(quantity, stockDateTime) AS quantity, max(stockDateTime) AS t
      FROM counts WHERE stockDateTime >= $3 AND stockDateTime < $1 GROUP BY 1, 2),
    held AS (
      SELECT locationId, skuId, t, ${LEVEL} AS kind, quantity AS v, 0 AS revenue, NULL AS seller FROM base
      UNION ALL SELECT locationId, skuId, stockDateTime, ${LEVEL}, quantity, 0, NULL
        FROM counts WHERE stockDateTime >= $1 AND stockDateTime < $2
      UNION ALL SELECT m.locationId, m.skuId, m.mutationDateTime, ${MUTATION_KIND}, m.quantity, 0, NULL
        FROM stock_mutations AS m
        LEFT JOIN base AS b ON b.locationId = m.locationId AND b.skuId = m.skuId
        WHERE m._deleted_at IS NULL AND m.mutationDateTime >= $3 AND m.mutationDateTime < $2
          AND (b.t IS NULL OR m.mutationDateTime >= b.t)
          AND m.locationId NOT IN (SELECT online FROM f)
      UNION ALL SELECT coalesce(f.warehouse, s.locationId), l.skuId, s.salesDateTime, ${SALE}, -l.quantitySold,
               CASE WHEN l.quantitySold > 0 THEN l.salesAmountInclVat ELSE 0 END, s.locationId
        FROM ${salesJoin(tables)}
        LEFT JOIN f ON f.online = s.locationId
        LEFT JOIN base AS b ON b.locationId = coalesce(f.warehouse, s.locationId) AND b.skuId = l.skuId
        WHERE s._deleted_at IS NULL AND s.salesDateTime >= $3 AND s.salesDateTime < $2
          AND (b.t IS NULL OR s.salesDateTime >= b.t)),
    ev AS (
      SELECT locationId, skuId, t, CASE WHEN seller <> locationId THEN ${TRANSFER} ELSE kind END AS kind, v,
             CASE WHEN seller <> locationId THEN 0 ELSE revenue END AS revenue
        FROM held
      UNION ALL SELECT f.online, h.skuId, h.t,
               CASE WHEN h.kind = ${LEVEL} OR h.seller = f.online THEN h.kind ELSE ${TRANSFER} END, h.v,
               CASE WHEN h.seller = f.online THEN h.revenue ELSE 0 END
        FROM held AS h JOIN f ON f.warehouse = h.locationId)
    ${numbered(L)}`;
}

/** The session's `level_fulfilment (online, warehouse)` of the locations read; whether there is any. */
async function writeFulfilment(
  ws: Workspace,
  locationIds: readonly string[],
  fulfilledFrom: Int32Array | undefined,
): Promise<boolean> {
  const pairs = fulfilledFrom ? [...fulfilledFrom].flatMap((w, l) => (w >= 0 ? [[l, w]] : [])) : [];
  if (pairs.length === 0) return false;
  await ws.run('CREATE OR REPLACE TEMP TABLE level_fulfilment (online VARCHAR, warehouse VARCHAR)');
  await ws.run('INSERT INTO level_fulfilment SELECT unnest($1::VARCHAR[]), unnest($2::VARCHAR[])', [
    listValue(pairs.map(([l]) => locationIds[l])),
    listValue(pairs.map(([, w]) => locationIds[w])),
  ]);
  return true;
}
