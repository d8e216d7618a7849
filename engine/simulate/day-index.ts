/**
 * How much a day sells against a usual one: the day index a cell's level is multiplied by. It is the location's day
 * (weekday, holidays, its own events) × the category's day across the network (season, promotions) × for a style in
 * sizes the style's own course (life cycle, markdown). Each is what the cells in stock sold that day against what
 * their levels expect.
 *
 * Every day a cell started with stock counts, the days it sold out included, with what it is thought to have
 * wanted then (actual-demand.ts: its sales, and on a day it sold out its expected demand given what it sold).
 * Leaving the sold-out days out would choose days by what they sold: where stock arrives on a weekday and runs
 * out within the week, the days before each delivery would only count the cells that happened not to sell out,
 * and their index would come out low — and the days without stock it is applied to are mostly those days.
 */
import { OUT, SOLD_OUT_TAIL_DAYS, type CellWalk } from './cell-walk.js';
import { logGamma } from './demand-distribution.js';

/** Pseudo-units shrinking a thin day's index towards the usual one (1 for a category, the weekday's for a location). */
const INDEX_PRIOR_UNITS = 2;
/**
 * Pseudo-units holding a style's index on a day with little of it sold to its course the day before. Fewer units
 * than that say little (a third either way), and a style's course is carried over every day it then sells nowhere:
 * it must not be the last unit or two one size sold. Beyond these, a day's course is held by what the style's cells
 * without stock that day would have sold (see fitStyles).
 */
const STYLE_PRIOR_UNITS = 10;
/** A selling location that sold nothing on a day it would have sold this many units was closed (no demand). */
const CLOSED_EXPECTED_UNITS = 7;

/** Where the day-of-week of a day number falls: 0 is Sunday (1970-01-01 was a Thursday). */
export const weekday = (day: number) => (((day + 4) % 7) + 7) % 7;

/** The network's numbering: what the day indices and the demand estimate are laid out by. */
export interface IndexLayout {
  locations: number;
  skus: number;
  /** Per SKU. */
  styleOf: Int32Array;
  /** SKUs of style s are [styleStart[s], styleStart[s + 1]). */
  styleStart: Int32Array;
  /** Per style. */
  categoryOf: Int32Array;
  categories: number;
}

/** What the cells give the fit: per row, the demand of an in-stock day; per cell, its level and in-stock days. */
export interface CellLevels {
  /** Per row: the demand of the day when it started with stock (its sales, or more where it sold out). */
  want: Float64Array;
  /** Per cell: units per day at index 1 (0: nothing to go on). */
  level: Float64Array;
  /** Per cell: its level drawn towards its SKU's and location's (pooled-levels.ts): a style's course is read by it. */
  pooled: Float64Array;
}

export class DayIndex {
  readonly cat: Float64Array;
  readonly loc: Float64Array;
  readonly style: Float64Array;
  /** Per location × day: 1 when it was closed (it sold nothing where it sells plenty). */
  readonly closed: Uint8Array;
  private readonly E: number;
  private readonly L: number;
  private readonly C: number;
  private readonly S: number;
  private readonly num: Float64Array;
  private readonly den: Float64Array;
  /** Per location × category: the prefix sums over days of location × category index (one-size styles' exposure). */
  private readonly prefix: Float64Array;

  constructor(
    private readonly walk: CellWalk,
    private readonly layout: IndexLayout,
    private readonly selling: Uint8Array,
    private readonly firstDay: number,
  ) {
    const E = (this.E = walk.days);
    const L = (this.L = layout.locations);
    const C = (this.C = layout.categories);
    const S = (this.S = layout.styleStart.length - 1);
    this.cat = new Float64Array(C * E).fill(1);
    this.loc = new Float64Array(L * E).fill(1);
    this.style = new Float64Array(S * E).fill(1);
    this.closed = new Uint8Array(L * E);
    this.num = new Float64Array(L * C * E);
    this.den = new Float64Array(L * C * (E + 1));
    this.prefix = new Float64Array(L * C * (E + 1));
    this.updatePrefix();
  }

  /** The day index of SKU k at location l on day e. */
  at(l: number, k: number, e: number): number {
    const s = this.layout.styleOf[k];
    return this.loc[l * this.E + e] * this.cat[this.layout.categoryOf[s] * this.E + e] * this.style[s * this.E + e];
  }

  private sized(k: number): boolean {
    const s = this.layout.styleOf[k];
    return this.layout.styleStart[s + 1] - this.layout.styleStart[s] > 1;
  }

  /** Σ of the index of SKU k at location l over days [a, b). */
  exposure(l: number, k: number, a: number, b: number): number {
    if (b <= a) return 0;
    if (!this.sized(k)) {
      const g = (l * this.C + this.layout.categoryOf[this.layout.styleOf[k]]) * (this.E + 1);
      return this.prefix[g + b] - this.prefix[g + a];
    }
    let x = 0;
    for (let e = a; e < b; e++) x += this.at(l, k, e);
    return x;
  }

