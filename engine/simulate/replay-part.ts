/**
 * A part of a replay: a range of styles, all their SKUs at every location. It owns everything of its cells and
 * lives the days on its own: arrivals, the actual receipts and write-downs, transfers waiting for stock, the
 * demand served (serve-day.ts). Only the review couples it to the other parts, in the steps of review.ts: it
 * gives its share of the network's sums, decides given the network's, and carries out its kept moves. So parts
 * run side by side in threads, processes or on other machines, speaking plain data only (part-protocol.ts).
 *
 * Its SKUs and styles are numbered from 0 inside it (a slice of the start state, recommend/slice.ts); what it
 * sends out is numbered as the whole replay's, locations alike everywhere.
 */
import { inStockBitsOf } from '../recommend/in-stock-bits.js';
import { prices } from '../recommend/prices.js';
import type { Decision, Explain } from '../recommend/proposal.js';
import { ReviewPart, reviewArrays, type ReviewArrays, type ReviewSums } from '../recommend/review.js';
import type { Settings } from '../recommend/settings.js';
import { sliceState, type StyleRange } from '../recommend/slice.js';
import { APPROVAL_OPEN_DAYS, type EngineState } from '../recommend/state.js';
import type { ActualDays, BacktestInput, OutDays, PlannedReceipt } from './input.js';
import { decisionColumns, keptOf, moveColumns, type DecisionColumns, type MoveColumns } from './decision-columns.js';
import { firstRow, PartDays, partSums, type NegativeCell, type PartSums, type ServeArrays } from './serve-day.js';
import { STYLE_DAY_FIELDS } from './style-days.js';
import { CELL_FIELDS, CF, traceAdd, traceAt, type TraceBuffer } from './trace.js';

/** Everything a part starts from: plain data, numbered as the whole replay's unless said otherwise. */
export interface PartInit {
  fromDay: number;
  /** The period's days, and how many of them to replay at most. */
  days: number;
  lastDay: number;
  reviewEvery: number;
  range: StyleRange;
  settings: Settings;
  /** The start state's slice for the range (its own numbering; copied by the part, which changes its copy). */
  start: EngineState;
  /** The actual days' rows: those of the part's cells at least (the part finds its own in each day's). */
  actual: ActualDays;
  out: OutDays;
  /** Per location: it sells in the history; per location × day: it was closed. */
  stores: Uint8Array;
  closed: Uint8Array;
  /** Per location: the first day of the period it sold anything (a location sells once it has sold), or −1. */
  firstSale: Int32Array;
  /** Per location: its kind is set by the settings (a sale does not make it selling). */
  kindFixed: Uint8Array;
  /** Per SKU of the part. */
  cost: Float64Array;
  salePrice: Float64Array;
  /** Per day of the period × style of the part (`day * styles + style`): the style's discount that day, or NaN. */
  styleDiscount?: Float64Array;
  /** The part's purchase-order lines (cells numbered as the replay's). */
  receipts: PlannedReceipt[];
  /** Per location: the days a transfer takes to reach it in the world the history shows (transit.ts). */
  transit: Int32Array;
  /** Client transfers on their way at the start: cell, day (of the period), units. */
  onTheirWay: { cell: number; day: number; quantity: number }[];
  /** The style (numbered as the replay's) whose cells are traced, when it is the part's. */
  traceStyle?: number;
}

/** What a review's second step decides, numbered as the whole replay. */
export interface PartDecided {
  initial: DecisionColumns;
  replenishment: DecisionColumns;
  /** What stores send back to a warehouse (returns.ts: redistribution, none of a trip's). */
  returns: DecisionColumns;
  moves: MoveColumns;
}

/** Per location then per style of the part: stock left at the end, by kind of location. */
export interface EndStocks {
  storeUnits: Float64Array;
  storeValue: Float64Array;
  warehouseUnits: Float64Array;
  warehouseValue: Float64Array;
}

export interface PartResult {
  range: StyleRange;
  daysDone: number;
  sums: PartSums;
  /** Stock at the end: simulated (on hand and on its way there) and actual; groups: locations, then styles. */
  end: { sim: EndStocks; act: EndStocks };
  writeDownShortfall: { units: number; days: number };
  unsentTransferUnits: number;
  /** Cells (numbered as the replay's) whose actual stock went below zero. */
  negativeCells: NegativeCell[];
  trace?: { values: Float64Array; locationKinds: string[] };
}

interface Waiting {
  from: number;
  to: number;
  left: number;
  lead: number;
  until: number;
  delivery: boolean;
}

