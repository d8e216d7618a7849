/**
 * The last pass over the history: which days each cell was carried without stock, and the demand of those days and
 * beyond the sales of its sold-out days, each run of them (an episode) at a level read from the days in stock
 * around it and scaled by the day indices.
 */
import { IN, OUT, SOLD_OUT, SOLD_OUT_TAIL_DAYS, openingOr, type CellDayRows, type CellWalk } from './cell-walk.js';
import type { DemandFit } from './demand-fit.js';
import { expectedGiven } from './demand-distribution.js';
import type { DemandLayout, HistoryRange, OnSale } from './history-range.js';
import type { Shelves } from './shelf-history.js';

/** An outage between two days with stock or sales, at most this long, is a stock-out of a carried SKU. */
export const CARRIED_GAP_DAYS = 56;
/**
 * At a location that counts its empty shelves, an outage is carried as long as the location goes on counting the
 * SKU — at most this long (a location posting levels of everything it ever held says nothing of its listing).
 */
export const LISTED_OUTAGE_DAYS = 182;
/** Days in stock around an outage that its level is estimated from, nearest first, both sides. */
export const LEVEL_WINDOW_DAYS = 28;
/** How far from an outage those days are looked for. */
export const LEVEL_REACH_DAYS = 91;
/**
 * A thin own history is shrunk towards the SKU's pooled level, weighted as this many days or as the days the pooled
 * level takes to sell this many units, whichever is more: a slow cell's few sales around an outage (a sell-out that
 * came early because a customer or two came early) say little, a fast one's a lot.
 */
const PRIOR_WEIGHT_DAYS = 7;
const PRIOR_WEIGHT_UNITS = 10;
/** The longest cadence of stock counts read as a listing: a location counting more rarely says less about it. */
const MAX_COUNT_EVERY_DAYS = 14;
/** The usual days between two posted levels: the median of `gaps` (sorted in place), at most the longest read so. */
export function countCadence(gaps: number[]): number {
  gaps.sort((a, b) => a - b);
  return gaps.length ? Math.min(MAX_COUNT_EVERY_DAYS, gaps[gaps.length >> 1]) : 1;
}
/** A location counts its empty shelves when it posted this many levels of 0 for SKUs it had none of. */
export const EMPTY_COUNTS = 20;
/** A day a location posted this many such levels is a day it counted its empty shelves. */
const EMPTY_COUNT_DAY = 3;
/** Rounds of the censored-demand estimate (EM); it settles in three or four. */
const EM_ROUNDS = 6;

/** One cell's history written out day by day (`read`), for the cells with anything to estimate. */
class CellDays {
  readonly sold: Float64Array;
  readonly status: Uint8Array;
  readonly rowAt: Int32Array;
  /** Per day: the last day up to it a stock level was posted for the cell, or −1. */
  readonly lastCount: Int32Array;
  /** Per day: 1 when a level was posted for the cell that day; 2 when that level emptied a shelf that held stock. */
  readonly countedOn: Uint8Array;
  /** The cell's usual days between two posted levels. */
  countEvery = 1;
  /** Per day: 1 when the stock was restocked (it rose by more than the day's returns brought back) or sold. */
  readonly active: Uint8Array;
  /** Per day: 1 when stock came in (a delivery, a count above what was there): a restock cycle starts. */
  readonly restocked: Uint8Array;
  private readonly countGaps: number[] = [];

  constructor(
    private readonly rows: CellDayRows,
    private readonly cellWalk: CellWalk,
    private readonly days: number,
  ) {
    this.sold = new Float64Array(days);
    this.status = new Uint8Array(days);
    this.rowAt = new Int32Array(days);
    this.lastCount = new Int32Array(days);
    this.countedOn = new Uint8Array(days);
    this.active = new Uint8Array(days);
    this.restocked = new Uint8Array(days);
  }

