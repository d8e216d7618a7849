/**
 * The backtest in lost-sales mode. From the actual stock at the start, each day: receive arrivals (the
 * engine's transfers after their lead time, and the actual receipts and corrections), review on review days
 * (the same engine as the live API on the simulated state as of that day, its transfers put in transit), then
 * serve the day's demand — the same on both sides, taken from the history (actual-demand.ts): what the location
 * sold when it had stock, an estimate when it carried the SKU without stock. Simulated sales are what the
 * simulated stock allows; the rest is lost. Simulated stock is physical: never below zero. The engine sees only
 * the simulated history up to the day before: nothing later.
 *
 * The replay is split into parts, each a range of styles living its days on its own (replay-part.ts); this is
 * the coordinator, which meets them at every review to add up their sums and choose the trips (review.ts), and
 * adds up their figures at the end. The parts' decisions are the same however the styles are split.
 */
import { dayText } from '../model/datetime.js';
import { chooseTrips, keepMoves, type KeptMove, type Move, type Trip } from '../recommend/redistribute.js';
import { addReviewSums, deliveriesDue, emptyReviewSums, type ReviewSums } from '../recommend/review.js';
import type { Settings } from '../recommend/settings.js';
import { styleRange, type StyleRange } from '../recommend/slice.js';
import type { SimulatedTransfer, TransferColumns } from './simulated-transfer.js';
import type { BacktestInput } from './input.js';
import { FIELDS, kpisOf, Sums, type SideKpis, type TransferKpis } from './kpis.js';
import { DAY_VALUES, dayTotals, type DailySide } from './daily-totals.js';
import { STYLE_DAY_FIELDS, type StyleDays } from './style-days.js';
import type { StyleTrace, TracedTransfer } from './trace.js';
import { partInit, type EndStocks, type PartResult } from './replay-part.js';
import { moveColumns, movesOf } from './decision-columns.js';
import { sharedCopy } from './buffers.js';
import { ReviewTransfers } from './review-transfers.js';
import { TRANSIT_SOURCES, transitText, type TransitSource } from './transit.js';
import { answerTo, localLink, type AnswerTo, type FromPart, type PartLink, type ToPart } from './partition-protocol.js';

export type { SimulatedTransfer };

export interface SimulationOptions {
  /** Days between reviews; default: the default review period of the settings. */
  reviewEveryDays?: number;
  onProgress?: (daysDone: number, days: number) => void;
  isCancelled?: () => boolean;
  /** Replay only the first n days (a cancelled run's, to trace it again). */
  stopAfterDays?: number;
  /** Record every cell of this style (its index in the start state) day by day: see trace.ts. */
  trace?: { style: number };
}

export type { DailySide };

export interface DailyRow {
  date: string;
  /** What customers wanted that day (both sides meet the same demand), and the part of it that is estimated. */
  demand: number;
  estimatedDemand: number;
  simulated: DailySide & { transferUnits: number };
  actual: DailySide;
}

export interface GroupKpis {
  id: string;
  simulated: SideKpis;
  actual: SideKpis;
}

export interface SimulationResult {
  fromDay: number;
  days: number;
  /** Days simulated (less than `days` when cancelled). */
  daysDone: number;
  cancelled: boolean;
  summary: {
    /** The world the replay met: facts of the data, the same for every scenario over it. */
    world: World;
    simulated: SideKpis & {
      transfers: TransferKpis;
      writeDownShortfall: WriteDownShortfall;
      /** Units the engine decided to send that never left: the stock its sender waited for did not come in time. */
      unsentTransferUnits: number;
      /** Store-days the engine sent stock to (each store counted once a day, whatever the transfers' kinds). */
      deliveries: number;
    };
    actual: SideKpis & {
      negativeStock: NegativeStock;
      /** Store-days the history's stock rose beyond what returns and receipts explain: its own deliveries. */
      deliveries: number;
      /** The amounts of every sales line of the period (returns and discounts included): what the till recorded. */
      recordedRevenue: number | null;
    };
  };
  daily: DailyRow[];
  byLocation: GroupKpis[];
  byStyle: GroupKpis[];
  /** The engine's transfers, as columns (transferRows gives them as rows with their references). */
  transfers: TransferColumns;
  /** Per style and day, simulated and actual (the first `daysDone` days). */
  styleDays: StyleDays;
  /** The traced style's cells, when asked for. */
  trace?: StyleTrace;
  /** The lowest simulated stock of any cell at the end of any day (0 when none went below: stock is physical). */
  lowestSimulatedStock: number;
  /** What each review chose over the whole network: kept with the run, it lets one style be replayed alone. */
  reviews: ReviewRecord[];
}