const F = STYLE_DAY_FIELDS.length;
const SD = Object.fromEntries(STYLE_DAY_FIELDS.map((f, i) => [f, i])) as Record<
  (typeof STYLE_DAY_FIELDS)[number],
  number
>;

/** Per day × style rows of the whole replay cut to the part's styles. */
function styleColumns(rows: Float64Array, days: number, start: EngineState, range: StyleRange): Float64Array {
  const S = start.styles.ids.length;
  const n = range.sTo - range.sFrom;
  const out = new Float64Array(days * n);
  for (let d = 0; d < days; d++) out.set(rows.subarray(d * S + range.sFrom, d * S + range.sTo), d * n);
  return out;
}

/** The start state's slice and the rows a part needs, cut from the whole replay's input. */
export function partInit(
  input: BacktestInput,
  settings: Settings,
  range: StyleRange,
  shared: {
    lastDay: number;
    reviewEvery: number;
    firstSale: Int32Array;
    kindFixed: Uint8Array;
    traceStyle?: number;
  },
): PartInit {
  const L = input.start.locations.ids.length;
  const [from, to] = [range.kFrom * L, range.kTo * L];
  const inRange = (cell: number) => cell >= from && cell < to;
  const onTheirWay: PartInit['onTheirWay'] = [];
  const { inbound } = input.start;
  for (let i = 0; i < inbound.cell.length; i++) {
    if (!inbound.purchaseOrder[i] && inRange(inbound.cell[i]))
      onTheirWay.push({
        cell: inbound.cell[i],
        day: Math.max(0, inbound.day[i] - input.start.asOfDay),
        quantity: inbound.quantity[i],
      });
  }
  const { traceStyle } = shared;
  return {
    fromDay: input.start.asOfDay,
    days: input.days,
    lastDay: shared.lastDay,
    reviewEvery: shared.reviewEvery,
    range,
    settings,
    start: sliceState(input.start, range),
    actual: input.actual,
    out: input.out,
    stores: input.selling,
    closed: input.closed,
    firstSale: shared.firstSale,
    kindFixed: shared.kindFixed,
    cost: input.cost.subarray(range.kFrom, range.kTo),
    salePrice: input.salePrice.subarray(range.kFrom, range.kTo),
    receipts: input.receipts.filter((r) => inRange(r.cell)),
    ...(input.styleDiscount
      ? { styleDiscount: styleColumns(input.styleDiscount, input.days, input.start, range) }
      : {}),
    onTheirWay,
    transit: input.transit.days,
    ...(traceStyle !== undefined && traceStyle >= range.sFrom && traceStyle < range.sTo ? { traceStyle } : {}),
  };
}

export class ReplayPart {
  private readonly L: number;
  private readonly W: number;
  private readonly base: number;
  private readonly a: ServeArrays;
  private readonly sums: PartSums;
  /** The part's days, and the running sums of what its cells hold (every change of simulated stock goes here). */
  private readonly days: PartDays;
  private readonly view: EngineState;
  private readonly inTransit: Float64Array;
  private readonly startPrice: Float64Array;
  private readonly pending = new Map<
    number,
    { cell: number; quantity: number; engines: boolean; delivery: boolean }[]
  >();
  private readonly waiting: Waiting[] = [];
  private readonly receipts: PlannedReceipt[];
  private readonly estimate: Float64Array;
  /** The first day whose discounts are not in the engine's ring yet. */
  private discountDay = 0;
  /** The per-cell arrays of the part's reviews, filled again at each. */
  private readonly reviewed: ReviewArrays;
  private readonly explain: Explain;
  /** The review under way: its day, its steps, and its decisions (the part's numbering) once made. */
  private review?: { day: number; part: ReviewPart; decided?: Decision[] };
  /** The first day not served yet, and whether its morning (arrivals) has been taken. */
  private next = 0;
  private morningDone = false;
  private shortfall = { units: 0, days: 0 };
  private unsent = 0;

