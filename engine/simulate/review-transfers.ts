/**
 * What a replay writes down of each review's transfers, in the engine's order (initial distribution, replenishment,
 * returns, then the trips redistribution kept): the transfers' columns, each kind's trips, lines and units, the
 * units sent each day, the store-days sent stock, and a traced style's transfers with their references and reasons.
 */
import { TRANSFER_TYPES } from '../model/settings.js';
import { referenceId } from '../model/transfer-reference.js';
import type { KeptMove } from '../recommend/redistribute.js';
import type { DecisionColumns } from './decision-columns.js';
import type { BacktestInput } from './input.js';
import type { PartDecided } from './replay-part.js';
import type { TransferKpis } from './kpis.js';
import { TransferBuilder, type TransferColumns } from './simulated-transfer.js';
import type { TracedTransfer } from './trace.js';

export class ReviewTransfers {
  readonly kpis: TransferKpis = {};
  readonly unitsByDay: Float64Array;
  /** Store-days the engine sent stock to (a store receiving several kinds of transfer on a day counts once). */
  deliveries = 0;
  readonly traced: TracedTransfer[] = [];
  private readonly builder = new TransferBuilder();

  constructor(
    private readonly input: BacktestInput,
    /** The traced style's SKUs [from, to), if a style is traced. */
    private readonly tracedSkus?: readonly [number, number],
  ) {
    this.unitsByDay = new Float64Array(input.days);
  }

  /**
   * Writes down review day i's transfers: each part's decisions by kind, then the kept moves (`kept`, in trip order)
   * from their part's redistribution columns (`carried`; `partOf` tells a style's part).
   */
  add(
    i: number,
    decided: readonly Pick<PartDecided, 'initial' | 'replenishment' | 'returns'>[],
    kept: readonly KeptMove[],
    carried: readonly DecisionColumns[],
    partOf: (style: number) => number,
  ): void {
    const next = carried.map(() => 0);
    const order: [DecisionColumns, number][] = [];
    for (const kind of ['initial', 'replenishment', 'returns'] as const)
      for (const d of decided) for (let x = 0; x < d[kind].sku.length; x++) order.push([d[kind], x]);
    for (const k of kept) {
      const p = partOf(k.move.style);
      order.push([carried[p], next[p]++]);
    }
    const { input } = this;
    const L = input.start.locations.ids.length;
    const day = input.start.asOfDay + i;
    const tripsMade = new Set<number>();
    const receivers = new Set<number>();
    // References are worked out when the transfers are read as rows (transferRows), but for a traced style's.
    const ids = this.tracedSkus ? new Set<string>() : undefined;
    const reasons = new Map<DecisionColumns, Map<number, string>>();
    for (const [c, x] of order) {
      const [type, from, to, sku, quantity] = [c.type[x], c.from[x], c.to[x], c.sku[x], c.quantity[x]];
      this.builder.add(day, type, from, to, sku, quantity);
      const transferType = TRANSFER_TYPES[type];
      if (ids) this.trace(ids, reasons, c, x, day);
      const t = (this.kpis[transferType] ??= { trips: 0, lines: 0, units: 0 });
      t.lines++;
      t.units += quantity;
      this.unitsByDay[i] += quantity;
      const trip = (type * L + from) * L + to;
      if (input.selling[to] && !receivers.has(to)) {
        receivers.add(to);
        this.deliveries++;
      }
      if (!tripsMade.has(trip)) {
        tripsMade.add(trip);
        t.trips++;
      }
    }
  }

  columns(): TransferColumns {
    return this.builder.columns(this.input.start.locations.ids, this.input.start.skus.ids);
  }

  /** Every transfer's reference is counted in `ids` (a day's references are numbered in order); a traced one kept. */
  private trace(
    ids: Set<string>,
    reasons: Map<DecisionColumns, Map<number, string>>,
    c: DecisionColumns,
    x: number,
    day: number,
  ): void {
    const S0 = this.input.start;
    const [from, to, sku, quantity] = [c.from[x], c.to[x], c.sku[x], c.quantity[x]];
    const transferType = TRANSFER_TYPES[c.type[x]];
    const [fromLocationId, toLocationId, skuId] = [S0.locations.ids[from], S0.locations.ids[to], S0.skus.ids[sku]];
    const reference = referenceId(transferType, day, fromLocationId, toLocationId, skuId, ids);
    if (sku < this.tracedSkus![0] || sku >= this.tracedSkus![1]) return;
    let words = reasons.get(c);
    if (!words) reasons.set(c, (words = new Map(c.words.map((w) => [w.at, w.reason]))));
    this.traced.push({
      day,
      transferType,
      fromLocationId,
      toLocationId,
      skuId,
      quantity,
      referenceId: reference,
      arrivalDay: day + this.input.transit.days[to],
      reason: words.get(x) ?? '',
    });
  }
}
