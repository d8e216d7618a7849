/**
 * What customers wanted, as far as the history tells: the demand a backtest serves on both of its sides.
 *
 * On a day a location held stock and did not sell out, demand is what it sold. On a day it sold out, demand was at
 * least what it sold. On a day it carried the SKU but had none, demand went on and was lost. On a day it did not
 * carry the SKU (not yet launched, phased out, delisted there, or the location closed), there was none. This module
 * decides which days are which and estimates the demand history does not show, from the SKU's own days in stock
 * around the gap (both sides: it is history), scaled by how its location, its category and its style sold that day
 * (day-index.ts), with a customer's units read from the SKU's slow days (baskets.ts).
 *
 * It depends on the data only — never on a scenario — so the actual side of a period is one fact whatever the
 * engine's settings, and a day's estimate is the same in every backtest that covers it (the history is read a
 * reach beyond the period on both sides).
 */
import { BasketReader } from './baskets.js';
import { CellWalk, IN, OUT, SOLD_OUT, openingOr, type CellDayRows } from './cell-walk.js';
import { DayIndex, weekday, type IndexLayout } from './day-index.js';
import { expectedGiven, type Basket } from './demand-distribution.js';
import { pooledLevels } from './pooled-levels.js';

export { heldStock, openingOr, type CellDayRows } from './cell-walk.js';
export { conditionalMean, logGamma } from './demand-distribution.js';

/** An outage between two days with stock or sales, at most this long, is a stock-out of a carried SKU. */
export const CARRIED_GAP_DAYS = 56;
/**
 * After selling out with no stock coming back, a SKU still counts as carried while its style sells elsewhere in the
 * network, for this long at most ("sold shortly before"; longer is a location that stopped carrying it).
 */
export const SOLD_OUT_TAIL_DAYS = 56;
/**
 * At a location that counts its empty shelves, an outage is carried as long as the location goes on counting the
 * SKU — at most this long (a location posting levels of everything it ever held says nothing of its listing).
 */
export const LISTED_OUTAGE_DAYS = 182;
/** Days in stock around an outage that its level is estimated from, nearest first, both sides. */
export const LEVEL_WINDOW_DAYS = 28;
/** How far from an outage those days are looked for. */
export const LEVEL_REACH_DAYS = 91;
/** How far around the period the history is read: far enough for every gap and window above. */
export const HISTORY_REACH_DAYS = Math.max(LEVEL_REACH_DAYS, CARRIED_GAP_DAYS + SOLD_OUT_TAIL_DAYS);
/**
 * A thin own history is shrunk towards the SKU's pooled level, weighted as this many days or as the days the pooled
 * level takes to sell this many units, whichever is more: a slow cell's few sales around an outage (a sell-out that
 * came early because a customer or two came early) say little, a fast one's a lot.
 */
const PRIOR_WEIGHT_DAYS = 7;
const PRIOR_WEIGHT_UNITS = 10;
/** The longest cadence of stock counts read as a listing: a location counting more rarely says less about it. */
const MAX_COUNT_EVERY_DAYS = 14;
/** A location counts its empty shelves when it posted this many levels of 0 for SKUs it had none of. */
const EMPTY_COUNTS = 20;
/** A day a location posted this many such levels is a day it counted its empty shelves. */
const EMPTY_COUNT_DAY = 3;
/**
 * Fits of the day indices and the levels: the first takes a sold-out day's sales as they are, each next one its
 * expected demand given them under the previous fit.
 */
const INDEX_ROUNDS = 3;
/** Rounds of the censored-demand estimate (EM); it settles in three or four. */
const EM_ROUNDS = 6;
/** Cells selling at least this much a day inform the dispersion of daily demand. */
const DISPERSION_MIN_RATE = 1;
const DISPERSION_SAMPLE = 4000;
/** Days of the blocks the dispersion's residuals are taken around (each its own level). */
const DISPERSION_BLOCK_DAYS = 56;