  constructor(private readonly init: PartInit) {
    const S0 = init.start;
    const L = (this.L = S0.locations.ids.length);
    const W = (this.W = S0.windowDays);
    const K = S0.skus.ids.length;
    const S = S0.styles.ids.length;
    const n = K * L;
    this.base = init.range.kFrom * L;
    const inStockDays = new Int32Array(n);
    const salesDays = new Int32Array(n);
    for (let c = 0; c < n; c++) {
      let days = 0;
      let sold = 0;
      for (let d = 0; d < W; d++) {
        const x = S0.sales[c * W + d];
        if (x === x) days++;
        if (x !== 0 && x === x) sold++;
      }
      inStockDays[c] = days;
      salesDays[c] = sold;
    }
    const traced = init.traceStyle === undefined ? undefined : init.traceStyle - init.range.sFrom;
    const trace: TraceBuffer | undefined =
      traced === undefined
        ? undefined
        : {
            style: traced,
            kFrom: S0.styles.styleStart[traced],
            kTo: S0.styles.styleStart[traced + 1],
            days: init.days,
            values: new Float64Array(
              L * (S0.styles.styleStart[traced + 1] - S0.styles.styleStart[traced]) * init.days * CELL_FIELDS,
            ),
          };
    this.reviewed = reviewArrays(n);
    const { actual, out } = init;
    this.a = {
      dayStart: actual.dayStart,
      actualCell: actual.cell,
      actualEnd: actual.endLevel,
      actualOpening: actual.opening,
      actualSold: actual.sold,
      actualNet: actual.net,
      actualRevenue: actual.revenue,
      actualMutations: actual.mutations,
      actualExtra: actual.extra,
      outStart: out.dayStart,
      outCell: out.cell,
      outDemand: out.demand,
      cellBase: this.base,
      styleOf: S0.skus.style,
      styleStart: S0.styles.styleStart,
      salePrice: init.salePrice,
      cost: init.cost,
      soldUnits: Float64Array.from(S0.skus.soldUnits),
      soldValue: Float64Array.from(S0.skus.soldValue),
      // A location sells once it has sold: known from the day of its first sale, never earlier.
      sellingFrom: Int32Array.from(S0.locations.kind, (kind, l) =>
        kind !== 'warehouse' ? 0 : init.kindFixed[l] ? -1 : init.firstSale[l],
      ),
      stores: init.stores,
      fulfilledFrom: S0.locations.fulfilledFrom,
      closed: init.closed,
      days: init.days,
      // Stock is physical: a start below zero (a feed's sales without stock) is an empty shelf.
      sim: Float64Array.from(S0.onHand, (q) => Math.max(0, q)),
      // (A location selling from a warehouse's stock holds none: its first day's row gives the level it sells from.)
      actLevel: Float64Array.from(S0.onHand),
      rate: this.reviewed.forecast.rate,
      target: this.reviewed.target,
      inStockDays,
      salesDays,
      everActive: Uint8Array.from(S0.everActive),
      lastSaleDay: Int32Array.from(S0.lastSaleDay),
      firstDay: init.fromDay,
      windowSales: Float32Array.from(S0.sales),
      inStockBits: inStockBitsOf(S0.sales, W),
      ...(trace ? { trace } : {}),
    };
    this.inTransit = new Float64Array(n);
    this.startPrice = Float64Array.from(S0.skus.price);
    // The engine's view of the part's simulated world: it shares the arrays above and never writes them.
    this.view = {
      ...S0,
      onHand: this.a.sim,
      inTransit: this.inTransit,
      onOrder: new Float64Array(n),
      sales: this.a.windowSales,
      // The days before the start as the start state read them (none known without them), the rest as they pass.
      ...(init.styleDiscount || S0.styleDiscount
        ? {
            styleDiscount: S0.styleDiscount
              ? Float32Array.from(S0.styleDiscount)
              : new Float32Array(S * W).fill(Number.NaN),
          }
        : {}),
      inStockDays,
      salesDays,
      inStockBits: this.a.inStockBits,
      windowHead: 0,
      everActive: this.a.everActive,
      lastSaleDay: this.a.lastSaleDay,
      lastArrivalDay: Int32Array.from(S0.lastArrivalDay),
      lastDeliveryDay: Int32Array.from(S0.lastDeliveryDay),
      skus: { ...S0.skus, price: Float64Array.from(S0.skus.price) },
      locations: { ...S0.locations, kind: [...S0.locations.kind] },
      styles: { ...S0.styles, hasOpenPurchaseOrder: new Uint8Array(S) },
    };
    this.sums = partSums(L, S, init.days);
    this.days = new PartDays(this.a, L, W, this.sums);
    this.estimate = new Float64Array(S);
    this.receipts = init.receipts.map((r) => ({ ...r, cell: r.cell - this.base, style: r.style - init.range.sFrom }));
    const { kFrom, kTo } = trace ?? { kFrom: 0, kTo: 0 };
    // Only the traced style's decisions are put in words: the others are decisions and nothing more.
    this.explain = (k) => k >= kFrom && k < kTo;
    // A client's transfer on its way at the start is a delivery as the live state counts one of no type.
    for (const w of init.onTheirWay) this.arrive(w.day, w.cell - this.base, w.quantity, false, true);
  }

