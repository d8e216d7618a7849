/**
 * What customers wanted, as far as the history tells: the demand a backtest serves on both of its sides.
 *
 * On a day a location held stock and did not sell out, demand is what it sold. On a day it sold out, demand was at
 * least what it sold. On a day it carried the SKU but had none, demand went on and was lost. On a day it did not
 * carry the SKU (not yet launched, phased out, delisted there, or the location closed), there was none. This module
 * decides which days are which and estimates the demand history does not show, from the SKU's own days in stock
 * around the gap (both sides: it is history), scaled by how its location and its category sold that day.
 *
 * It depends on the data only — never on a scenario — so the actual side of a period is one fact whatever the
 * engine's settings, and a day's estimate is the same in every backtest that covers it (the history is read a
 * reach beyond the period on both sides).
 */

/** An outage between two days with stock or sales, at most this long, is a stock-out of a carried SKU. */
export const CARRIED_GAP_DAYS = 56;
/**
 * After selling out with no stock coming back, a SKU still counts as carried while its style sells elsewhere in the
 * network, for this long at most ("sold shortly before"; longer is a location that stopped carrying it).
 */
export const SOLD_OUT_TAIL_DAYS = 56;
/** Days in stock around an outage that its level is estimated from, nearest first, both sides. */
export const LEVEL_WINDOW_DAYS = 28;
/** How far from an outage those days are looked for. */
export const LEVEL_REACH_DAYS = 91;
/** How far around the period the history is read: far enough for every gap and window above. */
export const HISTORY_REACH_DAYS = Math.max(LEVEL_REACH_DAYS, CARRIED_GAP_DAYS + SOLD_OUT_TAIL_DAYS);
/** A selling location that sold nothing on a day it would have sold this many units was closed (no demand). */
const CLOSED_EXPECTED_UNITS = 7;
/**
 * A thin own history is shrunk towards the SKU's pooled level, weighted as this many days or as the days the pooled
 * level takes to sell this many units, whichever is more: a slow cell's few sales around an outage (a sell-out that
 * came early because a customer or two came early) say little, a fast one's a lot.
 */
const PRIOR_WEIGHT_DAYS = 3;
const PRIOR_WEIGHT_UNITS = 1;
/** The longest cadence of stock counts read as a listing: a location counting more rarely says less about it. */
const MAX_COUNT_EVERY_DAYS = 14;
/** An own history of this many days in stock speaks for itself (its mean is the cell's pooled level too). */
const FULL_HISTORY_DAYS = 28;
/** Pseudo-units shrinking a thin day's index towards the usual one (1 for a category, the weekday's for a location). */
const INDEX_PRIOR_UNITS = 2;
/** Pseudo-units holding a style's index on a day with little of it sold to its course the day before. */
const STYLE_PRIOR_UNITS = 3;
/** Rounds fitting a style's course and its sizes' rates in turn (the first takes the sizes' plain means). */
const STYLE_FIT_ROUNDS = 3;
/** Rounds of the censored-demand estimate (EM); it settles in three or four. */
const EM_ROUNDS = 6;
/** Cells selling at least this much a day inform the dispersion of daily demand. */
const DISPERSION_MIN_RATE = 0.3;
const DISPERSION_SAMPLE = 4000;

/**
 * Whether a location held a SKU on a day: it had stock when the day started (after what is stamped at its
 * midnight) or it sold some. Stock that came in later without a sale (a return, a late delivery) leaves the day
 * one without stock for the customers who came before it. The rule the engine's history, the backtest's actual
 * side and the demand estimate share.
 */
export function heldStock(opening: number, sold: number): boolean {
  return opening > 0 || sold > 0;
}

/** The level a day starts with: its own opening where something was stamped at its midnight (else NaN), or `level`. */
export const openingOr = (opening: number, level: number): number => (Number.isNaN(opening) ? level : opening);

