/**
 * What a live run derives from the days before its own, kept between runs in one process: the year of sales by
 * location×SKU (its first weeks and the days since by day, the rest as sums), the stock events of the demand window,
 * the styles' discounts by day and each cell's latest positive stock level. A run then reads from the workspace only
 * the days since the last one (what was posted since), instead of joining every sales line of the year again; a
 * fresh process pays the whole once.
 *
 * What is kept holds the days before a boundary (the last run's day). It stands while nothing dated before the
 * boundary changed (the sales, stock levels and stock mutations dated before it: their counts and newest writes
 * and deletions; no sales line moved between sales), the state's locations, SKUs, styles, window and fulfilment
 * are the same, and the run is on the same day or a later one, within the window and four weeks of the run that
 * derived them whole; else the run derives everything again. The state it gives is the one a fresh read gives, to
 * the bit (`test/live-days.test.ts`).
 */
import { DAY_MICROS } from '../model/datetime.js';
import {
  EXACT,
  LEVEL_EVENT,
  levelFolder,
  lookBackOf,
  newEvents,
  readEvents,
  SALES_TABLES,
  salesJoin,
  type DailyLevels,
  type QueryEvents,
  type SalesTables,
} from '../store/daily-levels.js';
import { timestampValue } from '../store/values.js';
import { Workspace } from '../store/workspace.js';
import { readStyleDiscounts } from './style-discounts.js';

/** Days of sales the year of sales sums (the state's prices, location kinds and what each location carried). */
export const HISTORY_DAYS = 365;
/**
 * How many days on from the run that derived them whole the kept days stand: the year's first days are kept day by
 * day for as long, the rest of it as sums (cheap to derive, and none of it leaves the year meanwhile).
 */
const KEPT_DAYS = 28;

/** The last year of sales per location×SKU (numbered by `writeCellIndex`; k = −1: SKUs the state does not hold). */
export interface YearOfSales {
  l: Int32Array;
  k: Int32Array;
  lines: Float64Array;
  online: Float64Array;
  /** Sums over lines that sold units; NaN where none did. */
  revenue: Float64Array;
  units: Float64Array;
  list: Float64Array;
  /** The last day anything sold. */
  last: Float64Array;
}

/**
 * The same per day, or (day −1) summed over days that all stay in the year while the kept days stand: amounts as
 * whole ten-thousandths (the exact sums the database takes), so that any of them add up to the year's sums to the
 * bit.
 */
interface SalesDays {
  l: Int32Array;
  k: Int32Array;
  day: Int32Array;
  lines: Int32Array;
  online: Int32Array;
  /** Over the lines that sold units: NaN where none did. */
  revenue: Float64Array;
  units: Float64Array;
  list: Float64Array;
  last: Float64Array;
}

/**
 * The year of sales as of `asOfDay`, read whole (location×SKU numbered by the session's `writeCellIndex`): it tells
 * location kinds, prices and what each location carried.
 */
export async function readYearOfSales(ws: Workspace, L: number, K: number, asOfDay: number): Promise<YearOfSales> {
  const historyFrom = asOfDay - HISTORY_DAYS;
  return new YearSums().of([await readSalesDays(ws, historyFrom, asOfDay, historyFrom)], L, K, historyFrom);
}

/** The cells with stock at a level in the year up to `asOfDay`'s start (numbered as the session's cell index). */
export async function stockedInYear(ws: Workspace, L: number, asOfDay: number): Promise<Int32Array> {
  return (await readLastPositive(ws, L, asOfDay - HISTORY_DAYS, asOfDay)).cell;
}

/** What identifies the cells the kept days are numbered by. */
export interface DaysLayout {
  locationIds: readonly string[];
  skuIds: readonly string[];
  skuStyle: Int32Array;
  styles: number;
  windowDays: number;
}