/** History rows of every cell over a range holding the period (cell by cell), with the columns the replay uses. */
export interface HistoryRows extends CellDayRows {
  net: ArrayLike<number>;
  mutations: ArrayLike<number>;
  revenue: ArrayLike<number>;
}

/** Per style: the first and last day of the history read it sold anywhere; last < first where it never did. */
export interface OnSale {
  first: Int32Array;
  last: Int32Array;
}

export interface DemandLayout extends IndexLayout {
  /**
   * Per location: 1 when it sells from a warehouse's stock (its rows are the warehouse's level and its own sales).
   * Its level rising or falling is then the warehouse's business — a delivery, stock taken back from the stores,
   * a shipment to them — so only its own sales tell that it sells a SKU.
   */
  fulfilled: Uint8Array;
}

export interface HistoryRange {
  /** Days in the history read (index 0 is `firstDay`, days since 1970-01-01). */
  days: number;
  firstDay: number;
  /** The backtest's period within it: [periodFrom, periodTo). */
  periodFrom: number;
  periodTo: number;
}

export interface ActualDemand {
  /** Per location: 1 when it sells (anything, anywhere in the history read): a store or webshop, else a warehouse. */
  selling: Uint8Array;
  /** Per row of the input: demand beyond the day's sales, on a day the cell sold out (0 elsewhere). */
  extra: Float64Array;
  /**
   * Carried days without stock inside the period, cell by cell: the day (relative to the period) and the demand lost.
   */
  out: { cell: Int32Array; day: Int32Array; demand: Float64Array };
  /** Per category: the overdispersion of daily demand (1/k of a negative binomial; 0 is Poisson). */
  dispersion: Float64Array;
  /** Per location × day of the period: 1 when it was closed (sold nothing where it sells plenty): no carried day. */
  closed: Uint8Array;
}

/**
 * `onSale`: per style, the days it sold anywhere in the network, when a location sells from a warehouse's stock:
 * such a location carries a style on exactly those days (fulfilled-days.ts).
 */
