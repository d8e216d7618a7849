/** What the engine proposes: one transfer line with a deterministic id and a reason a person can read. */
import type { TRANSFER_TYPES } from '../model/settings.js';

export type TransferType = (typeof TRANSFER_TYPES)[number];

export interface Proposal {
  referenceId: string;
  transferType: TransferType;
  fromLocationId: string;
  toLocationId: string;
  skuId: string;
  quantity: number;
  /** Why, in words a person reads. */
  reason: string;
  /** The numbers behind the reason. */
  details?: Record<string, unknown>;
}

/** A reference's first part, by transfer type. */
const REFERENCE_PREFIX: Record<TransferType, string> = {
  InitialDistribution: 'ID',
  Replenishment: 'RP',
  Redistribution: 'RD',
};

const FNV_PRIME = 0x01000193;

/** FNV-1a, 32 bits, continued from `h` over a text's characters. */
function fnv1a(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** A digest as a reference writes it: eight hex digits. */
const digestText = (digest: number): string => digest.toString(16).padStart(8, '0');

export { dayText } from '../model/datetime.js';
import { dayText } from '../model/datetime.js';

/** YYYYMMDD of a day; a run asks for the same day thousands of times, so the last one is kept. */
const compactDay = (() => {
  let day = Number.NaN;
  let text = '';
  return (d: number) => {
    if (d !== day) [day, text] = [d, dayText(d).replace(/-/g, '')];
    return text;
  };
})();

/**
 * The digest of a route and SKU in a transfer's reference: FNV-1a (32 bits, a stable short digest, not a security
 * measure) of the three ids joined by NUL, read where they are, as a run hashes millions of them. A NUL leaves the
 * hash as it is before its multiplication (h ^ 0 is h).
 */
export function routeDigest(from: string, to: string, sku: string): number {
  const h = fnv1a(Math.imul(fnv1a(Math.imul(fnv1a(0x811c9dc5, from), FNV_PRIME), to), FNV_PRIME), sku);
  return h >>> 0;
}

/**
 * The same decision on the same day gets the same id, so a client that saw it once recognises it again: its type's
 * prefix, the day as YYYYMMDD, the route's digest in eight hex digits, and "-n" for the n-th time a run's day meets
 * the same one (`seen` resolves the rare digest collision). `referenceSql` writes the same text in DuckDB.
 */
export function referenceId(
  type: TransferType,
  asOfDay: number,
  from: string,
  to: string,
  sku: string,
  seen: Set<string>,
  digest = routeDigest(from, to, sku),
): string {
  const base = `${REFERENCE_PREFIX[type]}-${compactDay(asOfDay)}-${digestText(digest)}`;
  let id = base;
  for (let n = 2; seen.has(id); n++) id = `${base}-${n}`;
  seen.add(id);
  return id;
}

/**
 * referenceId's text as a DuckDB expression over columns of numbers (a run keeps millions of references, and
 * DuckDB writes them faster than JavaScript hands it strings): `type` an index into `types` (0-based), `day` a day
 * number, `digest` routeDigest's, `n` the times the day met that digest so far, this one included.
 */
export function referenceSql(
  types: readonly TransferType[],
  col: { type: string; day: string; digest: string; n: string },
): string {
  const prefixes = `[${types.map((t) => `'${REFERENCE_PREFIX[t]}'`).join(', ')}]`;
  return (
    `${prefixes}[${col.type} + 1] || '-' || strftime(DATE '1970-01-01' + ${col.day}, '%Y%m%d') || '-' || ` +
    `lpad(lower(to_hex(${col.digest}::UBIGINT)), 8, '0') || CASE WHEN ${col.n} > 1 THEN '-' || ${col.n} ELSE '' END`
  );
}

export const round2 = (x: number) => Math.round(x * 100) / 100;

/** Why a proposal was made: the words and the numbers behind them. */
export interface Explanation {
  reason: string;
  details: Record<string, unknown>;
}

/** Which proposals are explained: a replay keeps only the decisions, except for the style it traces. */
export type Explain = (sku: number) => boolean;
export const EXPLAIN_ALL: Explain = () => true;

/**
 * A decision of the engine: a transfer line between two locations of the state it was made on, by index, with
 * its words when explained. Plain data, so a part of the engine that decided it can send it elsewhere.
 */
export interface Decision {
  transferType: TransferType;
  from: number;
  to: number;
  sku: number;
  quantity: number;
  reason: string;
  details?: Record<string, unknown>;
}

/** A decision, put in words only when explained: a replay makes a million of them and reads the words of a few. */
export function decision(
  explain: Explain,
  transferType: TransferType,
  from: number,
  to: number,
  sku: number,
  quantity: number,
  why: () => Explanation,
): Decision {
  // One object per decision, no other: the replay's millions are built here.
  if (!explain(sku)) return { transferType, from, to, sku, quantity, reason: '' };
  const { reason, details } = why();
  return details
    ? { transferType, from, to, sku, quantity, reason, details }
    : { transferType, from, to, sku, quantity, reason };
}

/** A decision as the proposal the service hands out: ids instead of indexes, and its deterministic reference. */
export function proposalOf(
  state: { asOfDay: number; locations: { ids: string[] }; skus: { ids: string[] } },
  ids: Set<string>,
  d: Decision,
): Proposal {
  const fromLocationId = state.locations.ids[d.from];
  const toLocationId = state.locations.ids[d.to];
  const skuId = state.skus.ids[d.sku];
  return {
    referenceId: referenceId(d.transferType, state.asOfDay, fromLocationId, toLocationId, skuId, ids),
    transferType: d.transferType,
    fromLocationId,
    toLocationId,
    skuId,
    quantity: d.quantity,
    reason: d.reason,
    ...(d.details ? { details: d.details } : {}),
  };
}
