/**
 * A style's location×SKU cells, day by day, for a kept run: the run is replayed with the same settings, review
 * interval and days, tracing that style's cells (simulate/trace.ts). Before it is shown, the trace is checked
 * against the figures the run kept for the style on every day; a workspace whose data changed since the run no
 * longer reproduces it, and is told so rather than shown another run's days.
 */
import { OUTCOMES, type Outcome } from '../recommend/outcome.js';
import { availableParallelism } from 'node:os';
import type { DuckDBDateValue } from '@duckdb/node-api';
import { RequestRejected } from '../model/problems.js';
import { dayText } from '../model/datetime.js';
import type { Settings } from '../recommend/settings.js';
import { simulateInWorker } from '../simulate/in-worker.js';
import { SMALL_REPLAY_CELL_DAYS } from '../simulate/partitioned.js';
import { replayStyle, simulate } from '../simulate/simulate.js';
import { emptyReviewSums } from '../recommend/review.js';
import { keptReviews } from './backtests.js';
import type { StyleDayField } from '../simulate/style-days.js';
import {
  CELL_DAY_FIELDS,
  CELL_FIELDS,
  CF,
  type CellDayField,
  type StyleTrace,
  type TracedTransfer,
} from '../simulate/trace.js';
import { loadBacktestInput } from '../inputs/backtest-input.js';
import type { Workspace } from '../store/workspace.js';
import { replayedDays, styleDaySeries, type StyleDaySeries } from './backtest-style-days.js';

/** A cell's period in a few numbers, to rank a style's cells by. */
export interface CellTotals {
  locationId: string;
  locationKind: string;
  skuId: string;
  sizeId: string;
  simulated: { sales: number; lostSales: number; stockOutDays: number };
  actual: { sales: number; lostSales: number; stockOutDays: number };
  /** Days the location carried the SKU (held it, or was out of a SKU it carries). */
  carriedDays: number;
  /** Demand over those days, and the part of it estimated (days without stock, beyond the sales of sold-out days). */
  demand: number;
  estimatedDemand: number;
  receipts: number;
  transfersIn: number;
  transfersOut: number;
}

export interface StyleCells {
  runId: string;
  styleId: string;
  /** The style's cells with anything in the period, most simulated lost sales first. */
  cells: CellTotals[];
  /** How long the replay that traced them took. */
  replayMs: number;
}

export interface CellTransfer extends Omit<TracedTransfer, 'day' | 'arrivalDay'> {
  date: string;
  arrives: string;
  /** Seen from the cell: units leaving it or coming in. */
  direction: 'in' | 'out';
}

export interface CellDays {
  runId: string;
  styleId: string;
  locationId: string;
  locationKind: string;
  skuId: string;
  sizeId: string;
  dates: string[];
  series: Record<CellDayField, number[]>;
  transfers: CellTransfer[];
  /** Each review day: the engine's estimate and target for the cell, what it sent, or why it sent nothing. */
  reviews: CellReview[];
}

export interface CellReview {
  date: string;
  /** Units a day. */
  estimate: number;
  target: number;
  /** Units the review decided to send to the cell (any kind of transfer). */
  sent: number;
  outcome: Outcome;
}

/** Where the trace of a style stands: being read from the workspace, replayed (days done of days), or ready. */
export interface TraceProgress {
  status: 'none' | 'reading' | 'replaying' | 'ready';
  daysDone: number;
  days: number;
}

interface Traced {
  runId: string;
  styleId: string;
  fromDay: number;
  locations: { ids: string[]; kinds: string[] };
  skus: { ids: string[]; sizes: string[] };
  trace: StyleTrace;
  replayMs: number;
}

/** Traces kept for the next click (a big style's trace is tens of MB). */
const KEPT = 3;

/** Where the traced figures must meet the run's own, with the words for a mismatch. */
const CHECKS: [CellDayField, StyleDayField[], string][] = [
  ['simSales', ['simSales'], 'simulated sales'],
  ['simLostSales', ['simLostSales'], 'simulated lost sales'],
  ['simStock', ['simInventoryUnits', 'simWarehouseUnits'], 'simulated stock'],
  ['actStock', ['actInventoryUnits', 'actWarehouseUnits'], 'actual stock'],
  ['actSales', ['actSales'], 'actual sales'],
  ['demand', ['demand'], 'demand'],
  ['transfersOut', ['simTransfersOut'], 'units sent by the engine'],
];

