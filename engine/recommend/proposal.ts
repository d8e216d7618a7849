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

const PREFIX: Record<TransferType, string> = { InitialDistribution: 'ID', Replenishment: 'RP', Redistribution: 'RD' };

/** FNV-1a, 32 bits: a stable short digest (not a security measure). */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

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
 * The same decision on the same day gets the same id, so a client that saw it once recognises it again.
 * `seen` resolves the rare digest collision within one run.
 */
export function referenceId(
  type: TransferType,
  asOfDay: number,
  from: string,
  to: string,
  sku: string,
  seen: Set<string>,
): string {
  const base = `${PREFIX[type]}-${compactDay(asOfDay)}-${fnv1a(`${from}\u0000${to}\u0000${sku}`)}`;
  let id = base;
  for (let n = 2; seen.has(id); n++) id = `${base}-${n}`;
  seen.add(id);
  return id;
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
 * A proposal between two locations of a state, by index, with its deterministic id. `why` is called only when the
 * proposal is explained: a replay makes a million proposals and reads the words of a few.
 */
export function proposal(
  state: { asOfDay: number; locations: { ids: string[] }; skus: { ids: string[] } },
  run: { ids: Set<string>; explain: Explain },
  transferType: TransferType,
  from: number,
  to: number,
  sku: number,
  quantity: number,
  why: () => Explanation,
): Proposal {
  const fromLocationId = state.locations.ids[from];
  const toLocationId = state.locations.ids[to];
  const skuId = state.skus.ids[sku];
  const { reason, details } = run.explain(sku) ? why() : { reason: '', details: undefined };
  return {
    referenceId: referenceId(transferType, state.asOfDay, fromLocationId, toLocationId, skuId, run.ids),
    transferType,
    fromLocationId,
    toLocationId,
    skuId,
    quantity,
    reason,
    ...(details ? { details } : {}),
  };
}