  /**
   * What arrives on a day (relative to the start); `engines`: the engine's own transfer, not a client's;
   * `delivery`: a replenishment (EngineState.lastDeliveryDay). What a client sent a location selling from a
   * warehouse's stock is the warehouse's (the engine sends it nothing).
   */
  private arrive(day: number, to: number, quantity: number, engines: boolean, delivery: boolean): void {
    const w = this.a.fulfilledFrom[to % this.L];
    const cell = w < 0 ? to : to - (to % this.L) + w;
    // Sent on a day whose morning has passed, with no transit: it is there for the day's customers.
    if (day < this.next || (day === this.next && this.morningDone)) {
      this.receive(day, cell, quantity, engines, delivery);
      return;
    }
    this.inTransit[cell] += quantity;
    const list = this.pending.get(day) ?? [];
    list.push({ cell, quantity, engines, delivery });
    this.pending.set(day, list);
  }

  /** Stock reaches a cell on day i. */
  private receive(i: number, cell: number, quantity: number, engines: boolean, delivery: boolean): void {
    this.days.setSim(cell, this.a.sim[cell] + quantity, i);
    this.view.lastArrivalDay[cell] = this.init.fromDay + i;
    if (delivery) this.view.lastDeliveryDay[cell] = this.init.fromDay + i;
    // A client's transfer already on its way at the start arrives too, but is none of the engine's.
    if (engines) {
      this.styleDay(i, Math.floor(cell / this.L), SD.simTransfersIn, quantity);
      traceAdd(this.a.trace, this.L, cell, i, CF.transfersIn, quantity);
    }
  }

  private styleDay(day: number, k: number, field: number, units: number): void {
    const S = this.view.styles.ids.length;
    this.sums.styleDays[(day * S + this.view.skus.style[k]) * F + field] += units;
  }

  /** Units leave their sender on day i and reach their destination after the lead time (`delivery`: see arrive). */
  private send(i: number, from: number, to: number, quantity: number, lead: number, delivery: boolean): void {
    this.days.setSim(from, this.a.sim[from] - quantity, i);
    this.arrive(i + lead, to, quantity, true, delivery);
    this.styleDay(i, Math.floor(from / this.L), SD.simTransfersOut, quantity);
    traceAdd(this.a.trace, this.L, from, i, CF.transfersOut, quantity);
  }

  /** The morning of day i: what arrives. */
  private morning(i: number): void {
    const arrivals = this.pending.get(i);
    if (arrivals) {
      for (const { cell, quantity, engines, delivery } of arrivals) {
        this.inTransit[cell] -= quantity;
        this.receive(i, cell, quantity, engines, delivery);
      }
      this.pending.delete(i);
    }
    this.morningDone = true;
  }

  /** The rest of day i, after the morning's review: receipts and write-downs, waiting transfers, the demand. */
  private rest(i: number): void {
    const { a, L, base } = this;
    const { actual } = this.init;
    // A location sells once it has sold: known from the day of its first sale, never earlier.
    for (let l = 0; l < L; l++)
      if (i === a.sellingFrom[l] && this.view.locations.kind[l] === 'warehouse') this.view.locations.kind[l] = 'store';
    // The day's actual receipts and corrections: after the morning's decision, before the day's demand.
    const end = base + this.view.skus.ids.length * L;
    const to = firstRow(actual.cell, actual.dayStart[i], actual.dayStart[i + 1], end);
    for (let j = firstRow(actual.cell, actual.dayStart[i], to, base); j < to; j++) {
      const moved = actual.mutations[j];
      if (moved === 0) continue;
      const c = actual.cell[j] - base;
      // A write-down takes what the simulation holds; the rest happened only in the actual world.
      const taken = Math.max(moved, -Math.max(0, a.sim[c]));
      this.days.setSim(c, a.sim[c] + taken, i);
      if (taken !== moved) {
        this.shortfall.units += taken - moved;
        this.shortfall.days++;
        traceAdd(a.trace, L, c, i, CF.writeDownShortfall, taken - moved);
      }
      this.styleDay(i, Math.floor(c / L), SD.receipts, moved);
      traceAdd(a.trace, L, c, i, CF.receipts, moved);
    }
    // Transfers waiting for their sender's stock leave once it is there (after the day's receipts).
    const { waiting } = this;
    for (let w = waiting.length - 1; w >= 0; w--) {
      const x = waiting[w];
      const q = i > x.until ? 0 : Math.min(x.left, Math.max(0, a.sim[x.from]));
      if (q > 0) {
        this.inTransit[x.to] -= q;
        this.send(i, x.from, x.to, q, x.lead, x.delivery);
        x.left -= q;
      }
      if (x.left > 0 && i < x.until) continue;
      this.inTransit[x.to] -= x.left;
      this.unsent += x.left;
      waiting.splice(w, 1);
    }
    this.days.serve(i, i % this.W);
    const S = this.view.styles.ids.length;
    for (let s = 0; s < S; s++) this.sums.styleDays[(i * S + s) * F + SD.demandEstimate] = this.estimate[s];
    this.next = i + 1;
    this.morningDone = false;
  }