export function actualDemand(
  rows: CellDayRows,
  range: HistoryRange,
  layout: DemandLayout,
  onSale?: OnSale,
): ActualDemand {
  const { days: E, firstDay, periodFrom, periodTo } = range;
  const L = layout.locations;
  const K = layout.skus;
  const C = layout.categories;
  const { styleOf, styleStart, categoryOf } = layout;
  const n = rows.cell.length;
  const catOf = (k: number) => categoryOf[styleOf[k]];
  const cells = L * K;
  const S = styleStart.length - 1;
  const cellWalk = new CellWalk(rows, E, cells);
  const walk = cellWalk.walk.bind(cellWalk);

  // Which locations sell.
  const selling = new Uint8Array(L);
  for (let j = 0; j < n; j++) if (rows.sold[j] > 0) selling[rows.cell[j] % L] = 1;

  // Pass A: each selling cell's days in stock, and what its style did at the location and across the network.
  const fullDays = new Int32Array(cells);
  const styleFirst = new Int32Array(L * S).fill(E);
  /** Per location × style: the last day the style was on sale there for sure (see lastActive below). */
  const styleLastActive = new Int32Array(L * S).fill(-1);
  const styleLast = new Int32Array(L * S).fill(-1);
  const styleSoldOut = new Uint8Array(L * S);
  /** Per style: the last day any selling location sold it or received it. */
  const styleNetLast = new Int32Array(S).fill(-1);
  const everIn = new Uint8Array(cells);
  /** Cells with a day sold out or without stock: the only ones with anything to estimate. */
  const gappy = new Uint8Array(cells);
  /** Per location: levels of 0 posted for a SKU it had none of (it counts its empty shelves). */
  const emptyCounts = new Int32Array(L);
  /** Per location × day: levels of 0 posted for SKUs it had none of that day (a day it counted its empty shelves). */
  const emptyAt = new Uint16Array(L * E);
  /** The cells ever in stock at a selling location. */
  const stocked: number[] = [];
  for (let l = 0; l < L; l++) {
    if (!selling[l]) continue;
    const ownStock = layout.fulfilled[l] === 0;
    for (let k = 0; k < K; k++) {
      const c = k * L + l;
      const [j0, j1] = cellWalk.rowsOf(c);
      if (j0 === j1) continue;
      const s = styleOf[k];
      let full = 0;
      let first = E;
      let last = -1;
      let lastSoldOut = false;
      let gaps = false;
      // The last day it was on sale for sure: it sold or came in, or stock left over since then was taken away the
      // next day (a style's days on sale end with the last of these anywhere; a customer's return sitting on a
      // shelf emptied before says nothing of it).
      let lastActive = -1;
      let leftOver = false;
      walk(
        c,
        (a, b, inStock) => {
          if (!inStock) {
            gaps = true;
            leftOver = false;
            return;
          }
          full += b - a;
          first = Math.min(first, a);
          last = Math.max(last, b - 1);
          lastSoldOut = false;
        },
        (e, j, status, start) => {
          const sold = rows.sold[j];
          const end = rows.endLevel[j];
          if (sold > 0 || (ownStock && end - start + rows.net[j] > 0)) lastActive = e;
          else if (ownStock && leftOver && start - end - rows.net[j] > 0) lastActive = Math.max(lastActive, e - 1);
          leftOver = (leftOver || lastActive === e) && end > 0;
          if (ownStock && rows.counted[j] && status === OUT && start <= 0 && end <= 0) {
            emptyCounts[l]++;
            if (emptyAt[l * E + e] < 65535) emptyAt[l * E + e]++;
          }
          if (status !== IN) gaps = true;
          if (status === OUT) return;
          first = Math.min(first, e);
          last = Math.max(last, e);
          lastSoldOut = status === SOLD_OUT;
          full++;
        },
      );
      if (last < 0) continue;
      everIn[c] = 1;
      stocked.push(c);
      styleNetLast[s] = Math.max(styleNetLast[s], lastActive);
      styleLastActive[l * S + s] = Math.max(styleLastActive[l * S + s], lastActive);
      gappy[c] = gaps ? 1 : 0;
      styleFirst[l * S + s] = Math.min(styleFirst[l * S + s], first);
      // The style's last day on the shelf there, and whether it left it by selling out.
      if (last > styleLast[l * S + s]) {
        styleLast[l * S + s] = last;
        styleSoldOut[l * S + s] = lastSoldOut ? 1 : 0;
      } else if (last === styleLast[l * S + s] && lastSoldOut) styleSoldOut[l * S + s] = 1;
      fullDays[c] = full;
    }
  }

  // The levels, the day indices, the customers' units and the dispersion, fitted together: each round imputes the
  // demand of the days that sold out from the fit before it (rows.sold on the first).
  const want = Float64Array.from(rows.sold);
  /** Per cell: units per day at a day index of 1 over its days in stock (sold-out days at their expected demand). */
  const level = new Float64Array(cells);
  const units = new Float64Array(cells);
  const exposure = new Float64Array(cells);
  const index = new DayIndex(cellWalk, layout, selling, firstDay);
  let baskets: (Basket | undefined)[] = new Array(K).fill(undefined);
  let dispersion: Float64Array = new Float64Array(C);
  /** Per cell: its level drawn towards its SKU's and its location's (pooled-levels.ts): what its days are judged by. */
  let judged: Float64Array = level;
  const measure = (exposureOf: (c: number) => number) => {
    for (const c of stocked) {
      let u = 0;
      walk(
        c,
        () => {},
        (_e, j, status) => {
          if (status !== OUT) u += want[j];
        },
      );
      const x = exposureOf(c);
      units[c] = u;
      exposure[c] = x;
      level[c] = x > 0 ? u / x : 0;
    }
  };
  const pool = () =>
    pooledLevels({
      locations: L,
      skus: K,
      categories: C,
      catOf,
      stocked,
      units,
      exposure,
      spread: (c, m) => (baskets[((c - (c % L)) / L) | 0]?.kappa ?? 1) + dispersion[catOf(((c - (c % L)) / L) | 0)] * m,
    }).level;
  for (let round = 0; round < INDEX_ROUNDS; round++) {
    if (round > 0) {
      for (const c of stocked) {
        if (!gappy[c]) continue;
        const l = c % L;
        const k = (c - l) / L;
        walk(
          c,
          () => {},
          (e, j, status) => {
            if (status !== SOLD_OUT) return;
            want[j] = expectedGiven(rows.sold[j], judged[c] * index.at(l, k, e), dispersion[catOf(k)], baskets[k]);
          },
        );
      }
    }
    measure(round === 0 ? (c) => fullDays[c] : (c) => index.cellExposure(c));
    index.fit(stocked, { want, sold: rows.sold, level });
    measure((c) => index.cellExposure(c));
    judged = pool();
    baskets = readBaskets();
    dispersion = readDispersion();
  }
  judged = pool();
  const closed = index.closed;

  /** Per SKU: a customer's units, from the days it sold where a customer came rarely. */
  function readBaskets(): (Basket | undefined)[] {
    const reader = new BasketReader({
      skus: K,
      styleOf,
      categoryOf,
      styles: S,
      categories: C,
    });
    for (const c of stocked) {
      const l = c % L;
      const k = (c - l) / L;
      const perCustomer = baskets[k]?.mean ?? 1;
      const phi = dispersion[catOf(k)];
      walk(
        c,
        () => {},
        (e, j, status) => {
          if (status === OUT || !(rows.sold[j] > 0)) return;
          reader.day(k, rows.sold[j], status === SOLD_OUT, (judged[c] * index.at(l, k, e)) / perCustomer, phi);
        },
      );
    }
    return reader.baskets();
  }

  /**
   * The overdispersion of daily demand per category, from the residuals of cells' in-stock days around a level
   * fitted per week (so trends and life cycles do not count as noise), beyond what customers' lumps explain.
   */
  function readDispersion(): Float64Array {
    const varNum = new Float64Array(C);
    const varDen = new Float64Array(C);
    const informs = (c: number) => everIn[c] === 1 && level[c] >= DISPERSION_MIN_RATE;
    const informing = new Int32Array(C);
    for (const c of stocked) if (informs(c)) informing[catOf((c / L) | 0)]++;
    const seen = new Int32Array(C);
    /** Per day: 1 when it started with stock enough that it would hardly sell out (see `enough`). */
    const ample = new Uint8Array(E);
    const sold = new Float64Array(E);
    for (const c of stocked) {
      if (!informs(c)) continue;
      const l = c % L;
      const k = (c - l) / L;
      const cat = catOf(k);
      // A sample of a few thousand cells per category says as much as all of them.
      if (seen[cat]++ % Math.max(1, Math.floor(informing[cat] / DISPERSION_SAMPLE)) !== 0) continue;
      const kappa = baskets[k]?.kappa ?? 1;
      const phi = dispersion[cat];
      // Days are chosen by the stock they started with, never by what they sold: leaving out the days that sold out
      // would leave out the days that wanted most, and the spread would read low; a day counts when its stock was
      // three standard deviations above its expected demand, so that what it sold is what it wanted.
      const enough = (e: number, stock: number) => {
        const lambda = level[c] * index.at(l, k, e);
        return stock >= lambda + 3 * Math.sqrt(kappa * lambda + phi * lambda * lambda) + 1;
      };
      walk(
        c,
        (a, b, inStock, stock) => {
          sold.fill(0, a, b);
          for (let e = a; e < b; e++) ample[e] = inStock && enough(e, stock) ? 1 : 0;
        },
        (e, j, st, start) => {
          sold[e] = rows.sold[j];
          ample[e] = st !== OUT && enough(e, openingOr(rows.opening[j], start)) ? 1 : 0;
        },
      );
      // Blocks of whole weeks from Monday to Sunday (a week's promotion in one), each with a level of its own, so
      // trends the indices miss do not read as spread.
      for (let e = (8 - weekday(firstDay)) % 7; e + DISPERSION_BLOCK_DAYS <= E; e += DISPERSION_BLOCK_DAYS) {
        let units = 0;
        let exposure = 0;
        let m = 0;
        for (let x = e; x < e + DISPERSION_BLOCK_DAYS; x++) {
          if (!ample[x]) continue;
          units += sold[x];
          exposure += index.at(l, k, x);
          m++;
        }
        if (m < DISPERSION_BLOCK_DAYS / 4 || exposure <= 0) continue;
        const lvl = units / exposure;
        let sq = 0;
        let mean = 0;
        let mean2 = 0;
        let index2 = 0;
        for (let x = e; x < e + DISPERSION_BLOCK_DAYS; x++) {
          if (!ample[x]) continue;
          const ix = index.at(l, k, x);
          const lambda = lvl * ix;
          sq += (sold[x] - lambda) ** 2;
          mean += lambda;
          mean2 += lambda * lambda;
          index2 += ix * ix;
        }
        varNum[cat] += (sq * m) / (m - 1) - kappa * mean;
        // The block's level is noisy itself: its squares exceed the true level's by its variance (nearly all of it
        // the counts' own), which slow cells would otherwise read as no spread at all.
        varDen[cat] += mean2 - (kappa * mean * index2) / (exposure * exposure);
      }
    }
    const out = new Float64Array(C);
    for (let cat = 0; cat < C; cat++)
      out[cat] = varDen[cat] > 0 ? Math.min(3, Math.max(0, varNum[cat] / varDen[cat])) : 0;
    return out;
  }

  // Per cell, day by day, for the cells with anything to estimate.
  const sold = new Float64Array(E);
  const status = new Uint8Array(E);
  const rowAt = new Int32Array(E);
  /**
   * Per day: the last day up to it a stock level was posted for the cell, or −1; and the cell's usual days between.
   */
  const lastCount = new Int32Array(E);
  /** Per day: 1 when a level was posted for the cell that day; 2 when that level emptied a shelf that held stock. */
  const countedOn = new Uint8Array(E);
  let countEvery = 1;
  const countGaps: number[] = [];
  /** Per day: 1 when the stock was restocked (it rose by more than the day's returns brought back) or sold. */
  const active = new Uint8Array(E);
  /** Per day: 1 when stock came in (a delivery, a count above what was there): a restock cycle starts. */
  const restocked = new Uint8Array(E);
  /** `ownStock`: the location holds the stock it sells (see DemandLayout.fulfilled: else only its sales count). */
  const densify = (c: number, ownStock: boolean) => {
    lastCount.fill(-1);
    countedOn.fill(0);
    countGaps.length = 0;
    let counted = -1;
    walk(
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
    for (let e = 1; e < E; e++) if (lastCount[e] < 0) lastCount[e] = lastCount[e - 1];
    countGaps.sort((a, b) => a - b);
    countEvery = countGaps.length ? Math.min(MAX_COUNT_EVERY_DAYS, countGaps[countGaps.length >> 1]) : 1;
  };
  const sized = (k: number) => styleStart[styleOf[k] + 1] - styleStart[styleOf[k]] > 1;
  /**
   * Cells with days to estimate: those with a day sold out or without stock, and the sizes a location never had
   * of a style it sold (a size run broken from the start).
   */
  const needsEstimate = (l: number, k: number) => {
    const c = k * L + l;
    return everIn[c] === 1 ? gappy[c] === 1 : sized(k) && styleLastActive[l * S + styleOf[k]] >= 0;
  };

  // Pass C: which days each cell was carried without stock, and the demand of those days and of its sold-out days.
  const extra = new Float64Array(n);
  const outCell: number[] = [];
  const outDay: number[] = [];
  const outDemand: number[] = [];
  const carriedOut = new Uint8Array(E);
  const window: number[] = [];
  // SKU by SKU, so that the days' out rows come in cell order.
  for (let k = 0; k < K; k++) {
    for (let l = 0; l < L; l++) {
      if (!selling[l]) continue;
      const c = k * L + l;
      if (!needsEstimate(l, k)) continue;
      densify(c, layout.fulfilled[l] === 0);
      const s = styleOf[k];
      const cat = catOf(k);
      // Carried days without stock.
      carriedOut.fill(0);
      if (layout.fulfilled[l] === 1) {
        // Selling from a warehouse's stock: every day of the style's span (see fulfilled-days.ts).
        for (let e = Math.max(0, onSale?.first[s] ?? E); e <= Math.min(E - 1, onSale?.last[s] ?? -1); e++)
          if (status[e] === OUT && !closed[l * E + e]) carriedOut[e] = 1;
      } else markCarriedOut(l, k, s);
      // Episodes: runs of sold-out and carried-out days; each gets a level from the days in stock around it.
      for (let p = 0; p < E; p++) {
        if (status[p] !== SOLD_OUT && !carriedOut[p]) continue;
        let q = p;
        while (q + 1 < E && (status[q + 1] === SOLD_OUT || carriedOut[q + 1])) q++;
        if (q >= periodFrom && p < periodTo) {
          const lvl = episodeLevel(p, q, l, k, judged[c]);
          for (let e = Math.max(p, periodFrom); e <= Math.min(q, periodTo - 1); e++) {
            const lambda = lvl * index.at(l, k, e);
            if (status[e] === SOLD_OUT) {
              extra[rowAt[e]] = Math.max(0, expectedGiven(sold[e], lambda, dispersion[cat], baskets[k]) - sold[e]);
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

  /**
   * Marks the carried days without stock of a cell at a location holding its own stock: a gap between days with
   * stock, a sold-out tail, a broken size run — or, where the location counts its empty shelves, any outage it goes
   * on counting.
   */
  function markCarriedOut(l: number, k: number, s: number): void {
    const sizedStyle = sized(k);
    const sFirst = styleFirst[l * S + s];
    const sLast = styleLastActive[l * S + s];
    const countsEmpty = emptyCounts[l] >= EMPTY_COUNTS;
    for (let p = 0; p < E; p++) {
      if (status[p] !== OUT) continue;
      let q = p;
      while (q + 1 < E && status[q + 1] === OUT) q++;
      const before = p > 0;
      // Stock back after the gap: restocked or selling again (a customer's return sitting on a shelf the location
      // emptied is no sign it carries the SKU).
      let after = false;
      for (let x = q + 1; x < E && status[x] !== OUT && !after; x++) after = active[x] === 1;
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
        if (started && !countedOn[e] && emptyAt[l * E + e] >= EMPTY_COUNT_DAY) missed = true;
        if (closed[l * E + e]) continue;
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
            (styleSoldOut[l * S + s] === 1 &&
              e > styleLast[l * S + s] &&
              e - styleLast[l * S + s] <= SOLD_OUT_TAIL_DAYS &&
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
  function episodeLevel(p: number, q: number, l: number, k: number, pooled: number): number {
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
    const rightOpen = () => right + 1 < E && right + 1 - q <= LEVEL_REACH_DAYS;
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
      const invK = dispersion[catOf(k)];
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

  const days = periodTo - periodFrom;
  const closedInPeriod = new Uint8Array(L * days);
  for (let l = 0; l < L; l++) closedInPeriod.set(closed.subarray(l * E + periodFrom, l * E + periodTo), l * days);
  return {
    selling,
    extra,
    dispersion,
    closed: closedInPeriod,
    out: { cell: Int32Array.from(outCell), day: Int32Array.from(outDay), demand: Float64Array.from(outDemand) },
  };
}
