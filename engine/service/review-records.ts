/**
 * A run's review records (simulate.ts `ReviewRecord`) as one compressed blob of doubles: the network's sums are
 * mostly zeros (a category's few sizes out of all), and the trips are a few hundred a review.
 *
 * Layout: the sums' lengths (PARTS), the number of reviews, then per review its day, its number of trips, the sums
 * (demand units, demand days, the spread of each category's styles, brand, season, size, styles held per location ×
 * category, styles held per category, the last sale per location, the last day stock was sent per location), the
 * stores due a delivery (one per location) and each trip's from, to, gain and units.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ReviewSums } from '../recommend/review.js';
import type { ReviewRecord } from '../simulate/simulate.js';

/** The sums in the order they are kept; the last is per location (the stores due a delivery follow it). */
const PARTS: ((s: ReviewSums) => Float64Array)[] = [
  (s) => s.demand.units,
  (s) => s.demand.days,
  (s) => s.demand.spread,
  (s) => s.sales.brand,
  (s) => s.sales.season,
  (s) => s.sales.size,
  (s) => s.assortment.held,
  (s) => s.assortment.styles,
  (s) => s.assortment.lastSale,
  (s) => s.lastSent,
];
const partsOf = (s: ReviewSums) => PARTS.map((part) => part(s));

export function encodeReviews(reviews: readonly ReviewRecord[]): Uint8Array {
  const lengths = reviews.length ? partsOf(reviews[0].network).map((a) => a.length) : PARTS.map(() => 0);
  const width = lengths.reduce((a, b) => a + b, 0) + lengths[lengths.length - 1];
  let n = lengths.length + 1;
  for (const r of reviews) n += 2 + width + 4 * r.trips.length;
  const out = new Float64Array(n);
  let at = 0;
  for (const x of lengths) out[at++] = x;
  out[at++] = reviews.length;
  for (const r of reviews) {
    out[at++] = r.day;
    out[at++] = r.trips.length;
    for (const part of partsOf(r.network)) {
      out.set(part, at);
      at += part.length;
    }
    out.set(r.due, at);
    at += r.due.length;
    for (const t of r.trips) {
      out[at++] = t.from;
      out[at++] = t.to;
      out[at++] = t.gain;
      out[at++] = t.units;
    }
  }
  return deflateRawSync(new Uint8Array(out.buffer));
}

/**
 * The records back, their sums shaped as `empty` (a state's, emptyReviewSums); undefined when they were kept for
 * another shape (the workspace's categories, brands, seasons, sizes or locations changed since the run).
 */
export function decodeReviews(bytes: Uint8Array, empty: () => ReviewSums): ReviewRecord[] | undefined {
  const raw = inflateRawSync(bytes);
  const v = new Float64Array(raw.buffer, raw.byteOffset, raw.byteLength / 8);
  const lengths = partsOf(empty()).map((a) => a.length);
  if (lengths.some((x, i) => v[i] !== x)) return undefined;
  let at = lengths.length;
  const count = v[at++];
  const reviews: ReviewRecord[] = [];
  for (let r = 0; r < count; r++) {
    const day = v[at++];
    const tripCount = v[at++];
    const network = empty();
    for (const part of partsOf(network)) {
      part.set(v.subarray(at, at + part.length));
      at += part.length;
    }
    const due = Uint8Array.from(v.subarray(at, at + network.lastSent.length));
    at += due.length;
    const trips = [];
    for (let t = 0; t < tripCount; t++, at += 4)
      trips.push({ from: v[at], to: v[at + 1], gain: v[at + 2], units: v[at + 3] });
    reviews.push({ day, network, due, trips });
  }
  return reviews;
}
