/** A transfer the replay's engine proposed, approved at once. */
import { TRANSFER_TYPES } from '../model/settings.js';
import type { TransferType } from '../recommend/proposal.js';
import { referenceId } from '../model/transfer-reference.js';

export interface SimulatedTransfer {
  day: number;
  transferType: TransferType;
  fromLocationId: string;
  toLocationId: string;
  skuId: string;
  quantity: number;
  referenceId: string;
}

/**
 * A run's transfers as columns, in the order the reviews made them: a two-year replay makes a million, which as
 * objects would cost more to keep, collect and hand between threads than to decide. Locations and SKUs are indexes
 * into the ids given with them.
 */
export interface TransferColumns {
  /** Days since 1970-01-01. */
  day: Int32Array;
  /** The type's place in TRANSFER_TYPES. */
  type: Uint8Array;
  from: Int32Array;
  to: Int32Array;
  sku: Int32Array;
  quantity: Float64Array;
  locationIds: string[];
  skuIds: string[];
}

/** Collects transfers review by review into columns. */
export class TransferBuilder {
  private n = 0;
  private cols = TransferBuilder.columns(1024);

  private static columns(size: number) {
    return {
      day: new Int32Array(size),
      type: new Uint8Array(size),
      from: new Int32Array(size),
      to: new Int32Array(size),
      sku: new Int32Array(size),
      quantity: new Float64Array(size),
    };
  }

  add(day: number, type: number, from: number, to: number, sku: number, quantity: number): void {
    if (this.n === this.cols.day.length) {
      const bigger = TransferBuilder.columns(this.n * 2);
      for (const k of Object.keys(bigger) as (keyof typeof bigger)[]) bigger[k].set(this.cols[k] as never);
      this.cols = bigger;
    }
    const i = this.n++;
    this.cols.day[i] = day;
    this.cols.type[i] = type;
    this.cols.from[i] = from;
    this.cols.to[i] = to;
    this.cols.sku[i] = sku;
    this.cols.quantity[i] = quantity;
  }

  columns(locationIds: string[], skuIds: string[]): TransferColumns {
    const n = this.n;
    const c = this.cols;
    return {
      day: c.day.slice(0, n),
      type: c.type.slice(0, n),
      from: c.from.slice(0, n),
      to: c.to.slice(0, n),
      sku: c.sku.slice(0, n),
      quantity: c.quantity.slice(0, n),
      locationIds,
      skuIds,
    };
  }
}

/**
 * The transfers as rows, each with its reference: deterministic, and unique within its day (a digest met twice
 * on one day takes a suffix, in the order the reviews made the transfers).
 */
export function* eachTransfer(t: TransferColumns): Generator<SimulatedTransfer> {
  let seen = new Set<string>();
  for (let i = 0; i < t.day.length; i++) {
    if (i > 0 && t.day[i] !== t.day[i - 1]) seen = new Set();
    const transferType = TRANSFER_TYPES[t.type[i]];
    const fromLocationId = t.locationIds[t.from[i]];
    const toLocationId = t.locationIds[t.to[i]];
    const skuId = t.skuIds[t.sku[i]];
    yield {
      day: t.day[i],
      transferType,
      fromLocationId,
      toLocationId,
      skuId,
      quantity: t.quantity[i],
      referenceId: referenceId(transferType, t.day[i], fromLocationId, toLocationId, skuId, seen),
    };
  }
}

/** The transfers as rows (eachTransfer), all at once. */
export const transferRows = (t: TransferColumns): SimulatedTransfer[] => [...eachTransfer(t)];
