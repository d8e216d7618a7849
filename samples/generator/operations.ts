/**
 * The operation, day by day, from a warm-up before day 0 to the end: the warehouses receive purchase orders; every
 * Monday at 00:00 they first take back the leftovers of styles whose life ended (or that a store delisted), then
 * ship each outlet up to its order-up-to level (as far as their stock goes), and the stock snapshot is taken right
 * after (a continuity buyer then places that Monday's orders); where the policy has the goods on the road, they reach
 * the outlet days later at 00:00, written as its stock level then; outlets sell min(demand, stock on hand at the
 * start of the day), the demand drawn on every carried day whatever the stock; returns come back 1–14 days later;
 * stores now and then book a small stock correction after closing. The truth book counts demand and sales as they
 * are drawn.
 *
 * Because goods move between locations only at the Monday snapshot moment, and reach an outlet at a stock level of
 * their own, every location's on-hand at any moment is the latest snapshot + the stock mutations since − the net
 * sales since. The tests check that identity.
 */
import type { Calendar } from './calendar.js';
import type { Catalog } from './catalog.js';
import type { DemandModel } from './demand.js';
import type { DirtyExport } from './dirty-export.js';
import { isListed, type Listing } from './listing.js';
import type { Network } from './locations.js';
import type { Policy } from './policy.js';
import type { PurchasePlan } from './purchasing.js';
import { Random } from './rng.js';
import { SalesBook, type SoldLine } from './sales.js';
import type { TruthBook } from './truth.js';
import { BatchWriter, MAX_FILE_CHARS, type Output } from './writer.js';

export interface Layout {
  locationIds: readonly string[];
  skuIds: readonly string[];
}

/** Lets a test watch the true stock: on-hand per `location × SKU` (index `l * skuIds.length + k`) after each day. */
export interface Observer {
  start?(layout: Layout): void;
  dayEnd?(day: number, onHand: Int32Array): void;
}

export interface SimulationStats {
  demandUnits: number;
  soldUnits: number;
  returnedUnits: number;
  receivedUnits: number;
  correctedUnits: number;
  sales: number;
  salesLines: number;
  stockRows: number;
  zeroStoreRows: number;
  mutations: number;
}

export interface SimulationInput {
  seed: number;
  days: number;
  cal: Calendar;
  catalog: Catalog;
  network: Network;
  carried: Uint8Array;
  demand: DemandModel;
  plan: PurchasePlan;
  policy: Policy;
  truth: TruthBook;
  out: Output;
  observer?: Observer;
  /** `--dirty-export`: the sales pass through it on their way to the files. */
  dirty?: DirtyExport;
  /** `--webshop-from-warehouse`: the webshop sells from its warehouse's stock (options.ts). */
  webshopFromWarehouse?: boolean;
  /** When each store lists each style it carries (listing.ts); absent: all the time. */
  listing?: Listing;
}

const CORRECTION_RATE = 0.04;
/** A warehouse counts a style as active from three weeks before launch (the goods are on their way in). */
const WAREHOUSE_LEAD_DAYS = 21;
/** Leftovers come back on the Mondays within five weeks after a style's life, covering every late return. */
const TAKE_BACK_DAYS = 35;
/** Once the last take-back is in, what is left at the warehouse goes to an off-price buyer. */
const CLEARANCE_AFTER_DAYS = TAKE_BACK_DAYS;

interface PendingReturn extends SoldLine {
  loc: number;
}