export class StyleTraces {
  private readonly kept = new Map<string, Promise<Traced>>();
  private readonly states = new Map<string, TraceProgress>();
  /** The replay not yet settled: one at a time, the style asked for last (a replay can take as long as the run). */
  private running?: string;

  constructor(private readonly partitions = availableParallelism()) {}

  async cells(ws: Workspace, runId: string, styleId: string): Promise<StyleCells> {
    const t = await this.traced(ws, runId, styleId);
    const cells: CellTotals[] = [];
    for (let l = 0; l < t.locations.ids.length; l++) {
      for (let k = 0; k < t.skus.ids.length; k++) {
        const c = cellTotals(t, l, k);
        if (c) cells.push(c);
      }
    }
    cells.sort(
      (a, b) =>
        b.simulated.lostSales - a.simulated.lostSales ||
        b.actual.lostSales - a.actual.lostSales ||
        b.simulated.stockOutDays - a.simulated.stockOutDays ||
        a.locationId.localeCompare(b.locationId) ||
        a.skuId.localeCompare(b.skuId),
    );
    return { runId, styleId, cells, replayMs: Math.round(t.replayMs) };
  }

  async cell(ws: Workspace, runId: string, styleId: string, locationId: string, skuId: string): Promise<CellDays> {
    const t = await this.traced(ws, runId, styleId);
    const l = t.locations.ids.indexOf(locationId);
    const k = t.skus.ids.indexOf(skuId);
    if (l < 0) throw new RequestRejected(`no location "${locationId.slice(0, 80)}" in run "${runId}"`, 404);
    if (k < 0) throw new RequestRejected(`style "${styleId}" has no SKU "${skuId.slice(0, 80)}"`, 404);
    const { trace } = t;
    const base = (l * t.skus.ids.length + k) * trace.days;
    const series = Object.fromEntries(
      CELL_DAY_FIELDS.map((f) => [
        f,
        Array.from(
          { length: trace.daysDone },
          (_, i) => Math.round(trace.values[(base + i) * CELL_FIELDS + CF[f]] * 1e4) / 1e4,
        ),
      ]),
    ) as Record<CellDayField, number[]>;
    const transfers = trace.transfers
      .filter((x) => x.skuId === skuId && (x.fromLocationId === locationId || x.toLocationId === locationId))
      .map(({ day, arrivalDay, ...x }): CellTransfer => ({
        ...x,
        date: dayText(day),
        arrives: dayText(arrivalDay),
        direction: x.fromLocationId === locationId ? 'out' : 'in',
      }));
    const dates = Array.from({ length: trace.daysDone }, (_, i) => dayText(t.fromDay + i));
    const reviews: CellReview[] = [];
    series.outcome.forEach((code, i) => {
      if (code === 0) return;
      const sent = transfers
        .filter((x) => x.direction === 'in' && x.date === dates[i])
        .reduce((n, x) => n + x.quantity, 0);
      reviews.push({
        date: dates[i],
        estimate: series.demandEstimate[i],
        target: series.target[i],
        sent,
        outcome: OUTCOMES[code - 1],
      });
    });
    return {
      runId,
      styleId,
      locationId,
      locationKind: t.locations.kinds[l],
      skuId,
      sizeId: t.skus.sizes[k],
      dates,
      series,
      transfers,
      reviews,
    };
  }

  /** How far the trace of a style has got: a screen waiting for it polls this while it asks for the cells. */
  progress(runId: string, styleId: string): TraceProgress {
    const key = JSON.stringify([runId, styleId]);
    return { ...(this.states.get(key) ?? { status: 'none', daysDone: 0, days: 0 }) };
  }

  forget(): void {
    this.kept.clear();
    this.states.clear();
    this.running = undefined;
  }

