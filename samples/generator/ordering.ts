/**
 * Continuity buying: an item sells for years, so its warehouse is resupplied over and over rather than bought once.
 * Every four weeks, per item and warehouse, one purchase order up to the expected demand of the outlets that
 * warehouse supplies over the next eight weeks, minus what the warehouse holds and has on order, planned to arrive
 * two weeks later and delivered like any order (on time, late, split or short). The orders depend on the stock the
 * simulation holds, so they are placed as it runs, into the same PurchasePlan the files are written from.
 */
import type { Catalog, ItemDef } from './catalog.js';
import type { DemandModel } from './demand.js';
import type { Network } from './locations.js';
import { isListed, type Listing } from './listing.js';
import type { GenerateOptions } from './options.js';
import { drawDeliveries, drawKind, neverBefore, type PoLine, type PoPlan, type PurchasePlan } from './purchasing.js';
import { Random } from './rng.js';

const CYCLE_DAYS = 28;
const COVER_DAYS = 56;
const LEAD_DAYS = 14;
/** The first order goes out three weeks before launch, so the goods are in a week before the shops get them. */
const FIRST_ORDER_BEFORE_LAUNCH = 21;

export class PeriodicBuyer {
  /** The first day an order goes out: the simulation starts no later. */
  readonly firstDay: number;
  private readonly rng: Random;
  private readonly nStyles: number;
  /** Per item × warehouse (`item * locations + warehouse`), its orders that still have a delivery to come. */
  private readonly open = new Map<number, PoPlan[]>();
  private pastDue?: PoPlan;

  constructor(
    private readonly opts: GenerateOptions,
    private readonly catalog: Catalog,
    private readonly network: Network,
    private readonly carried: Uint8Array,
    private readonly demand: DemandModel,
    private readonly plan: PurchasePlan,
    /** When each store lists each style (listing.ts): a store is bought for while it lists the style. */
    private readonly listing?: Listing,
  ) {
    this.rng = new Random(opts.seed, 'continuity-purchasing');
    this.nStyles = catalog.styles.length;
    this.firstDay = catalog.items.reduce((m, it) => Math.min(m, it.launchDay - FIRST_ORDER_BEFORE_LAUNCH), 0);
  }

  /**
   * Places the day's orders; called on Mondays after the morning's moves,
   * so it sees the stock left to the warehouse.
   */
  order(day: number, onHand: Int32Array): void {
    const nSku = this.catalog.skuIds.length;
    const placed: PoPlan[] = [];
    for (const it of this.catalog.items) {
      const since = day - (it.launchDay - FIRST_ORDER_BEFORE_LAUNCH);
      if (since < 0 || since % CYCLE_DAYS !== 0 || day >= this.catalog.styles[it.styles[0]].endDay) continue;
      this.network.warehouses.forEach((w, wi) => {
        const onOrder = this.onOrder(it, w, day);
        const lines: PoLine[] = [];
        for (const s of it.styles) {
          const st = this.catalog.styles[s];
          const cover = this.expected(s, w, day);
          for (let k = st.firstSku; k < st.firstSku + st.skuCount; k++) {
            const quantity =
              Math.round(cover * this.catalog.skuShare[k]) - onHand[w * nSku + k] - (onOrder.get(k) ?? 0);
            if (quantity > 0) lines.push({ sku: k, quantity });
          }
        }
        if (lines.length > 0) placed.push(this.draft(it, w, wi, day, lines));
      });
    }
    // Numbered in order of creation, as an ERP would.
    placed.sort((a, b) => a.orderSeconds - b.orderSeconds || a.item - b.item || a.warehouse - b.warehouse);
    for (const po of placed) {
      const i = this.plan.orders.length;
      po.purchaseOrderId = `PO-${String(i + 1).padStart(6, '0')}`;
      po.code = String(4500000001 + i);
      if (po === this.pastDue) this.plan.pitfalls.pastDue = po.purchaseOrderId;
      this.plan.orders.push(po);
      po.deliveries.forEach((d, di) => {
        let list = this.plan.byDay.get(d.day);
        if (!list) this.plan.byDay.set(d.day, (list = []));
        list.push([po, di]);
      });
      const key = po.item * this.network.locations.length + po.warehouse;
      this.open.set(key, [...(this.open.get(key) ?? []), po]);
    }
  }

  /**
   * The order of the open-order-past-due pitfall is the late-order item's order at the first warehouse that is
   * planned to arrive in the last four weeks: its goods come only after the end.
   */
  private draft(it: ItemDef, w: number, wi: number, day: number, lines: PoLine[]): PoPlan {
    const rng = this.rng;
    const plannedDay = day + LEAD_DAYS;
    const end = this.opts.days;
    const forced =
      it.index === this.catalog.pitfalls.lateOrderItem &&
      wi === 0 &&
      plannedDay >= end - CYCLE_DAYS &&
      plannedDay < end;
    const kind = forced ? 'late' : drawKind(rng);
    const orderSeconds = rng.int(8 * 3600, 17 * 3600);
    // A split of a few units can leave nothing for its second part; no truck comes with nothing on it.
    const deliveries = (forced ? neverBefore(end, lines, rng) : drawDeliveries(kind, plannedDay, lines, rng)).filter(
      (d) => d.quantities.some((q) => q > 0),
    );
    const po: PoPlan = {
      purchaseOrderId: '',
      code: '',
      item: it.index,
      warehouse: w,
      orderDay: day,
      orderSeconds,
      plannedDay,
      kind,
      lines,
      deliveries,
    };
    if (forced) this.pastDue = po;
    return po;
  }

  /** Units per SKU of the item ordered from that warehouse and not yet received (as the ERP's open lines show). */
  private onOrder(it: ItemDef, w: number, day: number): Map<number, number> {
    const key = it.index * this.network.locations.length + w;
    const orders = (this.open.get(key) ?? []).filter((po) => po.deliveries.some((d) => d.day >= day));
    this.open.set(key, orders);
    const units = new Map<number, number>();
    for (const po of orders) {
      po.lines.forEach((line, i) => {
        const received = po.deliveries.reduce((a, d) => a + (d.day < day ? d.quantities[i] : 0), 0);
        units.set(line.sku, (units.get(line.sku) ?? 0) + line.quantity - received);
      });
    }
    return units;
  }

  /**
   * Expected units of the whole style over the next eight weeks
   * at the outlets the warehouse supplies that carry it.
   */
  private expected(s: number, w: number, day: number): number {
    const style = this.catalog.styles[s];
    const outlets = this.network.outlets.filter(
      (l) =>
        this.network.locations[l].warehouse === w &&
        this.carried[l * this.nStyles + s] &&
        isListed(this.listing, l * this.nStyles + s, day),
    );
    let e = 0;
    for (let d = day; d < day + COVER_DAYS; d++) {
      const r = this.demand.styleRate(style, d);
      if (r === 0) continue;
      for (const l of outlets) e += r * this.demand.outletFactor(this.network.locations[l], d);
    }
    return e;
  }
}