interface Kept {
  layout: DaysLayout;
  fulfilledFrom: Int32Array;
  /** The first day not kept (the last run's day); everything kept is dated before it. */
  boundary: number;
  /** The day of the run that derived them whole. */
  built: number;
  /** Of the data dated before the boundary, when it was kept. */
  fingerprint: string;
  /** The stock events of the window ending at the boundary, as a fresh gathering of it has them. */
  events: QueryEvents;
  /** The year's days before the boundary, from the year of the run that derived them whole on. */
  sales: SalesDays[];
  /** Days [boundary − windowDays, boundary) × styles. */
  discounts: Float64Array;
  /** Per cell, the latest moment before the boundary it held stock at a level (NaN: never). */
  lastPositive: Float64Array;
}

/** What a run reads of its window's days. */
export interface WindowDays {
  window: DailyLevels;
  /** Days [asOfDay − windowDays, asOfDay) × styles. */
  discounts: Float64Array;
  /** Cells with stock at a level in the year up to the day's start. */
  stocked: Int32Array;
}

/** A run under way: what stands of the kept days, and what it read so far. */
interface Run {
  kept?: Kept;
  layout: DaysLayout;
  asOfDay: number;
  /** Until when its days are read (µs): the day's start, or now. */
  untilMicros: number;
  built: number;
  sales: SalesDays[];
}

export class LiveDays {
  /** Whether the last run stood on the days kept before it (it read only the days since them). */
  reused = false;
  private kept?: Kept;
  private run?: Run;
  private sums?: YearSums;

  /**
   * A run's first read, as of `asOfDay` (its days read until `untilMicros`: the day's start, or now): its year of
   * sales, by location×SKU as the session's `writeCellIndex` of the layout numbers them. What was kept is checked
   * against the workspace here.
   */
  async yearOfSales(ws: Workspace, layout: DaysLayout, asOfDay: number, untilMicros: number): Promise<YearOfSales> {
    const kept = await this.standing(ws, layout, asOfDay);
    this.reused = kept !== undefined;
    const historyFrom = asOfDay - HISTORY_DAYS;
    // The new days' sales, copied once for the run's three reads of them (each a join of every line else).
    if (kept) await copyNewSales(ws, kept.boundary, untilMicros);
    // Derived whole, the year's first days come day by day and the rest as sums; since the boundary, day by day.
    const fresh = kept
      ? await readSalesDays(ws, kept.boundary, asOfDay, asOfDay, NEW_SALES)
      : await readSalesDays(ws, historyFrom, asOfDay, historyFrom + KEPT_DAYS);
    // (A run on the kept day itself reads no new day: nothing is added to what a day of runs keeps.)
    const sales = fresh.l.length ? [...(kept?.sales ?? []), fresh] : (kept?.sales ?? []);
    const built = kept?.built ?? asOfDay;
    this.run = { kept, layout, asOfDay, untilMicros, built, sales };
    return (this.sums ??= new YearSums()).of(sales, layout.locationIds.length, layout.skuIds.length, historyFrom);
  }