  /** The style's trace: kept from an earlier call, or replayed now (one replay however many ask at once). */
  private async traced(ws: Workspace, runId: string, styleId: string): Promise<Traced> {
    // Checked on every call: a run removed since (a reset) is not answered from memory.
    await ws.exclusive(() => replayedDays(ws, runId));
    const key = JSON.stringify([runId, styleId]);
    let p = this.kept.get(key);
    if (p) {
      this.kept.delete(key);
    } else {
      // Another style's replay still under way was asked for before this one: it stops (asked again, it starts over).
      if (this.running !== undefined) this.forgetOne(this.running);
      // A replay forgotten meanwhile (replaced, pushed out, or the workspace reset) no longer speaks for the key,
      // and stops.
      const mine = () => this.kept.get(key) === p;
      p = replay(
        ws,
        runId,
        styleId,
        this.partitions,
        (daysDone, days) => {
          if (mine()) this.states.set(key, { status: 'replaying', daysDone, days });
        },
        () => !mine(),
      );
      this.running = key;
      this.states.set(key, { status: 'reading', daysDone: 0, days: 0 });
      const settled = () => {
        if (this.running === key && mine()) this.running = undefined;
      };
      p.then(
        (t) => {
          if (mine()) this.states.set(key, { status: 'ready', daysDone: t.trace.daysDone, days: t.trace.daysDone });
          settled();
        },
        () => {
          settled();
          if (mine()) this.forgetOne(key);
        },
      );
    }
    this.kept.set(key, p);
    for (const old of [...this.kept.keys()].slice(0, Math.max(0, this.kept.size - KEPT))) this.forgetOne(old);
    return p;
  }

  private forgetOne(key: string): void {
    this.kept.delete(key);
    this.states.delete(key);
    if (this.running === key) this.running = undefined;
  }
}

async function replay(
  ws: Workspace,
  runId: string,
  styleId: string,
  partitions: number,
  onProgress: (daysDone: number, days: number) => void,
  isCancelled: () => boolean,
): Promise<Traced> {
  const { run, stored, input, reviews } = await ws.exclusive(async () => {
    const stored = await styleDaySeries(ws, runId, styleId);
    const [r] = await ws.rows<{ settings: string; reviewEveryDays: number | null; toDate: DuckDBDateValue }>(
      'SELECT settings, reviewEveryDays, toDate FROM backtest_runs WHERE runId = $1',
      [runId],
    );
    const { fromDay, daysDone } = await replayedDays(ws, runId);
    const run = {
      settings: JSON.parse(r.settings) as Settings,
      reviewEveryDays: r.reviewEveryDays === null ? undefined : Number(r.reviewEveryDays),
      fromDay,
      daysDone,
    };
    const toDay = r.toDate.days;
    const input = await loadBacktestInput(ws, fromDay, toDay, run.settings);
    const reviews = await keptReviews(ws, runId, () => emptyReviewSums(input.start));
    return { run, stored, input, reviews };
  });
  const S0 = input.start;
  const style = S0.styles.ids.indexOf(styleId);
  if (style < 0)
    throw new RequestRejected(
      `style "${styleId.slice(0, 80)}" is no longer among the workspace's items: ` +
        `the run cannot be replayed to trace it`,
      409,
    );
  const [kFrom, kTo] = [S0.styles.styleStart[style], S0.styles.styleStart[style + 1]];
  // Read before the input's buffers move to the replay's thread.
  const locationIds = [...S0.locations.ids];
  const skus = { ids: S0.skus.ids.slice(kFrom, kTo), sizes: S0.skus.sizeId.slice(kFrom, kTo) };
  const t0 = performance.now();
  const options = {
    reviewEveryDays: run.reviewEveryDays,
    stopAfterDays: run.daysDone,
    trace: { style },
    onProgress: (done: number) => onProgress(done, run.daysDone),
    isCancelled,
  };
  onProgress(0, run.daysDone);
  // A run that kept its reviews replays the style alone; an older one, whole.
  const result = reviews
    ? await replayStyle(input, run.settings, options, reviews)
    : S0.onHand.length * run.daysDone <= SMALL_REPLAY_CELL_DAYS
      ? await simulate(input, run.settings, options)
      : await simulateInWorker(input, run.settings, options, partitions);
  if (isCancelled())
    throw new RequestRejected(
      `the trace of style "${styleId.slice(0, 80)}" stopped: another style was asked for meanwhile; ` +
        `ask again to trace it`,
      409,
    );
  const trace = result.trace!;
  if (reviews) await keptReferences(ws, runId, skus.ids, trace.transfers);
  const traced: Traced = {
    runId,
    styleId,
    fromDay: run.fromDay,
    locations: { ids: locationIds, kinds: trace.locationKinds },
    skus,
    trace,
    replayMs: performance.now() - t0,
  };
  const mismatch = firstMismatch(traced, stored);
  if (mismatch) {
    throw new RequestRejected(
      `replaying run "${runId}" no longer gives its figures for style "${styleId}": ${mismatch}. ` +
        "The workspace's data changed since the run; run the backtest again to see its SKU×locations day by day.",
      409,
    );
  }
  return traced;
}

