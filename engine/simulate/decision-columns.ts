/**
 * A review's decisions and moves as columns of typed arrays: how parts of a replay send them (thousands a review,
 * where objects would cost as much to copy between threads and collect as to decide), and how the coordinator
 * reads them. Only the explained ones carry words.
 */
import { TRANSFER_TYPES } from '../model/settings.js';
import type { Decision } from '../recommend/proposal.js';
import type { KeptMove, Move } from '../recommend/redistribute.js';

export interface DecisionColumns {
  /** The transfer type's place in TRANSFER_TYPES. */
  type: Uint8Array;
  from: Int32Array;
  to: Int32Array;
  sku: Int32Array;
  quantity: Float64Array;
  /** The words of the explained decisions, by their place in the columns. */
  words: { at: number; reason: string; details?: Record<string, unknown> }[];
}

/** Decisions as columns, their SKUs moved by `skuOffset` (a part's numbering to the replay's). */
export function decisionColumns(decisions: readonly Decision[], skuOffset = 0): DecisionColumns {
  const n = decisions.length;
  const out: DecisionColumns = {
    type: new Uint8Array(n),
    from: new Int32Array(n),
    to: new Int32Array(n),
    sku: new Int32Array(n),
    quantity: new Float64Array(n),
    words: [],
  };
  decisions.forEach((d, i) => {
    out.type[i] = TRANSFER_TYPES.indexOf(d.transferType);
    out.from[i] = d.from;
    out.to[i] = d.to;
    out.sku[i] = d.sku + skuOffset;
    out.quantity[i] = d.quantity;
    if (d.reason) out.words.push({ at: i, reason: d.reason, ...(d.details ? { details: d.details } : {}) });
  });
  return out;
}

/** Moves, or kept moves (with their trip's gain and units), as columns. */
export interface MoveColumns {
  from: Int32Array;
  to: Int32Array;
  sku: Int32Array;
  style: Int32Array;
  units: Float64Array;
  gain: Float64Array;
  broken: Uint8Array;
  held: Float64Array;
  tripGain: Float64Array;
  tripUnits: Float64Array;
}

/** Kept moves (or plain ones: trip figures 0) as columns, their SKUs and styles moved by the offsets given. */
export function moveColumns(kept: readonly (KeptMove | Move)[], skuOffset = 0, styleOffset = 0): MoveColumns {
  const n = kept.length;
  const out: MoveColumns = {
    from: new Int32Array(n),
    to: new Int32Array(n),
    sku: new Int32Array(n),
    style: new Int32Array(n),
    units: new Float64Array(n),
    gain: new Float64Array(n),
    broken: new Uint8Array(n),
    held: new Float64Array(n),
    tripGain: new Float64Array(n),
    tripUnits: new Float64Array(n),
  };
  kept.forEach((k, i) => {
    const m = 'move' in k ? k.move : k;
    out.from[i] = m.from;
    out.to[i] = m.to;
    out.sku[i] = m.sku + skuOffset;
    out.style[i] = m.style + styleOffset;
    out.units[i] = m.units;
    out.gain[i] = m.gain;
    out.broken[i] = m.broken;
    out.held[i] = m.held;
    if ('move' in k) {
      out.tripGain[i] = k.tripGain;
      out.tripUnits[i] = k.tripUnits;
    }
  });
  return out;
}

/** The moves back as objects, their SKUs and styles moved by the offsets given. */
export function movesOf(c: MoveColumns, skuOffset = 0, styleOffset = 0): Move[] {
  return Array.from(c.from, (from, i) => ({
    from,
    to: c.to[i],
    sku: c.sku[i] + skuOffset,
    style: c.style[i] + styleOffset,
    units: c.units[i],
    gain: c.gain[i],
    broken: c.broken[i] as 0 | 1,
    held: c.held[i],
  }));
}

/** Kept moves back as objects (see movesOf). */
export function keptOf(c: MoveColumns, skuOffset = 0, styleOffset = 0): KeptMove[] {
  return movesOf(c, skuOffset, styleOffset).map((move, i) => ({
    move,
    tripGain: c.tripGain[i],
    tripUnits: c.tripUnits[i],
  }));
}
