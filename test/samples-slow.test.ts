/**
 * The sample generator's slow and intermittent retailers: the naive weekly one (slow-naive: one-size slow movers
 * filled to the expected week, at least one unit, the goods three days on the road) and the intermittent one (lumpy
 * sellers, outages of weeks, stores listing and delisting styles during the history). Each is deterministic,
 * stock-consistent, and its truth agrees with its feed and says what it did.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, MemorySink, resolveOptions, toFlags } from '../samples/generator/index.js';
import { Calendar } from '../samples/generator/calendar.js';
import { buildContinuityCatalog } from '../samples/generator/continuity.js';
import { getDataset } from '../engine/model/datasets.js';
import { validateBatch } from '../engine/ingest/validate.js';
import { checkIdentity, DAY, endpointOf, run, truthRows, type Rec, type Run } from './sample-runs.js';

const NAIVE = { seed: 4, stores: 5, skus: 120, days: 200, start: '2024-01-01', assortment: 'slow-naive' };
const INTERMITTENT = { seed: 6, stores: 6, skus: 300, days: 300, start: '2024-01-01', assortment: 'intermittent' };

let naive: Run;
let intermittent: Run;
beforeAll(() => {
  naive = run(NAIVE);
  intermittent = run(INTERMITTENT);
});

const startMs = (r: Run) => Date.parse(`${r.result.options.start}T00:00:00Z`);
const dayOf = (r: Run, iso: string) => Math.floor((Date.parse(iso) - startMs(r)) / DAY);

/** Stock rows per location × SKU, in time order: [day, quantity]. */
function levels(r: Run): Map<string, [number, number][]> {
  const out = new Map<string, [number, number][]>();
  for (const s of r.data.Stock) {
    const key = `${s.locationId}/${s.skuId}`;
    if (!out.has(key)) out.set(key, []);
    out.get(key)!.push([dayOf(r, s.stockDateTime), s.quantity]);
  }
  for (const list of out.values()) list.sort((a, b) => a[0] - b[0]);
  return out;
}

describe('both', () => {
  it('are deterministic, valid against the schemas and stock-consistent', () => {
    for (const [r, input] of [
      [naive, NAIVE],
      [intermittent, INTERMITTENT],
    ] as const) {
      const again = new MemorySink();
      generate(input, again);
      for (const [name, text] of r.files) expect(again.files.get(name), name).toBe(text);
      for (const [name, text] of r.files) {
        const batch = validateBatch(getDataset(endpointOf(name)), JSON.parse(text));
        expect(batch.warnings, name).toEqual([]);
      }
      checkIdentity(r, r.result.options.days, startMs(r));
      expect(toFlags(r.result.options)).toContain(`--assortment ${input.assortment}`);
    }
  });

  it("write a truth whose sales are the feed's and whose days hold together", () => {
    for (const r of [naive, intermittent]) {
      const sold = new Map<string, number>();
      const known = new Set(r.data.Items.flatMap((i) => i.skus.map((s: Rec) => s.skuId)));
      for (const s of r.data.Sales)
        for (const l of s.salesLines) {
          if (l.quantitySold <= 0 || !known.has(l.skuId)) continue;
          const key = `${s.salesDateTime.slice(0, 10)},${s.locationId}`;
          sold.set(key, (sold.get(key) ?? 0) + l.quantitySold);
        }
      for (const x of truthRows(r)) {
        expect(x.sales).toBe(sold.get(`${x.date},${x.locationId}`) ?? 0);
        expect(x.stockOutDays).toBeLessThanOrEqual(x.carriedDays);
        expect(x.demand - x.sales).toBe(x.lost);
      }
    }
  });
});

