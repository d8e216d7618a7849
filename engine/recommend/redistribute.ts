/**
 * Redistribution, store → store. Senders hold stock above target with long cover, or a broken size run
 * (too few sizes of a style to sell it well), which then leaves whole. Receivers are stores that carry the
 * style and would lose sales over review period + lead time. Each unit moves to where it gains most (its
 * expected sale there minus the one it gives up); moves are grouped into trips, and a trip is proposed only
 * when its extra sales value beats the trip cost plus a threshold. Trips per store are capped; exclusions
 * hold; a setting keeps styles with open purchase orders out; stock that arrived recently stays.
 *
 * In three steps, since a trip carries any styles: the moves each style would make (`candidateMoves`, on a part
 * of the network's styles), the trips chosen over the moves of every part (`chooseTrips`) and the moves they
 * carry (`keepMoves`), and the kept moves as decisions (`redistribution`, back on the part that made them).
 */
import { horizonDemand } from '../forecast/forecast.js';
import { poissonTail } from '../forecast/poisson.js';
import { MaxHeap } from './heap.js';
import { planningLead, type Settings } from './settings.js';
import { decision, round2, type Decision } from './proposal.js';
import { skuBlocked, type Context } from './replenish.js';

/** A move the engine would make for a style: units of a SKU from one store to another, and what they gain. */
export interface Move {
  from: number;
  to: number;
  sku: number;
  style: number;
  units: number;
  gain: number;
  /** 1: a broken size run leaving whole (then `held` is the units of the style the sender holds); 0: excess. */
  broken: 0 | 1;
  held: number;
}

/** A move kept in a trip, with the trip's gain and units (the words name them). */
export interface KeptMove {
  move: Move;
  tripGain: number;
  tripUnits: number;
}

export function candidateMoves(ctx: Context): Move[] {
  const finder = new MoveFinder(ctx);
  const moves: Move[] = [];
  for (let s = 0; s < ctx.state.styles.ids.length; s++) for (const m of finder.style(s)) moves.push(m);
  return moves;
}

/** A receiver in the heap: a store, and the units it was given of the SKU at hand. */
interface Receiver {
  key: number;
  given: number;
}

/** Finds each style's moves; its arrays are the style at hand's, refilled style by style. */
class MoveFinder {
  private readonly L: number;
  private readonly stores: number[];
  private readonly rs: Settings['redistribution'];
  /** Per location, for the style at hand: a broken size run (1), and what it holds of the style (−1: not counted). */
  private readonly broken: Uint8Array;
  private readonly held: Float64Array;
  /** Per store (by its place in `stores`): the units of the SKU at hand it could send. */
  private readonly lefts: Float64Array;
  /** The style's SKUs not kept out. */
  private readonly skus: number[] = [];
  /** Stores that can receive the style: they carry it and are no broken run themselves. */
  private readonly receiving: number[] = [];

  constructor(private readonly ctx: Context) {
    this.L = ctx.state.locations.ids.length;
    this.stores = ctx.sellers;
    this.rs = ctx.settings.redistribution;
    this.broken = new Uint8Array(this.L);
    this.held = new Float64Array(this.L);
    this.lefts = new Float64Array(this.stores.length);
  }

  /** Stock that arrived recently stays. */
  private recent(c: number): boolean {
    const { lastArrivalDay, asOfDay } = this.ctx.state;
    return lastArrivalDay[c] >= 0 && asOfDay - lastArrivalDay[c] <= this.rs.recentlyMovedDays;
  }

  /** The moves of style s: unit by unit, each SKU's senders' units to the receivers where they gain most. */
  style(s: number): Move[] {
    const { state } = this.ctx;
    const { L, stores, skus } = this;
    const { styleStart } = state.styles;
    if (state.styles.excluded[s]) return [];
    const cs = this.ctx.byCategory[state.styles.category[s]];
    if (cs.blockRedistributionWithOpenPurchaseOrders && state.styles.hasOpenPurchaseOrder[s]) return [];
    skus.length = 0;
    for (let k = styleStart[s]; k < styleStart[s + 1]; k++) if (!skuBlocked(state, k)) skus.push(k);
    if (skus.length === 0) return [];
    // Nothing on hand at any store: nothing to send.
    if (!skus.some((k) => stores.some((l) => state.onHand[k * L + l] > 0))) return [];
    this.readStores(s, Math.min(this.rs.minimumSizesInRun, skus.length));
    const horizon = (l: number) => cs.reviewPeriodDays + planningLead(cs, state, l);
    const styleMoves: Move[] = [];
    // Keyed by sender, receiver and SKU as one number: a replay's review weighs every unit it moves.
    const moveAt = new Map<number, Move>();
    for (const k of skus) this.skuMoves(s, k, horizon, moveAt, styleMoves);
    this.keepWholeRuns(styleMoves);
    return styleMoves;
  }

