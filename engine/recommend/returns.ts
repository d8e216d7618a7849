/**
 * Returns: what a store holds of a style off sale (life.ts), or of a style it does not sell (assortment.ts), goes
 * back to a warehouse, where it waits for the
 * retailer's own end of life (a clearance, an outlet) instead of standing on a shelf nobody buys from. A return is
 * a redistribution to the warehouse holding the most of the SKU (its home, as far as the state tells), else the
 * first warehouse taking part.
 */
import { dayText, decision, round2, type Decision } from './proposal.js';
import { skuBlocked, type Context } from './replenish.js';
import { basisOf } from './targets.js';

export function offSaleReturns(ctx: Context): Decision[] {
  const { state, warehouses, sellers } = ctx;
  const out: Decision[] = [];
  if (!ctx.settings.redistribution.returnOffSale || warehouses.length === 0) return out;
  const L = state.locations.ids.length;
  const K = state.skus.ids.length;
  const { onHand, inTransit, lastSaleDay, asOfDay } = state;
  /** The style's last sale at location `at`, or anywhere without one (a style off sale: some time ago); −1: none. */
  const lastSale = (s: number, at?: number) => {
    const [from, to] = at === undefined ? [0, L] : [at, at + 1];
    let last = -1;
    for (let k = state.styles.styleStart[s]; k < state.styles.styleStart[s + 1]; k++)
      for (let l = from; l < to; l++) last = Math.max(last, lastSaleDay[k * L + l]);
    return last;
  };
  for (let k = 0; k < K; k++) {
    if (skuBlocked(state, k)) continue;
    const s = state.skus.style[k];
    const cs = ctx.byCategory[state.styles.category[s]];
    let home = warehouses[0];
    for (const w of warehouses) if (onHand[k * L + w] + inTransit[k * L + w] > onHand[k * L + home]) home = w;
    for (const l of sellers) {
      const c = k * L + l;
      const units = Math.floor(onHand[c]);
      const basis = basisOf(ctx.targets, c);
      if (units < cs.minimumTransferQuantity || (basis !== 'offSale' && basis !== 'notSelling')) continue;
      out.push(
        decision(ctx.explain, 'Redistribution', l, home, k, units, () => {
          const since = lastSale(s, l);
          const why =
            basis === 'offSale'
              ? `style ${state.styles.ids[s]} is off sale: it sold nothing anywhere for ` +
                `${asOfDay - 1 - lastSale(s)} days while on the shelves`
              : `style ${state.styles.ids[s]} does not sell at ${state.locations.ids[l]}: it stood there without a ` +
                `sale${since >= 0 ? ` since ${dayText(since)}` : ''} while it sold elsewhere`;
          return {
            reason: `${why}; its ${units} units there go back to ${state.locations.ids[home]}`,
            details: { reason: basis === 'offSale' ? 'off sale' : 'not selling there', onHand: round2(onHand[c]) },
          };
        }),
      );
    }
  }
  return out;
}