const OUT = 0;
const IN = 1;
/** In stock and sold out during the day: the day's sales are a lower bound of its demand. */
const SOLD_OUT = 2;

/** Daily rows of every location×SKU cell over the history read, cell by cell and day by day within a cell. */
export interface CellDayRows {
  /** `sku × L + location` (see recommend/state.ts), ascending. */
  cell: ArrayLike<number>;
  /** Day index in the history read; −1 is the level it starts from. */
  d: ArrayLike<number>;
  endLevel: ArrayLike<number>;
  /** The level the day starts with, when something is stamped at its midnight; else NaN (the day before's end). */
  opening: ArrayLike<number>;
  /** 1 when a sale left no stock: the day sold out. */
  soldOut: ArrayLike<number>;
  /** 1 when a stock level was posted that day (zero included): the location still lists the SKU. */
  counted: ArrayLike<number>;
  /** Gross units sold. */
  sold: ArrayLike<number>;
  /** Net units sold (returns subtracted). */
  net: ArrayLike<number>;
}

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

export interface DemandLayout {
  locations: number;
  skus: number;
  /** Per SKU. */
  styleOf: Int32Array;
  /** SKUs of style s are [styleStart[s], styleStart[s + 1]). */
  styleStart: Int32Array;
  /** Per style. */
  categoryOf: Int32Array;
  categories: number;
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

/** Where the day-of-week of a day number falls: 0 is Sunday (1970-01-01 was a Thursday). */
const weekday = (day: number) => (((day + 4) % 7) + 7) % 7;

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

  // Cells' row ranges, and which locations sell.
  const selling = new Uint8Array(L);
  const rowFrom = new Int32Array(L * K).fill(-1);
  const rowTo = new Int32Array(L * K);
  for (let j = 0; j < n; j++) {
    const c = rows.cell[j];
    if (rowFrom[c] < 0) rowFrom[c] = j;
    rowTo[c] = j + 1;
    if (rows.sold[j] > 0) selling[c % L] = 1;
  }
  const rowsOf = (c: number): [number, number] => (rowFrom[c] < 0 ? [0, 0] : [rowFrom[c], rowTo[c]]);

