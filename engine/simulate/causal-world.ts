/**
 * The world without hindsight: the demand of every day the history does not show — a day the retailer had no stock,
 * the rest of a day it sold out — estimated from the days before it only. The backtest's own world estimates those
 * days from the days around them (actual-demand.ts): the best estimate of what the retailer lost, read up to a
 * season ahead. A replay in that world lets the engine meet, on such a day, demand that later days helped estimate;
 * in this one, nothing the engine meets on a day depends on anything recorded after it, so a comparison of the two
 * shows what hindsight is worth to the engine (bench:decisions).
 *
 * A cell's level is a recency-weighted mean of its demand on the days it held stock (a sold-out day counted as its
 * sales and the demand estimated beyond them), starting from the window of days before the period; a cell that has
 * held no stock yet takes its SKU's level across the network.
 */
import { demandBeyond } from '../forecast/demand.js';
import { heldStock, openingOr } from './actual-demand.js';
import { wholeUnits, type BacktestInput } from './input.js';

/** A day this many days before another weighs half as much in a cell's level. */
export const CAUSAL_HALF_LIFE_DAYS = 28;

/** Recency-weighted demand and days of a cell (or a SKU across the network), as of the end of `day`. */
class Level {
  units: Float64Array;
  days: Float64Array;
  day: Int32Array;
  constructor(n: number, start: number) {
    this.units = new Float64Array(n);
    this.days = new Float64Array(n);
    this.day = new Int32Array(n).fill(start);
  }
  /** Ages entry x to the end of `day`. */
  age(x: number, day: number): void {
    const gap = day - this.day[x];
    if (gap <= 0) return;
    const decay = 2 ** (-gap / CAUSAL_HALF_LIFE_DAYS);
    this.units[x] *= decay;
    this.days[x] *= decay;
    this.day[x] = day;
  }
  /** Adds a day in stock on `day` that met `demand`. */
  add(x: number, day: number, demand: number): void {
    this.age(x, day);
    this.units[x] += demand;
    this.days[x] += 1;
  }
  rate(x: number, day: number): number {
    this.age(x, day);
    return this.days[x] > 0 ? this.units[x] / this.days[x] : Number.NaN;
  }
}

/** `input` with its estimated demand (`out.demand`, `actual.extra`) made from the days before each day only. */
export function causalWorld(input: BacktestInput): BacktestInput {
  const { start, actual, out, days } = input;
  const L = start.locations.ids.length;
  const K = start.skus.ids.length;
  const W = start.windowDays;
  const cells = L * K;
  // Day −1 is the day before the period; the window's days come before it.
  const cell = new Level(cells, -1 - W);
  const sku = new Level(K, -1 - W);
  /** The actual stock at the end of the last day a cell was seen, and that day: the days between kept it. */
  const level = Float64Array.from(start.onHand);
  const seen = new Int32Array(cells).fill(-1);
  // The window before the period, oldest day first (a loaded state's ring starts at slot 0).
  for (let c = 0; c < cells; c++) {
    const k = Math.floor(c / L);
    for (let d = 0; d < W; d++) {
      const x = start.sales[c * W + ((start.windowHead + d) % W)];
      if (x !== x) continue;
      cell.add(c, d - W, Math.abs(x));
      sku.add(k, d - W, Math.abs(x));
    }
  }
  /** Days a cell held stock and sold nothing since it was last seen, up to the day before `day`. */
  const catchUp = (c: number, day: number) => {
    if (level[c] > 0) for (let d = seen[c] + 1; d < day; d++) observe(c, d, 0);
    seen[c] = day - 1;
  };
  const observe = (c: number, day: number, demand: number) => {
    cell.add(c, day, demand);
    sku.add(Math.floor(c / L), day, demand);
  };
  /** The level of a cell's demand as of the day before `day`: its own, else its SKU's across the network. */
  const rateBefore = (c: number, day: number) => {
    const own = cell.rate(c, day - 1);
    if (own === own) return own;
    const network = sku.rate(Math.floor(c / L), day - 1);
    return network === network ? network : 0;
  };
  const extra = new Float64Array(actual.extra.length);
  const demand = new Float64Array(out.demand.length);
  for (let i = 0; i < days; i++) {
    let o = out.dayStart[i];
    const outTo = out.dayStart[i + 1];
    for (let j = actual.dayStart[i]; j < actual.dayStart[i + 1] || o < outTo;) {
      const rowCell = j < actual.dayStart[i + 1] ? actual.cell[j] : Infinity;
      const outCell = o < outTo ? out.cell[o] : Infinity;
      const c = Math.min(rowCell, outCell);
      catchUp(c, i);
      const rate = rateBefore(c, i);
      if (outCell === c) demand[o] = wholeUnits(rate, c, start.asOfDay + i);
      if (rowCell === c) {
        const sold = actual.sold[j];
        const inStock = heldStock(openingOr(actual.opening[j], level[c]), sold);
        if (actual.extra[j] > 0)
          extra[j] = wholeUnits(Math.max(0, demandBeyond(rate, sold) - sold), c, start.asOfDay + i);
        if (inStock) observe(c, i, sold + extra[j]);
        level[c] = actual.endLevel[j];
        j++;
      }
      if (outCell === c) o++;
      seen[c] = i;
    }
  }
  return { ...input, actual: { ...actual, extra }, out: { ...out, demand } };
}