export function simulate(input: SimulationInput): { stats: SimulationStats; sales: SalesBook } {
  const { cal, catalog, network, carried, demand, plan, policy, truth, out, days } = input;
  const locs = network.locations;
  const nLoc = locs.length;
  const nSku = catalog.skuIds.length;
  const nStyles = catalog.styles.length;
  const styles = catalog.styles;
  const share = catalog.skuShare;

  const onHand = new Int32Array(nLoc * nSku);
  /**
   * The level a reader of the files arrives at: the last snapshot row plus the mutations and sales written since
   * (0 before anything is written). It differs from onHand only after a move at a snapshot moment that no row has
   * recorded yet; the snapshot writes a row wherever it does.
   */
  const implied = new Int32Array(nLoc * nSku);
  const todayRate = new Float64Array(nStyles);
  const pending = new Map<number, PendingReturn[]>();
  /** Per location: the location whose stock it sells from (the webshop's warehouse, with --webshop-from-warehouse). */
  const stockAt = locs.map((loc, l) => (input.webshopFromWarehouse && loc.kind === 'online' ? loc.warehouse : l));
  const served = network.warehouses.map((w) =>
    network.outlets.filter((l) => locs[l].warehouse === w && stockAt[l] === l),
  );
  const need = new Int32Array(nLoc);
  const give = new Int32Array(nLoc);
  const { listing } = input;
  /** Goods on the road to an outlet (policy.transitDays): per location × SKU, and what arrives on which day. */
  const onWay = new Int32Array(nLoc * nSku);
  const arriving = new Map<number, Map<number, number>>();

  const returnRng = new Random(input.seed, 'returns');
  const opsRng = new Random(input.seed, 'operations');
  // A daily sale holds a line per SKU sold: the size cap keeps such files within a request body's limit.
  const salesWriter = new BatchWriter(out, 'Sales', 'sales', 10_000, 'numbered', MAX_FILE_CHARS);
  const stockWriter = new BatchWriter(out, 'Stock', 'stock', 50_000, 'numbered');
  const mutationWriter = new BatchWriter(out, 'StockMutations', 'stockMutations', 50_000, 'numbered');
  const salesSink = input.dirty ? input.dirty.salesInto(salesWriter) : salesWriter;
  const book = new SalesBook(input.seed, cal, catalog, salesSink, policy.dailySales);
  const stats: SimulationStats = {
    demandUnits: 0,
    soldUnits: 0,
    returnedUnits: 0,
    receivedUnits: 0,
    correctedUnits: 0,
    sales: 0,
    salesLines: 0,
    stockRows: 0,
    zeroStoreRows: 0,
    mutations: 0,
  };
  input.observer?.start?.({ locationIds: locs.map((l) => l.locationId), skuIds: catalog.skuIds });

  const first =
    styles.reduce((m, s) => Math.min(m, s.launchDay), Math.min(plan.firstDeliveryDay, policy.buyer?.firstDay ?? 0)) - 1;

  /**
   * Leftovers of finished styles go back to the warehouse that supplied the outlet, and so do a store's of a style
   * it delisted taking them back.
   */
  function takeBack(day: number): void {
    for (const s of styles) {
      const ended = day >= s.endDay && day < s.endDay + TAKE_BACK_DAYS;
      if (!ended && !listing) continue;
      for (const l of network.outlets) {
        const at = l * nStyles + s.index;
        const delisted =
          listing !== undefined &&
          listing.takeBack[at] === 1 &&
          day >= listing.to[at] &&
          day < listing.to[at] + TAKE_BACK_DAYS;
        if (!ended && !delisted) continue;
        const wh = locs[l].warehouse;
        for (let k = s.firstSku; k < s.firstSku + s.skuCount; k++) {
          const q = onHand[l * nSku + k];
          if (q > 0) {
            onHand[l * nSku + k] = 0;
            onHand[wh * nSku + k] += q;
          }
        }
      }
    }
  }

  /**
   * Order-up-to replenishment to the policy's level from the expected demand of the coming week, at least the
   * presentation minimum. A short warehouse shares out pro rata, the odd units rotating week by week.
   */
  function replenish(day: number): void {
    const rotation = Math.floor((day - first) / 7);
    for (const s of styles) {
      if (day < s.launchDay || day >= s.clearanceDay) continue;
      let weekStore = 0;
      let weekOnline = 0;
      for (let d = day; d < day + 7; d++) {
        const r = demand.styleRate(s, d);
        weekStore += r * demand.weekdayFactor(false, d);
        weekOnline += r * demand.weekdayFactor(true, d);
      }
      for (let k = s.firstSku; k < s.firstSku + s.skuCount; k++) {
        const pres = catalog.skuPresentation[k];
        network.warehouses.forEach((w, wi) => {
          const outlets = served[wi];
          let total = 0;
          for (let i = 0; i < outlets.length; i++) {
            const l = outlets[i];
            need[i] = 0;
            if (!carried[l * nStyles + s.index] || !isListed(listing, l * nStyles + s.index, day)) continue;
            if (policy.blocked && locs[l].kind === 'store' && policy.blocked(l * nSku + k, day)) continue;
            const loc = locs[l];
            const e = loc.size * (loc.kind === 'online' ? weekOnline : weekStore) * share[k];
            const target = policy.orderUpTo(e, pres, l * nSku + k);
            need[i] = Math.max(0, target - onHand[l * nSku + k] - onWay[l * nSku + k]);
            total += need[i];
          }
          if (total === 0) return;
          const avail = Math.max(0, onHand[w * nSku + k]);
          if (total <= avail) {
            for (let i = 0; i < outlets.length; i++) give[i] = need[i];
          } else {
            let left = avail;
            for (let i = 0; i < outlets.length; i++) {
              give[i] = Math.floor((need[i] * avail) / total);
              left -= give[i];
            }
            const startAt = (rotation + k) % outlets.length;
            for (let j = 0; j < outlets.length && left > 0; j++) {
              const i = (startAt + j) % outlets.length;
              if (give[i] < need[i]) {
                give[i]++;
                left--;
              }
            }
          }
          for (let i = 0; i < outlets.length; i++) {
            if (give[i] === 0) continue;
            const p = outlets[i] * nSku + k;
            onHand[w * nSku + k] -= give[i];
            if (policy.transitDays === 0) {
              onHand[p] += give[i];
              continue;
            }
            onWay[p] += give[i];
            const when = day + policy.transitDays;
            let list = arriving.get(when);
            if (!list) arriving.set(when, (list = new Map()));
            list.set(p, (list.get(p) ?? 0) + give[i]);
          }
        });
      }
    }
  }

  /**
   * One row per location × SKU that is in its selling life there or holds stock, zeros included; and a row
   * wherever the files would otherwise imply a level other than the true one (stock taken back to the warehouse
   * from a pair that has left the range), so the history never ends on a stale level.
   */
  function snapshot(day: number): void {
    const at = cal.iso(day);
    for (let l = 0; l < nLoc; l++) {
      const loc = locs[l];
      if (stockAt[l] !== l) continue;
      const isWarehouse = loc.kind === 'warehouse';
      for (let k = 0; k < nSku; k++) {
        const p = l * nSku + k;
        const q = onHand[p];
        const s = styles[catalog.skuStyle[k]];
        const active = isWarehouse
          ? day >= s.launchDay - WAREHOUSE_LEAD_DAYS && day < s.endDay
          : carried[l * nStyles + s.index] === 1 &&
            day >= s.launchDay &&
            day < s.endDay &&
            isListed(listing, l * nStyles + s.index, day);
        if (!active && q === 0 && implied[p] === 0) continue;
        implied[p] = q;
        stockWriter.add(
          `{"locationId":"${loc.locationId}","skuId":"${catalog.skuIds[k]}","quantity":${q},"stockDateTime":"${at}"}`,
        );
        stats.stockRows++;
        if (q === 0 && active && loc.kind === 'store') stats.zeroStoreRows++;
      }
    }
  }

  function receive(day: number, writing: boolean): void {
    for (const [po, di] of plan.byDay.get(day) ?? []) {
      const seconds = opsRng.int(7 * 3600, 15 * 3600);
      const delivery = po.deliveries[di];
      po.lines.forEach((line, i) => {
        const q = delivery.quantities[i];
        if (q <= 0) return;
        onHand[po.warehouse * nSku + line.sku] += q;
        if (!writing) return;
        implied[po.warehouse * nSku + line.sku] += q;
        stats.receivedUnits += q;
        stats.mutations++;
        mutationWriter.add(
          `{"stockMutationId":"RCV-${po.purchaseOrderId}-${i + 1}-${di + 1}",` +
            `"locationId":"${locs[po.warehouse].locationId}","skuId":"${catalog.skuIds[line.sku]}","quantity":${q},` +
            `"mutationDateTime":"${cal.iso(day, seconds)}","type":"receipt"}`,
        );
      });
    }
  }

  /**
   * Goods on the road reach their outlets at the start of the day, before it opens; each outlet × SKU that
   * received is written as a stock level at that moment (`write`: a written day without a full snapshot).
   */
  function arrive(day: number, write: boolean): void {
    const list = arriving.get(day);
    if (!list) return;
    arriving.delete(day);
    const at = cal.iso(day);
    for (const [p, q] of list) {
      onHand[p] += q;
      onWay[p] -= q;
      if (!write) continue;
      implied[p] = onHand[p];
      const l = Math.floor(p / nSku);
      stockWriter.add(
        `{"locationId":"${locs[l].locationId}","skuId":"${catalog.skuIds[p - l * nSku]}",` +
          `"quantity":${onHand[p]},"stockDateTime":"${at}"}`,
      );
      stats.stockRows++;
    }
  }

  /** The warehouse sells a finished style's last units to an off-price buyer, so dead stock does not pile up. */
  function clearOut(day: number, writing: boolean): void {
    for (const s of styles) {
      if (day !== s.endDay + CLEARANCE_AFTER_DAYS) continue;
      // After the day's receipts (07:00–15:00), so the day's stock never reads negative in between.
      const seconds = opsRng.int(16 * 3600, 17 * 3600);
      for (const w of network.warehouses) {
        for (let k = s.firstSku; k < s.firstSku + s.skuCount; k++) {
          const q = onHand[w * nSku + k];
          if (q <= 0) continue;
          onHand[w * nSku + k] = 0;
          if (!writing) continue;
          implied[w * nSku + k] -= q;
          stats.mutations++;
          mutationWriter.add(
            `{"stockMutationId":"CLR-${locs[w].locationId}-${catalog.skuIds[k]}",` +
              `"locationId":"${locs[w].locationId}","skuId":"${catalog.skuIds[k]}","quantity":${-q},` +
              `"mutationDateTime":"${cal.iso(day, seconds)}","type":"clearance"}`,
          );
        }
      }
    }
  }

  /** Shrinkage found after closing (21:30–22:30, after the last store sale): a unit or two written off. */
  function correct(day: number, l: number, active: number[], writing: boolean): void {
    if (!opsRng.chance(CORRECTION_RATE) || active.length === 0) return;
    for (let attempt = 0; attempt < 4; attempt++) {
      const s = styles[active[opsRng.int(0, active.length - 1)]];
      const k = s.firstSku + opsRng.int(0, s.skuCount - 1);
      const p = l * nSku + k;
      if (!carried[l * nStyles + s.index] || onHand[p] <= 0) continue;
      const q = Math.min(onHand[p], opsRng.chance(0.25) ? 2 : 1);
      onHand[p] -= q;
      if (writing) {
        implied[p] -= q;
        stats.correctedUnits += q;
        stats.mutations++;
        const loc = locs[l];
        mutationWriter.add(
          `{"stockMutationId":"COR-${loc.locationId}-${cal.compact(day)}",` +
            `"locationId":"${loc.locationId}","skuId":"${catalog.skuIds[k]}","quantity":${-q},` +
            `"mutationDateTime":"${cal.iso(day, opsRng.int(21 * 3600 + 1800, 22 * 3600 + 1800))}","type":"correction"}`,
        );
      }
      return;
    }
  }

  /** Per outlet × style: the day the style launched there (first had stock of it), or never. */
  const launchedAt = new Int32Array(nLoc * nStyles).fill(2 ** 31 - 1);
  const active: number[] = [];
  const returnsAt: PendingReturn[][] = locs.map(() => []);
  for (let day = first; day < days; day++) {
    const writing = day >= 0;
    const monday = demand.dow(day) === 1;
    const snapshotDay = writing && (monday || day === 0);
    arrive(day, writing && !snapshotDay);
    if (monday) {
      takeBack(day);
      replenish(day);
    }
    if (snapshotDay) snapshot(day);
    if (monday) policy.buyer?.order(day, onHand);
    receive(day, writing);
    clearOut(day, writing);

    active.length = 0;
    for (const s of styles) {
      if (day < s.launchDay || day >= s.endDay) continue;
      active.push(s.index);
      todayRate[s.index] = demand.styleRate(s, day);
    }
    for (const r of returnsAt) r.length = 0;
    for (const r of pending.get(day) ?? []) returnsAt[r.loc].push(r);
    pending.delete(day);

    for (const l of network.outlets) {
      const loc = locs[l];
      const factor = demand.outletFactor(loc, day);
      const returnRate = policy.returnRate(loc);
      const sold: SoldLine[] = [];
      if (factor > 0) {
        for (const si of active) {
          if (!carried[l * nStyles + si]) continue;
          const s = styles[si];
          // The style launches at the outlet the first day it has any of it: before that it is not on sale there.
          const at = l * nStyles + si;
          if (launchedAt[at] > day) {
            for (let k = s.firstSku; k < s.firstSku + s.skuCount; k++)
              if (onHand[stockAt[l] * nSku + k] > 0) launchedAt[at] = day;
          }
          const rate = todayRate[si] * factor;
          const paid = Math.round(s.priceCents * (1 - demand.discount(s, day)));
          // After a delisting the store carries what is left on its shelf, and nothing once that is gone.
          const delisted = listing !== undefined && day >= listing.to[at];
          for (let k = s.firstSku; k < s.firstSku + s.skuCount; k++) {
            const n = policy.demand(rate * share[k], k);
            const p = stockAt[l] * nSku + k;
            if (writing && launchedAt[at] <= day && (!delisted || onHand[p] > 0)) truth.count(l, k, n, onHand[p]);
            if (n === 0) continue;
            const q = Math.min(n, onHand[p]);
            if (writing) stats.demandUnits += n;
            if (q === 0) continue;
            onHand[p] -= q;
            if (writing) implied[p] -= q;
            sold.push({ sku: k, qty: q, paidCents: paid, fullCents: s.priceCents, costCents: s.costCents });
            let back = 0;
            for (let u = 0; u < q; u++) if (returnRng.chance(returnRate)) back++;
            if (back === 0) continue;
            let when = day + returnRng.int(1, 14);
            while (!demand.isOpen(loc, when)) when++;
            if (when >= days) continue;
            let list = pending.get(when);
            if (!list) pending.set(when, (list = []));
            list.push({ loc: l, sku: k, qty: -back, paidCents: paid, fullCents: s.priceCents, costCents: s.costCents });
          }
        }
      }
      const returns = returnsAt[l];
      for (const r of returns) {
        onHand[stockAt[l] * nSku + r.sku] -= r.qty;
        if (writing) implied[stockAt[l] * nSku + r.sku] -= r.qty;
      }
      if (loc.kind === 'store' && factor > 0) correct(day, l, active, writing);
      if (writing) {
        for (const s of sold) stats.soldUnits += s.qty;
        for (const r of returns) stats.returnedUnits -= r.qty;
        book.day(day, loc, sold, returns);
      }
    }
    if (writing) {
      truth.dayEnd(day);
      input.observer?.dayEnd?.(day, onHand);
    }
  }
  salesWriter.finish();
  stockWriter.finish();
  mutationWriter.finish();
  stats.sales = book.sales;
  stats.salesLines = book.lines;
  return { stats, sales: book };
}