  // Pass A, sparse: each selling cell's mean sales over its days in stock (r), when it had stock or sales, and the
  // sums behind the day indices.
  const cells = L * K;
  const rate = new Float64Array(cells);
  const fullDays = new Int32Array(cells);
  const S = styleStart.length - 1;
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
  const num = new Float64Array(L * C * E);
  const den = new Float64Array(L * C * (E + 1));
  /** The days of a cell's rows: stretches without an event, and days with one (with the level they started from). */
  const walk = (
    j0: number,
    j1: number,
    stretch: (a: number, b: number, inStock: boolean) => void,
    day: (e: number, j: number, status: number, start: number) => void,
  ) => {
    let j = j0;
    let level = 0;
    if (j < j1 && rows.d[j] < 0) level = rows.endLevel[j++];
    let e = 0;
    for (; j < j1; j++) {
      const d = rows.d[j];
      if (d >= E) break;
      if (d > e) stretch(e, d, level > 0);
      const sold = rows.sold[j];
      const opening = openingOr(rows.opening[j], level);
      day(d, j, !heldStock(opening, sold) ? OUT : rows.soldOut[j] ? SOLD_OUT : IN, level);
      level = rows.endLevel[j];
      e = d + 1;
    }
    if (e < E) stretch(e, E, level > 0);
  };
  for (let l = 0; l < L; l++) {
    if (!selling[l]) continue;
    for (let k = 0; k < K; k++) {
      const c = k * L + l;
      const [j0, j1] = rowsOf(c);
      if (j0 === j1) continue;
      const s = styleOf[k];
      let units = 0;
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
      const ownStock = layout.fulfilled[l] === 0;
      walk(
        j0,
        j1,
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
          if (status !== IN) gaps = true;
          if (status === OUT) return;
          first = Math.min(first, e);
          last = Math.max(last, e);
          lastSoldOut = status === SOLD_OUT;
          // Days that sold out count too: the rate is a pooled level for thin histories, and a slow mover sells
          // most of its units on the day it sells its last one.
          full++;
          units += rows.sold[j];
        },
      );
      if (last < 0) continue;
      everIn[c] = 1;
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
      const r = full > 0 ? units / full : 0;
      rate[c] = r;
      const g = (l * C + catOf(k)) * E;
      const gd = (l * C + catOf(k)) * (E + 1);
      walk(
        j0,
        j1,
        (a, b, inStock) => {
          if (!inStock || r === 0) return;
          den[gd + a] += r;
          den[gd + b] -= r;
        },
        (e, j, status) => {
          if (status !== IN) return;
          num[g + e] += rows.sold[j];
          if (r !== 0) {
            den[gd + e] += r;
            den[gd + e + 1] -= r;
          }
        },
      );
    }
  }
  for (let g = 0; g < L * C; g++) for (let e = 1; e <= E; e++) den[g * (E + 1) + e] += den[g * (E + 1) + e - 1];

  // Day indices: how a category sold across the network each day (promotions, season) and how a location sold
  // that day beyond its categories (weekday, holidays, its own events), each against the cells' usual rate.
  const catIndex = new Float64Array(C * E);
  for (let cat = 0; cat < C; cat++) {
    for (let e = 0; e < E; e++) {
      let nn = 0;
      let dd = 0;
      for (let l = 0; l < L; l++) {
        nn += num[(l * C + cat) * E + e];
        dd += den[(l * C + cat) * (E + 1) + e];
      }
      catIndex[cat * E + e] = (nn + INDEX_PRIOR_UNITS) / (dd + INDEX_PRIOR_UNITS);
    }
  }
  const locIndex = new Float64Array(L * E);
  const closed = new Uint8Array(L * E);
  const locNum = new Float64Array(E);
  const locDen = new Float64Array(E);
  const locRate = new Float64Array(E);
  for (let l = 0; l < L; l++) {
    if (!selling[l]) continue;
    const wn = new Float64Array(7);
    const wd = new Float64Array(7);
    const wr = new Float64Array(7);
    for (let e = 0; e < E; e++) {
      let nn = 0;
      let dd = 0;
      let rr = 0;
      for (let cat = 0; cat < C; cat++) {
        const x = den[(l * C + cat) * (E + 1) + e];
        nn += num[(l * C + cat) * E + e];
        dd += x * catIndex[cat * E + e];
        rr += x;
      }
      locNum[e] = nn;
      locDen[e] = dd;
      locRate[e] = rr;
      wn[weekday(firstDay + e)] += nn;
      wd[weekday(firstDay + e)] += dd;
      wr[weekday(firstDay + e)] += rr;
    }
    for (let e = 0; e < E; e++) {
      const w = weekday(firstDay + e);
      const usual = wd[w] > 0 ? wn[w] / wd[w] : 1;
      locIndex[l * E + e] = (locNum[e] + INDEX_PRIOR_UNITS * usual) / (locDen[e] + INDEX_PRIOR_UNITS);
      // Closed: nothing sold where a usual such weekday sells plenty (whatever the rest of the network did that day).
      if (locNum[e] === 0 && wr[w] > 0 && (locRate[e] * wn[w]) / wr[w] >= CLOSED_EXPECTED_UNITS) closed[l * E + e] = 1;
    }
  }
  // A style in sizes has one course across the network beyond its category's (a life cycle, a markdown): its sizes'
  // sales each day against what their usual rate and the day's location and category indices expect. Days with
  // little to go on lean on the day before, so a style sold out everywhere keeps the course it was on.
  // A size's usual rate is its mean over its own days in stock, and those are not the style's: a size that sold out
  // early was in stock only at the peak, one that lasted also in the decline. So the rates and the course are fitted
  // in turn, each size's rate taken over the course of its own days.
  const styleIndex = new Float64Array(S * E).fill(1);
  {
    const sNum = new Float64Array(E);
    const sExp = new Float64Array(E);
    const diff = new Float64Array(E + 1);
    const course = new Float64Array(E + 1);
    for (let s = 0; s < S; s++) {
      if (styleStart[s + 1] - styleStart[s] < 2) continue;
      const cat = categoryOf[s];
      for (let round = 0; round < STYLE_FIT_ROUNDS; round++) {
        sNum.fill(0);
        sExp.fill(0);
        for (let l = 0; l < L; l++) {
          if (!selling[l]) continue;
          diff.fill(0);
          let any = false;
          for (let k = styleStart[s]; k < styleStart[s + 1]; k++) {
            const c = k * L + l;
            if (rate[c] === 0) continue;
            const [j0, j1] = rowsOf(c);
            // The expected sales of the location's days on the style's course so far, summed up to each day.
            if (round > 0 && !any)
              for (let e = 0; e < E; e++)
                course[e + 1] = course[e] + locIndex[l * E + e] * catIndex[cat * E + e] * styleIndex[s * E + e];
            any = true;
            let exposure = 0;
            if (round > 0) {
              walk(
                j0,
                j1,
                (a, b, inStock) => {
                  if (inStock) exposure += course[b] - course[a];
                },
                (e, _j, status) => {
                  if (status !== OUT) exposure += course[e + 1] - course[e];
                },
              );
            }
            const r = round > 0 && exposure > 0 ? (rate[c] * fullDays[c]) / exposure : rate[c];
            walk(
              j0,
              j1,
              (a, b, inStock) => {
                if (!inStock) return;
                diff[a] += r;
                diff[b] -= r;
              },
              (e, j, status) => {
                if (status === OUT) return;
                sNum[e] += rows.sold[j];
                diff[e] += r;
                diff[e + 1] -= r;
              },
            );
          }
          if (!any) continue;
          let running = 0;
          for (let e = 0; e < E; e++) {
            running += diff[e];
            if (running > 1e-12) sExp[e] += running * locIndex[l * E + e] * catIndex[cat * E + e];
          }
        }
        let prev = 1;
        for (let e = 0; e < E; e++) {
          prev = (sNum[e] + STYLE_PRIOR_UNITS * prev) / (sExp[e] + STYLE_PRIOR_UNITS);
          styleIndex[s * E + e] = prev;
        }
      }
    }
  }
  const index = (l: number, k: number, e: number) =>
    locIndex[l * E + e] * catIndex[catOf(k) * E + e] * styleIndex[styleOf[k] * E + e];

  // Pooled levels for thin histories: the cell's own mean when it has one, else its style there × the size's share,
  // else the SKU elsewhere × how this location sells the category, else the category at the location.
  const skuNet = new Float64Array(K);
  const skuNetN = new Int32Array(K);
  const locCat = new Float64Array(L * C);
  const locCatN = new Int32Array(L * C);
  const netCat = new Float64Array(C);
  const netCatN = new Int32Array(C);
  const styleAt = new Float64Array(L * S);
  const skuAll = new Float64Array(K);
  for (let l = 0; l < L; l++) {
    if (!selling[l]) continue;
    for (let k = 0; k < K; k++) {
      const c = k * L + l;
      if (fullDays[c] < FULL_HISTORY_DAYS) continue;
      const r = rate[c];
      skuNet[k] += r;
      skuNetN[k]++;
      locCat[l * C + catOf(k)] += r;
      locCatN[l * C + catOf(k)]++;
      netCat[catOf(k)] += r;
      netCatN[catOf(k)]++;
      styleAt[l * S + styleOf[k]] += r;
      skuAll[k] += r;
    }
  }
  const prior = (l: number, k: number): number => {
    const c = k * L + l;
    if (fullDays[c] >= FULL_HISTORY_DAYS) return rate[c];
    const s = styleOf[k];
    const cat = catOf(k);
    if (styleStart[s + 1] - styleStart[s] > 1 && styleAt[l * S + s] > 0) {
      let total = 0;
      for (let k2 = styleStart[s]; k2 < styleStart[s + 1]; k2++) total += skuAll[k2];
      if (total > 0 && skuAll[k] > 0) return styleAt[l * S + s] * (skuAll[k] / total);
    }
    if (skuNetN[k] > 0 && locCatN[l * C + cat] > 0 && netCat[cat] > 0) {
      return (skuNet[k] / skuNetN[k]) * (locCat[l * C + cat] / locCatN[l * C + cat] / (netCat[cat] / netCatN[cat]));
    }
    if (locCatN[l * C + cat] > 0) return locCat[l * C + cat] / locCatN[l * C + cat];
    return rate[c];
  };

  // Per cell, day by day, for the cells with anything to estimate.
  const sold = new Float64Array(E);
  const status = new Uint8Array(E);
  const rowAt = new Int32Array(E);
  /**
   * Per day: the last day up to it a stock level was posted for the cell, or −1; and the cell's usual days between.
   */
  const lastCount = new Int32Array(E);
  let countEvery = 1;
  const countGaps: number[] = [];
  /** Per day: 1 when the stock was restocked (it rose by more than the day's returns brought back) or sold. */
  const active = new Uint8Array(E);
  /** Per day: 1 when stock came in (a delivery, a count above what was there): a restock cycle starts. */
  const restocked = new Uint8Array(E);
  /** `ownStock`: the location holds the stock it sells (see DemandLayout.fulfilled: else only its sales count). */
  const densify = (j0: number, j1: number, ownStock: boolean) => {
    lastCount.fill(-1);
    countGaps.length = 0;
    let counted = -1;
    walk(
      j0,
      j1,
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

  // Pass B: the overdispersion of daily demand per category, from the residuals of cells' in-stock days around a
  // level fitted per week (so trends and life cycles do not count as noise).
  const varNum = new Float64Array(C);
  const varDen = new Float64Array(C);
  const informs = (c: number) => everIn[c] === 1 && rate[c] >= DISPERSION_MIN_RATE;
  const informing = new Int32Array(C);
  for (let c = 0; c < cells; c++) if (informs(c)) informing[catOf((c / L) | 0)]++;
  const seen = new Int32Array(C);
  for (let l = 0; l < L; l++) {
    if (!selling[l]) continue;
    for (let k = 0; k < K; k++) {
      const c = k * L + l;
      if (!informs(c)) continue;
      const cat = catOf(k);
      // A sample of a few thousand cells per category says as much as all of them.
      if (seen[cat]++ % Math.max(1, Math.floor(informing[cat] / DISPERSION_SAMPLE)) !== 0) continue;
      const [j0, j1] = rowsOf(c);
      densify(j0, j1, layout.fulfilled[l] === 0);
      // Weeks from Monday to Sunday, so a week's promotion is one level.
      let e = (8 - weekday(firstDay)) % 7;
      for (; e + 7 <= E; e += 7) {
        let units = 0;
        let exposure = 0;
        let m = 0;
        for (let x = e; x < e + 7; x++) {
          if (status[x] !== IN) continue;
          units += sold[x];
          exposure += index(l, k, x);
          m++;
        }
        if (m < 5 || exposure <= 0) continue;
        const level = units / exposure;
        let sq = 0;
        let mean = 0;
        let mean2 = 0;
        for (let x = e; x < e + 7; x++) {
          if (status[x] !== IN) continue;
          const lambda = level * index(l, k, x);
          sq += (sold[x] - lambda) ** 2;
          mean += lambda;
          mean2 += lambda * lambda;
        }
        varNum[cat] += (sq * m) / (m - 1) - mean;
        varDen[cat] += mean2;
      }
    }
  }
  const dispersion = new Float64Array(C);
  for (let cat = 0; cat < C; cat++)
    dispersion[cat] = varDen[cat] > 0 ? Math.min(3, Math.max(0, varNum[cat] / varDen[cat])) : 0;

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
      const [j0, j1] = rowsOf(c);
      densify(j0, j1, layout.fulfilled[l] === 0);
      const s = styleOf[k];
      const cat = catOf(k);
      const sized = styleStart[s + 1] - styleStart[s] > 1;
      const sFirst = styleFirst[l * S + s];
      const sLast = styleLastActive[l * S + s];
      // Carried days without stock.
      carriedOut.fill(0);
      if (layout.fulfilled[l] === 1) {
        // Selling from a warehouse's stock: every day of the style's span (see fulfilled-days.ts).
        for (let e = Math.max(0, onSale?.first[s] ?? E); e <= Math.min(E - 1, onSale?.last[s] ?? -1); e++)
          if (status[e] === OUT && !closed[l * E + e]) carriedOut[e] = 1;
      } else {
        // A location holding its own stock: a gap between days with stock, a sold-out tail, a broken size run.
        for (let p = 0; p < E; p++) {
          if (status[p] !== OUT) continue;
          let q = p;
          while (q + 1 < E && status[q + 1] === OUT) q++;
          const before = p > 0;
          // Stock back after the gap: restocked or selling again (a customer's return sitting on a shelf the
          // location emptied is no sign it carries the SKU).
          let after = false;
          for (let x = q + 1; x < E && status[x] !== OUT && !after; x++) after = active[x] === 1;
          const shortGap = before && after && q - p + 1 <= CARRIED_GAP_DAYS;
          const soldOut = before && status[p - 1] === SOLD_OUT;
          for (let e = p; e <= q; e++) {
            if (closed[l * E + e]) continue;
            // Sold out with no stock coming back: carried a while, as long as the style is on sale elsewhere (one gone
            // from every shelf was delisted, not sold out).
            // (Levels of 0 still posted for it say the location lists it where the style is gone everywhere: until
            // the next count would have come after the last one.)
            const listed = lastCount[q] >= p - 1 && e < lastCount[q] + countEvery;
            const tail = soldOut && e - p < SOLD_OUT_TAIL_DAYS && (e <= styleNetLast[s] || listed);
            // A style in sizes: every size while the style sells there, and after the whole style sold out there as a
            // sold-out SKU would be.
            const sizeRun =
              sized &&
              e >= sFirst &&
              (e <= sLast ||
                (styleSoldOut[l * S + s] === 1 &&
                  e > styleLast[l * S + s] &&
                  e - styleLast[l * S + s] <= SOLD_OUT_TAIL_DAYS &&
                  (e <= styleNetLast[s] || listed)));
            if (shortGap || sizeRun || tail) carriedOut[e] = 1;
          }
          p = q;
        }
      }
      // Episodes: runs of sold-out and carried-out days; each gets a level from the days in stock around it.
      for (let p = 0; p < E; p++) {
        if (status[p] !== SOLD_OUT && !carriedOut[p]) continue;
        let q = p;
        while (q + 1 < E && (status[q + 1] === SOLD_OUT || carriedOut[q + 1])) q++;
        if (q >= periodFrom && p < periodTo) {
          const level = episodeLevel(p, q, l, k, prior(l, k));
          for (let e = Math.max(p, periodFrom); e <= Math.min(q, periodTo - 1); e++) {
            const lambda = level * index(l, k, e);
            if (status[e] === SOLD_OUT) {
              extra[rowAt[e]] = Math.max(0, conditionalMean(sold[e], lambda, dispersion[cat]) - sold[e]);
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
   * The cell's level (units per day at index 1) around the episode [p, q], from the days in stock around it, sold-out
   * days counted as "at least". The days are taken in whole restock cycles — from a day stock came in to the day
   * before the next — about half on each side: a cycle cut short would keep the days before its sell-out, which
   * sold little, without the one that sold out (or the other way round), and lean the level low (or high).
   */
  function episodeLevel(p: number, q: number, l: number, k: number, pooled: number): number {
    window.length = 0;
    for (let e = p; e <= q; e++) if (status[e] === SOLD_OUT) window.push(e);
    const half = LEVEL_WINDOW_DAYS / 2;
    let left = p;
    let right = q;
    let leftDays = 0;
    let rightDays = 0;
    const leftOpen = () => left > 0 && p - (left - 1) <= LEVEL_REACH_DAYS;
    const rightOpen = () => right + 1 < E && right + 1 - q <= LEVEL_REACH_DAYS;
    // Backwards to the start of a cycle, forwards to the end of one, each once it has its share of days.
    const stepLeft = (want: number) => {
      while (leftOpen() && !(leftDays >= want && restocked[left] && left <= p - 1)) {
        left--;
        if (status[left] !== OUT) {
          window.push(left);
          leftDays++;
        }
      }
    };
    const stepRight = (want: number) => {
      while (rightOpen() && !(rightDays >= want && restocked[right + 1])) {
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
      exposure += index(l, k, e);
      units += sold[e];
      if (status[e] === IN) uncensored++;
    }
    if (exposure <= 0) return pooled;
    let level = units / exposure;
    // Censored days say "at least": replace them by their expectation given the level, until it settles. With no
    // uncensored day the level is not identified (it would grow without bound), so it stays at what was sold.
    if (uncensored > 0 && uncensored < window.length) {
      const invK = dispersion[catOf(k)];
      for (let round = 0; round < EM_ROUNDS; round++) {
        let total = 0;
        for (const e of window)
          total += status[e] === SOLD_OUT ? conditionalMean(sold[e], level * index(l, k, e), invK) : sold[e];
        const next = total / exposure;
        const settled = Math.abs(next - level) <= 1e-9 * Math.max(1, level);
        level = next;
        if (settled) break;
      }
    }
    const weight = pooled > 0 ? Math.max(PRIOR_WEIGHT_DAYS, PRIOR_WEIGHT_UNITS / pooled) : PRIOR_WEIGHT_DAYS;
    return (exposure * level + weight * pooled) / (exposure + weight);
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

/**
 * E[D | D ≥ s] for daily demand D with mean `mu`, negative binomial with overdispersion `invK` (variance
 * mu + invK·mu²), Poisson when invK is 0: the expected demand of a day that sold out after selling s.
 */
export function conditionalMean(s: number, mu: number, invK: number): number {
  if (!(mu > 0)) return s;
  const from = Math.ceil(s);
  if (from <= 0) return mu;
  // Summed upwards from s: p(x+1) = p(x)·(x+k)/(x+1)·mu/(k+mu), Poisson's limit mu/(x+1).
  const poisson = invK <= 1e-9;
  const k = poisson ? 0 : 1 / invK;
  let logP: number;
  if (poisson) logP = from * Math.log(mu) - mu - logGamma(from + 1);
  else
    logP =
      logGamma(from + k) -
      logGamma(k) -
      logGamma(from + 1) +
      k * Math.log(k / (k + mu)) +
      from * Math.log(mu / (k + mu));
  let p = Math.exp(logP);
  // Too far from the mean to weigh in doubles: below it, nearly every day sells at least s; above, barely more.
  if (!(p > 0)) return from < mu ? mu : s;
  let mass = 0;
  let first = 0;
  const ratio = poisson ? 0 : mu / (k + mu);
  for (let x = from; x < from + 100_000; x++) {
    mass += p;
    first += x * p;
    const next = poisson ? (p * mu) / (x + 1) : (p * (x + k) * ratio) / (x + 1);
    if (x > mu && next < 1e-12 * mass) break;
    p = next;
  }
  return mass > 0 ? Math.max(s, first / mass) : s;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const g = 7;
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  x -= 1;
  let a = c[0];
  const t = x + g + 0.5;
  for (let i = 1; i < g + 2; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}
