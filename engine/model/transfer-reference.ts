/**
 * A transfer's reference: the same decision on the same day gets the same id, so a client that saw it once
 * recognises it again. Written by the engine as it proposes (referenceId) and by DuckDB as a kept run's transfers are
 * read (referenceSql), to the same text.
 */
import { dayText } from './datetime.js';
import type { TRANSFER_TYPES } from './settings.js';

export type TransferType = (typeof TRANSFER_TYPES)[number];

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
