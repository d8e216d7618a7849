/**
 * How long a transfer takes in the world the history shows, measured from the data: what a backtest's simulated
 * transfers take to arrive, whatever the scenario under test believes (its `leadTimeDays` is only what the engine
 * plans with). Per receiving location, in order:
 *
 * 1. declared: the workspace's own statement (the data setting `transitDays`, a fact like `fulfilledFrom`);
 * 2. client transfers: received `POST /Transfers` records with a shipped and an arrival time, their median;
 * 3. stock levels: the lag at which the stock a sender's level lost without a sale or a stock mutation best matches
 *    what the receiver's level gained without one, SKU by SKU (a shipment leaving one shelf and reaching another);
 * 4. the network's: the same lag over every receiver, for one with too little of its own to tell;
 * 5. assumed: ASSUMED_TRANSIT_DAYS, where nothing tells.
 *
 * It depends on the data alone, so every run and every point of a sweep over the same data meets the same world.
 */
import type { CellDayRows, DemandLayout, HistoryRange } from './actual-demand.js';

/** The longest transit a level's jumps are matched over. */
export const MAX_TRANSIT_DAYS = 14;
/** Units matched at a lag for a receiver's own lag to stand. */
export const TRANSIT_MIN_UNITS = 20;
/** Client transfers to a location whose times tell its transit. */
export const TRANSIT_MIN_TRANSFERS = 3;
/** Where nothing tells: a transfer arrives the morning after it is decided. */
export const ASSUMED_TRANSIT_DAYS = 1;

export const TRANSIT_SOURCES = ['declared', 'client transfers', 'stock levels', 'network', 'assumed'] as const;
export type TransitSource = (typeof TRANSIT_SOURCES)[number];

/** What the stock levels tell, per location (−1: they do not), and over the network. */
export interface LevelTransit {
  days: Int32Array;
  /** Units matched at that lag: what the figure stands on. */
  units: Float64Array;
  network: number;
  networkUnits: number;
}

/**
 * The lag between senders' unexplained losses and each selling location's unexplained gains, SKU by SKU, over the
 * rows read. `selling`: per location, 1 for a store or webshop (a receiver), 0 for a warehouse (a sender).
 */
export function levelTransit(
  rows: CellDayRows & { mutations: ArrayLike<number> },
  range: HistoryRange,
  layout: DemandLayout,
  selling: Uint8Array,
): LevelTransit {
  const L = layout.locations;
  const E = range.days;
  const T = MAX_TRANSIT_DAYS + 1;
  const lost = new Float64Array(layout.skus * E);
  const gainCell: number[] = [];
  const gainDay: number[] = [];
  const gainUnits: number[] = [];
  let cell = -1;
  let level = 0;
  for (let j = 0; j < rows.cell.length; j++) {
    const c = rows.cell[j];
    const d = rows.d[j];
    if (c !== cell) [cell, level] = [c, 0];
    const end = rows.endLevel[j];
    // What moved the level beyond the day's sales, returns and stock mutations: a transfer, or a count.
    const moved = end - level + rows.net[j] - rows.mutations[j];
    level = end;
    const l = c % L;
    if (d < 0 || d >= E || layout.fulfilled[l]) continue;
    if (!selling[l] && moved < 0) lost[((c - l) / L) * E + d] -= moved;
    else if (selling[l] && moved > 0) {
      gainCell.push(c);
      gainDay.push(d);
      gainUnits.push(moved);
    }
  }
  const matched = new Float64Array(L * T);
  for (let x = 0; x < gainCell.length; x++) {
    const c = gainCell[x];
    const l = c % L;
    const base = ((c - l) / L) * E;
    for (let t = 0; t < T && gainDay[x] - t >= 0; t++)
      matched[l * T + t] += Math.min(gainUnits[x], lost[base + gainDay[x] - t]);
  }
  const best = (of: (t: number) => number) => {
    let at = 0;
    for (let t = 1; t < T; t++) if (of(t) > of(at)) at = t;
    return at;
  };
  const days = new Int32Array(L).fill(-1);
  const units = new Float64Array(L);
  const total = new Float64Array(T);
  for (let l = 0; l < L; l++) {
    for (let t = 0; t < T; t++) total[t] += matched[l * T + t];
    const t = best((x) => matched[l * T + x]);
    units[l] = matched[l * T + t];
    if (units[l] >= TRANSIT_MIN_UNITS) days[l] = t;
  }
  const network = best((x) => total[x]);
  return { days, units, network: total[network] >= TRANSIT_MIN_UNITS ? network : -1, networkUnits: total[network] };
}

/** The world's transit per location: days, and where the figure comes from. */
export interface Transit {
  days: Int32Array;
  /** Per location: its source's place in TRANSIT_SOURCES. */
  source: Uint8Array;
}

/**
 * Each location's transit from the sources in order (see above). `clientDays`: per location, the median of its
 * received client transfers' times (−1 where fewer than TRANSIT_MIN_TRANSFERS tell); `declared`: by location.
 * A warehouse receives what the stores send back on the network's trucks: the network's transit.
 */
export function worldTransit(
  ids: readonly string[],
  selling: Uint8Array,
  measured: LevelTransit,
  clientDays: Int32Array,
  declared: Record<string, number>,
): Transit {
  const L = ids.length;
  const days = new Int32Array(L);
  const source = new Uint8Array(L);
  const of = (s: TransitSource) => TRANSIT_SOURCES.indexOf(s);
  for (let l = 0; l < L; l++) {
    const own = declared[ids[l]];
    if (own !== undefined) [days[l], source[l]] = [own, of('declared')];
    else if (clientDays[l] >= 0) [days[l], source[l]] = [clientDays[l], of('client transfers')];
    else if (selling[l] && measured.days[l] >= 0) [days[l], source[l]] = [measured.days[l], of('stock levels')];
    else if (measured.network >= 0) [days[l], source[l]] = [measured.network, of('network')];
    else [days[l], source[l]] = [ASSUMED_TRANSIT_DAYS, of('assumed')];
  }
  return { days, source };
}

/** The world's transit in words: each figure with the locations it holds for. */
export function transitText(ids: readonly string[], t: Transit): string {
  const groups = new Map<string, string[]>();
  t.days.forEach((d, l) => {
    const key = `${d} ${d === 1 ? 'day' : 'days'} (${TRANSIT_SOURCES[t.source[l]]})`;
    groups.set(key, [...(groups.get(key) ?? []), ids[l]]);
  });
  const list = (xs: string[]) =>
    xs.length > 3 ? `${xs.slice(0, 3).join(', ')} and ${xs.length - 3} more` : xs.join(', ');
  return [...groups].map(([k, xs]) => (groups.size === 1 ? `${k} everywhere` : `${k} to ${list(xs)}`)).join('; ');
}