  /** `ownStock`: the location holds the stock it sells (see DemandLayout.fulfilled: else only its sales count). */
  read(c: number, ownStock: boolean): void {
    const { rows, sold, status, rowAt, lastCount, countedOn, active, restocked, countGaps } = this;
    lastCount.fill(-1);
    countedOn.fill(0);
    countGaps.length = 0;
    let counted = -1;
    this.cellWalk.walk(
      c,
      (a, b, inStock) => {
        sold.fill(0, a, b);
        status.fill(inStock ? IN : OUT, a, b);
        rowAt.fill(-1, a, b);
        active.fill(0, a, b);
        restocked.fill(0, a, b);
      },
      (e, j, st, start) => {
        sold[e] = rows.sold[j];
        status[e] = st;
        rowAt[e] = j;
        restocked[e] = rows.endLevel[j] - start + rows.net[j] > 0 ? 1 : 0;
        active[e] = rows.sold[j] > 0 || (ownStock && restocked[e]) ? 1 : 0;
        if (ownStock && rows.counted[j]) {
          if (counted >= 0) countGaps.push(e - counted);
          lastCount[e] = counted = e;
          countedOn[e] = st === OUT && openingOr(rows.opening[j], start) <= 0 && start > 0 ? 2 : 1;
        }
      },
    );
    for (let e = 1; e < this.days; e++) if (lastCount[e] < 0) lastCount[e] = lastCount[e - 1];
    this.countEvery = countCadence(countGaps);
  }
}

/** What the outage pass reads: the history, the first pass's facts and the fitted model. */
interface Outages {
  rows: CellDayRows;
  range: HistoryRange;
  layout: DemandLayout;
  shelves: Shelves;
  fit: DemandFit;
  /** Per location × day of the history: 1 when it was closed. */
  closed: Uint8Array;
  cell: CellDays;
  /** Per day of the history: 1 when the cell at hand was carried without stock. */
  carriedOut: Uint8Array;
  /** The days in stock an episode's level is read from. */
  window: number[];
}

/**
 * Per row of the input, the demand beyond a sold-out day's sales; and the carried days without stock inside the
 * period, cell by cell (SKU by SKU, so that each day's come in cell order), with their demand.
 */
export function outageDemand(
  rows: CellDayRows,
  range: HistoryRange,
  layout: DemandLayout,
  cellWalk: CellWalk,
  selling: Uint8Array,
  shelves: Shelves,
  fit: DemandFit,
  closed: Uint8Array,
  onSale?: OnSale,
): { extra: Float64Array; out: { cell: Int32Array; day: Int32Array; demand: Float64Array } } {
  const { days, periodFrom, periodTo } = range;
  const { locations: L, skus, styleOf, categoryOf } = layout;
  const o: Outages = {
    rows,
    range,
    layout,
    shelves,
    fit,
    closed,
    cell: new CellDays(rows, cellWalk, days),
    carriedOut: new Uint8Array(days),
    window: [],
  };
  const { status, sold, rowAt } = o.cell;
  const extra = new Float64Array(rows.cell.length);
  const outCell: number[] = [];
  const outDay: number[] = [];
  const outDemand: number[] = [];
  for (let k = 0; k < skus; k++) {
    for (let l = 0; l < L; l++) {
      if (!selling[l]) continue;
      const c = k * L + l;
      if (!needsEstimate(o, l, k)) continue;
      o.cell.read(c, layout.fulfilled[l] === 0);
      const s = styleOf[k];
      const cat = categoryOf[s];
      o.carriedOut.fill(0);
      if (layout.fulfilled[l] === 1) {
        // Selling from a warehouse's stock: every day of the style's span (see fulfilled-days.ts).
        for (let e = Math.max(0, onSale?.first[s] ?? days); e <= Math.min(days - 1, onSale?.last[s] ?? -1); e++)
          if (status[e] === OUT && !closed[l * days + e]) o.carriedOut[e] = 1;
      } else markCarriedOut(o, l, k, s);
      // Episodes: runs of sold-out and carried-out days; each gets a level from the days in stock around it.
      for (let p = 0; p < days; p++) {
        if (status[p] !== SOLD_OUT && !o.carriedOut[p]) continue;
        let q = p;
        while (q + 1 < days && (status[q + 1] === SOLD_OUT || o.carriedOut[q + 1])) q++;
        if (q >= periodFrom && p < periodTo) {
          const lvl = episodeLevel(o, p, q, l, k, fit.judged[c]);
          for (let e = Math.max(p, periodFrom); e <= Math.min(q, periodTo - 1); e++) {
            const lambda = lvl * fit.index.at(l, k, e);
            if (status[e] === SOLD_OUT) {
              extra[rowAt[e]] = Math.max(
                0,
                expectedGiven(sold[e], lambda, fit.dispersion[cat], fit.baskets[k]) - sold[e],
              );
            } else {
              outCell.push(c);
              outDay.push(e - periodFrom);
              outDemand.push(lambda);
            }
          }
        }
        p = q;
      }
    }
  }
  return {
    extra,
    out: { cell: Int32Array.from(outCell), day: Int32Array.from(outDay), demand: Float64Array.from(outDemand) },
  };
}