/**
 * A style replayed alone names its transfers as the whole run did: a reference's digest can meet another style's on
 * the same day, and only the whole run knows which came first, so the run's own references are taken.
 */
async function keptReferences(ws: Workspace, runId: string, skuIds: string[], transfers: TracedTransfer[]) {
  const rows = await ws.rows<{ key: string; referenceId: string }>(
    `SELECT concat_ws('|', date, transferType, fromLocationId, toLocationId, skuId) AS key, referenceId
     FROM backtest_transfers WHERE runId = $1 AND skuId IN (${skuIds.map((_, i) => `$${i + 2}`).join(', ')})`,
    [runId, ...skuIds],
  );
  const kept = new Map(rows.map((r) => [r.key, r.referenceId]));
  for (const t of transfers) {
    const key = [dayText(t.day), t.transferType, t.fromLocationId, t.toLocationId, t.skuId].join('|');
    t.referenceId = kept.get(key) ?? t.referenceId;
  }
}

/**
 * Where the trace, added up over the style's cells, differs from the run's own figure of a day;
 * undefined when nowhere.
 */
function firstMismatch(t: Traced, stored: StyleDaySeries): string | undefined {
  const { trace } = t;
  if (trace.daysDone !== stored.dates.length)
    return `it replayed ${trace.daysDone} days, the run ${stored.dates.length}`;
  const cells = t.locations.ids.length * t.skus.ids.length;
  for (const [field, kept, words] of CHECKS) {
    for (let i = 0; i < trace.daysDone; i++) {
      let total = 0;
      for (let c = 0; c < cells; c++) total += trace.values[(c * trace.days + i) * CELL_FIELDS + CF[field]];
      const want = kept.reduce((sum, f) => sum + stored.series[f][i], 0);
      if (Math.abs(total - want) > 1e-4 * Math.max(1, Math.abs(want))) {
        return `${words} on ${stored.dates[i]} come to ${round(total)}, the run kept ${round(want)}`;
      }
    }
  }
  return undefined;
}

const round = (x: number) => Math.round(x * 100) / 100;

/** A cell's totals over the period, or undefined when nothing ever happened in it. */
function cellTotals(t: Traced, l: number, k: number): CellTotals | undefined {
  const { trace } = t;
  const base = (l * t.skus.ids.length + k) * trace.days;
  const sums = new Float64Array(CELL_FIELDS);
  let simOut = 0;
  let actOut = 0;
  let stocked = false;
  for (let i = 0; i < trace.daysDone; i++) {
    const at = (base + i) * CELL_FIELDS;
    for (let f = 0; f < CELL_FIELDS; f++) sums[f] += trace.values[at + f];
    if (trace.values[at + CF.carried]) {
      if (!trace.values[at + CF.simInStock]) simOut++;
      if (!trace.values[at + CF.actInStock]) actOut++;
    }
    if (trace.values[at + CF.simStock] || trace.values[at + CF.actStock]) stocked = true;
  }
  const moved = sums[CF.receipts] || sums[CF.transfersIn] || sums[CF.transfersOut];
  if (!stocked && !sums[CF.carried] && !moved && !sums[CF.actSales]) return undefined;
  return {
    locationId: t.locations.ids[l],
    locationKind: t.locations.kinds[l],
    skuId: t.skus.ids[k],
    sizeId: t.skus.sizes[k],
    simulated: { sales: round(sums[CF.simSales]), lostSales: round(sums[CF.simLostSales]), stockOutDays: simOut },
    actual: { sales: round(sums[CF.actSales]), lostSales: round(sums[CF.actLostSales]), stockOutDays: actOut },
    carriedDays: sums[CF.carried],
    demand: round(sums[CF.demand]),
    estimatedDemand: round(sums[CF.estimatedDemand]),
    receipts: round(sums[CF.receipts]),
    transfersIn: round(sums[CF.transfersIn]),
    transfersOut: round(sums[CF.transfersOut]),
  };
}
