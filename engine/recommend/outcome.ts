/**
 * What a review did for a location × SKU, in one word: sent it stock, or why it sent none. A replay records it for
 * the style it traces, so a user sees on each review day the engine's estimate, its target and what it did.
 */
import type { Decision } from './proposal.js';
import { skuBlocked, warehouseAvailable, type Context } from './replenish.js';
import { basisOf } from './targets.js';

/** Outcomes, by their place + 1 (0: no review that day). */
export const OUTCOMES = [
  'sent',
  'at or above its target',
  'not carried there',
  'does not sell there',
  'off sale',
  'sender short',
  'below the minimum quantity',
  'held back at the warehouse',
  'capped at the maximum stock',
  'sells from a warehouse’s stock',
  'excluded',
  'not due a delivery',
  'rationed at the warehouse',
] as const;
export type Outcome = (typeof OUTCOMES)[number];
const code = (o: Outcome) => OUTCOMES.indexOf(o) + 1;

/**
 * Each selling cell of SKUs [kFrom, kTo) at every location (`(k − kFrom) × locations + l`): its outcome's code, given
 * the review's decisions (initial distribution, replenishment, returns and redistribution).
 */
export function reviewOutcomes(ctx: Context, decisions: readonly Decision[], kFrom: number, kTo: number): Uint8Array {
  const { state, targets: t } = ctx;
  const L = state.locations.ids.length;
  const S = state.styles.ids.length;
  const out = new Uint8Array((kTo - kFrom) * L);
  const sent = new Float64Array((kTo - kFrom) * L);
  for (const d of decisions) if (d.sku >= kFrom && d.sku < kTo) sent[(d.sku - kFrom) * L + d.to] += d.quantity;
  const sellers = new Set(ctx.sellers);
  for (let k = kFrom; k < kTo; k++) {
    const s = state.skus.style[k];
    const cs = ctx.byCategory[state.styles.category[s]];
    const pack = Math.max(1, state.skus.packSize[k]);
    // A style no store carries is new: what initial distribution did not give is held at the warehouse.
    const isNew = !ctx.sellers.some((l) => t.carried[l * S + s]);
    let free = 0;
    for (const w of ctx.warehouses) free += warehouseAvailable(ctx, k * L + w);
    for (let l = 0; l < L; l++) {
      if (state.locations.kind[l] === 'warehouse') continue;
      const x = (k - kFrom) * L + l;
      const c = k * L + l;
      const basis = basisOf(t, c);
      let o: Outcome;
      if (sent[x] > 0) o = 'sent';
      else if (state.locations.fulfilledFrom[l] >= 0) o = 'sells from a warehouse’s stock';
      else if (!sellers.has(l) || skuBlocked(state, k)) o = 'excluded';
      else if (basis === 'notSelling') o = 'does not sell there';
      else if (basis === 'offSale') o = 'off sale';
      else if (basis === '') o = isNew && free >= pack ? 'held back at the warehouse' : 'not carried there';
      else if (state.onHand[c] + state.inTransit[c] + ctx.incoming[c] >= t.target[c])
        o = basis === 'maximum' ? 'capped at the maximum stock' : 'at or above its target';
      else if (ctx.deliverTo && !ctx.deliverTo[l]) o = 'not due a delivery';
      else if (t.target[c] - (state.onHand[c] + state.inTransit[c] + ctx.incoming[c]) < cs.minimumTransferQuantity)
        o = 'below the minimum quantity';
      else o = ctx.rationed?.[k] ? 'rationed at the warehouse' : 'sender short';
      out[x] = code(o);
    }
  }
  return out;
}
