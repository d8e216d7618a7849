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
  const base = `${PREFIX[type]}-${dayText(asOfDay).replace(/-/g, '')}-${fnv1a(`${from}\u0000${to}\u0000${sku}`)}`;
  let id = base;
  for (let n = 2; seen.has(id); n++) id = `${base}-${n}`;
  seen.add(id);
  return id;
}

export const round2 = (x: number) => Math.round(x * 100) / 100;

/** A proposal between two locations of a state, by index, with its deterministic id. */
export function proposal(
  state: { asOfDay: number; locations: { ids: string[] }; skus: { ids: string[] } },
  ids: Set<string>,
  transferType: TransferType,
  from: number,
  to: number,
  sku: number,
  quantity: number,
  reason: string,
  details: Record<string, unknown>,
): Proposal {
  const fromLocationId = state.locations.ids[from];
  const toLocationId = state.locations.ids[to];
  const skuId = state.skus.ids[sku];
  return {
    referenceId: referenceId(transferType, state.asOfDay, fromLocationId, toLocationId, skuId, ids),
    transferType,
    fromLocationId,
    toLocationId,
    skuId,
    quantity,
    reason,
    details,
  };
}