  /**
   * The styles' discounts of the days before day i into the engine's ring, as their sales are: the recorded
   * discount of each day, known once the day is over.
   */
  private discountsUpTo(i: number): void {
    const ring = this.view.styleDiscount;
    const rows = this.init.styleDiscount;
    if (!ring || !rows) return;
    const S = this.view.styles.ids.length;
    for (; this.discountDay < i; this.discountDay++) {
      const slot = this.discountDay % this.W;
      for (let s = 0; s < S; s++) ring[s * this.W + slot] = rows[this.discountDay * S + s];
    }
  }

  /** Serves every day before `until` not served yet. */
  run(until: number): void {
    for (let i = this.next; i < until; i++) {
      if (!this.morningDone) this.morning(i);
      this.rest(i);
    }
  }

  /** The review of day i's morning, step 1: the part's share of the network's sums. */
  startReview(i: number): ReviewSums {
    if (this.next !== i) throw new Error(`a part asked to review day ${i} stands on day ${this.next}`);
    if (!this.morningDone) this.morning(i);
    // The engine reads the windows up to the day before: written out for every cell.
    this.days.catchUpAll(i);
    const { view, a } = this;
    // Prices as known on this day: the year before the start plus the actual sales since, never later ones.
    if (i > 0) view.skus.price.set(prices(view, a.soldUnits, a.soldValue, this.startPrice));
    view.asOfDay = this.init.fromDay + i;
    view.windowHead = i % this.W;
    this.discountsUpTo(i);
    // On order as of this day: lines ordered by now and not yet due; nothing ordered later is known.
    view.onOrder.fill(0);
    view.styles.hasOpenPurchaseOrder.fill(0);
    const cell: number[] = [];
    const day: number[] = [];
    const quantity: number[] = [];
    const purchaseOrder: number[] = [];
    const add = (c: number, d: number, q: number, po: number) => {
      cell.push(c);
      day.push(d);
      quantity.push(q);
      purchaseOrder.push(po);
    };
    for (const [d, list] of this.pending) for (const x of list) add(x.cell, this.init.fromDay + d, x.quantity, 0);
    for (const x of this.waiting) add(x.to, this.init.fromDay + i + x.lead, x.left, 0);
    for (const r of this.receipts) {
      if (r.orderDay <= i && r.dueDay > i) {
        view.onOrder[r.cell] += r.quantity;
        view.styles.hasOpenPurchaseOrder[r.style] = 1;
        add(r.cell, this.init.fromDay + r.dueDay, r.quantity, 1);
      }
    }
    view.inbound = {
      cell: Int32Array.from(cell),
      day: Int32Array.from(day),
      quantity: Float64Array.from(quantity),
      purchaseOrder: Uint8Array.from(purchaseOrder),
    };
    const part = new ReviewPart(view, this.init.settings, this.explain, this.reviewed);
    this.review = { day: i, part };
    return part.sums();
  }

  /** Step 2, given the network's sums: what each store would lose before the next review (the part's share). */
  plan(network: ReviewSums): Float64Array {
    const review = this.review;
    if (!review || review.decided) throw new Error('a part plans once, after its review started');
    return review.part.plan(network);
  }

