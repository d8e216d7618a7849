/**
 * Fashion buying: one purchase order per item and warehouse, a line per SKU, sized from the expected demand of the
 * outlets that warehouse supplies over the style's life, times a per-style buying error. Deliveries arrive around
 * the planned receipt date; some late, some in two parts, some short (the continuity assortments order the same
 * way, repeatedly, in ordering.ts). The file shows each order as the ERP would on the end date: received orders
 * closed, open and partly received ones with what is outstanding.
 */
import type { Calendar } from './calendar.js';
import type { Catalog } from './catalog.js';
import type { DemandModel } from './demand.js';
import type { Network } from './locations.js';
import { VAT } from './masterdata.js';
import type { GenerateOptions } from './options.js';
import { Random } from './rng.js';

export interface PoLine {
  sku: number;
  quantity: number;
}

export interface Delivery {
  day: number;
  /** Units per line, aligned with `lines`. */
  quantities: number[];
}

export interface PoPlan {
  purchaseOrderId: string;
  code: string;
  item: number;
  /** Location index of the receiving warehouse. */
  warehouse: number;
  orderDay: number;
  orderSeconds: number;
  plannedDay: number;
  kind: 'onTime' | 'late' | 'split' | 'short';
  lines: PoLine[];
  deliveries: Delivery[];
}

export interface PurchasePlan {
  orders: PoPlan[];
  /** Deliveries by day: [order, delivery index]. */
  byDay: Map<number, [PoPlan, number][]>;
  firstDeliveryDay: number;
  pitfalls: {
    /** Open order, planned before the end, not delivered, its due date never updated. */
    pastDue?: string;
  };
}

/** A plan with no orders yet: the continuity buyer fills it as the simulation runs. */
export function emptyPlan(): PurchasePlan {
  return { orders: [], byDay: new Map(), firstDeliveryDay: 0, pitfalls: {} };
}

/** How a supplier delivers: 75 % on time, 12 % late, 8 % in two parts, 5 % short. */
export function drawKind(rng: Random): PoPlan['kind'] {
  return (['onTime', 'late', 'split', 'short'] as const)[rng.weighted([0.75, 0.12, 0.08, 0.05])];
}

/** The deliveries of an order of that kind around its planned receipt day. */
export function drawDeliveries(kind: PoPlan['kind'], plannedDay: number, lines: PoLine[], rng: Random): Delivery[] {
  const part = (f: number) => lines.map((l) => Math.round(l.quantity * f));
  if (kind === 'onTime') return [{ day: plannedDay + rng.int(-3, 2), quantities: part(1) }];
  if (kind === 'late') return [{ day: plannedDay + rng.int(7, 35), quantities: part(1) }];
  if (kind === 'split') {
    const first = part(rng.uniform(0.6, 0.85));
    return [
      { day: plannedDay + rng.int(-2, 2), quantities: first },
      { day: plannedDay + rng.int(14, 42), quantities: lines.map((l, i) => l.quantity - first[i]) },
    ];
  }
  return [{ day: plannedDay + rng.int(-2, 3), quantities: part(rng.uniform(0.8, 0.95)) }];
}

/** The order of the open-order-past-due pitfall: its goods come only after the end. */
export function neverBefore(end: number, lines: PoLine[], rng: Random): Delivery[] {
  return [{ day: end + rng.int(10, 30), quantities: lines.map((l) => l.quantity) }];
}