/** The world a replay met, from the data: how long a transfer takes to reach each location (transit.ts). */
export interface World {
  /** In words: each transit with the locations it holds for and where the figure comes from. */
  transit: string;
  transitDays: { locationId: string; days: number; source: TransitSource }[];
}

/**
 * A review's choices that couple styles: the network's sums every part decided from, and the trips chosen. Given
 * these, a style replayed alone makes the decisions it made in the whole run (see `replayStyle`).
 */
export interface ReviewRecord {
  /** The review's day, counted from the period's first. */
  day: number;
  network: ReviewSums;
  /** Per location: 1 when the review sent it stock (review.ts deliveriesDue). */
  due: Uint8Array;
  trips: Trip[];
}

/**
 * Where the history's actual stock went below zero (it sold what it did not hold: sales without stock sent, counts
 * missing). Such stock counts as none in the actual side's stock figures, rather than lowering their averages; these
 * are the location×SKUs it happened to, the worst (lowest) first.
 */
export interface NegativeStock {
  /** Location×SKUs whose actual stock went below zero, and their days below zero at a day's end. */
  cells: number;
  cellDays: number;
  /** The lowest actual level of any of them. */
  lowest: number;
  worst: { locationId: string; skuId: string; lowest: number; days: number }[];
}

/** The worst location×SKUs a run's negative actual stock names. */
const NEGATIVE_LISTED = 10;

/**
 * Actual write-downs (shrinkage, corrections) larger than what the simulation held at the time: it takes what
 * there is, and the rest is a difference between the two worlds, in units and cell-days.
 */
export interface WriteDownShortfall {
  units: number;
  days: number;
}

/**
 * Contiguous ranges of styles, about equal in the work their days take: a part serves each cell that holds stock,
 * so a style weighs its cells' days with actual stock, its rows of the actual days (a sale, a receipt, a count, a
 * day carried without stock) and one per SKU. One range per part, fewer when there are fewer styles. (Equal in
 * SKUs they are far from equal in work: an assortment numbers its styles by season, and last season's have sold
 * out.)
 */
export function styleRanges(input: BacktestInput, parts: number): StyleRange[] {
  const { styleStart } = input.start.styles;
  const L = input.start.locations.ids.length;
  const S = styleStart.length - 1;
  const styleOf = input.start.skus.style;
  const weight = new Float64Array(S);
  for (let s = 0; s < S; s++) weight[s] = styleStart[s + 1] - styleStart[s];
  // Each cell's days with stock: its level holds from one row to its next.
  const level = Float64Array.from(input.start.onHand);
  const since = new Int32Array(level.length);
  const { dayStart, cell, endLevel } = input.actual;
  for (let i = 0; i < input.days; i++)
    for (let j = dayStart[i]; j < dayStart[i + 1]; j++) {
      const c = cell[j];
      const s = styleOf[(c / L) | 0];
      weight[s] += 1 + (level[c] > 0 ? i - since[c] : 0);
      level[c] = endLevel[j];
      since[c] = i;
    }
  for (let c = 0; c < level.length; c++) if (level[c] > 0) weight[styleOf[(c / L) | 0]] += input.days - since[c];
  for (const c of input.out.cell) weight[styleOf[(c / L) | 0]]++;
  let total = 0;
  for (const w of weight) total += w;
  const ranges: StyleRange[] = [];
  let from = 0;
  let sum = 0;
  for (let p = 1; p <= parts; p++) {
    const goal = (total * p) / parts;
    let to = from;
    while (to < S && (p === parts || sum + weight[to] / 2 <= goal)) sum += weight[to++];
    if (to > from) ranges.push(styleRange(input.start, from, to));
    from = to;
  }
  return ranges;
}