  /**
   * The run's second read: its window's days, given where each location's stock is held. Keeps the run's days for
   * the next run.
   */
  async windowDays(ws: Workspace, fulfilledFrom: Int32Array): Promise<WindowDays> {
    const run = this.run;
    if (!run) throw new Error('a live run reads its window after its year of sales');
    this.run = undefined;
    const { kept, layout, asOfDay, untilMicros } = run;
    const L = layout.locationIds.length;
    const S = layout.styles;
    const W = layout.windowDays;
    const windowFrom = asOfDay - W;
    const historyFrom = asOfDay - HISTORY_DAYS;
    const from = kept?.boundary ?? -Infinity;
    // The events of the kept window stand where stock is held as it was.
    const keptEvents = kept && sameArray(kept.fulfilledFrom, fulfilledFrom) ? kept.events : undefined;
    // The new days' sales where days are kept (copyNewSales); else all of them.
    const newSales = kept ? NEW_SALES : SALES_TABLES;
    const freshEvents = await readEvents(
      ws,
      layout.locationIds,
      keptEvents
        ? { fromMicros: from * DAY_MICROS, untilMicros, lookBackMicros: from * DAY_MICROS }
        : { fromMicros: windowFrom * DAY_MICROS, untilMicros, lookBackMicros: lookBackOf(windowFrom) },
      fulfilledFrom,
      keptEvents ? newSales : SALES_TABLES,
    );
    const events = keptEvents ? windowEvents(keptEvents, freshEvents, windowFrom) : freshEvents;
    const window = foldEvents(events, windowFrom);
    const discountsFrom = Math.max(from, windowFrom);
    const discounts = new Float64Array(W * S).fill(Number.NaN);
    if (kept) discounts.set(kept.discounts.subarray((windowFrom - (from - W)) * S), 0);
    discounts.set(
      await readStyleDiscounts(ws, layout.skuStyle, S, discountsFrom, asOfDay, newSales),
      (discountsFrom - windowFrom) * S,
    );
    const historyStart = historyFrom * DAY_MICROS;
    const lastPositive = kept
      ? Float64Array.from(kept.lastPositive)
      : new Float64Array(L * layout.skuIds.length).fill(Number.NaN);
    const stocked: number[] = [];
    for (let c = 0; c < lastPositive.length; c++) if (lastPositive[c] >= historyStart) stocked.push(c);
    const positive = await readLastPositive(ws, L, Math.max(from, historyFrom), asOfDay);
    for (let i = 0; i < positive.cell.length; i++) {
      const c = positive.cell[i];
      if (!(lastPositive[c] >= historyStart)) stocked.push(c);
      // What the next run keeps is dated before its boundary, this run's day (a count at its midnight is not).
      if (!Number.isNaN(positive.t[i])) lastPositive[c] = positive.t[i];
    }
    this.kept = {
      layout,
      fulfilledFrom: Int32Array.from(fulfilledFrom),
      boundary: asOfDay,
      built: run.built,
      fingerprint: await fingerprintBefore(ws, asOfDay),
      events: before(events, asOfDay * DAY_MICROS),
      sales: run.sales,
      discounts,
      lastPositive,
    };
    if (kept) await dropNewSales(ws);
    return { window, discounts, stocked: Int32Array.from(stocked) };
  }

  /** What was kept, where it still stands for a run on `asOfDay` (dropped either way: a run keeps its own). */
  private async standing(ws: Workspace, layout: DaysLayout, asOfDay: number): Promise<Kept | undefined> {
    const kept = this.kept;
    this.kept = undefined;
    if (!kept || asOfDay < kept.boundary || asOfDay - kept.boundary >= layout.windowDays) return undefined;
    if (asOfDay - kept.built > KEPT_DAYS) return undefined;
    if (!sameLayout(kept.layout, layout)) return undefined;
    if ((await fingerprintBefore(ws, kept.boundary)) !== kept.fingerprint) return undefined;
    return kept;
  }
}

