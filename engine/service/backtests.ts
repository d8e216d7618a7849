/** Backtest runs kept in the workspace: each with its settings and results, to list, reopen, compare and export. */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { blobValue, DuckDBTypeId, type DuckDBBlobValue, type DuckDBResultReader } from '@duckdb/node-api';
import { DateDay, Float64, Table, tableToIPC, Utf8, vectorFromArray, type Vector } from 'apache-arrow';
import type { Settings } from '../recommend/settings.js';
import { routeDigest } from '../model/transfer-reference.js';
import { KEPT_TRANSFER_TABLES, ROUTE_ID_KIND, TRANSFER_LINE_COLUMNS } from '../store/kept-transfers.js';
import { TRANSFER_TYPES } from '../model/settings.js';
import type { SimulationResult, DailyRow, DailySide, ReviewRecord } from '../simulate/simulate.js';
import {
  DAILY_COLUMNS,
  KPI_COLUMNS,
  kpiColumns,
  kpisFromColumns,
  type KpiColumn,
  type SideKpis,
} from '../simulate/kpis.js';
import { appendRows } from '../store/append.js';
import { decodeReviews, encodeReviews } from './review-records.js';
import type { ReviewSums } from '../recommend/review.js';
import { timestampValue, toDuck } from '../store/values.js';
import type { Workspace } from '../store/workspace.js';
import { RequestRejected } from '../model/problems.js';
import { isRate, KPIS } from '../../common/kpis.js';
import { DAY_MICROS, dayOf, dayText, formatIsoMicros } from '../model/datetime.js';
import { storeStyleDays } from './backtest-style-days.js';
import { STYLE_DAY_FIELDS } from '../simulate/style-days.js';
import type { ExportFormat, ExportPart } from './export-kinds.js';

/**
 * A backtest needs stock known on its first day and sales inside its period: the actual side of days without
 * data would read as a perfect run (nothing sold, nothing lost). Refuses any other period, naming the data's range.
 */
export async function checkCoverage(ws: Workspace, fromDay: number, toDay: number): Promise<void> {
  const [r] = await ws.rows<{
    firstSale: bigint | null;
    lastSale: bigint | null;
    firstStock: bigint | null;
    inPeriod: number;
  }>(
    `SELECT
      (SELECT epoch_us(min(salesDateTime)) FROM sales WHERE _deleted_at IS NULL) AS firstSale,
      (SELECT epoch_us(max(salesDateTime)) FROM sales WHERE _deleted_at IS NULL) AS lastSale,
      (SELECT epoch_us(min(t)) FROM (SELECT min(stockDateTime) AS t FROM stock
         UNION ALL SELECT min(mutationDateTime) FROM stock_mutations WHERE _deleted_at IS NULL)) AS firstStock,
      (SELECT count(*) FROM sales
         WHERE _deleted_at IS NULL AND salesDateTime >= $1 AND salesDateTime < $2)::INTEGER AS inPeriod`,
    [timestampValue(fromDay * DAY_MICROS), timestampValue((toDay + 1) * DAY_MICROS)],
  );
  const when = (v: bigint | null) => (v === null ? undefined : dayOf(Number(v)));
  const [firstSale, lastSale, firstStock] = [when(r.firstSale), when(r.lastSale), when(r.firstStock)];
  const period = `${dayText(fromDay)} … ${dayText(toDay)}`;
  if (firstSale === undefined && firstStock === undefined) {
    throw new RequestRejected(
      `no backtest of ${period}: the workspace holds no sales and no stock. ` +
        `Load items, locations, stock and sales first: ` +
        `a backtest needs stock known on its first day and sales inside its period`,
      422,
    );
  }
  if (firstSale === undefined || lastSale === undefined)
    throw new RequestRejected(
      `no backtest of ${period}: the workspace holds no sales, so nothing tells what customers wanted. ` +
        `Load sales first`,
      422,
    );
  if (firstStock === undefined)
    throw new RequestRejected(
      `no backtest of ${period}: the workspace holds no stock levels or stock mutations, ` +
        `so nothing tells what was on the shelves. Load stock first`,
      422,
    );
  const data =
    `the workspace's sales run from ${dayText(firstSale)} to ${dayText(lastSale)} ` +
    `and its stock is known from ${dayText(firstStock)}`;
  const inside = `pick a period within ${dayText(Math.max(firstSale, firstStock))} … ${dayText(lastSale)}`;
  if (fromDay < firstStock)
    throw new RequestRejected(`no backtest of ${period}: no stock is known on its first day (${data}); ${inside}`, 422);
  if (toDay > lastSale)
    throw new RequestRejected(`no backtest of ${period}: it runs past the last sale (${data}); ${inside}`, 422);
  if (Number(r.inPeriod) === 0)
    throw new RequestRejected(
      `no backtest of ${period}: no sales inside it (${data}); ${inside}, with sales in it`,
      422,
    );
}

