/**
 * The sample generator: deterministic, valid against the API's own schemas, sized as asked, stock-consistent
 * (on-hand = latest snapshot + mutations since − net sales since, never below 0), with real stock-outs and every
 * listed pitfall, for each assortment; a truth beside the feed that agrees with it; and the committed samples/demo
 * is exactly what the recorded command generates.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  generate,
  MemorySink,
  resolveOptions,
  toFlags,
  TRUTH_DAILY,
  TRUTH_SUMMARY,
  type PitfallKind,
} from '../samples/generator/index.js';
import { parseCliArgs } from '../samples/generator/cli-args.js';
import { DEMO_ARGS, DEMO_COMMAND, DEMO_DIR } from '../samples/generator/demo.js';
import { isValidGs1_13 } from '../samples/generator/gs1.js';
import { buildNetwork } from '../samples/generator/locations.js';
import { BatchWriter, Output } from '../samples/generator/writer.js';
import { Calendar } from '../samples/generator/calendar.js';
import { buildContinuityCatalog } from '../samples/generator/continuity.js';
import { Random } from '../samples/generator/rng.js';
import { getDataset } from '../engine/model/datasets.js';
import { validateBatch } from '../engine/ingest/validate.js';
import { checkIdentity, DAY, endpointOf, run, truthRows, type Rec, type Run } from './sample-runs.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const SMALL = { seed: 7, stores: 4, skus: 150, days: 120, start: '2024-03-06' };
const TWO_WAREHOUSES = { seed: 3, stores: 6, warehouses: 2, skus: 180, days: 90, start: '2024-01-01' };
// Long enough for launches and delistings inside the period (a Monday from day 60 to 60 days before the end).
const BASICS = { seed: 5, stores: 4, skus: 100, days: 160, start: '2024-02-14', assortment: 'basics' };
const SLOW = { seed: 9, stores: 5, warehouses: 2, skus: 300, days: 180, start: '2023-09-04', assortment: 'slow' };

let small: Run;
let twoWh: Run;
let demo: Run;
let basics: Run;
let slow: Run;
beforeAll(() => {
  small = run(SMALL);
  twoWh = run(TWO_WAREHOUSES);
  demo = run(parseCliArgs(DEMO_ARGS).input);
  basics = run(BASICS);
  slow = run(SLOW);
});

const startMs = (r: Run) => Date.parse(`${r.result.options.start}T00:00:00Z`);
const endMs = (r: Run) => startMs(r) + r.result.options.days * DAY;

describe('determinism', () => {
  it('gives byte-identical files (and truth) for the same flags and different ones for another seed', () => {
    for (const [r, input] of [
      [small, SMALL],
      [basics, BASICS],
    ] as const) {
      const again = new MemorySink();
      const truth = new MemorySink();
      generate(input, again, undefined, truth);
      expect([...again.files.keys()]).toEqual([...r.files.keys()]);
      for (const [name, text] of r.files) expect(again.files.get(name), name).toBe(text);
      expect([...truth.files.keys()].sort()).toEqual([TRUTH_DAILY, TRUTH_SUMMARY]);
      for (const [name, text] of r.truth) expect(truth.files.get(name), name).toBe(text);
    }

    const other = new MemorySink();
    generate({ ...SMALL, seed: 8 }, other);
    expect(other.files.get('Sales-0001.json')).not.toBe(small.files.get('Sales-0001.json'));
    expect(other.files.get('Items.json')).not.toBe(small.files.get('Items.json'));
  });
});

describe('files', () => {
  it('validates every file against its dataset schema', () => {
    for (const r of [small, twoWh, demo, basics, slow]) {
      for (const [name, text] of r.files) {
        const ds = getDataset(endpointOf(name));
        const batch = validateBatch(ds, JSON.parse(text));
        expect(batch.warnings, name).toEqual([]);
        expect(batch.records.length, name).toBeLessThanOrEqual(ds.recommendedMax ?? Infinity);
      }
    }
  });

  it('writes one file per endpoint, compact, numbered where the per-call maximum splits it', () => {
    const names = [...demo.files.keys()].sort();
    for (const e of [
      'Brands',
      'Seasons',
      'Collections',
      'Themes',
      'Colors',
      'Sizes',
      'MerchandiseCategories',
      'Vendors',
      'Currencies',
      'Locations',
      'Items',
      'PurchaseOrders',
    ]) {
      expect(names).toContain(`${e}.json`);
    }
    for (const e of ['Sales', 'Stock', 'StockMutations']) expect(names).toContain(`${e}-0001.json`);
    for (const text of demo.files.values()) expect(text).not.toMatch(/\n/);

    const sink = new MemorySink();
    const out = new Output(sink);
    const numbered = new BatchWriter(out, 'Sales', 'sales', 3, 'numbered');
    const single = new BatchWriter(out, 'Items', 'items', 3, 'single');
    const split = new BatchWriter(out, 'PurchaseOrders', 'purchaseOrders', 3, 'single');
    for (let i = 0; i < 7; i++) numbered.add(`{"n":${i}}`);
    for (let i = 0; i < 3; i++) single.add(`{"n":${i}}`);
    for (let i = 0; i < 4; i++) split.add(`{"n":${i}}`);
    [numbered, single, split].forEach((w) => w.finish());
    expect([...sink.files.keys()].sort()).toEqual([
      'Items.json',
      'PurchaseOrders-0001.json',
      'PurchaseOrders-0002.json',
      'Sales-0001.json',
      'Sales-0002.json',
      'Sales-0003.json',
    ]);
    expect(sink.files.get('Sales-0003.json')).toBe('{"sales":[{"n":6}]}');

    // A size cap starts a new file before one would pass it, however few records it holds.
    const capped = new MemorySink();
    const sized = new BatchWriter(new Output(capped), 'Sales', 'sales', 100, 'numbered', 20);
    for (let i = 0; i < 4; i++) sized.add(`{"n":${i}}`);
    sized.finish();
    expect([...capped.files.values()]).toEqual(['{"sales":[{"n":0},{"n":1}]}', '{"sales":[{"n":2},{"n":3}]}']);
  });

  it('has the requested network and about the requested number of SKUs', () => {
    for (const r of [small, twoWh, basics, slow]) {
      const o = r.result.options;
      const locs = r.data.Locations;
      expect(locs.filter((l) => /^ST-\d{3}$/.test(l.locationId))).toHaveLength(o.stores);
      expect(locs.filter((l) => /^WH-\d{2}$/.test(l.locationId))).toHaveLength(o.warehouses);
      expect(locs.filter((l) => l.locationId.startsWith('WEB-'))).toHaveLength(1);
      const skus = r.data.Items.flatMap((i) => i.skus);
      expect(Math.abs(skus.length - o.skus)).toBeLessThanOrEqual(Math.ceil(o.skus * 0.02));
      expect(r.result.counts.skus).toBe(o.skus);
    }
    expect(resolveOptions({ stores: 31 }).warehouses).toBe(2);
    expect(resolveOptions({ stores: 30 }).warehouses).toBe(1);
  });

  it('gives stores valid GLNs and unique names apart from the planted duplicate', () => {
    const stores = demo.data.Locations.filter((l) => l.locationId.startsWith('ST-'));
    for (const l of demo.data.Locations) if (l.gln != null) expect(isValidGs1_13(l.gln), l.locationId).toBe(true);
    const dupes = stores.filter((l) => stores.some((o) => o !== l && o.name === l.name)).map((l) => l.locationId);
    expect(dupes).toEqual(['ST-003', 'ST-004']);
  });

  it('names as many stores as it allows, each once apart from the planted duplicate, and refuses one more', () => {
    const most = resolveOptions({ stores: 500 });
    const names = buildNetwork(most)
      .locations.filter((l) => l.kind === 'store')
      .map((l) => l.record.name);
    expect(names).toHaveLength(500);
    expect(new Set(names).size).toBe(499);
    // The first stores of a bigger chain are the smaller chain's, name for name.
    const fewer = buildNetwork(resolveOptions({ stores: 250 })).locations.filter((l) => l.kind === 'store');
    expect(fewer.map((l) => l.record.name)).toEqual(names.slice(0, 250));
    expect(() => resolveOptions({ stores: 501 })).toThrow(/--stores must be a whole number from 4 to 500, got 501/);
  });

  it('keeps sales lines consistent: LOCAL currency, transferred = sold, returns negative with a positive cost', () => {
    const lines = demo.data.Sales.flatMap((s) => s.salesLines.map((l: Rec) => ({ ...l, sale: s })));
    const returns = lines.filter((l) => l.quantitySold < 0);
    expect(returns.length / lines.length).toBeGreaterThan(0.01);
    for (const l of lines) {
      expect(l.quantityTransferred).toBe(l.quantitySold);
      expect(l.quantityCancelled).toBe(0);
      expect(l.online).toBe(l.sale.locationId === 'WEB-01');
      expect(Math.sign(l.salesAmountInclVat)).toBe(Math.sign(l.quantitySold));
      expect(Math.abs(l.salesAmountInclVat)).toBeLessThanOrEqual(Math.abs(l.originalSalesAmountInclVat));
    }
    for (const l of returns) if (l.costPrice != null) expect(l.costPrice).toBeGreaterThan(0);
    expect(lines.some((l) => l.salesAmountInclVat < l.originalSalesAmountInclVat && l.quantitySold > 0)).toBe(true);
    const ids = demo.data.Sales.map((s) => s.salesId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('stock', () => {
  const onHandTitle =
    'on-hand = latest snapshot + mutations since − net sales since, for every location × SKU × day, never below 0';
  it(onHandTitle, () => {
    for (const r of [small, twoWh, basics, slow]) checkIdentity(r, r.result.options.days, startMs(r));
  });

  it("keeps no stock at a webshop shipping from the warehouse: its sales take the warehouse's", () => {
    const r = run({ ...SMALL, webshopFromWarehouse: true });
    expect(r.data.Stock.some((s) => s.locationId === 'WEB-01')).toBe(false);
    expect(r.data.Sales.some((s) => s.locationId === 'WEB-01')).toBe(true);
    const web = r.layout.locationIds.indexOf('WEB-01');
    const nSku = r.layout.skuIds.length;
    expect(r.onHand.every((day) => day.subarray(web * nSku, (web + 1) * nSku).every((q) => q === 0))).toBe(true);
    checkIdentity(r, r.result.options.days, startMs(r), { 'WEB-01': 'WH-01' });
    expect(toFlags(r.result.options)).toMatch(/ --webshop-from-warehouse$/);
  });

  it('snapshots only on the first day and on Mondays at 00:00, receipts as mutations at the warehouse', () => {
    const first = `${SMALL.start}T00:00:00.000Z`; // a Wednesday
    for (const s of small.data.Stock) {
      const t = new Date(s.stockDateTime);
      expect(
        s.stockDateTime === first || (t.getUTCDay() === 1 && s.stockDateTime.endsWith('T00:00:00.000Z')),
        s.stockDateTime,
      ).toBe(true);
    }
    expect(small.data.Stock.some((s) => s.stockDateTime === first)).toBe(true);
    const receipts = small.data.StockMutations.filter((m) => m.type === 'receipt');
    expect(receipts.length).toBeGreaterThan(0);
    for (const m of receipts) expect(m.locationId.startsWith('WH-') && m.quantity > 0).toBe(true);
    const corrections = demo.data.StockMutations.filter((m) => m.type === 'correction');
    expect(corrections.length).toBeGreaterThan(0);
    for (const m of corrections)
      expect(m.locationId.startsWith('ST-') && m.quantity < 0 && m.quantity >= -2).toBe(true);
  });

  it('has real stock-outs: store snapshot rows at 0 for SKUs that are selling that week', () => {
    const soldWeek = new Set<string>();
    // The demo starts on a Monday, so these weeks are the snapshot weeks.
    const monday0 = Date.parse(`${demo.result.options.start}T00:00:00Z`);
    expect(new Date(monday0).getUTCDay()).toBe(1);
    const week = (iso: string) => Math.floor((Date.parse(iso) - monday0) / (7 * DAY));
    for (const s of demo.data.Sales)
      for (const l of s.salesLines) if (l.quantitySold > 0) soldWeek.add(`${l.skuId}@${week(s.salesDateTime)}`);
    const outs = demo.data.Stock.filter(
      (s) => s.locationId.startsWith('ST-') && s.quantity === 0 && soldWeek.has(`${s.skuId}@${week(s.stockDateTime)}`),
    );
    expect(outs.length).toBeGreaterThan(20);
    expect(demo.result.stats.demandUnits).toBeGreaterThan(demo.result.stats.soldUnits); // lost sales are real
  });
});

describe('purchase orders', () => {
  it.each(['small', 'basics', 'slow'] as const)(
    'holds closed, partly received and open orders consistent with their lines (%s)',
    (name) => {
      const r = { small, basics, slow }[name];
      const end = endMs(r);
      const pos = r.data.PurchaseOrders;
      const closed = pos.filter((p) => p.completelyReceived);
      const open = pos.filter((p) => !p.completelyReceived);
      expect(closed.length).toBeGreaterThan(0);
      expect(open.length).toBeGreaterThan(1);
      for (const p of closed) for (const l of p.purchaseOrderLines) expect(l.quantityOutstanding).toBe(0);
      for (const p of open) expect(p.purchaseOrderLines.some((l: Rec) => l.quantityOutstanding > 0)).toBe(true);
      expect(open.filter((p) => Date.parse(p.orderDueDate) >= end).length).toBeGreaterThan(0);
      for (const p of pos) {
        expect(Date.parse(p.orderDate)).toBeLessThan(end);
        p.purchaseOrderLines.forEach((l: Rec, i: number) =>
          expect(l.purchaseOrderLineId).toBe(`${p.purchaseOrderId}-${i + 1}`),
        );
      }
    },
  );
});

describe('pitfalls', () => {
  function check(r: Run) {
    const end = endMs(r);
    const found = new Map(r.result.pitfalls.map((p) => [p.kind, p.ids]));
    const kinds: PitfallKind[] = [
      'skuIdIsBarcode',
      'codeEqualsId',
      'duplicateAttributeId',
      'bareSalesLineIds',
      'incompleteAddress',
      'duplicateLocationName',
      'saleCurrencyNotLocal',
      'purchaseOrderCurrencyNotLocal',
      'quantityToReceiveMismatch',
      'openOrderPastDue',
      'salesLineWithoutCostPrice',
      'negativeCostPrice',
      'skuNotInItems',
      'styleWithMixedColors',
    ];
    // Every basics style is a single SKU: a style cannot mix colours there, so that pitfall cannot exist.
    const impossible: PitfallKind[] = r.result.options.assortment === 'basics' ? ['styleWithMixedColors'] : [];
    expect([...found.keys()].sort()).toEqual(kinds.filter((k) => !impossible.includes(k)).sort());
    const ids = (k: PitfallKind) => found.get(k)!;
    const { Items, Locations, Sales, PurchaseOrders, MerchandiseCategories, Stock } = r.data;
    const skus = Items.flatMap((i) => i.skus);
    const lines = Sales.flatMap((s) => s.salesLines.map((l: Rec) => ({ ...l, sale: s })));

    const [barcodeSku] = ids('skuIdIsBarcode');
    const sku = skus.find((s) => s.skuId === barcodeSku)!;
    expect(isValidGs1_13(barcodeSku)).toBe(true);
    expect(sku.barcodes.some((b: Rec) => b.code === barcodeSku && b.isPrimary)).toBe(true);
    expect(skus.filter((s) => s.barcodes.some((b: Rec) => b.code === s.skuId))).toHaveLength(1);

    expect(
      MerchandiseCategories.filter((m) => m.code === m.merchandiseCategoryId).map((m) => m.merchandiseCategoryId),
    ).toEqual(ids('codeEqualsId'));

    const attrIds = (itemId: string) =>
      Items.find((i) => i.itemId === itemId)!.attributes.map((a: Rec) => a.attributeId);
    const [owner, reuser] = ids('duplicateAttributeId');
    expect(attrIds(reuser).filter((a: string) => attrIds(owner).includes(a))).toHaveLength(1);
    const allAttr = Items.flatMap((i) => i.attributes.map((a: Rec) => a.attributeId));
    expect(allAttr.length - new Set(allAttr).size).toBe(1);

    const [bareSale] = ids('bareSalesLineIds');
    const bare = lines.filter((l) => /^\d+$/.test(l.salesLineId));
    expect(bare.length).toBeGreaterThan(1);
    expect(new Set(bare.map((l) => l.sale.salesId))).toEqual(new Set([bareSale]));
    for (const l of bare) expect(l.salesLineId).toBe(String(l.lineNumber));
    for (const l of lines.filter((x) => x.sale.salesId !== bareSale))
      expect(l.salesLineId).toBe(`${l.sale.salesId}-${l.lineNumber}`);
    expect(new Set(lines.map((l) => l.salesLineId)).size).toBe(lines.length);

    const complete = (l: Rec) =>
      (l.streetName && l.houseNo && l.postalCode && l.city) || l.address || (l.latitude != null && l.longitude != null);
    expect(Locations.filter((l) => l.locationId.startsWith('ST-') && !complete(l)).map((l) => l.locationId)).toEqual(
      ids('incompleteAddress'),
    );

    const [a, b] = ids('duplicateLocationName');
    expect(Locations.find((l) => l.locationId === a)!.name).toBe(Locations.find((l) => l.locationId === b)!.name);

    expect(Sales.filter((s) => s.currencyCode !== 'LOCAL').map((s) => s.salesId)).toEqual(ids('saleCurrencyNotLocal'));
    expect(PurchaseOrders.filter((p) => p.currencyId !== 'local').map((p) => p.purchaseOrderId)).toEqual(
      ids('purchaseOrderCurrencyNotLocal'),
    );
    const poLines = PurchaseOrders.flatMap((p) => p.purchaseOrderLines);
    expect(
      poLines.filter((l) => l.quantityToReceive !== l.quantityOutstanding).map((l) => l.purchaseOrderLineId),
    ).toEqual(ids('quantityToReceiveMismatch'));
    expect(
      PurchaseOrders.filter((p) => !p.completelyReceived && Date.parse(p.orderDueDate) < end).map(
        (p) => p.purchaseOrderId,
      ),
    ).toEqual(ids('openOrderPastDue'));

    expect(lines.filter((l) => l.costPrice == null).map((l) => l.salesLineId)).toEqual(
      ids('salesLineWithoutCostPrice'),
    );
    expect(lines.filter((l) => l.costPrice != null && l.costPrice < 0).map((l) => l.salesLineId)).toEqual(
      ids('negativeCostPrice'),
    );

    const [missing] = ids('skuNotInItems');
    expect(skus.some((s) => s.skuId === missing)).toBe(false);
    expect(Stock.some((s) => s.skuId === missing)).toBe(true);
    const known = new Set(skus.map((s) => s.skuId));
    expect(new Set(lines.filter((l) => !known.has(l.skuId)).map((l) => l.skuId))).toEqual(new Set([missing]));

    const multi = [...new Set(skus.map((s) => s.styleId))].filter(
      (st) => new Set(skus.filter((s) => s.styleId === st).map((s) => s.colorId)).size > 1,
    );
    if (impossible.includes('styleWithMixedColors')) {
      expect(new Set(skus.map((s) => s.styleId)).size).toBe(skus.length);
      expect(multi).toEqual([]);
    } else {
      const [mixed] = ids('styleWithMixedColors');
      const styleId = skus.find((s) => s.skuId === mixed)!.styleId;
      expect(new Set(skus.filter((s) => s.styleId === styleId).map((s) => s.colorId)).size).toBe(2);
      expect(multi).toEqual([styleId]);
    }
  }

  it('plants every listed pitfall, and only there', () => {
    check(small);
    check(demo);
  });

  it('plants them in the basics and slow assortments too, except what a one-SKU style cannot hold', () => {
    check(basics);
    check(slow);
  });
});

describe('continuity assortments (basics, slow)', () => {
  it('draws the catalogue: one-size basics of one SKU per colour, slow movers mostly one size, flat lives', () => {
    const days = 730;
    const cal = new Calendar(Date.parse('2024-01-01T00:00:00Z'));
    for (const assortment of ['basics', 'slow'] as const) {
      const c = buildContinuityCatalog(resolveOptions({ skus: 3000, days, assortment }), cal);
      expect(c.skuIds).toHaveLength(3000);
      for (const it of c.items) expect(it.styles.length).toBeGreaterThanOrEqual(1);
      for (const it of c.items) expect(it.styles.length).toBeLessThanOrEqual(3);
      const oneSize = c.styles.filter((s) => s.skuCount === 1).length / c.styles.length;
      if (assortment === 'basics') {
        expect(oneSize).toBe(1);
        expect(new Set(c.skuSizeIds)).toEqual(new Set(['SZ-OS']));
      } else {
        expect(oneSize).toBeGreaterThan(0.7);
        expect(oneSize).toBeLessThan(0.9);
        for (const s of c.styles) expect(s.skuCount).toBeLessThanOrEqual(3);
      }
      const inPeriod = (d: number) => d >= 60 && d < days - 60 + 7 && cal.dow(d) === 1;
      const launched = c.items.filter((it) => it.launchDay >= 0);
      const delisted = c.items.filter((it) => c.styles[it.styles[0]].endDay < days);
      for (const it of launched) expect(inPeriod(it.launchDay), it.itemId).toBe(true);
      for (const it of delisted) expect(inPeriod(c.styles[it.styles[0]].endDay), it.itemId).toBe(true);
      expect(launched.length / c.items.length).toBeGreaterThan(0.04);
      expect(launched.length / c.items.length).toBeLessThan(0.13);
      expect(delisted.length / c.items.length).toBeGreaterThan(0.03);
      expect(delisted.length / c.items.length).toBeLessThan(0.12);
      for (const s of c.styles) {
        expect(s.flat).toBe(true);
        expect(s.clearanceDay).toBe(s.endDay);
        if (s.launchDay >= 0 || s.endDay < days) continue;
        expect(s.launchDay).toBeLessThan(0);
        expect(s.endDay).toBeGreaterThan(days + 60);
      }
      // The SKU rates at a median store: log-normal around the assortment's median.
      const rates = c.styles
        .flatMap((s) => Array.from({ length: s.skuCount }, (_, i) => s.baseRate * c.skuShare[s.firstSku + i]))
        .sort((a, b) => a - b);
      const median = rates[rates.length >> 1];
      const [lo, hi] = assortment === 'basics' ? [10, 20] : [0.08, 0.16];
      expect(median).toBeGreaterThan(lo);
      expect(median).toBeLessThan(hi);
    }
  });

  it('draws the overdispersion from a gamma of mean 1 and shape 8', () => {
    const rng = new Random(1, 'test-gamma');
    const xs = Array.from({ length: 50_000 }, () => rng.gammaMeanOne(8));
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length;
    expect(mean).toBeCloseTo(1, 1);
    expect(variance).toBeGreaterThan(0.11);
    expect(variance).toBeLessThan(0.14);
  });

  it("writes one sale per outlet and day with a line per SKU and the day's units, returns as their own sales", () => {
    for (const r of [basics, slow]) {
      const sales = r.data.Sales.filter((s) => s.salesLines[0].quantitySold > 0);
      const returns = r.data.Sales.filter((s) => s.salesLines[0].quantitySold < 0);
      const days = sales.map((s) => `${s.locationId}@${s.salesDateTime.slice(0, 10)}`);
      expect(new Set(days).size).toBe(days.length);
      for (const s of sales) {
        expect(s.salesId).toMatch(new RegExp(`^${s.locationId}-\\d{8}-\\d{4}$`));
        const skus = s.salesLines.map((l: Rec) => l.skuId);
        expect(new Set(skus).size).toBe(skus.length);
        for (const l of s.salesLines) expect(Number.isInteger(l.quantitySold) && l.quantitySold >= 1).toBe(true);
        const t = new Date(s.salesDateTime);
        const hour = t.getUTCHours();
        if (s.locationId.startsWith('ST-'))
          expect(t.getUTCDay() === 0 ? hour >= 12 && hour < 17 : hour >= 9 && hour < 21, s.salesDateTime).toBe(true);
      }
      for (const s of returns) expect(s.salesLines).toHaveLength(1);
      const units = (list: Rec[]) =>
        list.reduce((a, s) => a + s.salesLines.reduce((b: number, l: Rec) => b + Math.abs(l.quantitySold), 0), 0);
      const share = units(returns) / units(sales);
      const expected = r.result.options.assortment === 'basics' ? 0.02 : 0.03;
      expect(share).toBeGreaterThan(expected * 0.6);
      expect(share).toBeLessThan(expected * 1.4);
      expect(sales.some((s) => s.salesLines.some((l: Rec) => l.quantitySold > 1))).toBe(true);
    }
    // Basics sell tens a day per SKU: the webshop's lines carry many units.
    const web = basics.data.Sales.filter((s) => s.locationId === 'WEB-01' && s.salesLines[0].quantitySold > 0);
    const perLine = web.flatMap((s) => s.salesLines.map((l: Rec) => l.quantitySold));
    expect(perLine.reduce((a, b) => a + b, 0) / perLine.length).toBeGreaterThan(10);
  });

  it('resupplies the warehouses every four weeks per item, planned to arrive two weeks after ordering', () => {
    for (const r of [basics, slow]) {
      const byItemWarehouse = new Map<string, number[]>();
      for (const p of r.data.PurchaseOrders) {
        const ordered = Math.floor(Date.parse(p.orderDate) / DAY) * DAY;
        if (p.completelyReceived) expect(Date.parse(p.orderDueDate) - ordered).toBe(14 * DAY);
        const item = p.purchaseOrderLines[0].skuId.split('-')[0];
        const key = `${item}@${p.locationId}`;
        byItemWarehouse.set(key, [...(byItemWarehouse.get(key) ?? []), ordered]);
      }
      const gaps = [...byItemWarehouse.values()].flatMap((d) => d.slice(1).map((x, i) => (x - d[i]) / DAY));
      expect(gaps.length).toBeGreaterThan(byItemWarehouse.size);
      for (const g of gaps) expect(g % 28).toBe(0);
    }
  });
});

describe('truth', () => {
  it('writes a row per written day × outlet whose numbers hold together, and their totals', () => {
    for (const r of [small, twoWh, demo, basics, slow]) {
      const rows = truthRows(r);
      const outlets = r.data.Locations.filter((l) => !l.locationId.startsWith('WH-')).map((l) => l.locationId);
      expect(rows).toHaveLength(r.result.options.days * outlets.length);
      expect(rows[0].date).toBe(r.result.options.start);
      expect(rows.slice(0, outlets.length).map((x) => x.locationId)).toEqual(outlets);
      const sum = { carriedDays: 0, stockOutDays: 0, demand: 0, sales: 0, lost: 0 };
      for (const x of rows) {
        expect(x.sales).toBeGreaterThanOrEqual(0);
        expect(x.demand).toBeGreaterThanOrEqual(x.sales);
        expect(x.lost).toBe(x.demand - x.sales);
        expect(x.stockOutDays).toBeLessThanOrEqual(x.carriedDays);
        for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += x[k];
      }
      const summary = JSON.parse(r.truth.get(TRUTH_SUMMARY)!);
      expect(summary.options).toEqual(r.result.options);
      expect(summary.flags).toBe(toFlags(r.result.options));
      expect(summary.totals).toMatchObject(sum);
      expect(summary.totals.fillRate).toBeCloseTo(sum.sales / sum.demand, 5);
      expect(r.result.truth).toMatchObject(sum);
      // Demand is drawn on days with nothing on hand, and all of it is lost there.
      expect(summary.totals.stockOutDemand).toBeGreaterThan(0);
      expect(summary.totals.stockOutDemand).toBeLessThanOrEqual(sum.lost);
    }
  });

  it('agrees with the feed: its sales per outlet and day are the gross units sold of SKUs in Items', () => {
    for (const r of [small, twoWh, demo, basics, slow]) {
      const known = new Set(r.data.Items.flatMap((i) => i.skus.map((s: Rec) => s.skuId)));
      const sold = new Map<string, number>();
      for (const s of r.data.Sales) {
        for (const l of s.salesLines) {
          if (l.quantitySold <= 0 || !known.has(l.skuId)) continue;
          const key = `${s.salesDateTime.slice(0, 10)},${s.locationId}`;
          sold.set(key, (sold.get(key) ?? 0) + l.quantitySold);
        }
      }
      let mismatches = 0;
      for (const x of truthRows(r)) if ((sold.get(`${x.date},${x.locationId}`) ?? 0) !== x.sales) mismatches++;
      expect(mismatches).toBe(0);
      expect([...sold.values()].reduce((a, b) => a + b, 0)).toBe(r.result.truth.sales);
    }
  });

  it('has stock-outs on a good share of carried days in the continuity assortments', () => {
    for (const r of [basics, slow]) {
      const t = r.result.truth;
      expect(t.stockOutDays / t.carriedDays).toBeGreaterThan(0.01);
      expect(t.stockOutDays / t.carriedDays).toBeLessThan(0.2);
      expect(t.fillRate).toBeGreaterThan(0.75);
      expect(t.fillRate).toBeLessThan(0.99);
    }
  });
});

describe('flags', () => {
  it('takes --assortment and --truth, and refuses an unknown assortment', () => {
    const args = parseCliArgs(['--out', 'data', '--assortment', 'slow', '--truth', 'truth']);
    expect(args.truth).toBe('truth');
    expect(resolveOptions(args.input).assortment).toBe('slow');
    expect(resolveOptions({}).assortment).toBe('fashion');
    expect(() => resolveOptions({ assortment: 'outdoor' })).toThrow(/--assortment/);
    expect(toFlags(resolveOptions({ assortment: 'basics' }))).toContain('--assortment basics');
  });

  it('takes --dirty-export, off unless given, and repeats it in the flags that reproduce a run', () => {
    expect(resolveOptions(parseCliArgs(['--out', 'data', '--dirty-export']).input).dirtyExport).toBe(true);
    expect(resolveOptions(parseCliArgs(['--out', 'data']).input).dirtyExport).toBe(false);
    expect(toFlags(resolveOptions({ dirtyExport: true }))).toMatch(/ --dirty-export$/);
    expect(toFlags(resolveOptions({}))).not.toContain('dirty');
  });
});

describe('committed demo', () => {
  it('equals a fresh generation with the recorded flags', () => {
    const dir = join(ROOT, DEMO_DIR);
    const committed = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    expect(committed).toEqual([...demo.files.keys()].sort());
    for (const f of committed) expect(readFileSync(join(dir, f), 'utf8') === demo.files.get(f), f).toBe(true);
  });

  it('is documented in samples/README.md with its command and its pitfall ids', () => {
    const readme = readFileSync(join(ROOT, 'samples/README.md'), 'utf8');
    expect(readme).toContain(DEMO_COMMAND);
    for (const p of demo.result.pitfalls) for (const id of p.ids) expect(readme, `${p.kind} ${id}`).toContain(id);
  });
});