export function planPurchases(
  opts: GenerateOptions,
  catalog: Catalog,
  network: Network,
  carried: Uint8Array,
  demand: DemandModel,
): PurchasePlan {
  const rng = new Random(opts.seed, 'purchasing');
  const nStyles = catalog.styles.length;
  const locs = network.locations;

  // Expected life demand of each style per warehouse, per unit of size share.
  const expected = network.warehouses.map(() => new Float64Array(nStyles));
  const carriers = network.warehouses.map(() => new Int32Array(nStyles));
  for (const s of catalog.styles) {
    network.warehouses.forEach((w, wi) => {
      const served = network.outlets.filter((l) => locs[l].warehouse === w && carried[l * nStyles + s.index]);
      carriers[wi][s.index] = served.length;
      let e = 0;
      for (let d = s.launchDay; d < s.endDay; d++) {
        const r = demand.styleRate(s, d);
        let f = 0;
        for (const l of served) f += demand.outletFactor(locs[l], d);
        e += r * f;
      }
      expected[wi][s.index] = e;
    });
  }

  // The order whose goods never came: its delivery is drawn after the end, its due date stays where it was.
  const pastDueItem = catalog.pitfalls.lateOrderItem;

  const drafts: PoPlan[] = [];
  for (const it of catalog.items) {
    const styleBuy = it.styles.map(() => rng.logNormal(1.05, 0.3));
    const orderDay = it.launchDay - rng.int(90, 150);
    const plannedDay = pastDueItem === it.index ? it.launchDay - 14 : it.launchDay - rng.int(10, 21);
    network.warehouses.forEach((w, wi) => {
      const lines: PoLine[] = [];
      it.styles.forEach((s, si) => {
        const st = catalog.styles[s];
        for (let k = st.firstSku; k < st.firstSku + st.skuCount; k++) {
          const want = expected[wi][s] * catalog.skuShare[k] * styleBuy[si];
          const quantity =
            carriers[wi][s] === 0
              ? 0
              : Math.round(want) + Math.ceil(0.5 * catalog.skuPresentation[k] * carriers[wi][s]);
          if (quantity > 0) lines.push({ sku: k, quantity });
        }
      });
      if (lines.length === 0) return;
      const forced = pastDueItem === it.index && wi === 0;
      const kind = forced ? 'late' : drawKind(rng);
      const deliveries = forced ? neverBefore(opts.days, lines, rng) : drawDeliveries(kind, plannedDay, lines, rng);
      drafts.push({
        purchaseOrderId: '',
        code: '',
        item: it.index,
        warehouse: w,
        orderDay,
        orderSeconds: rng.int(8 * 3600, 17 * 3600),
        plannedDay,
        kind,
        lines,
        deliveries,
      });
    });
  }

  // Numbered in order of creation, as an ERP would.
  drafts.sort(
    (a, b) =>
      a.orderDay - b.orderDay || a.orderSeconds - b.orderSeconds || a.item - b.item || a.warehouse - b.warehouse,
  );
  const byDay = new Map<number, [PoPlan, number][]>();
  let firstDeliveryDay = 0;
  drafts.forEach((po, i) => {
    po.purchaseOrderId = `PO-${String(i + 1).padStart(6, '0')}`;
    po.code = String(4500000001 + i);
    po.deliveries.forEach((d, di) => {
      let list = byDay.get(d.day);
      if (!list) byDay.set(d.day, (list = []));
      list.push([po, di]);
      firstDeliveryDay = Math.min(firstDeliveryDay, d.day);
    });
  });
  const pastDue = drafts.find((p) => p.item === pastDueItem && p.warehouse === network.warehouses[0]);
  return { orders: drafts, byDay, firstDeliveryDay, pitfalls: { pastDue: pastDue?.purchaseOrderId } };
}

export interface PoPitfalls {
  pastDue: string;
  eurCurrency: string;
  toReceiveMismatch: string;
}

/** The PurchaseOrders body as of the end date, with the order pitfalls applied. */
export function purchaseOrderRecords(
  opts: GenerateOptions,
  cal: Calendar,
  catalog: Catalog,
  network: Network,
  plan: PurchasePlan,
): { records: Record<string, unknown>[]; pitfalls: PoPitfalls } {
  const end = opts.days;
  const open = (po: PoPlan) => po.deliveries.some((d) => d.day >= end);
  const received = (po: PoPlan, line: number) =>
    po.deliveries.reduce((a, d) => a + (d.day < end ? d.quantities[line] : 0), 0);
  // Without a natural candidate (a very short period), the first open order gets a stale due date instead.
  const pastDue = plan.pitfalls.pastDue ?? plan.orders.find(open)!.purchaseOrderId;
  const eur = plan.orders.find((p) => !open(p))!.purchaseOrderId;
  const mismatch = plan.orders.find(
    (p) => open(p) && p.purchaseOrderId !== pastDue && p.lines[0].quantity > received(p, 0),
  )!.purchaseOrderId;

  const records = plan.orders.map((po) => {
    const item = catalog.items[po.item];
    const isOpen = open(po);
    // An ERP moves the due date of a late order to the new expected date; only the pitfall order keeps a stale one.
    let dueDay = po.plannedDay;
    if (isOpen && po.plannedDay < end) dueDay = po.deliveries.find((d) => d.day >= end)!.day;
    if (po.purchaseOrderId === pastDue)
      dueDay = plan.pitfalls.pastDue ? po.plannedDay : Math.min(po.plannedDay, end - 7);
    const due = cal.iso(dueDay);
    return {
      purchaseOrderId: po.purchaseOrderId,
      code: po.code,
      collectionId: item.collectionId,
      seasonId: item.seasonId,
      vendorId: item.vendorId,
      locationId: network.locations[po.warehouse].locationId,
      currencyId: po.purchaseOrderId === eur ? 'EUR' : 'local',
      completelyReceived: !isOpen,
      orderDate: cal.iso(po.orderDay, po.orderSeconds),
      orderDueDate: due,
      purchaseOrderLines: po.lines.map((line, i) => {
        const outstanding = isOpen ? Math.max(0, line.quantity - received(po, i)) : 0;
        // The deprecated field left at 0 by the ERP while units are still outstanding.
        const toReceive = po.purchaseOrderId === mismatch && i === 0 ? 0 : outstanding;
        return {
          purchaseOrderLineId: `${po.purchaseOrderId}-${i + 1}`,
          lineNumber: i + 1,
          skuId: catalog.skuIds[line.sku],
          quantity: line.quantity,
          quantityOutstanding: outstanding,
          quantityToReceive: toReceive,
          unitCostLocalCurrency: catalog.styles[catalog.skuStyle[line.sku]].costCents / 100,
          vatPercentage: VAT,
          plannedReceiptDate: due,
        };
      }),
    };
  });
  return { records, pitfalls: { pastDue, eurCurrency: eur, toReceiveMismatch: mismatch } };
}
