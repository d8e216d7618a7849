/**
 * The network's totals of one day: what customers wanted, and per side its service and where its stock stood. Each
 * total is a run's sum (kpi-sums.ts RUN) added up over the locations of a kind, so the day's values a part keeps
 * (serve-day.ts) and the day's row a run reports (DailyRow) are read from this one table.
 */
import { RUN } from './kpi-sums.js';

/** Which locations a total adds up: all of them, the stores and webshop (the shelves), or the warehouses. */
type Over = 'all' | 'shelves' | 'warehouses';

/** A side's totals of a day: the locations each adds up, and the run's sum it adds. */
const SIDE_TOTALS = {
  carriedDays: ['all', 'carriedDays'],
  stockOutDays: ['all', 'stockOutDays'],
  /** Gross units sold. */
  sales: ['all', 'sales'],
  lostSales: ['all', 'lostSales'],
  /** At the stores and webshop, at the day's end. */
  inventoryUnits: ['shelves', 'units'],
  warehouseUnits: ['warehouses', 'units'],
} as const satisfies Record<string, readonly [Over, keyof typeof RUN.sim]>;

/** One side of a day, network totals: service at the stores and webshop, stock where it is at the day's end. */
export type DailySide = Record<keyof typeof SIDE_TOTALS, number>;
const SIDE_KEYS = Object.keys(SIDE_TOTALS) as (keyof DailySide)[];

/**
 * A day's values: the demand both sides met and the part of it estimated, then the simulated side's totals, then
 * the actual side's.
 */
const TOTALS: { over: Over; run: number }[] = [
  { over: 'all', run: RUN.sim.demand },
  { over: 'all', run: RUN.sim.estimatedDemand },
  ...(['sim', 'act'] as const).flatMap((side) =>
    SIDE_KEYS.map((k) => ({ over: SIDE_TOTALS[k][0], run: RUN[side][SIDE_TOTALS[k][1]] })),
  ),
];
export const DAY_VALUES = TOTALS.length;
const OVER = Uint8Array.from(TOTALS, (t) => (t.over === 'all' ? 0 : t.over === 'shelves' ? 1 : 2));
const RUN_AT = Int32Array.from(TOTALS, (t) => t.run);

/** Adds one location's run sums `x` of a day to the day's values at `t[d …]`. */
export function addToDay(t: Float64Array, d: number, x: Float64Array, isShelf: boolean): void {
  const skip = isShelf ? 2 : 1;
  for (let j = 0; j < DAY_VALUES; j++) if (OVER[j] !== skip) t[d + j] += x[RUN_AT[j]];
}

/** A day's values as its row's figures. */
export function dayTotals(t: Float64Array): {
  demand: number;
  estimatedDemand: number;
  simulated: DailySide;
  actual: DailySide;
} {
  const side = (from: number) => Object.fromEntries(SIDE_KEYS.map((k, i) => [k, t[from + i]])) as DailySide;
  return { demand: t[0], estimatedDemand: t[1], simulated: side(2), actual: side(2 + SIDE_KEYS.length) };
}
