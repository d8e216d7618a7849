/**
 * Turns a location's day of sold and returned units into receipts, numbered in time order, at times inside opening
 * hours (the webshop at any hour). Fashion: lines of one or two units, one to three lines per receipt. Daily (the
 * continuity assortments): the day's units are one sale with a line per SKU carrying the day's quantity. A return
 * is a receipt of its own with negative quantities and amounts, as the spec asks.
 */
import type { Calendar } from './calendar.js';
import type { Catalog } from './catalog.js';
import type { LocationDef } from './locations.js';
import { VAT } from './masterdata.js';
import { Random } from './rng.js';

/** What the book writes a sale to: its request-body record as JSON text. */
export interface SalesSink {
  add(json: string): void;
}

export interface SoldLine {
  sku: number;
  /** Negative on a return. */
  qty: number;
  /** Unit price actually paid and shelf price, including VAT, in cents. */
  paidCents: number;
  fullCents: number;
  costCents: number;
}

interface Receipt {
  seconds: number;
  order: number;
  lines: SoldLine[];
}

/** Receipts per hour of the day (stores open 9–18, late opening to 21 on Thursday and Friday, Sunday 12–17). */
const STORE_HOURS: readonly number[] = [
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5, 0.8, 1.0, 1.2, 1.3, 1.3, 1.3, 1.2, 1.0, 0, 0, 0, 0, 0, 0,
];
const LATE_HOURS: readonly number[] = STORE_HOURS.map((w, h) => (h === 18 ? 0.8 : h === 19 ? 0.6 : h === 20 ? 0.4 : w));
const SUNDAY_HOURS: readonly number[] = STORE_HOURS.map((_, h) => (h >= 12 && h <= 16 ? 1 : 0));
const ONLINE_HOURS: readonly number[] = [
  0.35, 0.2, 0.12, 0.08, 0.08, 0.12, 0.25, 0.5, 0.7, 0.8, 0.85, 0.9, 1.0, 1.0, 0.95, 0.9, 0.9, 0.95, 1.1, 1.3, 1.5, 1.5,
  1.2, 0.7,
];

function hoursOf(loc: LocationDef, dow: number): readonly number[] {
  if (loc.kind === 'online') return ONLINE_HOURS;
  return dow === 0 ? SUNDAY_HOURS : dow === 4 || dow === 5 ? LATE_HOURS : STORE_HOURS;
}

const pad4 = (n: number) => String(n).padStart(4, '0');
const money = (cents: number) => cents / 100;

export interface SalesPitfalls {
  /** The first sale of this location with two lines or more numbers them "1", "2", … instead of `<salesId>-<n>`. */
  bareLineLocation: string;
  /** That sale. Only one sale does: a second would take its lines over (a sales line id is unique across sales). */
  bareLineSale?: string;
  missingCostLines: string[];
  negativeCostLine?: string;
  eurSale?: string;
}

/** Which written (non-return, not bare-numbered) lines and sales carry the sales pitfalls, counted from 1. */
const MISSING_COST_AT = [11, 12, 13];
const NEGATIVE_COST_AT = 20;
const EUR_SALE_AT = 7;

export class SalesBook {
  private readonly rng: Random;
  private linesSeen = 0;
  private salesSeen = 0;
  sales = 0;
  lines = 0;
  readonly pitfalls: SalesPitfalls = { bareLineLocation: 'ST-001', missingCostLines: [] };

  /** `daily`: one sale per location and day (else baskets); each way has its own stream of draws. */
  constructor(
    seed: number,
    private readonly cal: Calendar,
    private readonly catalog: Catalog,
    private readonly writer: SalesSink,
    private readonly daily: boolean,
  ) {
    this.rng = new Random(seed, daily ? 'daily-receipts' : 'receipts');
  }

  /** Writes one location's receipts of one day. */
  day(day: number, loc: LocationDef, sold: SoldLine[], returns: SoldLine[]): void {
    if (sold.length === 0 && returns.length === 0) return;
    const rng = this.rng;
    const hours = hoursOf(loc, this.cal.dow(day));
    const time = () => {
      const s = rng.weighted(hours) * 3600 + rng.int(0, 3599);
      return s === 0 ? 1 : s; // never exactly midnight: that moment belongs to the stock snapshot
    };
    const receipts: Receipt[] = this.daily
      ? sold.length
        ? [{ seconds: time(), order: 0, lines: sold }]
        : []
      : this.baskets(sold, time);
    for (const r of returns) receipts.push({ seconds: time(), order: receipts.length, lines: [r] });
    receipts.sort((a, b) => a.seconds - b.seconds || a.order - b.order);

    const compact = this.cal.compact(day);
    const code = loc.record.code as string;
    const online = loc.kind === 'online';
    receipts.forEach((r, i) => {
      const salesId = `${loc.locationId}-${compact}-${pad4(i + 1)}`;
      const isReturn = r.lines[0].qty < 0;
      const bare =
        !isReturn &&
        r.lines.length > 1 &&
        loc.locationId === this.pitfalls.bareLineLocation &&
        (this.pitfalls.bareLineSale ??= salesId) === salesId;
      let currency = 'LOCAL';
      if (!isReturn && !bare && ++this.salesSeen === EUR_SALE_AT) {
        currency = 'EUR';
        this.pitfalls.eurSale = salesId;
      }
      let json =
        `{"salesId":"${salesId}","code":"${code}${compact.slice(2)}${pad4(i + 1)}",` +
        `"salesDateTime":"${this.cal.iso(day, r.seconds)}","currencyCode":"${currency}",` +
        `"locationId":"${loc.locationId}","salesLines":[`;
      r.lines.forEach((l, li) => {
        const lineId = bare ? String(li + 1) : `${salesId}-${li + 1}`;
        let cost = `,"costPrice":${money(l.costCents)}`;
        if (!isReturn && !bare) {
          const n = ++this.linesSeen;
          if (MISSING_COST_AT.includes(n)) {
            cost = '';
            this.pitfalls.missingCostLines.push(lineId);
          } else if (n === NEGATIVE_COST_AT) {
            cost = `,"costPrice":${money(-l.costCents)}`;
            this.pitfalls.negativeCostLine = lineId;
          }
        }
        json +=
          `${li ? ',' : ''}{"salesLineId":"${lineId}","skuId":"${this.catalog.skuIds[l.sku]}","lineNumber":${li + 1},` +
          `"originalSalesAmountInclVat":${money(l.fullCents * l.qty)},` +
          `"salesAmountInclVat":${money(l.paidCents * l.qty)},"vatPercentage":${VAT}${cost},"online":${online},` +
          `"quantitySold":${l.qty},"quantityTransferred":${l.qty},"quantityCancelled":0}`;
      });
      this.writer.add(json + ']}');
      this.sales++;
      this.lines += r.lines.length;
    });
  }

  /** A fashion shop's day: units in a random order, a unit or two per line, one to three lines per receipt. */
  private baskets(sold: SoldLine[], time: () => number): Receipt[] {
    const rng = this.rng;
    const units: SoldLine[] = [];
    for (const s of sold) {
      let q = s.qty;
      while (q > 0) {
        const take = q >= 2 && rng.chance(0.15) ? 2 : 1;
        units.push({ ...s, qty: take });
        q -= take;
      }
    }
    rng.shuffle(units);
    const receipts: Receipt[] = [];
    for (let i = 0; i < units.length;) {
      const n = Math.min(units.length - i, 1 + rng.weighted([0.55, 0.3, 0.15]));
      receipts.push({ seconds: time(), order: receipts.length, lines: units.slice(i, i + n) });
      i += n;
    }
    return receipts;
  }
}
