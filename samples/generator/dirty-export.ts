/**
 * `--dirty-export`: the dirt of a retailer's spreadsheet export of sales, on top of the spec's pitfalls, each kind on
 * named records so the feed lint's export rules have something real to find. The sales pass through here on their
 * way to the files and a few are changed, moved or added. Off by default: the data then keeps the stock identity
 * the tests check, and the committed sample stays a clean export.
 */
import type { Catalog } from './catalog.js';
import type { Network } from './locations.js';
import { BRANDS, CHAIN, COLORS, PITFALL_CATEGORY_ID, VAT } from './masterdata.js';
import type { SalesSink } from './sales.js';

interface Line {
  salesLineId: string;
  skuId: string;
  lineNumber: number;
  originalSalesAmountInclVat: number;
  salesAmountInclVat: number;
  quantitySold: number;
  quantityTransferred: number;
  [field: string]: unknown;
}

interface Sale {
  salesId: string;
  code: string;
  salesDateTime: string;
  locationId: string;
  salesLines: Line[];
  [field: string]: unknown;
}

export interface DirtyExportPitfalls {
  postageLines: string[];
  zeroAmountLines: string[];
  signFlippedLines: string[];
  outlierLine?: string;
  /** The sale, its void and the same sale rung up again. */
  cancelledSales: string[];
  popUpSales: string[];
  /** A sale booked at a store that never carries its SKU. */
  wrongTillSale?: string;
}

export const POSTAGE_SKU = 'POSTAGE';
export const POP_UP = 'POP-01';
const POP_UP_CODE = '9001';
/** The first sales stay clean, clear of the spec's pitfalls planted among them. */
const CLEAN_SALES = 100;
const POSTAGE_SALES = 3;
const POSTAGE_CENTS = 495;
const ZERO_AMOUNT_LINES = 3;
const SIGN_FLIPPED_LINES = 2;
const POP_UP_SALES = 4;
/** The outlier is a return of a SKU with this much history, keyed with zeros too many. */
const OUTLIER_HISTORY = 40;
/** …so many that it is at least this many times the SKU's largest line so far. */
const OUTLIER_TIMES_LARGEST = 20;

const cents = (amount: number) => Math.round(amount * 100);
const later = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

export class DirtyExport {
  readonly pitfalls: DirtyExportPitfalls = {
    postageLines: [],
    zeroAmountLines: [],
    signFlippedLines: [],
    cancelledSales: [],
    popUpSales: [],
  };
  private seen = 0;
  /** Per SKU: lines written so far and the largest |quantity| among them. */
  private readonly history = new Map<string, { lines: number; largest: number }>();
  private readonly locationIndex: Map<string, number>;
  private readonly skuIndex: Map<string, number>;
  private zeroSku?: string;
  private popUpSource?: string;

  constructor(
    private readonly network: Network,
    private readonly catalog: Catalog,
    private readonly carried: Uint8Array,
  ) {
    this.locationIndex = new Map(network.locations.map((l) => [l.locationId, l.index]));
    this.skuIndex = new Map(catalog.skuIds.map((id, k) => [id, k]));
  }

  /** Postage and packing as the till knows it: an item of its own, sold but never stocked. */
  postageItem(): Record<string, unknown> {
    return {
      itemId: POSTAGE_SKU,
      code: POSTAGE_SKU,
      description: 'Postage and packing',
      brandId: BRANDS[0].id,
      merchandiseCategoryId: PITFALL_CATEGORY_ID,
      skus: [{ skuId: POSTAGE_SKU, code: POSTAGE_SKU, colorId: COLORS[0].id, sizeId: 'SZ-OS', styleId: POSTAGE_SKU }],
    };
  }

  /** A market stall whose till is in the export but whose stock is kept nowhere. */
  popUpLocation(): Record<string, unknown> {
    return {
      locationId: POP_UP,
      code: POP_UP_CODE,
      name: `${CHAIN} Pop-up Market`,
      country: 'NL',
      latitude: 52.3676,
      longitude: 4.9041,
    };
  }

  /** `sink` with the dirt put into the sales that pass through. */
  salesInto(sink: SalesSink): SalesSink {
    return {
      add: (json) => {
        const sale = JSON.parse(json) as Sale;
        const out = this.seen++ < CLEAN_SALES ? [json] : this.plant(sale, json);
        for (const l of sale.salesLines) {
          const h = this.history.get(l.skuId) ?? { lines: 0, largest: 0 };
          this.history.set(l.skuId, { lines: h.lines + 1, largest: Math.max(h.largest, Math.abs(l.quantitySold)) });
        }
        for (const s of out) sink.add(s);
      },
    };
  }

  private kind(locationId: string) {
    return this.network.locations[this.locationIndex.get(locationId)!].kind;
  }

