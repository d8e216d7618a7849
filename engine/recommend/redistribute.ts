/**
 * Redistribution, store → store. Senders hold stock above target with long cover, or a broken size run
 * (too few sizes of a style to sell it well), which then leaves whole. Receivers are stores that carry the
 * style and would lose sales over review period + lead time. Each unit moves to where it gains most (its
 * expected sale there minus the one it gives up); moves are grouped into trips, and a trip is proposed only
 * when its extra sales value beats the trip cost plus a threshold. Trips per store are capped; exclusions
 * hold; a setting keeps styles with open purchase orders out; stock that arrived recently stays.
 */
import { poissonTail } from '../forecast/poisson.js';
import { MaxHeap } from './heap.js';
import { categorySettings } from './settings.js';
import { proposal, round2, type Proposal } from './proposal.js';
import { skuBlocked, type Context } from './replenish.js';

interface Move {
  from: number;
  to: number;
  sku: number;
  style: number;
  units: number;
  gain: number;
  why: 'excess' | 'broken size run';
}

export function redistribute(ctx: Context): Proposal[] {
  const { state, forecast: f, targets: t, settings } = ctx;
  const rs = settings.redistribution;
  const L = state.locations.ids.length;
  const K = state.skus.ids.length;
  const stores = [...Array(L).keys()].filter(
    (l) => state.locations.kind[l] !== 'warehouse' && !state.locations.excluded[l],
  );
  const { styleStart, skuIndex } = state.styles;
  const S = state.styles.ids.length;
  const moves: Move[] = [];

  for (let s = 0; s < S; s++) {
    if (state.styles.excluded[s]) continue;
    const cs = categorySettings(settings, state.categories.ids[state.styles.category[s]]);
    if (cs.blockRedistributionWithOpenPurchaseOrders && state.styles.hasOpenPurchaseOrder[s]) continue;
    const horizon = cs.reviewPeriodDays + cs.leadTimeDays;
    const skus = [...skuIndex.subarray(styleStart[s], styleStart[s + 1])].filter((k) => !skuBlocked(state, k));
    if (skus.length === 0) continue;
    const runSize = Math.min(rs.minimumSizesInRun, skus.length);
    const recent = (c: number) =>
      state.lastArrivalDay[c] >= 0 && state.asOfDay - state.lastArrivalDay[c] <= rs.recentlyMovedDays;
    const broken = new Set(
      stores.filter((l) => {
        const held = skus.filter((k) => state.onHand[k * L + l] > 0).length;
        return held > 0 && held < runSize && !skus.some((k) => recent(k * L + l));
      }),
    );

    const styleMoves: Move[] = [];
    // Keyed by sender, receiver and SKU as one number: a replay's review weighs every unit it moves.
    const moveAt = new Map<number, Move>();
    const lefts = new Float64Array(stores.length);
    for (const k of skus) {
      // What each store could send; a SKU no store can send is passed over before any receiver is weighed.
      let anySender = false;
      for (let i = 0; i < stores.length; i++) {
        const from = stores[i];
        const cf = k * L + from;
        let left = 0;
        if (!recent(cf) && state.onHand[cf] > 0) {
          if (broken.has(from)) left = Math.floor(state.onHand[cf]);
          else {
            const excess = Math.floor(state.onHand[cf] - t.target[cf]);
            const cover = f.rate[cf] > 0 ? state.onHand[cf] / f.rate[cf] : Infinity;
            if (excess > 0 && cover > rs.excessCoverDays) left = excess;
          }
        }
        lefts[i] = left;
        if (left > 0) anySender = true;
      }
      if (!anySender) continue;
      const price = state.skus.price[k];
      const receivers = new MaxHeap<{ key: number; given: number }>();
      const next = (l: number, given: number) => {
        const c = k * L + l;
        const pos = state.onHand[c] + state.inTransit[c] + ctx.incoming[c] + given;
        return pos >= t.target[c] ? -1 : price * poissonTail(f.rate[c] * horizon, pos + 1);
      };
      for (const l of stores) {
        if (broken.has(l) || !t.carried[l * S + s]) continue;
        const v = next(l, 0);
        if (v > 0) receivers.push({ key: l, given: 0 }, v);
      }
      if (receivers.size === 0) continue;
      for (let i = 0; i < stores.length; i++) {
        const from = stores[i];
        const cf = k * L + from;
        let left = lefts[i];
        // Receivers popped for being the sender itself wait here and go back afterwards.
        const parked: { item: { key: number; given: number }; value: number }[] = [];
        let sent = 0;
        while (left > 0 && receivers.size) {
          // A broken run leaves whole, so its units count as lost to the sender anyway.
          const loss = broken.has(from) ? 0 : price * poissonTail(f.rate[cf] * horizon, state.onHand[cf] - sent);
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
              why: broken.has(from) ? 'broken size run' : 'excess',
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
    // A broken run moves whole or not at all: the sender is never left with part of it.
    for (const from of broken) {
      const held = skus.reduce((sum, k) => sum + Math.floor(state.onHand[k * L + from]), 0);
      const placed = styleMoves.filter((m) => m.from === from).reduce((sum, m) => sum + m.units, 0);
      if (placed < held)
        for (let i = styleMoves.length - 1; i >= 0; i--) if (styleMoves[i].from === from) styleMoves.splice(i, 1);
    }
    moves.push(...styleMoves);
  }

  // Trips: one sender to one receiver. The best trips first, within the per-store cap.
  const trips = new Map<number, { from: number; to: number; gain: number; units: number; moves: Move[] }>();
  for (const m of moves) {
    const key = m.from * L + m.to;
    const trip = trips.get(key) ?? { from: m.from, to: m.to, gain: 0, units: 0, moves: [] };
    trip.gain += m.gain;
    trip.units += m.units;
    trip.moves.push(m);
    trips.set(key, trip);
  }
  const count = new Map<number, number>();
  const out: Proposal[] = [];
  const ranked = [...trips.values()].sort((a, b) => b.gain - a.gain || a.from - b.from || a.to - b.to);
  const accepted: typeof ranked = [];
  for (const trip of ranked) {
    if (trip.gain < rs.tripCost + rs.minimumGain) continue;
    if ((count.get(trip.from) ?? 0) >= rs.maxTripsPerStore || (count.get(trip.to) ?? 0) >= rs.maxTripsPerStore)
      continue;
    count.set(trip.from, (count.get(trip.from) ?? 0) + 1);
    count.set(trip.to, (count.get(trip.to) ?? 0) + 1);
    accepted.push(trip);
  }
  // A broken run leaves whole or stays whole: if the trips kept do not carry all of it, none of it moves.
  const runAt = (m: Move) => m.from * S + m.style;
  const placed = new Map<number, number>();
  for (const trip of accepted)
    for (const m of trip.moves)
      if (m.why === 'broken size run') placed.set(runAt(m), (placed.get(runAt(m)) ?? 0) + m.units);
  const partial = new Set<number>();
  for (const [key, units] of placed) {
    const [from, style] = [Math.floor(key / S), key % S];
    let held = 0;
    for (let i = styleStart[style]; i < styleStart[style + 1]; i++)
      held += Math.floor(state.onHand[skuIndex[i] * L + from]);
    if (units < held) partial.add(key);
  }
  for (const trip of accepted) {
    trip.moves = trip.moves.filter((m) => !(m.why === 'broken size run' && partial.has(runAt(m))));
    const from = state.locations.ids[trip.from];
    const to = state.locations.ids[trip.to];
    for (const m of trip.moves.sort((a, b) => a.sku - b.sku)) {
      ctx.incoming[m.sku * L + m.to] += m.units;
      const cf = m.sku * L + m.from;
      const ct = m.sku * L + m.to;
      out.push(
        proposal(state, ctx, 'Redistribution', m.from, m.to, m.sku, m.units, () => ({
          reason:
            // A replay's stock can be fractional (estimated demand served): the words carry two decimals at most.
            `${m.why} at ${from} (on hand ${round2(state.onHand[cf])}, target ${t.target[cf]})` +
            ` to ${to}, which would lose sales` +
            ` (on hand ${round2(state.onHand[ct])}, target ${t.target[ct]}):` +
            ` about ${round2(m.gain)} extra sales value;` +
            ` the trip brings ${round2(trip.gain)} against a cost of ${rs.tripCost}`,
          details: {
            reason: m.why,
            gain: round2(m.gain),
            tripGain: round2(trip.gain),
            tripUnits: trip.units,
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
  }
  return out;
}