/** Per location: the first day of the period a location sold anything (it sells from then on), or −1. */
function firstSales(input: BacktestInput): Int32Array {
  const L = input.start.locations.ids.length;
  const first = new Int32Array(L).fill(-1);
  const { dayStart, cell, sold } = input.actual;
  for (let i = 0; i < input.days; i++)
    for (let j = dayStart[i]; j < dayStart[i + 1]; j++) {
      const l = cell[j] % L;
      if (sold[j] > 0 && first[l] < 0) first[l] = i;
    }
  return first;
}

/**
 * Replays the input in parts: one per range, each reached through its link (in range order), each started from
 * `inputOf` its number (the whole input unless a part is to get less). The links are closed at the end.
 */
export async function replay(
  input: BacktestInput,
  settings: Settings,
  options: SimulationOptions,
  ranges: readonly StyleRange[],
  links: readonly PartLink[],
  inputOf: (part: number) => BacktestInput = () => input,
  recorded?: readonly ReviewRecord[],
): Promise<SimulationResult> {
  const S0 = input.start;
  const Sg = S0.styles.ids.length;
  const days = input.days;
  const reviewEvery = Math.max(1, options.reviewEveryDays ?? settings.defaults.reviewPeriodDays);
  const lastDay = Math.min(days, options.stopAfterDays ?? days);
  const traceStyle = options.trace?.style;
  if (traceStyle !== undefined && !(traceStyle >= 0 && traceStyle < Sg))
    throw new RangeError(`no style ${traceStyle} to trace`);
  /** Asks every part at once (those in other threads first, so this thread's own works meanwhile). */
  const askAll = async <M extends ToPart>(message: (p: number) => M) => {
    const answers: Promise<FromPart>[] = [];
    for (let p = links.length - 1; p >= 0; p--) answers[p] = links[p].ask(message(p));
    const got = await Promise.all(answers);
    return got.map((a, p) => answerTo(message(p), a, ranges[p]));
  };
  const partOf = (style: number) => ranges.findIndex((r) => style >= r.sFrom && style < r.sTo);
  const shared = {
    lastDay,
    reviewEvery,
    firstSale: firstSales(input),
    kindFixed: Uint8Array.from(S0.locations.ids, (id) => (settings.locationKinds[id] !== undefined ? 1 : 0)),
    traceStyle,
  };
  const traced: [number, number] | undefined =
    traceStyle === undefined ? undefined : [S0.styles.styleStart[traceStyle], S0.styles.styleStart[traceStyle + 1]];

  const recordedAt = new Map(recorded?.map((r) => [r.day, r]));
  const reviews: ReviewRecord[] = [];
  const written = new ReviewTransfers(input, traced);
  let daysDone = 0;
  let cancelled = false;
  try {
    await askAll((p) => ({ kind: 'init', init: partInit(inputOf(p), settings, ranges[p], shared) }));
    for (let i = 0; i < lastDay;) {
      if (options.isCancelled?.()) {
        cancelled = true;
        break;
      }
      // On to the next review, a week at most (progress and a cancel are heard between).
      const until = Math.min(lastDay, (Math.floor(i / reviewEvery) + 1) * reviewEvery, (Math.floor(i / 7) + 1) * 7);
      let running: Promise<unknown> | undefined;
      if (i % reviewEvery === 0) {
        const record = recorded ? recordedAt.get(i) : undefined;
        if (recorded && !record) throw new Error(`the run kept no review of day ${i} to replay`);
        const review = await networkReview(i, reviewEvery, record, askAll, S0, settings, ranges, partOf);
        if (!recorded) reviews.push(review.record);
        // The parts go on with their days while the review's transfers are written down here.
        running = askAll(() => ({ kind: 'run', until }));
        written.add(i, review.decided, review.kept, review.carried, partOf);
      }
      await (running ?? askAll(() => ({ kind: 'run', until })));
      i = daysDone = until;
      if (options.onProgress && (daysDone % 7 === 0 || daysDone === days)) options.onProgress(daysDone, days);
    }
    const parts = (await askAll(() => ({ kind: 'finish' }))).map((f) => f.result);
    return assemble(input, parts, {
      reviews,
      daysDone,
      cancelled,
      transfers: written.columns(),
      transferKpis: written.kpis,
      transferUnitsByDay: written.unitsByDay,
      deliveries: written.deliveries,
      ...(traceStyle !== undefined ? { trace: { style: traceStyle, transfers: written.traced } } : {}),
    });
  } finally {
    await Promise.all(links.map((l) => l.close()));
  }
}