  /** What becomes of one sale: itself, changed or not, or more sales. Each sale carries one kind at most. */
  private plant(sale: Sale, json: string): string[] {
    const p = this.pitfalls;
    const lines = sale.salesLines;
    const [first] = lines;
    const store = this.kind(sale.locationId) === 'store';
    if (first.quantitySold < 0) return this.plantOnReturn(sale, json);
    if (this.kind(sale.locationId) === 'online' && p.postageLines.length < POSTAGE_SALES) {
      const n = lines.length + 1;
      const amount = POSTAGE_CENTS / 100;
      lines.push({
        ...first,
        salesLineId: `${sale.salesId}-${n}`,
        skuId: POSTAGE_SKU,
        lineNumber: n,
        originalSalesAmountInclVat: amount,
        salesAmountInclVat: amount,
        vatPercentage: VAT,
        costPrice: 0,
        quantitySold: 1,
        quantityTransferred: 1,
        quantityCancelled: 0,
      });
      p.postageLines.push(`${sale.salesId}-${n}`);
      return [JSON.stringify(sale)];
    }
    if (store && p.popUpSales.length < POP_UP_SALES && (this.popUpSource ??= sale.locationId) === sale.locationId) {
      const storeCode = this.network.locations[this.locationIndex.get(sale.locationId)!].record.code as string;
      const moved = {
        ...this.relined(sale, `${POP_UP}${sale.salesId.slice(sale.locationId.length)}`),
        code: POP_UP_CODE + sale.code.slice(storeCode.length),
        locationId: POP_UP,
      };
      p.popUpSales.push(moved.salesId);
      return [JSON.stringify(moved)];
    }
    if (store && lines.length === 1 && p.cancelledSales.length === 0) {
      // Rung up, voided a minute later (the same line with its signs turned) and rung up again.
      const voided = this.renamed(sale, 'V', later(sale.salesDateTime, 60));
      for (const l of voided.salesLines)
        for (const f of ['originalSalesAmountInclVat', 'salesAmountInclVat', 'quantitySold', 'quantityTransferred'])
          l[f] = -(l[f] as number);
      const again = this.renamed(sale, 'R', later(sale.salesDateTime, 120));
      p.cancelledSales.push(sale.salesId, voided.salesId, again.salesId);
      return [json, JSON.stringify(voided), JSON.stringify(again)];
    }
    if (store && lines.length === 1 && !p.wrongTillSale) {
      const other = this.storeWithout(first.skuId, sale.locationId);
      if (other) {
        sale.locationId = other;
        p.wrongTillSale = sale.salesId;
        return [JSON.stringify(sale)];
      }
    }
    let changed = false;
    for (const l of lines) {
      if (store && this.zeroSku === undefined) this.zeroSku = l.skuId;
      if (l.skuId !== this.zeroSku || p.zeroAmountLines.length >= ZERO_AMOUNT_LINES) continue;
      // A free gift: the whole price discounted away.
      l.salesAmountInclVat = 0;
      p.zeroAmountLines.push(l.salesLineId);
      changed = true;
    }
    return [changed ? JSON.stringify(sale) : json];
  }

  private plantOnReturn(sale: Sale, json: string): string[] {
    const p = this.pitfalls;
    const [line] = sale.salesLines;
    if (line.skuId === this.zeroSku || this.zeroSku === undefined) return [json];
    if (p.signFlippedLines.length < SIGN_FLIPPED_LINES) {
      // The minus sign lost on the amounts, kept on the quantity.
      line.originalSalesAmountInclVat = Math.abs(line.originalSalesAmountInclVat);
      line.salesAmountInclVat = Math.abs(line.salesAmountInclVat);
      p.signFlippedLines.push(line.salesLineId);
      return [JSON.stringify(sale)];
    }
    const h = this.history.get(line.skuId);
    if (p.outlierLine || !h || h.lines < OUTLIER_HISTORY) return [json];
    let times = 100;
    while (times * Math.abs(line.quantitySold) < OUTLIER_TIMES_LARGEST * h.largest) times *= 10;
    for (const f of ['originalSalesAmountInclVat', 'salesAmountInclVat'] as const)
      line[f] = cents(line[f] * times) / 100;
    line.quantitySold *= times;
    line.quantityTransferred *= times;
    p.outlierLine = line.salesLineId;
    return [JSON.stringify(sale)];
  }

  /** A copy of the sale under another id, its lines' ids following it. */
  private relined(sale: Sale, salesId: string): Sale {
    return {
      ...sale,
      salesId,
      salesLines: sale.salesLines.map((l) => ({ ...l, salesLineId: `${salesId}-${l.lineNumber}` })),
    };
  }

  /** Another receipt of the same sale at another moment: its ids and code take `suffix`. */
  private renamed(sale: Sale, suffix: string, salesDateTime: string): Sale {
    return { ...this.relined(sale, `${sale.salesId}-${suffix}`), code: `${sale.code}${suffix}`, salesDateTime };
  }

  /** Another store that never carries the SKU's style, so none of it is ever in stock there. */
  private storeWithout(skuId: string, except: string): string | undefined {
    const k = this.skuIndex.get(skuId);
    if (k === undefined) return undefined;
    const style = this.catalog.skuStyle[k];
    const nStyles = this.catalog.styles.length;
    return this.network.locations.find(
      (l) => l.kind === 'store' && l.locationId !== except && !this.carried[l.index * nStyles + style],
    )?.locationId;
  }
}