  /** Step 3, given the stores due a delivery. */
  decide(due: Uint8Array): PartDecided {
    const review = this.review;
    if (!review || review.decided) throw new Error('a part decides once, after it planned');
    const { decisions, moves } = review.part.deliver(due);
    const { kFrom, sFrom } = this.init.range;
    const decided: PartDecided = {
      initial: decisionColumns(
        decisions.filter((d) => d.transferType === 'InitialDistribution'),
        kFrom,
      ),
      replenishment: decisionColumns(
        decisions.filter((d) => d.transferType === 'Replenishment'),
        kFrom,
      ),
      returns: decisionColumns(
        decisions.filter((d) => d.transferType === 'Redistribution'),
        kFrom,
      ),
      moves: moveColumns(moves, kFrom, sFrom),
    };
    review.decided = decisions;
    // The engine's estimate per style, as of this review: what the days until the next one show.
    const { rate } = review.part.forecast;
    const { styleStart } = this.view.styles;
    for (let s = 0; s < this.estimate.length; s++) {
      let sum = 0;
      for (let c = styleStart[s] * this.L; c < styleStart[s + 1] * this.L; c++) sum += rate[c];
      this.estimate[s] = sum;
    }
    return decided;
  }

  /**
   * Step 3: the part's kept moves (numbered as the replay's, in the order the trips were chosen) as decisions; then
   * every decision of the review is carried out, in the engine's order.
   */
  carryOut(kept: MoveColumns): DecisionColumns {
    const review = this.review;
    if (!review?.decided) throw new Error('a part carries out a review it has not decided');
    const { kFrom, sFrom } = this.init.range;
    const redistribution = review.part.redistribute(keptOf(kept, -kFrom, -sFrom));
    const all = [...review.decided, ...redistribution];
    const i = review.day;
    const { trace } = this.a;
    if (trace) {
      // The traced cells' outcomes, before the decisions move any stock.
      const outcomes = review.part.outcomes(all, trace.kFrom, trace.kTo);
      for (let k = trace.kFrom; k < trace.kTo; k++)
        for (let l = 0; l < this.L; l++)
          trace.values[traceAt(trace, this.L, k * this.L + l, i) + CF.outcome] =
            outcomes[(k - trace.kFrom) * this.L + l];
    }
    const { L, a } = this;
    for (const d of all) {
      // The world's transit to the receiver, whatever the engine planned with.
      const lead = this.init.transit[d.to];
      const from = d.sku * L + d.from;
      const to = d.sku * L + d.to;
      const now = Math.min(d.quantity, Math.max(0, a.sim[from]));
      const delivery = d.transferType === 'Replenishment';
      if (now > 0) this.send(i, from, to, now, lead, delivery);
      if (now < d.quantity) {
        // Decided on stock its sender does not hold yet (a purchase order due): it leaves as the stock comes in.
        this.inTransit[to] += d.quantity - now;
        this.waiting.push({ from, to, left: d.quantity - now, lead, until: i + APPROVAL_OPEN_DAYS, delivery });
      }
    }
    this.review = undefined;
    return decisionColumns(redistribution, kFrom);
  }

  finish(): PartResult {
    const { L, a, view } = this;
    const K = view.skus.ids.length;
    const S = view.styles.ids.length;
    const G = L + S;
    const stocks = (): EndStocks => ({
      storeUnits: new Float64Array(G),
      storeValue: new Float64Array(G),
      warehouseUnits: new Float64Array(G),
      warehouseValue: new Float64Array(G),
    });
    const end = { sim: stocks(), act: stocks() };
    // What is left on hand, by kind of location (simulated: on hand and on its way there).
    for (let k = 0; k < K; k++) {
      const s = view.skus.style[k];
      for (let l = 0; l < L; l++) {
        const c = k * L + l;
        const simLeft = a.sim[c] + this.inTransit[c];
        const [units, value] = a.stores[l]
          ? (['storeUnits', 'storeValue'] as const)
          : (['warehouseUnits', 'warehouseValue'] as const);
        for (const g of [l, L + s]) {
          end.sim[units][g] += simLeft;
          end.sim[value][g] += simLeft * a.cost[k];
          // Actual stock below zero is none (see serve-day.ts); a location selling from a warehouse's holds none.
          const actLeft = a.fulfilledFrom[l] < 0 ? Math.max(0, a.actLevel[c]) : 0;
          end.act[units][g] += actLeft;
          end.act[value][g] += actLeft * a.cost[k];
        }
      }
    }
    return {
      range: this.init.range,
      daysDone: this.next,
      sums: this.sums,
      end,
      writeDownShortfall: this.shortfall,
      unsentTransferUnits: this.unsent,
      negativeCells: this.days.negativeCells(this.next).map((x) => ({ ...x, cell: x.cell + this.base })),
      ...(a.trace ? { trace: { values: a.trace.values, locationKinds: [...view.locations.kind] } } : {}),
    };
  }
}
