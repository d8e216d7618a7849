/** What the engine proposes: one transfer line with a deterministic id and a reason a person can read. */
export { dayText } from '../model/datetime.js';
import { referenceId, type TransferType } from '../model/transfer-reference.js';
export type { TransferType };

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