/** Asks every part, and answers each part's answer in order. */
type AskAll = <M extends ToPart>(message: (p: number) => M) => Promise<AnswerTo<M>[]>;

/**
 * Review day i across the network, in its steps: each part's share of the network's sums (or the sums kept with a
 * run, replaying a style alone), what each store would lose, the stores due a delivery (the next review
 * `reviewEvery` days on), each part's decisions, the trips chosen of all moves and the moves they carry, which each
 * part then carries out.
 */
async function networkReview(
  i: number,
  reviewEvery: number,
  record: ReviewRecord | undefined,
  askAll: AskAll,
  S0: BacktestInput['start'],
  settings: Settings,
  ranges: readonly StyleRange[],
  partOf: (style: number) => number,
) {
  const L = S0.locations.ids.length;
  const sums = await askAll(() => ({ kind: 'review', day: i }));
  let network = record?.network;
  if (!network) {
    network = emptyReviewSums(S0);
    for (const s of sums) addReviewSums(network, s.sums);
  }
  // In shared memory, the parts in other threads read the one copy.
  network = sharedCopy(network);
  const needs = new Float64Array(L);
  for (const p of await askAll(() => ({ kind: 'plan', network: network! })))
    for (let l = 0; l < L; l++) needs[l] += p.needs[l];
  const due = record?.due ?? deliveriesDue(settings, network, needs, S0.asOfDay + i, reviewEvery);
  const decided = (await askAll(() => ({ kind: 'decide', due }))).map((d) => d.decided);
  const moves: Move[] = [];
  for (const d of decided) for (const m of movesOf(d.moves)) moves.push(m);
  const trips = record?.trips ?? chooseTrips(moves, L, settings);
  const kept = keepMoves(moves, trips, L, S0.styles.ids.length);
  const keptBy: KeptMove[][] = ranges.map(() => []);
  for (const k of kept) keptBy[partOf(k.move.style)].push(k);
  const carried = (await askAll((p) => ({ kind: 'carryOut', kept: moveColumns(keptBy[p]) }))).map(
    (c) => c.redistribution,
  );
  const reviewed: ReviewRecord = { day: i, network, due, trips };
  return { record: reviewed, decided, kept, carried };
}

/** The replay in this thread, in one part (or several, to show the split changes nothing). */
export function simulate(
  input: BacktestInput,
  settings: Settings,
  options: SimulationOptions = {},
  parts = 1,
): Promise<SimulationResult> {
  const ranges = styleRanges(input, parts);
  return replay(input, settings, options, ranges, ranges.map(localLink));
}

/**
 * One style of a kept run replayed alone, traced: its own days, with the network's sums and trips each review
 * had in the whole run. Its cells' days are the run's (the trace service checks them against the run's figures).
 */
export function replayStyle(
  input: BacktestInput,
  settings: Settings,
  options: SimulationOptions & { trace: { style: number } },
  reviews: readonly ReviewRecord[],
): Promise<SimulationResult> {
  const { style } = options.trace;
  if (!(style >= 0 && style < input.start.styles.ids.length)) throw new RangeError(`no style ${style} to trace`);
  const range = styleRange(input.start, style, style + 1);
  return replay(input, settings, options, [range], [localLink()], () => input, reviews);
}

/** Store-days the history delivered to, any part's SKUs (see PartSums.actualDeliveries). */
function actualDeliveries(parts: PartResult[]): number {
  const any = new Uint8Array(parts[0]?.sums.actualDeliveries.length ?? 0);
  for (const p of parts) for (let x = 0; x < any.length; x++) any[x] |= p.sums.actualDeliveries[x];
  return any.reduce((n, v) => n + v, 0);
}

