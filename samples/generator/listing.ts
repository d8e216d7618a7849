/**
 * When a store lists a style it carries (intermittent only): most list it for the whole history, some start during
 * it (the first delivery comes on a Monday within the period) and some stop during it (a delisting on a Monday:
 * nothing more is sent, and either the leftovers go back to the warehouse that morning and on the next Mondays, or
 * they stay on the shelf to sell through). After a delisting the store carries the style on the days it starts with
 * some of it on the shelf, and on no other. Per `outlet × style`, indexed like the assortment.
 */
import type { Calendar } from './calendar.js';
import type { Catalog } from './catalog.js';
import { mondayInPeriod } from './continuity.js';
import type { Network } from './locations.js';
import type { GenerateOptions } from './options.js';
import { Random } from './rng.js';

/** Shares of a store's styles (those on sale throughout) listed during the history, and delisted during it. */
const LISTED_LATE = 0.08;
const DELISTED = 0.08;
/** Share of the delistings whose leftovers are taken back (the rest sell through). */
const TAKEN_BACK = 0.5;

export interface Listing {
  /** The first day the store is sent the style (before it, none comes). */
  from: Int32Array;
  /** The first day it is no longer listed (no more is sent). */
  to: Int32Array;
  /** 1 where the leftovers go back to the warehouse at the delisting. */
  takeBack: Uint8Array;
}

const NEVER = 2 ** 31 - 1;

export function buildListing(opts: GenerateOptions, cal: Calendar, catalog: Catalog, network: Network): Listing {
  const rng = new Random(opts.seed, 'listing');
  const nStyles = catalog.styles.length;
  const n = network.locations.length * nStyles;
  const listing: Listing = {
    from: new Int32Array(n).fill(-NEVER),
    to: new Int32Array(n).fill(NEVER),
    takeBack: new Uint8Array(n),
  };
  for (const l of network.outlets) {
    if (network.locations[l].kind !== 'store') continue;
    for (const s of catalog.styles) {
      // Only styles on sale throughout: a style's own launch or delisting is the catalogue's business.
      if (s.launchDay >= 0 || s.endDay < opts.days) continue;
      const at = l * nStyles + s.index;
      const u = rng.next();
      if (u < LISTED_LATE) listing.from[at] = mondayInPeriod(opts.days, cal, rng);
      else if (u < LISTED_LATE + DELISTED) {
        listing.to[at] = mondayInPeriod(opts.days, cal, rng);
        listing.takeBack[at] = rng.chance(TAKEN_BACK) ? 1 : 0;
      }
    }
  }
  return listing;
}

/** Whether the store is sent the style on `day`. */
export function isListed(listing: Listing | undefined, at: number, day: number): boolean {
  return !listing || (day >= listing.from[at] && day < listing.to[at]);
}
