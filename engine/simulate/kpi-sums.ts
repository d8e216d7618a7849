/**
 * What the replay sums per group for each side, and how a run of cells lays out its sums (serve-day.ts): the slots
 * are read off the KPIs summed, so a KPI added here has its slots, on each side, with no offset to keep by hand.
 */
import type { OwnKey } from '../../common/kpis.js';

/**
 * The KPIs summed over the days and cells (common/kpis.ts), and what each side sums: one sum both sides share
 * (`both`: the same carried days, demand and returns), one per side (`each`), or the simulation's alone, the actual
 * side reading another's (its lost sales are the estimated demand: it had no stock on those days) or none (it sold
 * nothing against estimated demand).
 */
const SUMMED = {
  carriedDays: 'both',
  stockOutDays: 'each',
  demand: 'both',
  estimatedDemand: 'both',
  sales: 'each',
  returns: 'both',
  lostSales: { actual: 'estimatedDemand' },
  salesValue: 'each',
  estimatedSales: { actual: null },
} as const satisfies { [K in OwnKey]?: 'both' | 'each' | { actual: OwnKey | null } };
type Summed = keyof typeof SUMMED;
const SUMMED_KEYS = Object.keys(SUMMED) as Summed[];

/** Stock held at the end of each day, units and value at cost, on each side: the stores' or the warehouses'. */
const HELD = ['units', 'value'] as const;
const STOCK_SUMS = {
  store: ['storeUnitsSum', 'storeValueSum'],
  warehouse: ['warehouseUnitsSum', 'warehouseValueSum'],
} as const;

/** What a group's sums hold: the summed KPIs, and the day-end stock of its stores and its warehouses. */
export const FIELDS = [...SUMMED_KEYS, ...STOCK_SUMS.store, ...STOCK_SUMS.warehouse] as const;
export type Field = (typeof FIELDS)[number];

/** Sums per group, one typed array per field: by name, and in FIELDS order. */
export class Sums {
  readonly f: Record<Field, Float64Array>;
  readonly byIndex: Float64Array[];
  constructor(readonly groups: number) {
    this.byIndex = FIELDS.map(() => new Float64Array(groups));
    this.f = Object.fromEntries(FIELDS.map((k, i) => [k, this.byIndex[i]])) as Record<Field, Float64Array>;
  }
}

type Slot = Summed | (typeof HELD)[number];

/**
 * A run's sums: a slot per summed KPI and per kind of stock held on each side. `sim[k]` and `act[k]` are where each
 * side's sum of k is (one slot where both share it; −1 where the actual side has none), `size` the slots a run takes.
 */
function runLayout(): { sim: Record<Slot, number>; act: Record<Slot, number>; size: number } {
  const sim = {} as Record<Slot, number>;
  const act = {} as Record<Slot, number>;
  let size = 0;
  for (const k of SUMMED_KEYS) {
    const how = SUMMED[k];
    sim[k] = size++;
    if (how === 'both') act[k] = sim[k];
    else if (how === 'each') act[k] = size++;
  }
  for (const k of HELD) {
    sim[k] = size++;
    act[k] = size++;
  }
  for (const k of SUMMED_KEYS) {
    const how = SUMMED[k];
    if (typeof how === 'object') act[k] = how.actual === null ? -1 : act[how.actual];
  }
  return { sim, act, size };
}

export const RUN = runLayout();

/** Per summed KPI: its index in FIELDS and the run's slot each side adds (−1: none). */
const ADD_FIELD = Int32Array.from(SUMMED_KEYS, (k) => FIELDS.indexOf(k));
const ADD_SIM = Int32Array.from(SUMMED_KEYS, (k) => RUN.sim[k]);
const ADD_ACT = Int32Array.from(SUMMED_KEYS, (k) => RUN.act[k]);
const STORE_AT = STOCK_SUMS.store.map((k) => FIELDS.indexOf(k));
const WAREHOUSE_AT = STOCK_SUMS.warehouse.map((k) => FIELDS.indexOf(k));

/** Adds a run's sums `r` to group g of both sides; its stock goes to the stores' or the warehouses' sums. */
export function addRun(sim: Sums, act: Sums, store: boolean, g: number, r: Float64Array): void {
  const s = sim.byIndex;
  const a = act.byIndex;
  for (let i = 0; i < ADD_FIELD.length; i++) {
    s[ADD_FIELD[i]][g] += r[ADD_SIM[i]];
    if (ADD_ACT[i] >= 0) a[ADD_FIELD[i]][g] += r[ADD_ACT[i]];
  }
  const at = store ? STORE_AT : WAREHOUSE_AT;
  for (let h = 0; h < HELD.length; h++) {
    s[at[h]][g] += r[RUN.sim[HELD[h]]];
    a[at[h]][g] += r[RUN.act[HELD[h]]];
  }
}