/**
 * Cells with days to estimate: those with a day sold out or without stock, and the sizes a location never had
 * of a style it sold (a size run broken from the start).
 */
function needsEstimate(o: Outages, l: number, k: number): boolean {
  const { locations: L, styleOf, styleStart } = o.layout;
  const c = k * L + l;
  const styles = styleStart.length - 1;
  return o.shelves.everIn[c] === 1
    ? o.shelves.gappy[c] === 1
    : sized(o.layout, k) && o.shelves.styleLastActive[l * styles + styleOf[k]] >= 0;
}

/** Whether SKU k's style comes in sizes. */
const sized = ({ styleOf, styleStart }: DemandLayout, k: number) =>
  styleStart[styleOf[k] + 1] - styleStart[styleOf[k]] > 1;

/**
 * Marks the carried days without stock of a cell at a location holding its own stock: a gap between days with
 * stock, a sold-out tail, a broken size run — or, where the location counts its empty shelves, any outage it goes
 * on counting.
 */
function markCarriedOut(o: Outages, l: number, k: number, s: number): void {
  const { days } = o.range;
  const { status, active, lastCount, countedOn, countEvery } = o.cell;
  const { styleFirst, styleLastActive, styleLast, styleSoldOut, styleNetLast, emptyCounts, emptyAt } = o.shelves;
  const { carriedOut, closed } = o;
  const ls = l * (o.layout.styleStart.length - 1) + s;
  const sizedStyle = sized(o.layout, k);
  const sFirst = styleFirst[ls];
  const sLast = styleLastActive[ls];
  const countsEmpty = emptyCounts[l] >= EMPTY_COUNTS;
  for (let p = 0; p < days; p++) {
    if (status[p] !== OUT) continue;
    let q = p;
    while (q + 1 < days && status[q + 1] === OUT) q++;
    const before = p > 0;
    // Stock back after the gap: restocked or selling again (a customer's return sitting on a shelf the location
    // emptied is no sign it carries the SKU).
    let after = false;
    for (let x = q + 1; x < days && status[x] !== OUT && !after; x++) after = active[x] === 1;
    const shortGap = before && after && q - p + 1 <= CARRIED_GAP_DAYS;
    const soldOut = before && status[p - 1] === SOLD_OUT;
    // Levels posted for it during the gap say the location lists it: until the next count would have come after
    // the last one.
    const listedUntil = lastCount[q] >= p - 1 ? lastCount[q] + countEvery : -1;
    // Where the location counts its empty shelves, its counts tell: the SKU is listed until a day the location
    // counted its empty shelves and not this one — however long the outage, however it ended. A gap that began
    // with a count emptying the shelf is stock taken away, not sold out.
    const removed = countedOn[p] === 2;
    let missed = false;
    for (let e = p; e <= q; e++) {
      const started = before || (sizedStyle && e >= sFirst);
      if (started && !countedOn[e] && emptyAt[l * days + e] >= EMPTY_COUNT_DAY) missed = true;
      if (closed[l * days + e]) continue;
      const listed = e < listedUntil;
      // Sold out with no stock coming back: carried a while, as long as the style is on sale elsewhere (one gone
      // from every shelf was delisted, not sold out), or while levels of 0 are still posted for it.
      const tail = soldOut && e - p < SOLD_OUT_TAIL_DAYS && (e <= styleNetLast[s] || listed);
      // A style in sizes: every size while the style sells there, and after the whole style sold out there as a
      // sold-out SKU would be.
      const sizeRun =
        sizedStyle &&
        e >= sFirst &&
        (e <= sLast ||
          (styleSoldOut[ls] === 1 &&
            e > styleLast[ls] &&
            e - styleLast[ls] <= SOLD_OUT_TAIL_DAYS &&
            (e <= styleNetLast[s] || listed)));
      if (countsEmpty) {
        // Counted on while its style is on sale in the network: listed, unless the outage began with stock taken
        // away. Left out of a count of the empty shelves: delisted, whatever else would carry it. A size emptied
        // by a count while its style sells there is still a size of the style on sale (sizeRun).
        const byCount = started && !removed && e - p < LISTED_OUTAGE_DAYS && e <= styleNetLast[s];
        if (shortGap || (!missed && (byCount || sizeRun || tail))) carriedOut[e] = 1;
        continue;
      }
      if (shortGap || sizeRun || tail) carriedOut[e] = 1;
    }
    p = q;
  }
}