function sameArray(a: ArrayLike<unknown>, b: ArrayLike<unknown>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameLayout(a: DaysLayout, b: DaysLayout): boolean {
  return (
    a.windowDays === b.windowDays &&
    a.styles === b.styles &&
    sameArray(a.locationIds, b.locationIds) &&
    sameArray(a.skuIds, b.skuIds) &&
    sameArray(a.skuStyle, b.skuStyle)
  );
}

/**
 * The sales, stock levels and stock mutations dated before `day`, and the sales lines moved between sales: what
 * any write to them changes (a count, the newest write or deletion).
 */
async function fingerprintBefore(ws: Workspace, day: number): Promise<string> {
  const before = timestampValue(day * DAY_MICROS);
  const stamps = (table: string, at: string) =>
    `(SELECT concat_ws('|', count(*), count(_deleted_at), max(_updated_at), max(_deleted_at)) FROM ${table}
      WHERE ${at} < $1)`;
  const [row] = await ws.rows<{ v: string }>(
    `SELECT concat_ws(';', ${stamps('sales', 'salesDateTime')}, ${stamps('stock', 'stockDateTime')},
       ${stamps('stock_mutations', 'mutationDateTime')}, (SELECT count(*) FROM record_moves)) AS v`,
    [before],
  );
  return row.v;
}

/** The session's copy of the sales dated from the boundary on, and of their lines (copyNewSales). */
const NEW_SALES: SalesTables = { sales: 'live_new_sales', lines: 'live_new_lines' };

/** Copies the sales dated [boundary, until) and their lines: the rows every read of the new days reads. */
async function copyNewSales(ws: Workspace, boundary: number, untilMicros: number): Promise<void> {
  await ws.run(
    `CREATE OR REPLACE TEMP TABLE ${NEW_SALES.sales} AS
     SELECT * FROM sales WHERE salesDateTime >= $1 AND salesDateTime < $2`,
    [timestampValue(boundary * DAY_MICROS), timestampValue(Math.max(untilMicros, boundary * DAY_MICROS))],
  );
  await ws.run(
    `CREATE OR REPLACE TEMP TABLE ${NEW_SALES.lines} AS
     SELECT * FROM sales__salesLines WHERE _salesId IN (SELECT salesId FROM ${NEW_SALES.sales})`,
  );
}

async function dropNewSales(ws: Workspace): Promise<void> {
  await ws.run(`DROP TABLE IF EXISTS ${NEW_SALES.sales}`);
  await ws.run(`DROP TABLE IF EXISTS ${NEW_SALES.lines}`);
}

/** The days of the window from `windowFrom` on, folded from its events a chunk at a time (as they are gathered). */
function foldEvents(e: QueryEvents, windowFrom: number): DailyLevels {
  const fold = levelFolder(windowFrom);
  for (let from = 0; from < e.cell.length; from += FOLD_CHUNK) {
    const to = Math.min(e.cell.length, from + FOLD_CHUNK);
    fold.push(
      {
        cell: e.cell.subarray(from, to),
        t: e.t.subarray(from, to),
        kind: e.kind.subarray(from, to),
        v: e.v.subarray(from, to),
        revenue: e.revenue.subarray(from, to),
      },
      to - from,
    );
  }
  return fold.finish();
}

/** Events folded at a time: the fold's own arrays stay this small. */
const FOLD_CHUNK = 8192;

/** The events before moment `until` (the events themselves where all are). */
function before(e: QueryEvents, until: number): QueryEvents {
  const keep = new Uint8Array(e.cell.length);
  let n = 0;
  for (let i = 0; i < keep.length; i++) n += keep[i] = e.t[i] < until ? 1 : 0;
  return n === keep.length ? e : merged(e, keep, n, newEvents(0));
}

/** The events `keep` marks (`n` of them), each cell's followed by its `fresh` ones, in cell order. */
function merged(e: QueryEvents, keep: Uint8Array, n: number, fresh: QueryEvents): QueryEvents {
  const out = newEvents(n + fresh.cell.length);
  const { cell, t, kind, v, revenue } = out;
  let at = 0;
  let j = 0;
  const F = fresh.cell.length;
  for (let i = 0; i <= keep.length; i++) {
    // Before a kept event of a later cell, and at the end, the fresh events of the cells before it.
    const next = i < keep.length ? e.cell[i] : Infinity;
    while (j < F && fresh.cell[j] < next) {
      cell[at] = fresh.cell[j];
      t[at] = fresh.t[j];
      kind[at] = fresh.kind[j];
      v[at] = fresh.v[j];
      revenue[at++] = fresh.revenue[j++];
    }
    if (i === keep.length) break;
    // A cell's fresh events come after its kept ones (all later): they go once the cell's kept ones are out.
    if (keep[i]) {
      cell[at] = next;
      t[at] = e.t[i];
      kind[at] = e.kind[i];
      v[at] = e.v[i];
      revenue[at++] = e.revenue[i];
    }
  }
  return out;
}

/**
 * The events a fresh gathering of the window from `windowFrom` on has, from those of an earlier window (a fresh
 * gathering's, up to its boundary) and the new ones since (from the boundary on: every one of them). A cell's events
 * before the window are its latest level since the look-back and what moved the stock after it: the earlier
 * gathering holds that level (its own latest before its window, or a level of its window) and every move since.
 */
function windowEvents(kept: QueryEvents, fresh: QueryEvents, windowFrom: number): QueryEvents {
  const from = windowFrom * DAY_MICROS;
  const lookBack = lookBackOf(windowFrom);
  const keep = new Uint8Array(kept.cell.length);
  for (let i = 0; i < kept.cell.length;) {
    const cell = kept.cell[i];
    let end = i;
    while (end < kept.cell.length && kept.cell[end] === cell) end++;
    // The cell's level to start from: its latest before the window, if since the look-back.
    let base = -1;
    for (let x = i; x < end && kept.t[x] < from; x++)
      if (kept.kind[x] === LEVEL_EVENT && kept.t[x] >= lookBack) base = x;
    const movesFrom = base >= 0 ? kept.t[base] : lookBack;
    for (let x = i; x < end; x++)
      keep[x] = (kept.kind[x] === LEVEL_EVENT ? x === base || kept.t[x] >= from : kept.t[x] >= movesFrom) ? 1 : 0;
    i = end;
  }
  let n = 0;
  for (let i = 0; i < keep.length; i++) n += keep[i];
  return merged(kept, keep, n, fresh);
}

function noSalesDays(): SalesDays {
  const f = () => new Float64Array(0);
  const i = () => new Int32Array(0);
  return { l: i(), k: i(), day: i(), lines: i(), online: i(), revenue: f(), units: f(), list: f(), last: f() };
}

/** Sales of days [fromDay, toDay) by location×SKU: by day before `byDayUntil`, summed (day −1) from it on. */
function readSalesDays(
  ws: Workspace,
  fromDay: number,
  toDay: number,
  byDayUntil: number,
  tables: SalesTables = SALES_TABLES,
): Promise<SalesDays> {
  if (toDay <= fromDay) return Promise.resolve(noSalesDays());
  const { int32, float64 } = Workspace;
  const day = `(epoch_us(s.salesDateTime) // ${DAY_MICROS})`;
  return ws.typedColumns<SalesDays>(
    `
    SELECT el.l, coalesce(es.k, -1) AS k, (CASE WHEN s.salesDateTime < $3 THEN ${day} ELSE -1 END)::INTEGER AS day,
           count(*)::INTEGER AS lines, (count(*) FILTER (WHERE l.online))::INTEGER AS online,
           ((sum(l.salesAmountInclVat::${EXACT}) FILTER (WHERE l.quantitySold > 0)) * 10000)::DOUBLE AS revenue,
           ((sum(l.quantitySold::${EXACT}) FILTER (WHERE l.quantitySold > 0)) * 10000)::DOUBLE AS units,
           max(l.originalSalesAmountInclVat / nullif(l.quantitySold, 0))::DOUBLE AS list,
           (max(${day}) FILTER (WHERE l.quantitySold > 0))::DOUBLE AS last
    FROM ${salesJoin(tables)}
    JOIN level_locations AS el ON el.locationId = s.locationId LEFT JOIN level_skus AS es ON es.skuId = l.skuId
    WHERE s._deleted_at IS NULL AND s.salesDateTime >= $1 AND s.salesDateTime < $2
    GROUP BY 1, 2, 3`,
    [
      timestampValue(fromDay * DAY_MICROS),
      timestampValue(toDay * DAY_MICROS),
      timestampValue(Math.min(byDayUntil, toDay) * DAY_MICROS),
    ],
    {
      l: int32,
      k: int32,
      day: int32,
      lines: int32,
      online: int32,
      revenue: float64,
      units: float64,
      list: float64,
      last: float64,
    },
  );
}

/** What YearSums adds up per location×SKU, side by side: one cache line a day's row. */
const LINES = 0;
const ONLINE = 1;
const REVENUE = 2;
const UNITS = 3;
const LIST = 4;
const LAST = 5;
const SUMS = 6;

/**
 * The year's sums per location×SKU from its days: what one query over the year gives, to the bit. Per location and
 * SKU (SKUs the state does not hold as one more, −1), added up in an array used again by every run.
 */
class YearSums {
  private seen = new Uint8Array(0);
  private sums = new Float64Array(0);

  /** Over the days from `fromDay` on, and the sums (day −1). */
  of(chunks: SalesDays[], L: number, K: number, fromDay: number): YearOfSales {
    const n = (K + 1) * L;
    if (this.seen.length !== n) {
      this.seen = new Uint8Array(n);
      this.sums = new Float64Array(n * SUMS);
    }
    const { seen, sums } = this;
    seen.fill(0);
    // Amounts, the price and the day stay NaN where no line sold units.
    for (let x = 0; x < sums.length; x += SUMS) {
      sums[x + LINES] = 0;
      sums[x + ONLINE] = 0;
      sums[x + REVENUE] = Number.NaN;
      sums[x + UNITS] = Number.NaN;
      sums[x + LIST] = Number.NaN;
      sums[x + LAST] = Number.NaN;
    }
    let groups = 0;
    for (const d of chunks) {
      for (let i = 0; i < d.l.length; i++) {
        if (d.day[i] >= 0 && d.day[i] < fromDay) continue;
        const g = (d.k[i] + 1) * L + d.l[i];
        const x = g * SUMS;
        if (!seen[g]) {
          seen[g] = 1;
          groups++;
        }
        sums[x + LINES] += d.lines[i];
        sums[x + ONLINE] += d.online[i];
        const r = d.revenue[i];
        if (r === r) sums[x + REVENUE] = sums[x + REVENUE] === sums[x + REVENUE] ? sums[x + REVENUE] + r : r;
        const u = d.units[i];
        if (u === u) sums[x + UNITS] = sums[x + UNITS] === sums[x + UNITS] ? sums[x + UNITS] + u : u;
        const p = d.list[i];
        if (p === p && !(p <= sums[x + LIST])) sums[x + LIST] = p;
        const last = d.last[i];
        if (last === last && !(last <= sums[x + LAST])) sums[x + LAST] = last;
      }
    }
    const y: YearOfSales = {
      l: new Int32Array(groups),
      k: new Int32Array(groups),
      lines: new Float64Array(groups),
      online: new Float64Array(groups),
      revenue: new Float64Array(groups),
      units: new Float64Array(groups),
      list: new Float64Array(groups),
      last: new Float64Array(groups),
    };
    // In location, then SKU order, as the query over the year orders them.
    let at = 0;
    for (let l = 0; l < L; l++)
      for (let k = -1, g = l; k < K; k++, g += L) {
        if (!seen[g]) continue;
        const x = g * SUMS;
        y.l[at] = l;
        y.k[at] = k;
        y.lines[at] = sums[x + LINES];
        y.online[at] = sums[x + ONLINE];
        y.revenue[at] = sums[x + REVENUE] / 10000;
        y.units[at] = sums[x + UNITS] / 10000;
        y.list[at] = sums[x + LIST];
        y.last[at] = sums[x + LAST];
        at++;
      }
    return y;
  }
}

/**
 * The cells with stock at a level in days [fromDay, toDay] (its end's midnight included), each with the latest such
 * moment before `toDay` (NaN: only at its midnight).
 */
function readLastPositive(ws: Workspace, L: number, fromDay: number, toDay: number) {
  return ws.typedColumns<{ cell: Int32Array; t: Float64Array }>(
    `
    SELECT (es.k * ${L} + el.l)::INTEGER AS cell,
           (max(epoch_us(s.stockDateTime)) FILTER (WHERE s.stockDateTime < $2))::DOUBLE AS t
    FROM stock AS s JOIN level_locations AS el ON el.locationId = s.locationId
    JOIN level_skus AS es ON es.skuId = s.skuId
    WHERE s.quantity > 0 AND s.stockDateTime >= $1 AND s.stockDateTime <= $2 GROUP BY 1`,
    [timestampValue(fromDay * DAY_MICROS), timestampValue(toDay * DAY_MICROS)],
    { cell: Workspace.int32, t: Workspace.float64 },
  );
}