  /** Σ of the index over the cell's days that started with stock: what its level is per. */
  cellExposure(c: number): number {
    const l = c % this.L;
    const k = (c - l) / this.L;
    let x = 0;
    this.walk.walk(
      c,
      (a, b, inStock) => {
        if (inStock) x += this.exposure(l, k, a, b);
      },
      (e, _j, status) => {
        if (status !== OUT) x += this.at(l, k, e);
      },
    );
    return x;
  }

  private updatePrefix(): void {
    const { E, L, C } = this;
    for (let l = 0; l < L; l++)
      for (let cat = 0; cat < C; cat++) {
        const g = (l * C + cat) * (E + 1);
        this.prefix[g] = 0;
        for (let e = 0; e < E; e++)
          this.prefix[g + e + 1] = this.prefix[g + e] + this.loc[l * E + e] * this.cat[cat * E + e];
      }
  }

  /** Fits the indices to the cells' demand of their days in stock (`cells`: those ever in stock where it sells). */
  fit(cells: ArrayLike<number>, levels: CellLevels): void {
    const { E, L, C, num, den } = this;
    const { want, level } = levels;
    num.fill(0);
    den.fill(0);
    const { categoryOf, styleOf } = this.layout;
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i];
      const l = c % L;
      const k = (c - l) / L;
      const r = level[c];
      const s = styleOf[k];
      const g = (l * C + categoryOf[s]) * E;
      const gd = (l * C + categoryOf[s]) * (E + 1);
      const sized = this.sized(k);
      // The cell's expected units at a location and category index of 1: its level, times its style's course.
      const add = (a: number, b: number) => {
        if (r === 0) return;
        if (!sized) {
          den[gd + a] += r;
          den[gd + b] -= r;
          return;
        }
        for (let e = a; e < b; e++) {
          const x = r * this.style[s * E + e];
          den[gd + e] += x;
          den[gd + e + 1] -= x;
        }
      };
      this.walk.walk(
        c,
        (a, b, inStock) => {
          if (inStock) add(a, b);
        },
        (e, j, status) => {
          if (status === OUT) return;
          num[g + e] += want[j];
          add(e, e + 1);
        },
      );
    }
    for (let g = 0; g < L * C; g++) for (let e = 1; e <= E; e++) den[g * (E + 1) + e] += den[g * (E + 1) + e - 1];
    this.fitCategories();
    this.fitLocations();
    this.fitStyles(cells, levels);
    this.updatePrefix();
  }

  /** How a category sold across the network each day (promotions, season) against the cells' levels. */
  private fitCategories(): void {
    const { E, L, C, num, den } = this;
    for (let cat = 0; cat < C; cat++) {
      for (let e = 0; e < E; e++) {
        let nn = 0;
        let dd = 0;
        for (let l = 0; l < L; l++) {
          nn += num[(l * C + cat) * E + e];
          dd += den[(l * C + cat) * (E + 1) + e] * this.loc[l * E + e];
        }
        this.cat[cat * E + e] = (nn + INDEX_PRIOR_UNITS) / (dd + INDEX_PRIOR_UNITS);
      }
    }
  }

  /** How a location sold each day beyond its categories (weekday, holidays, its own events); which days it was shut. */
  private fitLocations(): void {
    const { E, L, C, num, den, firstDay } = this;
    const locNum = new Float64Array(E);
    const locDen = new Float64Array(E);
    const locRate = new Float64Array(E);
    this.closed.fill(0);
    /** Per location × day it sold nothing: the units a usual such weekday would have sold (NaN: it sold some). */
    const silent = new Float64Array(L * E).fill(Number.NaN);
    /** Per day: the selling locations with a usual such weekday to expect from. */
    const expecting = new Int32Array(E);
    for (let l = 0; l < L; l++) {
      if (!this.selling[l]) continue;
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
          dd += x * this.cat[cat * E + e];
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
        this.loc[l * E + e] = (locNum[e] + INDEX_PRIOR_UNITS * usual) / (locDen[e] + INDEX_PRIOR_UNITS);
        if (wr[w] > 0) expecting[e]++;
        if (locNum[e] === 0 && wr[w] > 0) silent[l * E + e] = (locRate[e] * wn[w]) / wr[w];
      }
    }
    this.closeSilentDays(silent, expecting);
  }

  /**
   * Closed: nothing sold where a usual such weekday sells plenty — at one location, or at several together (a
   * holiday shuts every store, each of which may sell little on its own). Locations that sold nothing on a day were
   * closed together when the units they would have sold between them make it as unlikely as one location's
   * plenty would, counting the ways that many of the locations could have been picked: in no other way would a
   * small store's quiet day be told from its closed one, nor many small stores' chance quiet day from a holiday.
   */
  private closeSilentDays(silent: Float64Array, expecting: Int32Array): void {
    const { E, L } = this;
    const pickedFrom = (n: number, m: number) => logGamma(n + 1) - logGamma(m + 1) - logGamma(n - m + 1);
    for (let e = 0; e < E; e++) {
      let sum = 0;
      let quiet = 0;
      for (let l = 0; l < L; l++) {
        const x = silent[l * E + e];
        if (Number.isNaN(x)) continue;
        sum += x;
        quiet++;
      }
      if (quiet === 0) continue;
      const together = sum >= CLOSED_EXPECTED_UNITS + pickedFrom(expecting[e], quiet);
      for (let l = 0; l < L; l++) {
        const x = silent[l * E + e];
        if (!Number.isNaN(x) && (together || x >= CLOSED_EXPECTED_UNITS)) this.closed[l * E + e] = 1;
      }
    }
  }

  /**
   * A style in sizes has one course across the network beyond its category's (a life cycle, a markdown): its sizes'
   * demand each day — a sold-out day's at its expected demand — against what their pooled levels and the day's
   * location and category indices expect. Days with little to go on lean on the day before, so a style sold out
   * everywhere keeps the course it was on. Its sizes' levels are the pooled ones, each over the course of its own
   * days (demand-fit.ts fits them and the course in turn), not their own means: the sizes still in stock as a style
   * sells out everywhere are those that happened to sell less than their due, and read against their own means
   * their last sales would lift the course the style then keeps.
   *
   * A day's course is held to the day before's by the units its carried cells without stock would have sold, as well
   * as by STYLE_PRIOR_UNITS: what the few cells still in stock sold says little of the many without. A cell counts as
   * carried from its first day in stock to SOLD_OUT_TAIL_DAYS after its last, as a sold-out SKU does
   * (outage-demand.ts). Read from the cells in stock alone, a style selling out everywhere late in its life lifted its
   * course as it declined (the generated fashion webshop's seed 7: one style's from 1.08 to 1.41 while what it would
   * have sold halved), and every store that had run out of it was thought to lose twice what it did.
   */
  private fitStyles(cells: ArrayLike<number>, { want, pooled }: CellLevels): void {
    const { E, L, S } = this;
    const { styleStart, categoryOf } = this.layout;
    const sNum = new Float64Array(E);
    const sExp = new Float64Array(E);
    const diff = new Float64Array(E + 1);
    // The same over each cell's carried days, in stock or not, and its sum.
    const carriedDiff = new Float64Array(E + 1);
    const carriedExp = new Float64Array(E);
    // The cells ever in stock, by style and location.
    const listed = new Uint8Array(L * this.layout.skus);
    for (let i = 0; i < cells.length; i++) listed[cells[i]] = 1;
    for (let s = 0; s < S; s++) {
      if (styleStart[s + 1] - styleStart[s] < 2) continue;
      const cat = categoryOf[s];
      sNum.fill(0);
      sExp.fill(0);
      carriedExp.fill(0);
      for (let l = 0; l < L; l++) {
        if (!this.selling[l]) continue;
        diff.fill(0);
        carriedDiff.fill(0);
        let any = false;
        for (let k = styleStart[s]; k < styleStart[s + 1]; k++) {
          const c = k * L + l;
          const r = pooled[c];
          if (!listed[c] || r === 0) continue;
          any = true;
          let first = -1;
          let last = -1;
          this.walk.walk(
            c,
            (a, b, inStock) => {
              if (!inStock) return;
              diff[a] += r;
              diff[b] -= r;
              if (first < 0) first = a;
              last = b - 1;
            },
            (e, j, status) => {
              if (status === OUT) return;
              sNum[e] += want[j];
              diff[e] += r;
              diff[e + 1] -= r;
              if (first < 0) first = e;
              last = e;
            },
          );
          if (first >= 0) {
            carriedDiff[first] += r;
            carriedDiff[Math.min(E, last + 1 + SOLD_OUT_TAIL_DAYS)] -= r;
          }
        }
        if (!any) continue;
        let running = 0;
        let carried = 0;
        for (let e = 0; e < E; e++) {
          running += diff[e];
          carried += carriedDiff[e];
          const index = this.loc[l * E + e] * this.cat[cat * E + e];
          if (running > 1e-12) sExp[e] += running * index;
          if (carried > 1e-12) carriedExp[e] += carried * index;
        }
      }
      let prev = 1;
      for (let e = 0; e < E; e++) {
        const held = STYLE_PRIOR_UNITS + Math.max(0, carriedExp[e] - sExp[e]);
        prev = (sNum[e] + held * prev) / (sExp[e] + held);
        this.style[s * E + e] = prev;
      }
    }
  }
}