/**
 * The cell's level (units per day at index 1) around the episode [p, q], from the days in stock around it, sold-out
 * days counted as "at least". The days are taken in whole restock cycles — from a day stock came in to the day
 * before the next — about half on each side: a cycle cut short would keep the days before its sell-out, which
 * sold little, without the one that sold out (or the other way round), and lean the level low (or high).
 */
function episodeLevel(o: Outages, p: number, q: number, l: number, k: number, pooled: number): number {
  const { days } = o.range;
  const { status, restocked, sold } = o.cell;
  const { index, dispersion, baskets } = o.fit;
  const { window } = o;
  window.length = 0;
  const half = LEVEL_WINDOW_DAYS / 2;
  let left = p;
  // The cycle the outage ends is chosen by its outcome (it sold out): its days sold more than such days do, so
  // the window leaves it out and starts with the cycle before.
  while (left > 0 && !(restocked[left] && left <= p - 1) && p - (left - 1) <= LEVEL_REACH_DAYS) left--;
  let right = q;
  let leftDays = 0;
  let rightDays = 0;
  const leftOpen = () => left > 0 && p - (left - 1) <= LEVEL_REACH_DAYS;
  const rightOpen = () => right + 1 < days && right + 1 - q <= LEVEL_REACH_DAYS;
  // Backwards to the start of a cycle, forwards to the end of one, each once it has its share of days.
  const stepLeft = (wanted: number) => {
    while (leftOpen() && !(leftDays >= wanted && restocked[left] && left <= p - 1)) {
      left--;
      if (status[left] !== OUT) {
        window.push(left);
        leftDays++;
      }
    }
  };
  const stepRight = (wanted: number) => {
    while (rightOpen() && !(rightDays >= wanted && restocked[right + 1])) {
      right++;
      if (status[right] !== OUT) {
        window.push(right);
        rightDays++;
      }
    }
  };
  stepLeft(half);
  stepRight(half);
  // A side cut short by the history's edge leaves its share to the other.
  if (leftDays < half) stepRight(LEVEL_WINDOW_DAYS - leftDays);
  else if (rightDays < half) stepLeft(LEVEL_WINDOW_DAYS - rightDays);
  let exposure = 0;
  let units = 0;
  let uncensored = 0;
  for (const e of window) {
    exposure += index.at(l, k, e);
    units += sold[e];
    if (status[e] === IN) uncensored++;
  }
  if (exposure <= 0) return pooled;
  let lvl = units / exposure;
  // Censored days say "at least": replace them by their expectation given the level, until it settles. With no
  // uncensored day the level is not identified (it would grow without bound), so it stays at what was sold.
  if (uncensored > 0 && uncensored < window.length) {
    const invK = dispersion[o.layout.categoryOf[o.layout.styleOf[k]]];
    for (let round = 0; round < EM_ROUNDS; round++) {
      let total = 0;
      for (const e of window)
        total += status[e] === SOLD_OUT ? expectedGiven(sold[e], lvl * index.at(l, k, e), invK, baskets[k]) : sold[e];
      const next = total / exposure;
      const settled = Math.abs(next - lvl) <= 1e-9 * Math.max(1, lvl);
      lvl = next;
      if (settled) break;
    }
  }
  const weight = pooled > 0 ? Math.max(PRIOR_WEIGHT_DAYS, PRIOR_WEIGHT_UNITS / pooled) : PRIOR_WEIGHT_DAYS;
  return (exposure * lvl + weight * pooled) / (exposure + weight);
}
