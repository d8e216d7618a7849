/**
 * The truth behind the censored feed: what the simulation drew as demand and what it could sell, per outlet and
 * day, so an estimate of the sales lost on stock-out days can be measured against it. It covers the written days
 * and only SKUs that are in Items (the one left out is invisible to a consumer of the feed). Definitions, per
 * outlet × SKU × day (samples/README.md has them too):
 *
 * - carried day: the outlet carries the style, the day is inside the style's life [launchDay, endDay) and on or
 *   after the day the style launched at the outlet (the first day it had any of it in stock: a style never
 *   delivered to an outlet was never on sale there), and the outlet is open;
 * - demand: the units drawn that day (drawn on every carried day, whatever the stock);
 * - sales: min(demand, on hand at the start of the day), gross of returns;
 * - lost: demand − sales;
 * - stock-out day: a carried day whose on hand at the start of the day (after the Monday moves, before the day's
 *   sales) is 0, so it sold nothing: the backtest's stock-out day (docs/design.md §8.20). A day that sells out
 *   during the day is not one.
 */
import type { Calendar } from './calendar.js';
import type { Network } from './locations.js';
import { toFlags, type GenerateOptions } from './options.js';
import type { Sink } from './writer.js';

export interface TruthTotals {
  carriedDays: number;
  stockOutDays: number;
  demand: number;
  sales: number;
  lost: number;
  /** sales / demand. */
  fillRate: number;
  /** Demand on stock-out days: all of it lost, the part of `lost` an estimator from censored history looks for. */
  stockOutDemand: number;
}

export const TRUTH_DAILY = 'truth-daily.csv';
export const TRUTH_SUMMARY = 'truth-summary.json';
const HEADER = 'date,locationId,carriedDays,stockOutDays,demand,sales,lost';

export class TruthBook {
  private readonly carried: Float64Array;
  private readonly out: Float64Array;
  private readonly demand: Float64Array;
  private readonly sales: Float64Array;
  private readonly rows: string[] = [HEADER];
  private readonly sum = { carriedDays: 0, stockOutDays: 0, demand: 0, sales: 0, stockOutDemand: 0 };

  /** `hiddenSku`: the SKU left out of Items. */
  constructor(
    private readonly cal: Calendar,
    private readonly network: Network,
    private readonly hiddenSku: number,
  ) {
    const n = network.locations.length;
    this.carried = new Float64Array(n);
    this.out = new Float64Array(n);
    this.demand = new Float64Array(n);
    this.sales = new Float64Array(n);
  }

  /** A carried day of outlet `l` × SKU `k`: the units drawn and the stock at the start of the day. */
  count(l: number, k: number, demand: number, onHandAtStart: number): void {
    if (k === this.hiddenSku) return;
    this.carried[l]++;
    this.demand[l] += demand;
    this.sales[l] += Math.min(demand, onHandAtStart);
    if (onHandAtStart === 0) {
      this.out[l]++;
      this.sum.stockOutDemand += demand;
    }
  }

  /** Closes a written day: one row per outlet, zeros included. */
  dayEnd(day: number): void {
    const date = this.cal.date(day);
    for (const l of this.network.outlets) {
      const loc = this.network.locations[l];
      this.rows.push(
        `${date},${loc.locationId},${this.carried[l]},${this.out[l]},` +
          `${this.demand[l]},${this.sales[l]},${this.demand[l] - this.sales[l]}`,
      );
      this.sum.carriedDays += this.carried[l];
      this.sum.stockOutDays += this.out[l];
      this.sum.demand += this.demand[l];
      this.sum.sales += this.sales[l];
      this.carried[l] = this.out[l] = this.demand[l] = this.sales[l] = 0;
    }
  }

  totals(): TruthTotals {
    const s = this.sum;
    return { ...s, lost: s.demand - s.sales, fillRate: s.demand === 0 ? 1 : s.sales / s.demand };
  }

  /** truth-daily.csv and truth-summary.json. */
  write(sink: Sink, opts: GenerateOptions): void {
    sink.write(TRUTH_DAILY, this.rows.join('\n') + '\n');
    const t = this.totals();
    const totals = {
      carriedDays: t.carriedDays,
      stockOutDays: t.stockOutDays,
      demand: t.demand,
      sales: t.sales,
      lost: t.lost,
      fillRate: Math.round(t.fillRate * 1e6) / 1e6,
      stockOutDemand: t.stockOutDemand,
    };
    sink.write(TRUTH_SUMMARY, JSON.stringify({ options: opts, flags: toFlags(opts), totals }, null, 2) + '\n');
  }
}