function negativeStockOf(input: BacktestInput, parts: PartResult[]): NegativeStock {
  const L = input.start.locations.ids.length;
  const cells = parts.flatMap((p) => p.negativeCells).sort((a, b) => a.lowest - b.lowest || a.cell - b.cell);
  return {
    cells: cells.length,
    cellDays: parts.reduce((n, p) => n + p.sums.negativeDays, 0),
    lowest: cells.length ? cells[0].lowest : 0,
    worst: cells.slice(0, NEGATIVE_LISTED).map((x) => ({
      locationId: input.start.locations.ids[x.cell % L],
      skuId: input.start.skus.ids[Math.floor(x.cell / L)],
      lowest: x.lowest,
      days: x.days,
    })),
  };
}

/** The parts' figures added up into the run's. */
function assemble(
  input: BacktestInput,
  parts: PartResult[],
  run: {
    reviews: ReviewRecord[];
    daysDone: number;
    cancelled: boolean;
    transfers: TransferColumns;
    transferKpis: TransferKpis;
    transferUnitsByDay: Float64Array;
    deliveries: number;
    trace?: { style: number; transfers: TracedTransfer[] };
  },
): SimulationResult {
  const S0 = input.start;
  const L = S0.locations.ids.length;
  const { days } = input;
  const { daysDone } = run;
  const { sim, act, simEnd, actEnd, daily, styleDays, lowest, shortfall, unsent } = addParts(input, parts);
  const rows = dailyRows(S0.asOfDay, daily, daysDone, run.transferUnitsByDay);
  const endOf = (e: EndStocks, g: number) => ({
    storeUnits: e.storeUnits[g],
    storeValue: e.storeValue[g],
    warehouseUnits: e.warehouseUnits[g],
    warehouseValue: e.warehouseValue[g],
  });
  const n = Math.max(daysDone, 1);
  // Stock is valued at cost: a group none of whose SKUs has a cost price has no value to tell (not a value of 0).
  const costed = (from: number, to: number) => input.cost.subarray(from, to).some((c) => c > 0);
  const anyCost = costed(0, input.cost.length);
  const valued = (g: number) =>
    g <= L ? anyCost : costed(S0.styles.styleStart[g - 1 - L], S0.styles.styleStart[g - L]);
  const group = (g: number, id: string): GroupKpis => ({
    id,
    simulated: kpisOf(sim, g, n, endOf(simEnd, g), valued(g)),
    actual: kpisOf(act, g, n, endOf(actEnd, g), valued(g)),
  });
  const trace = run.trace ? traceOf(input, parts, daysDone, run.trace) : undefined;
  return {
    fromDay: S0.asOfDay,
    days,
    daysDone,
    cancelled: run.cancelled,
    summary: {
      world: {
        transit: transitText(S0.locations.ids, input.transit),
        transitDays: S0.locations.ids.map((locationId, l) => ({
          locationId,
          days: input.transit.days[l],
          source: TRANSIT_SOURCES[input.transit.source[l]],
        })),
      },
      simulated: {
        ...kpisOf(sim, 0, n, endOf(simEnd, 0), anyCost),
        transfers: run.transferKpis,
        writeDownShortfall: { units: Math.round(shortfall.units * 100) / 100, days: shortfall.days },
        unsentTransferUnits: unsent,
        deliveries: run.deliveries,
      },
      actual: {
        ...kpisOf(act, 0, n, endOf(actEnd, 0), anyCost),
        deliveries: actualDeliveries(parts),
        negativeStock: negativeStockOf(input, parts),
        recordedRevenue: input.recordedRevenue
          ? Math.round(input.recordedRevenue.subarray(0, daysDone).reduce((a, b) => a + b, 0) * 100) / 100
          : null,
      },
    },
    daily: rows,
    byLocation: S0.locations.ids.map((id, l) => group(1 + l, id)),
    byStyle: S0.styles.ids.map((id, s) => group(1 + L + s, id)),
    transfers: run.transfers,
    styleDays,
    lowestSimulatedStock: lowest,
    reviews: run.reviews,
    ...(trace ? { trace } : {}),
  };
}