  /** Which stores hold a broken run of style s, and which can receive it. */
  private readStores(s: number, runSize: number): void {
    const { onHand } = this.ctx.state;
    const { L, broken, held, receiving } = this;
    const S = this.ctx.state.styles.ids.length;
    receiving.length = 0;
    for (const l of this.stores) {
      let sizes = 0;
      let arrived = false;
      for (const k of this.skus) {
        if (onHand[k * L + l] > 0) sizes++;
        if (this.recent(k * L + l)) arrived = true;
      }
      broken[l] = sizes > 0 && sizes < runSize && !arrived ? 1 : 0;
      held[l] = -1;
      if (!broken[l] && this.ctx.targets.carried[l * S + s]) receiving.push(l);
    }
  }

  /** The units of style s a broken run's sender holds, all its SKUs counted. */
  private heldAt(s: number, from: number): number {
    const { L, held } = this;
    if (held[from] < 0) {
      const { styleStart } = this.ctx.state.styles;
      let units = 0;
      for (let k = styleStart[s]; k < styleStart[s + 1]; k++) units += Math.floor(this.ctx.state.onHand[k * L + from]);
      held[from] = units;
    }
    return held[from];
  }

  /** What each store could send of SKU k (in `lefts`); whether any could. */
  private readSenders(k: number): boolean {
    const { forecast: f, targets: t } = this.ctx;
    const { onHand } = this.ctx.state;
    const { L, stores, broken, lefts } = this;
    let anySender = false;
    for (let i = 0; i < stores.length; i++) {
      const from = stores[i];
      const cf = k * L + from;
      let left = 0;
      if (onHand[cf] > 0 && !this.recent(cf)) {
        if (broken[from]) left = Math.floor(onHand[cf]);
        else {
          const excess = Math.floor(onHand[cf] - t.target[cf]);
          const cover = f.rate[cf] > 0 ? onHand[cf] / f.rate[cf] : Infinity;
          if (excess > 0 && cover > this.rs.excessCoverDays) left = excess;
        }
      }
      lefts[i] = left;
      if (left > 0) anySender = true;
    }
    return anySender;
  }

  /** SKU k's moves, unit by unit: each sender's next unit to the receiver it gains most at, while it gains. */
  private skuMoves(
    s: number,
    k: number,
    horizon: (l: number) => number,
    moveAt: Map<number, Move>,
    styleMoves: Move[],
  ): void {
    const { state, forecast: f, targets: t, incoming } = this.ctx;
    const { onHand, inTransit } = state;
    const { L, stores, broken, lefts } = this;
    const K = state.skus.ids.length;
    // A SKU no store can send is passed over before any receiver is weighed.
    if (!this.readSenders(k)) return;
    const price = state.skus.price[k];
    const receivers = new MaxHeap<Receiver>();
    const next = (l: number, given: number) => {
      const c = k * L + l;
      const pos = onHand[c] + inTransit[c] + incoming[c] + given;
      return pos >= t.target[c] ? -1 : price * poissonTail(horizonDemand(f, c, horizon(l)), pos + 1);
    };
    for (const l of this.receiving) {
      const v = next(l, 0);
      if (v > 0) receivers.push({ key: l, given: 0 }, v);
    }
    if (receivers.size === 0) return;
    for (let i = 0; i < stores.length; i++) {
      let left = lefts[i];
      if (left <= 0) continue;
      const from = stores[i];
      const cf = k * L + from;
      // Receivers popped for being the sender itself wait here and go back afterwards.
      const parked: { item: Receiver; value: number }[] = [];
      let sent = 0;
      while (left > 0 && receivers.size) {
        // A broken run leaves whole, so its units count as lost to the sender anyway.
        const loss = broken[from] ? 0 : price * poissonTail(horizonDemand(f, cf, horizon(from)), onHand[cf] - sent);
        let top = receivers.pop()!;
        if (top.item.key === from) {
          parked.push(top);
          if (!receivers.size) break;
          top = receivers.pop()!;
        }
        const gain = top.value - loss;
        if (gain <= 0) {
          receivers.push(top.item, top.value);
          break;
        }
        const to = top.item.key;
        top.item.given++;
        const v = next(to, top.item.given);
        if (v > 0) receivers.push(top.item, v);
        const key = (from * L + to) * K + k;
        const m = moveAt.get(key);
        if (m) {
          m.units++;
          m.gain += gain;
        } else {
          const move: Move = {
            from,
            to,
            sku: k,
            style: s,
            units: 1,
            gain,
            broken: broken[from] ? 1 : 0,
            held: broken[from] ? this.heldAt(s, from) : 0,
          };
          moveAt.set(key, move);
          styleMoves.push(move);
        }
        sent++;
        left--;
      }
      for (const p of parked) receivers.push(p.item, p.value);
    }
  }

  /** A broken run moves whole or not at all: the sender is never left with part of it. */
  private keepWholeRuns(styleMoves: Move[]): void {
    const { onHand } = this.ctx.state;
    for (const from of this.stores) {
      if (!this.broken[from]) continue;
      let units = 0;
      for (const k of this.skus) units += Math.floor(onHand[k * this.L + from]);
      let placed = 0;
      for (const m of styleMoves) if (m.from === from) placed += m.units;
      if (placed < units)
        for (let x = styleMoves.length - 1; x >= 0; x--) if (styleMoves[x].from === from) styleMoves.splice(x, 1);
    }
  }
}