describe('slow-naive', () => {
  it('draws one-size slow movers selling about half a unit a day at a median store', () => {
    const cal = new Calendar(Date.parse('2024-01-01T00:00:00Z'));
    const c = buildContinuityCatalog(resolveOptions({ skus: 1000, assortment: 'slow-naive' }), cal);
    expect(new Set(c.skuSizeIds)).toEqual(new Set(['SZ-OS']));
    const rates = c.styles.map((s) => s.baseRate).sort((a, b) => a - b);
    expect(rates[rates.length >> 1]).toBeGreaterThan(0.35);
    expect(rates[rates.length >> 1]).toBeLessThan(0.6);
  });

  it("ships on Monday and the outlets' stock arrives three days later, written as their level that morning", () => {
    const byKey = levels(naive);
    let arrivals = 0;
    for (const [key, list] of byKey) {
      const outlet = !key.startsWith('WH-');
      for (const [day] of list) {
        const dow = new Date(startMs(naive) + day * DAY).getUTCDay();
        // Mondays (and the first day) for everyone; Thursdays only for what reached a store or the webshop.
        expect(day === 0 || dow === 1 || (outlet && dow === 4), `${key} on day ${day}`).toBe(true);
        if (dow === 4) arrivals++;
      }
    }
    expect(arrivals).toBeGreaterThan(1000);
    // A Thursday's level is above the level the store's days up to it left: the goods came in that morning.
    const st1 = naive.layout.locationIds.indexOf('ST-001');
    const nSku = naive.layout.skuIds.length;
    let checked = 0;
    for (const [key, list] of byKey) {
      if (!key.startsWith('ST-001/')) continue;
      const k = naive.layout.skuIds.indexOf(key.split('/')[1]);
      for (const [day, q] of list) {
        if (day === 0 || new Date(startMs(naive) + day * DAY).getUTCDay() !== 4) continue;
        expect(q).toBeGreaterThan(naive.onHand[day - 1][st1 * nSku + k]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('fills to the expected week, at least one unit, and so runs out on a good share of days', () => {
    // Every Thursday level that a delivery set is at least one unit.
    for (const [key, list] of levels(naive))
      for (const [day, q] of list)
        if (key.startsWith('ST-') && new Date(startMs(naive) + day * DAY).getUTCDay() === 4)
          expect(q, key).toBeGreaterThanOrEqual(1);
    const t = naive.result.truth;
    expect(t.stockOutDays / t.carriedDays).toBeGreaterThan(0.15);
    expect(t.fillRate).toBeGreaterThan(0.6);
    expect(t.fillRate).toBeLessThan(0.85);
  });
});

describe('intermittent', () => {
  it('draws SKUs selling a unit every three weeks to one a day at a median store', () => {
    const cal = new Calendar(Date.parse('2024-01-01T00:00:00Z'));
    const c = buildContinuityCatalog(resolveOptions({ skus: 2000, assortment: 'intermittent' }), cal);
    const rates = c.styles.flatMap((s) =>
      Array.from(
        { length: s.skuCount },
        (_, i) => (s.baseRate * c.skuShare[s.firstSku + i]) / c.categories[s.category].volume,
      ),
    );
    for (const r of rates) {
      expect(r).toBeGreaterThanOrEqual(0.05);
      expect(r).toBeLessThanOrEqual(1);
    }
    // Log-uniform: as many below the geometric middle as above it.
    const below = rates.filter((r) => r < Math.sqrt(0.05)).length / rates.length;
    expect(below).toBeGreaterThan(0.45);
    expect(below).toBeLessThan(0.55);
    expect(c.skuBasket).toBeDefined();
    for (const b of c.skuBasket!) expect(b >= 1.2 && b <= 2.6).toBe(true);
  });

  it('sells lumpily: most store days nothing, and a good share of the days that sell, several units', () => {
    const lines = intermittent.data.Sales.filter((s) => s.locationId.startsWith('ST-')).flatMap((s) => s.salesLines);
    const sold = lines.filter((l: Rec) => l.quantitySold > 0);
    const several = sold.filter((l: Rec) => l.quantitySold >= 2).length / sold.length;
    expect(several).toBeGreaterThan(0.3);
    expect(several).toBeLessThan(0.7);
    // Store × SKU days that start with stock and sell nothing.
    const nSku = intermittent.layout.skuIds.length;
    const stores = intermittent.layout.locationIds.flatMap((id, l) => (id.startsWith('ST-') ? [l] : []));
    const soldOn = new Set(
      intermittent.data.Sales.filter((s) => s.locationId.startsWith('ST-')).flatMap((s) =>
        s.salesLines
          .filter((l: Rec) => l.quantitySold > 0)
          .map((l: Rec) => `${s.locationId}/${l.skuId}/${s.salesDateTime.slice(0, 10)}`),
      ),
    );
    let stocked = 0;
    let quiet = 0;
    for (let d = 1; d < intermittent.result.options.days; d++) {
      const date = new Date(startMs(intermittent) + d * DAY).toISOString().slice(0, 10);
      for (const l of stores)
        for (let k = 0; k < nSku; k++) {
          if (intermittent.onHand[d - 1][l * nSku + k] <= 0) continue;
          stocked++;
          if (!soldOn.has(`${intermittent.layout.locationIds[l]}/${intermittent.layout.skuIds[k]}/${date}`)) quiet++;
        }
    }
    expect(quiet / stocked).toBeGreaterThan(0.6);
    expect(quiet / stocked).toBeLessThan(0.95);
  });

  it('has outages of several weeks at stores that go on counting the empty shelf', () => {
    let long = 0;
    for (const [key, list] of levels(intermittent)) {
      if (!key.startsWith('ST-')) continue;
      let zeros = 0;
      for (const [, q] of list) {
        zeros = q === 0 ? zeros + 1 : 0;
        if (zeros === 4) long++;
      }
    }
    expect(long).toBeGreaterThan(20);
  });

  it('has stores listing styles during the history and delisting them, some selling the rest through', () => {
    const days = intermittent.result.options.days;
    const lastSale = new Map<string, number>();
    for (const s of intermittent.data.Sales)
      for (const l of s.salesLines)
        if (l.quantitySold > 0) lastSale.set(`${s.locationId}/${l.skuId}`, dayOf(intermittent, s.salesDateTime));
    let listedLate = 0;
    let takenBack = 0;
    let soldThrough = 0;
    for (const [key, list] of levels(intermittent)) {
      if (!key.startsWith('ST-')) continue;
      const [first] = list[0];
      const [last, q] = list[list.length - 1];
      if (first >= 60) listedLate++;
      if (last >= days - 14) continue;
      // Counted no more: emptied by a count (taken back), or left with stock that then sold.
      if (q === 0) takenBack++;
      else if ((lastSale.get(key) ?? -1) > last) soldThrough++;
    }
    expect(listedLate).toBeGreaterThan(10);
    expect(takenBack).toBeGreaterThan(5);
    expect(soldThrough).toBeGreaterThan(5);
    const t = intermittent.result.truth;
    expect(t.stockOutDays / t.carriedDays).toBeGreaterThan(0.05);
    expect(t.fillRate).toBeGreaterThan(0.55);
    expect(t.fillRate).toBeLessThan(0.85);
  });
});