/** Each part's sums added into the groups' (`1 + L + styles`: the network, each location, each style). */
function addParts(input: BacktestInput, parts: PartResult[]) {
  const S0 = input.start;
  const L = S0.locations.ids.length;
  const Sg = S0.styles.ids.length;
  const { days } = input;
  // Groups: the network, each location, each style.
  const G = 1 + L + Sg;
  const sim = new Sums(G);
  const act = new Sums(G);
  const stocks = (): EndStocks => ({
    storeUnits: new Float64Array(G),
    storeValue: new Float64Array(G),
    warehouseUnits: new Float64Array(G),
    warehouseValue: new Float64Array(G),
  });
  const simEnd = stocks();
  const actEnd = stocks();
  const daily = new Float64Array(days * DAY_VALUES);
  const F = STYLE_DAY_FIELDS.length;
  const styleDays: StyleDays = { styles: Sg, days, values: new Float64Array(Sg * days * F) };
  let lowest = 0;
  const shortfall = { units: 0, days: 0 };
  let unsent = 0;
  for (const part of parts) {
    const { sFrom, sTo } = part.range;
    const S = sTo - sFrom;
    for (const k of FIELDS) {
      for (let l = 0; l < L; l++) {
        sim.f[k][1 + l] += part.sums.location.sim.f[k][l];
        act.f[k][1 + l] += part.sums.location.act.f[k][l];
      }
      sim.f[k].set(part.sums.style.sim.f[k], 1 + L + sFrom);
      act.f[k].set(part.sums.style.act.f[k], 1 + L + sFrom);
    }
    for (const [into, from] of [
      [simEnd, part.end.sim],
      [actEnd, part.end.act],
    ] as const) {
      for (const k of ['storeUnits', 'storeValue', 'warehouseUnits', 'warehouseValue'] as const) {
        for (let l = 0; l < L; l++) into[k][1 + l] += from[k][l];
        into[k].set(from[k].subarray(L), 1 + L + sFrom);
      }
    }
    for (let j = 0; j < daily.length; j++) daily[j] += part.sums.daily[j];
    for (let day = 0; day < days; day++)
      styleDays.values.set(part.sums.styleDays.subarray(day * S * F, (day + 1) * S * F), (day * Sg + sFrom) * F);
    lowest = Math.min(lowest, part.sums.lowest);
    shortfall.units += part.writeDownShortfall.units;
    shortfall.days += part.writeDownShortfall.days;
    unsent += part.unsentTransferUnits;
  }
  // The network: every location's.
  for (const k of FIELDS)
    for (let l = 0; l < L; l++) {
      sim.f[k][0] += sim.f[k][1 + l];
      act.f[k][0] += act.f[k][1 + l];
    }
  for (const e of [simEnd, actEnd])
    for (const k of ['storeUnits', 'storeValue', 'warehouseUnits', 'warehouseValue'] as const)
      for (let l = 0; l < L; l++) e[k][0] += e[k][1 + l];
  return { sim, act, simEnd, actEnd, daily, styleDays, lowest, shortfall, unsent };
}

/** The network's figures day by day, from the parts' daily sums added up. */
function dailyRows(
  fromDay: number,
  daily: Float64Array,
  daysDone: number,
  transferUnitsByDay: Float64Array,
): DailyRow[] {
  const rows: DailyRow[] = [];
  for (let i = 0; i < daysDone; i++) {
    const { demand, estimatedDemand, simulated, actual } = dayTotals(
      daily.subarray(i * DAY_VALUES, (i + 1) * DAY_VALUES),
    );
    rows.push({
      date: dayText(fromDay + i),
      demand,
      estimatedDemand,
      simulated: { ...simulated, transferUnits: transferUnitsByDay[i] },
      actual,
    });
  }
  return rows;
}

/** The traced style's cells, from the part that replayed it, with its transfers. */
function traceOf(
  input: BacktestInput,
  parts: PartResult[],
  daysDone: number,
  traced: { style: number; transfers: TracedTransfer[] },
): StyleTrace {
  const S0 = input.start;
  const { days } = input;
  const { style } = traced;
  const part = parts.find((p) => style >= p.range.sFrom && style < p.range.sTo)!;
  return {
    style,
    kFrom: S0.styles.styleStart[style],
    kTo: S0.styles.styleStart[style + 1],
    days,
    values: part.trace!.values,
    daysDone,
    transfers: traced.transfers,
    locationKinds: part.trace!.locationKinds,
  };
}