export interface BacktestRun {
  runId: string;
  createdAt: string;
  from: string;
  to: string;
  status: 'completed' | 'cancelled';
  scenario?: string;
  durationMs: number;
  /** What its user calls it ("spring, service level 97%"), shown instead of its id where one is set. */
  label?: string;
  /** What its user wrote down about it. */
  note?: string;
  /** A sweep's run: the sweep, its point, and the settings the point set on top of the scenario. */
  sweep?: { sweepId: string; point: number; vary: Record<string, number> };
}

/** The longest label and note a run keeps. */
export const RUN_LABEL_MAX = 200;
export const RUN_NOTE_MAX = 4000;

export interface BacktestReport {
  run: BacktestRun;
  settings: Settings;
  summary: SimulationResult['summary'];
  daily: DailyRow[];
}

/**
Keeps a finished (or cancelled) run: its row, then its days, groups, transfers, reviews and style days, each in
 * a table of its own.
 */
export async function storeBacktest(
  ws: Workspace,
  runId: string,
  createdAt: number,
  result: SimulationResult,
  settings: Settings,
  scenarioName: string | undefined,
  durationMs: number,
  reviewEveryDays?: number,
  sweepId?: string,
): Promise<BacktestRun> {
  const run: BacktestRun = {
    runId,
    createdAt: formatIsoMicros(createdAt),
    from: dayText(result.fromDay),
    to: dayText(result.fromDay + result.days - 1),
    status: result.cancelled ? 'cancelled' : 'completed',
    durationMs: Math.round(durationMs),
    ...(scenarioName ? { scenario: scenarioName } : {}),
  };
  await ws.run(
    `INSERT INTO backtest_runs
      (runId, createdAt, fromDate, toDate, status, scenario, settings, summary, durationMs, reviewEveryDays, sweepId)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      runId,
      timestampValue(createdAt),
      toDuck('DATE', run.from),
      toDuck('DATE', run.to),
      run.status,
      scenarioName ?? null,
      JSON.stringify(settings),
      JSON.stringify(result.summary),
      durationMs,
      reviewEveryDays ?? null,
      sweepId ?? null,
    ],
  );
  await storeDaily(ws, runId, result.daily);
  await storeGroups(ws, runId, result);
  await storeTransfers(ws, runId, result.transfers);
  await ws.run('INSERT INTO backtest_reviews VALUES ($1, $2)', [runId, blobValue(encodeReviews(result.reviews))]);
  await storeStyleDays(
    ws,
    runId,
    result.fromDay,
    result.daysDone,
    result.byStyle.map((g) => g.id),
    result.styleDays,
  );
  return run;
}

/** The network's days: a row per day for each side, simulated then actual. */
async function storeDaily(ws: Workspace, runId: string, daily: DailyRow[]): Promise<void> {
  await appendRows(
    ws,
    'backtest_daily',
    ['VARCHAR', 'DATE', 'VARCHAR', ...DAILY_COLUMNS.map(() => 'DOUBLE' as const)],
    daily.flatMap((d) => {
      const date = toDuck('DATE', d.date);
      const side = (name: string, v: DailySide & { transferUnits?: number }) => [
        runId,
        date,
        name,
        d.demand,
        d.estimatedDemand,
        v.carriedDays,
        v.stockOutDays,
        v.sales,
        v.lostSales,
        v.inventoryUnits,
        v.warehouseUnits,
        v.transferUnits ?? null,
      ];
      return [side('simulated', d.simulated), side('actual', d.actual)];
    }),
  );
}

/** The KPIs per location, then per style: a row per group for each side, simulated then actual. */
async function storeGroups(ws: Workspace, runId: string, result: SimulationResult): Promise<void> {
  const groupRow = (level: string, id: string, side: string, k: SideKpis) => {
    const flat = kpiColumns(k);
    return [runId, level, id, side, ...KPI_COLUMNS.map((c) => flat[c])];
  };
  await appendRows(
    ws,
    'backtest_groups',
    ['VARCHAR', 'VARCHAR', 'VARCHAR', 'VARCHAR', ...KPI_COLUMNS.map(() => 'DOUBLE' as const)],
    [
      ...result.byLocation.flatMap((g) => [
        groupRow('location', g.id, 'simulated', g.simulated),
        groupRow('location', g.id, 'actual', g.actual),
      ]),
      ...result.byStyle.flatMap((g) => [
        groupRow('style', g.id, 'simulated', g.simulated),
        groupRow('style', g.id, 'actual', g.actual),
      ]),
    ],
  );
}

/** Lines moved into the run's table by one statement: the big set's sweep of 4 runs peaked 0.2 GB lower than all. */
export const KEEP_LINES_AT_ONCE = 500_000;

/**
 * The engine's transfers of a run, millions of them on a large retailer: appended as numbers (day, type, route,
 * quantity, and the route's digest and count its reference is made of) beside the run's ids, once each
 * (store/kept-transfers.ts), the run's id added by DuckDB (a run's id is longer than text a chunk holds inline, and
 * handed over a row at a time it took a fifth of the time). Appended as text one value at a time, with each day
 * written out and read back, a run of 3.5 M transfers took 21 s to keep; turned into text by DuckDB as they were
 * kept, 6–7 s; as numbers, 2.4 s on the big set.
 */
async function storeTransfers(ws: Workspace, runId: string, t: SimulationResult['transfers']): Promise<void> {
  await appendRows(
    ws,
    'backtest_route_ids',
    ['VARCHAR', 'INTEGER', 'INTEGER', 'VARCHAR'],
    [
      ...t.locationIds.map((id, i) => [runId, ROUTE_ID_KIND.location, i, id]),
      ...t.skuIds.map((id, i) => [runId, ROUTE_ID_KIND.sku, i, id]),
    ],
  );
  // In place of the run's id, each line's place in the run: what the lines are moved by, a slice at a time.
  const columns = [['seq', 'INTEGER'], ...TRANSFER_LINE_COLUMNS.slice(1)] as const;
  await ws.run(
    `CREATE OR REPLACE TEMP TABLE kept_lines (${columns.map(([name, type]) => `${name} ${type}`).join(', ')})`,
  );
  try {
    // Per type, how often the day so far met each digest (keyed as a 32-bit integer, which a Map hashes fastest).
    const met = TRANSFER_TYPES.map(() => new Map<number, number>());
    const row: number[] = new Array(columns.length);
    await appendRows(
      ws,
      'kept_lines',
      columns.map(([, type]) => type),
      map(t.day.keys(), (i) => {
        if (i > 0 && t.day[i] !== t.day[i - 1]) for (const m of met) m.clear();
        const digest = routeDigest(t.locationIds[t.from[i]], t.locationIds[t.to[i]], t.skuIds[t.sku[i]]);
        const times = met[t.type[i]];
        const n = (times.get(digest | 0) ?? 0) + 1;
        times.set(digest | 0, n);
        row[0] = i;
        row[1] = t.day[i];
        row[2] = t.type[i];
        row[3] = t.from[i];
        row[4] = t.to[i];
        row[5] = t.sku[i];
        row[6] = t.quantity[i];
        row[7] = digest;
        row[8] = n;
        return row;
      }),
      'temp',
    );
    for (let from = 0; from < t.day.length; from += KEEP_LINES_AT_ONCE)
      await ws.run(
        `INSERT INTO backtest_transfer_lines SELECT $1, * EXCLUDE (seq) FROM kept_lines WHERE seq >= $2 AND seq < $3`,
        [runId, from, from + KEEP_LINES_AT_ONCE],
      );
  } finally {
    await ws.run('DROP TABLE IF EXISTS temp.kept_lines');
  }
}

function runOf(r: RunRow): BacktestRun {
  return {
    runId: r.runId,
    createdAt: formatIsoMicros(Number(r.created)),
    from: r.fromText,
    to: r.toText,
    status: r.status,
    durationMs: Number(r.durationMs),
    ...(r.scenario ? { scenario: r.scenario } : {}),
    ...(r.label ? { label: r.label } : {}),
    ...(r.note ? { note: r.note } : {}),
  };
}

const RUN_COLUMNS = `runId, epoch_us(createdAt) AS created, strftime(fromDate, '%Y-%m-%d') AS fromText,
  strftime(toDate, '%Y-%m-%d') AS toText, status, scenario, durationMs, label, note`;

/** A row of RUN_COLUMNS (status holds what storeBacktest wrote: a BacktestRun's). */
interface RunRow {
  runId: string;
  created: bigint;
  fromText: string;
  toText: string;
  status: BacktestRun['status'];
  scenario: string | null;
  durationMs: number;
  label: string | null;
  note: string | null;
}

/** A day's row of backtest_daily, its columns nullable (the actual side has no transfers). */
type DailyDbRow = { d: string; side: string } & Record<(typeof DAILY_COLUMNS)[number], number | null>;

/** A kept run as the run list shows it: its record and its summary. */
export type KeptRun = BacktestRun & { summary: SimulationResult['summary'] };

export async function listBacktests(ws: Workspace): Promise<KeptRun[]> {
  const rows = await ws.rows<RunRow & { summary: string }>(
    // A sweep's runs are listed with their sweep, not here.
    `SELECT ${RUN_COLUMNS}, summary FROM backtest_runs WHERE sweepId IS NULL ORDER BY createdAt DESC`,
  );
  return rows.map((r) => ({ ...runOf(r), summary: JSON.parse(r.summary) }));
}

/**
 * The run's review records, shaped as `empty` gives a state's sums; undefined for a run kept before runs kept them,
 * or when the workspace's shape changed since.
 */
export async function keptReviews(
  ws: Workspace,
  runId: string,
  empty: () => ReviewSums,
): Promise<ReviewRecord[] | undefined> {
  const [r] = await ws.rows<{ reviews: DuckDBBlobValue }>('SELECT reviews FROM backtest_reviews WHERE runId = $1', [
    runId,
  ]);
  return r ? decodeReviews(r.reviews.bytes, empty) : undefined;
}

/** Each value of an iterable, mapped, one at a time. */
function* map<T, U>(values: Iterable<T>, f: (value: T) => U): Generator<U> {
  for (const v of values) yield f(v);
}

/**
 * Gives a kept run a label and a note (an empty one clears it; one left out stays as it is); the run as it is now,
 * or undefined when there is no such run.
 */
export async function labelBacktest(
  ws: Workspace,
  runId: string,
  change: { label?: string; note?: string },
): Promise<BacktestRun | undefined> {
  const set = (['label', 'note'] as const).filter((k) => change[k] !== undefined);
  if (set.length)
    await ws.run(`UPDATE backtest_runs SET ${set.map((k, i) => `${k} = $${i + 2}`).join(', ')} WHERE runId = $1`, [
      runId,
      ...set.map((k) => change[k]!.trim() || null),
    ]);
  const [r] = await ws.rows<RunRow>(`SELECT ${RUN_COLUMNS} FROM backtest_runs WHERE runId = $1`, [runId]);
  return r ? runOf(r) : undefined;
}

/** Deletes a kept run and everything kept with it; false when there is no such run. */
export async function deleteBacktest(ws: Workspace, runId: string): Promise<boolean> {
  const [found] = await ws.rows<{ n: bigint }>('SELECT count(*) AS n FROM backtest_runs WHERE runId = $1', [runId]);
  if (found.n === 0n) return false;
  for (const table of [
    'backtest_daily',
    'backtest_groups',
    'backtest_style_days',
    ...KEPT_TRANSFER_TABLES,
    'backtest_reviews',
  ])
    await ws.run(`DELETE FROM ${table} WHERE runId = $1`, [runId]);
  await ws.run('DELETE FROM backtest_runs WHERE runId = $1', [runId]);
  return true;
}

export async function getBacktest(ws: Workspace, runId: string): Promise<BacktestReport | undefined> {
  const [r] = await ws.rows<RunRow & { settings: string; summary: string }>(
    `SELECT ${RUN_COLUMNS}, settings, summary FROM backtest_runs WHERE runId = $1`,
    [runId],
  );
  if (!r) return undefined;
  const rows = await ws.rows<DailyDbRow>(
    `SELECT strftime(date, '%Y-%m-%d') AS d, side, ${DAILY_COLUMNS.join(', ')}
    FROM backtest_daily WHERE runId = $1 ORDER BY date, side DESC`,
    [runId],
  );
  const daily: DailyRow[] = [];
  const side = (x: DailyDbRow): DailySide => ({
    carriedDays: Number(x.carriedDays),
    stockOutDays: Number(x.stockOutDays),
    sales: Number(x.sales),
    lostSales: Number(x.lostSales),
    inventoryUnits: Number(x.inventoryUnits),
    warehouseUnits: Number(x.warehouseUnits),
  });
  for (let i = 0; i < rows.length; i += 2) {
    const s = rows[i];
    const a = rows[i + 1];
    daily.push({
      date: s.d,
      demand: Number(s.demand),
      estimatedDemand: Number(s.estimatedDemand),
      simulated: { ...side(s), transferUnits: Number(s.transferUnits) },
      actual: side(a),
    });
  }
  // A sweep's point says what it changed; its scenario's name alone would hide it.
  const [point] = await ws.rows<{ sweepId: string; point: number; vary: string }>(
    'SELECT sweepId, point, vary FROM sweep_points WHERE runId = $1',
    [runId],
  );
  const run = runOf(r);
  if (point) run.sweep = { sweepId: point.sweepId, point: Number(point.point), vary: JSON.parse(point.vary) };
  return { run, settings: JSON.parse(r.settings), summary: JSON.parse(r.summary), daily };
}

/** A row of backtest_groups: its KPIs are nullable (a rate of nothing is none). */
type GroupDbRow = { runId: string; level: string; id: string; side: string } & Record<KpiColumn, number | null>;

export async function backtestGroups(
  ws: Workspace,
  runId: string,
  level: 'location' | 'style',
): Promise<{ id: string; simulated: SideKpis; actual: SideKpis }[]> {
  if (level !== 'location' && level !== 'style')
    throw new RequestRejected(`a breakdown is by "location" or "style", got "${String(level).slice(0, 40)}"`);
  const rows = await ws.rows<GroupDbRow>(
    `SELECT * FROM backtest_groups WHERE runId = $1 AND level = $2 ORDER BY id, side DESC`,
    [runId, level],
  );
  if (rows.length === 0 && (await ws.rows('SELECT 1 FROM backtest_runs WHERE runId = $1', [runId])).length === 0)
    throw new RequestRejected(`no backtest run "${runId.slice(0, 80)}"`, 404);
  const out: { id: string; simulated: SideKpis; actual: SideKpis }[] = [];
  for (let i = 0; i < rows.length; i += 2)
    out.push({ id: rows[i].id, simulated: kpisFromColumns(rows[i]), actual: kpisFromColumns(rows[i + 1]) });
  return out;
}

/** KPIs that are rates: two runs' rates differ in percentage points. */
export const RATE_COLUMNS: readonly KpiColumn[] = KPIS.filter(isRate).map((k) => k.key);

/**
 * Two runs side by side: each one's simulated KPIs, and b − a for every number (rates in percentage points). The
 * actual side depends on the period only, so a's is b's too when they cover the same days.
 */
/** A setting's value by its dotted path, for every leaf of a settings object (an array is one leaf). */
function leaves(value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k, out);
  } else out.set(path, value);
  return out;
}

/** The settings two runs used that differ, by dotted path (absent on one side: null), in path order. */
export function settingsDifference(a: Settings, b: Settings): { path: string; a: unknown; b: unknown }[] {
  const [la, lb] = [leaves(a), leaves(b)];
  return [...new Set([...la.keys(), ...lb.keys()])]
    .filter((p) => JSON.stringify(la.get(p)) !== JSON.stringify(lb.get(p)))
    .sort()
    .map((path) => ({ path, a: la.get(path) ?? null, b: lb.get(path) ?? null }));
}

/** A difference between two runs' figures, to four places: what a comparison shows of it. */
const roundDifference = (x: number) => Math.round(x * 10_000) / 10_000;

/** A style's KPIs in a run, as backtestGroups gives them. */
type StyleKpis = { id: string; simulated: SideKpis };

/** How many of the styles that moved most a comparison names. */
export const COMPARED_STYLES = 10;

/**
 * The styles behind two runs' difference: per style, b − a of its simulated lost sales, sales and stock at the
 * stores and at the warehouses, the COMPARED_STYLES whose lost sales moved most first; with the difference over
 * every style and over those named. Two runs a point of fill apart often differ by a handful of styles (a style the
 * engine took off sale by mistake in one of them showed this way), and those are where to look. A style in one run
 * only counts as none in the other.
 */
export function styleDifference(a: readonly StyleKpis[], b: readonly StyleKpis[], top = COMPARED_STYLES) {
  const inA = new Map(a.map((g) => [g.id, g.simulated]));
  const inB = new Map(b.map((g) => [g.id, g.simulated]));
  const of = (k: SideKpis | undefined) => ({
    lostSales: k?.lostSales ?? 0,
    sales: k?.sales ?? 0,
    inventoryUnits: k?.inventoryUnits ?? 0,
    warehouseUnits: k?.warehouse.inventoryUnits ?? 0,
  });
  const styles = [...new Set([...inA.keys(), ...inB.keys()])].map((id) => {
    const [x, y] = [of(inA.get(id)), of(inB.get(id))];
    return {
      id,
      lostSales: roundDifference(y.lostSales - x.lostSales),
      sales: roundDifference(y.sales - x.sales),
      inventoryUnits: roundDifference(y.inventoryUnits - x.inventoryUnits),
      warehouseUnits: roundDifference(y.warehouseUnits - x.warehouseUnits),
    };
  });
  const total = roundDifference(styles.reduce((t, s) => t + s.lostSales, 0));
  const named = styles
    .filter((s) => s.lostSales !== 0)
    .sort((p, q) => Math.abs(q.lostSales) - Math.abs(p.lostSales) || (p.id < q.id ? -1 : 1))
    .slice(0, top);
  return {
    lostSales: total,
    namedLostSales: roundDifference(named.reduce((t, s) => t + s.lostSales, 0)),
    styles: named,
  };
}

export type StyleDifference = ReturnType<typeof styleDifference>;

export function compareReports(a: BacktestReport, b: BacktestReport, styles: StyleDifference) {
  const difference: Record<string, number | null> = {};
  const [ka, kb] = [kpiColumns(a.summary.simulated), kpiColumns(b.summary.simulated)];
  for (const k of KPI_COLUMNS) {
    const x = ka[k];
    const y = kb[k];
    const points = RATE_COLUMNS.includes(k);
    difference[k] =
      typeof x === 'number' && typeof y === 'number' ? roundDifference((y - x) * (points ? 100 : 1)) : null;
  }
  return {
    a: { run: a.run, simulated: a.summary.simulated, daily: a.daily },
    b: { run: b.run, simulated: b.summary.simulated, daily: b.daily },
    actual: a.summary.actual,
    difference,
    /** The columns of `difference` given in percentage points. */
    percentagePoints: [...RATE_COLUMNS],
    /** What the two runs were told differently: the settings behind the difference. */
    settings: settingsDifference(a.settings, b.settings),
    /** The styles behind the difference (styleDifference). */
    styles,
  };
}

export type BacktestComparison = ReturnType<typeof compareReports>;

const EXPORT_SQL: Record<ExportPart, string> = {
  daily: `SELECT date, side, ${DAILY_COLUMNS.join(', ')} FROM backtest_daily
          WHERE runId = '{run}' ORDER BY date, side DESC`,
  locations: `SELECT id AS locationId, side, ${KPI_COLUMNS.join(', ')} FROM backtest_groups
              WHERE runId = '{run}' AND level = 'location' ORDER BY id, side DESC`,
  styles: `SELECT id AS styleId, side, ${KPI_COLUMNS.join(', ')} FROM backtest_groups
           WHERE runId = '{run}' AND level = 'style' ORDER BY id, side DESC`,
  // Style-days with nothing in them are not kept: a style's missing days are zeros.
  'style-days': `SELECT styleId, date, ${STYLE_DAY_FIELDS.join(', ')} FROM backtest_style_days
                 WHERE runId = '{run}' ORDER BY styleId, date`,
  transfers: `SELECT date, transferType, fromLocationId, toLocationId, skuId, quantity, referenceId
              FROM backtest_transfers WHERE runId = '{run}' ORDER BY date, transferType, referenceId`,
};

/** Writes one part of a run to a CSV or Parquet file with DuckDB's own writers, or an Arrow IPC (Feather v2) file. */
export async function exportBacktest(
  ws: Workspace,
  runId: string,
  part: ExportPart,
  file: string,
  format: ExportFormat,
): Promise<string> {
  if (!/^[\w-]+$/.test(runId)) throw new RequestRejected(`no backtest run "${runId.slice(0, 80)}"`, 404);
  const [exists] = await ws.rows('SELECT 1 FROM backtest_runs WHERE runId = $1', [runId]);
  if (!exists) throw new RequestRejected(`no backtest run "${runId}"`, 404);
  if (!EXPORT_SQL[part]) throw new RequestRejected(`export one of ${Object.keys(EXPORT_SQL).join(', ')}`);
  const target = resolve(file);
  const sql = EXPORT_SQL[part].replace('{run}', runId);
  if (format === 'arrow') {
    writeFileSync(target, arrowFileOf(await ws.result(sql)));
    return target;
  }
  const options = format === 'csv' ? 'FORMAT csv, HEADER' : 'FORMAT parquet';
  await ws.run(`COPY (${sql}) TO '${target.replace(/'/g, "''")}' (${options})`);
  return target;
}

/** A result's columns as an Arrow IPC file: text, dates, numbers as doubles (the parts hold no other types). */
function arrowFileOf(result: DuckDBResultReader): Uint8Array {
  const names = result.columnNames();
  const types = result.columnTypes();
  const columns = result.getColumnsJS();
  const vectors: Record<string, Vector> = {};
  names.forEach((name, i) => {
    const id = types[i].typeId;
    const values = columns[i];
    if (id === DuckDBTypeId.VARCHAR) vectors[name] = vectorFromArray(values as (string | null)[], new Utf8());
    else if (id === DuckDBTypeId.DATE)
      // DuckDB's JS value of a date is a Date at its midnight UTC.
      vectors[name] = vectorFromArray(values as (Date | null)[], new DateDay());
    else
      vectors[name] = vectorFromArray(
        values.map((v) => (v === null ? null : Number(v))),
        new Float64(),
      );
  });
  return tableToIPC(new Table(vectors), 'file');
}