/** A trip kept: one sender to one receiver, with the sales value it brings and the units it carries. */
export interface Trip {
  from: number;
  to: number;
  gain: number;
  units: number;
}

/**
 * The trips to make, from the moves of every part of the network (in the order of their styles): one sender to
 * one receiver, the best first, within the per-store cap.
 */
export function chooseTrips(moves: readonly Move[], locations: number, settings: Settings): Trip[] {
  const rs = settings.redistribution;
  const L = locations;
  const trips = new Map<number, Trip>();
  for (const m of moves) {
    const key = m.from * L + m.to;
    const trip = trips.get(key) ?? { from: m.from, to: m.to, gain: 0, units: 0 };
    trip.gain += m.gain;
    trip.units += m.units;
    trips.set(key, trip);
  }
  const count = new Map<number, number>();
  const ranked = [...trips.values()].sort((a, b) => b.gain - a.gain || a.from - b.from || a.to - b.to);
  const accepted: Trip[] = [];
  for (const trip of ranked) {
    if (trip.gain < rs.tripCost + rs.minimumGain) continue;
    if ((count.get(trip.from) ?? 0) >= rs.maxTripsPerStore || (count.get(trip.to) ?? 0) >= rs.maxTripsPerStore)
      continue;
    count.set(trip.from, (count.get(trip.from) ?? 0) + 1);
    count.set(trip.to, (count.get(trip.to) ?? 0) + 1);
    accepted.push(trip);
  }
  return accepted;
}

/**
 * The moves the chosen trips carry, trip by trip in their order and SKU by SKU within a trip; a broken run whose
 * moves are not all in the trips stays whole. `moves` may be those of some styles only (a style replayed alone):
 * whether a style's moves are kept depends on the trips and the style's own moves. `styles`: how many styles the
 * moves' numbers range over.
 */
export function keepMoves(
  moves: readonly Move[],
  trips: readonly Trip[],
  locations: number,
  styles: number,
): KeptMove[] {
  const L = locations;
  const rank = new Map<number, number>();
  trips.forEach((t, r) => rank.set(t.from * L + t.to, r));
  const byTrip: Move[][] = trips.map(() => []);
  for (const m of moves) {
    const r = rank.get(m.from * L + m.to);
    if (r !== undefined) byTrip[r].push(m);
  }
  // A broken run leaves whole or stays whole: if the trips kept do not carry all of it, none of it moves.
  const runAt = (m: Move) => m.from * styles + m.style;
  const placed = new Map<number, { units: number; held: number }>();
  for (const list of byTrip)
    for (const m of list)
      if (m.broken) {
        const p = placed.get(runAt(m)) ?? { units: 0, held: m.held };
        p.units += m.units;
        placed.set(runAt(m), p);
      }
  const partial = new Set<number>();
  for (const [key, p] of placed) if (p.units < p.held) partial.add(key);
  const kept: KeptMove[] = [];
  byTrip.forEach((list, r) => {
    const stay = list.filter((m) => !(m.broken && partial.has(runAt(m)))).sort((a, b) => a.sku - b.sku);
    for (const move of stay) kept.push({ move, tripGain: trips[r].gain, tripUnits: trips[r].units });
  });
  return kept;
}

/** The kept moves of the context's styles as decisions, in their order, put in words when explained. */
export function redistribution(ctx: Context, kept: readonly KeptMove[]): Decision[] {
  const { state, forecast: f, targets: t } = ctx;
  const rs = ctx.settings.redistribution;
  const L = state.locations.ids.length;
  const out: Decision[] = [];
  for (const { move: m, tripGain, tripUnits } of kept) {
    ctx.incoming[m.sku * L + m.to] += m.units;
    const cf = m.sku * L + m.from;
    const ct = m.sku * L + m.to;
    const why = m.broken ? 'broken size run' : 'excess';
    const from = state.locations.ids[m.from];
    const to = state.locations.ids[m.to];
    out.push(
      decision(ctx.explain, 'Redistribution', m.from, m.to, m.sku, m.units, () => ({
        reason:
          // A replay's stock can be fractional (estimated demand served): the words carry two decimals at most.
          `${why} at ${from} (on hand ${round2(state.onHand[cf])}, target ${t.target[cf]})` +
          ` to ${to}, which would lose sales` +
          ` (on hand ${round2(state.onHand[ct])}, target ${t.target[ct]}):` +
          ` about ${round2(m.gain)} extra sales value;` +
          ` the trip brings ${round2(tripGain)} against a cost of ${rs.tripCost}`,
        details: {
          reason: why,
          gain: round2(m.gain),
          tripGain: round2(tripGain),
          tripUnits,
          tripCost: rs.tripCost,
          senderOnHand: state.onHand[cf],
          senderTarget: t.target[cf],
          receiverOnHand: state.onHand[ct],
          receiverTarget: t.target[ct],
          senderDemandPerDay: round2(f.rate[cf]),
          receiverDemandPerDay: round2(f.rate[ct]),
        },
      })),
    );
  }
  return out;
}
