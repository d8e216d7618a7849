/**
 * The fashion assortment: items (products) in one to three colours, each colour a style, each style a size run.
 * Every style gets what the demand and the buying need later: a launch Monday, a selling life, a price, a cost, a
 * popularity and a size curve. (The basics and slow assortments are built by continuity.ts into the same shapes.)
 */
import type { Calendar } from './calendar.js';
import {
  BRANDS,
  COLORS,
  FASHION_CATEGORIES,
  THEMES,
  seasonOf,
  type CategoryDef,
  type MasterRecord,
} from './masterdata.js';
import type { GenerateOptions } from './options.js';
import { Random } from './rng.js';
import { SkuTable } from './sku-table.js';

export interface ItemDef {
  index: number;
  itemId: string;
  code: string;
  description: string;
  category: number;
  brandId: string;
  seasonId: string;
  collectionId: string;
  themeId: string;
  vendorId: string;
  launchDay: number;
  styles: number[];
  material: string;
  gender: string;
}

export interface StyleDef {
  index: number;
  item: number;
  category: number;
  styleId: string;
  colorId: string;
  colorCode: string;
  /** A Monday: the day the first stores get it. */
  launchDay: number;
  /** First day it is no longer on sale. */
  endDay: number;
  /** First day of the end-of-life markdown; replenishment stops there. */
  clearanceDay: number;
  priceCents: number;
  costCents: number;
  /**
   * Units per day of the whole style at a median store on an average day at the height of its life, before
   * weekday, time of year and price. Fashion: a popularity, log-normal per item (mean 1) times a falling factor per
   * colour, so a few styles carry the range.
   */
  baseRate: number;
  /** No life cycle: the same demand from launch to end, no ramp-up, no decline, no markdown (clearanceDay = endDay). */
  flat: boolean;
  /** Share of the stores that carry it (big stores carry more). */
  breadth: number;
  segment: string;
  firstSku: number;
  skuCount: number;
}

export interface CatalogPitfalls {
  /** SKU whose skuId is its own primary EAN-13. */
  skuAsBarcode: number;
  /** Item whose "material" attribute reuses another item's attributeId. */
  attributeOwner: number;
  attributeReuser: number;
  /** SKU sent with a colorId other than its style's; absent where every style is a single SKU (basics). */
  mixedColor?: { sku: number; colorId: string };
  /** SKU that sells and is stocked but is left out of Items. */
  missingSku: number;
  /** Item whose order is due two weeks before its launch, just before the end, and never arrives. */
  lateOrderItem: number;
}

export interface Catalog {
  /** The assortment's merchandise categories; `category` fields index this list. */
  categories: readonly CategoryDef[];
  items: ItemDef[];
  styles: StyleDef[];
  skuIds: string[];
  skuCodes: string[];
  skuSizeIds: string[];
  skuColorIds: string[];
  skuBarcodes: string[][];
  skuStyle: Int32Array;
  /** Share of the style's demand, a bell over the size run. */
  skuShare: Float64Array;
  /** Units a store shows at the least. */
  skuPresentation: Int32Array;
  /**
   * Per SKU, the mean units one customer takes (intermittent: lumpy sales, a customer buying several at once);
   * absent where a customer's units are not drawn apart (the other assortments).
   */
  skuBasket?: Float64Array;
  seasons: MasterRecord[];
  pitfalls: CatalogPitfalls;
}

/** Buying waves: more drops in late winter and late summer, few in December. */
const LAUNCH_MONTH_WEIGHT = [0, 1.2, 1.4, 1.3, 1.0, 0.8, 0.6, 1.0, 1.4, 1.4, 1.1, 0.8, 0.5];

function seasonAffinity(warmth: number, month: number): number {
  if (warmth > 0) return month >= 2 && month <= 6 ? 1.6 : month === 7 ? 1 : 0.3;
  if (warmth < 0) return month >= 8 && month <= 11 ? 1.6 : month === 12 || month === 1 ? 1 : 0.3;
  return 1;
}

/**
 * Launch Mondays spread like a buying calendar: stratified over the drop weights (so even a small catalogue has
 * something new every few weeks and never a month with nothing on sale), then each item takes, of a few free
 * slots, the one that suits its category's season best.
 */
function assignLaunches(drafts: Draft[], mondays: number[], cal: Calendar, rng: Random): void {
  const weights = mondays.map((d) => LAUNCH_MONTH_WEIGHT[cal.month(d)]);
  const total = weights.reduce((a, b) => a + b, 0);
  const pool: number[] = [];
  let acc = 0;
  let m = 0;
  for (let i = 0; i < drafts.length; i++) {
    const u = ((i + rng.next()) / drafts.length) * total;
    while (m < mondays.length - 1 && acc + weights[m] <= u) acc += weights[m++];
    pool.push(mondays[m]);
  }
  for (const draft of drafts) {
    const warmth = FASHION_CATEGORIES[draft.category].warmth;
    let best = -1;
    let bestScore = -1;
    for (let t = 0; t < Math.min(6, pool.length); t++) {
      const j = rng.int(0, pool.length - 1);
      const score = seasonAffinity(warmth, cal.month(pool[j])) * (0.5 + rng.next());
      if (score > bestScore) [best, bestScore] = [j, score];
    }
    draft.launchDay = pool[best];
    pool[best] = pool[pool.length - 1];
    pool.pop();
  }
}

const SEGMENTS = ['Core', 'Fashion', 'Trend'];
export const GENDERS = ['Women', 'Men', 'Unisex'];
/** Units per day of an average style at a median store at the height of its life. */
const STYLE_BASE_RATE = 0.8;

/** How far before day 0 launches start, so the shop on day 0 holds styles at every point of their life. */
export const FIRST_LAUNCH_DAY = -168;
/** Styles launching this far after the end are bought but not yet on sale: they hold the open purchase orders. */
export const LAUNCH_AFTER_END_DAYS = 70;

interface Draft {
  category: number;
  launchDay: number;
  colors: string[];
  priceCents: number;
  name: string;
}

export function buildCatalog(opts: GenerateOptions, cal: Calendar): Catalog {
  const rng = new Random(opts.seed, 'catalog');
  const mondays: number[] = [];
  for (let d = cal.mondayOnOrAfter(FIRST_LAUNCH_DAY); d <= opts.days + LAUNCH_AFTER_END_DAYS; d += 7) mondays.push(d);

  // Draft items until the SKU count is met exactly: the last items shrink to what is left.
  const drafts: Draft[] = [];
  let remaining = opts.skus;
  const catWeights = FASHION_CATEGORIES.map((c) => c.weight);
  const oneSize = FASHION_CATEGORIES.findIndex((c) => c.sizes.length === 1);
  while (remaining > 0) {
    let category = rng.weighted(catWeights);
    const run = FASHION_CATEGORIES[category].sizes.length;
    let colorCount = 1 + rng.weighted([0.35, 0.4, 0.25]);
    colorCount = Math.min(colorCount, Math.floor(remaining / run));
    if (colorCount === 0) {
      category = oneSize;
      colorCount = Math.min(3, remaining);
    }
    const cat = FASHION_CATEGORIES[category];
    remaining -= colorCount * cat.sizes.length;
    const colors = rng.shuffle([...cat.palette]).slice(0, colorCount);
    drafts.push({
      category,
      launchDay: 0,
      colors,
      priceCents: rng.pick(cat.prices),
      name: rng.pick(cat.names),
    });
  }
  assignLaunches(drafts, mondays, cal, rng);
  // A few launches are placed rather than drawn, so every run holds open orders for styles still to come and one
  // order due just before the end (the late order the purchase-order pitfall needs), however small the catalogue.
  const afterEnd = mondays.filter((d) => d > opts.days + 21);
  const placed = Math.max(2, Math.round(drafts.length * 0.03));
  for (let i = 0; i < placed; i++) drafts[1 + i].launchDay = afterEnd[Math.floor((i * afterEnd.length) / placed)];
  const lateDraft = drafts[1 + placed];
  lateDraft.launchDay = cal.mondayOnOrAfter(opts.days - 14);
  // Ids in launch order read naturally (IT10001 is the oldest product); the sort is stable, so it is deterministic.
  const order = drafts.map((_, i) => i).sort((a, b) => drafts[a].launchDay - drafts[b].launchDay || a - b);

  const items: ItemDef[] = [];
  const styles: StyleDef[] = [];
  const skus = new SkuTable();
  const colorById = new Map(COLORS.map((c) => [c.id, c]));

  for (const di of order) {
    const draft = drafts[di];
    const cat: CategoryDef = FASHION_CATEGORIES[draft.category];
    const index = items.length;
    const code = String(10001 + index);
    const itemId = `IT${code}`;
    const year = cal.year(draft.launchDay);
    const month = cal.month(draft.launchDay);
    const season = seasonOf(year, month);
    const summer = month <= 6;
    const themes = THEMES.filter((t) => (summer ? t.summer : t.winter));
    const brandWeights = BRANDS.map((b) => {
      if (b.code !== 'FJELL') return b.weight;
      return ['MC-JKT', 'MC-SHO', 'MC-KNT'].includes(cat.id) ? b.weight * 3 : cat.id === 'MC-DRS' ? 0 : b.weight;
    });
    const item: ItemDef = {
      index,
      itemId,
      code,
      description: draft.name,
      category: draft.category,
      brandId: BRANDS[rng.weighted(brandWeights)].id,
      seasonId: season.id,
      collectionId: rng.pick(cat.collections),
      themeId: rng.pick(themes).id,
      vendorId: cat.vendorId,
      launchDay: draft.launchDay,
      styles: [],
      material: rng.pick(cat.materials),
      gender: cat.id === 'MC-DRS' ? 'Women' : rng.pick(GENDERS),
    };
    items.push(item);
    // Popularity: log-normal with mean 1 per item; the first colour leads, later colours sell less.
    const itemPop = rng.logNormal(Math.exp(-0.245), 0.7);
    draft.colors.forEach((colorId, ci) => {
      const color = colorById.get(colorId)!;
      const lifeWeeks = rng.int(16, 26);
      const popularity = itemPop * [1, 0.65, 0.45][ci] * rng.logNormal(1, 0.25);
      const style: StyleDef = {
        index: styles.length,
        item: index,
        category: draft.category,
        styleId: `${itemId}-${color.code}`,
        colorId,
        colorCode: color.code,
        launchDay: draft.launchDay,
        endDay: draft.launchDay + lifeWeeks * 7,
        clearanceDay: draft.launchDay + (lifeWeeks - 3) * 7,
        priceCents: draft.priceCents,
        costCents: Math.round(draft.priceCents * rng.uniform(0.35, 0.45)),
        baseRate: STYLE_BASE_RATE * cat.volume * popularity,
        flat: false,
        breadth: Math.min(1, Math.max(0.35, 0.7 + 0.25 * Math.log(popularity))),
        segment: rng.pick(SEGMENTS),
        firstSku: skus.size,
        skuCount: cat.sizes.length,
      };
      styles.push(style);
      item.styles.push(style.index);
      // Size curve: a bell around the category's usual best seller, shifted a little per style.
      const n = cat.sizes.length;
      const centre = cat.sizePeak * (n - 1) + rng.uniform(-0.4, 0.4);
      const sigma = Math.max(0.7, n / 3.5);
      const w = cat.sizes.map((_, i) => Math.exp(-((i - centre) ** 2) / (2 * sigma * sigma)) * rng.uniform(0.9, 1.1));
      const total = w.reduce((a, b) => a + b, 0);
      skus.addStyle(
        item,
        style,
        cat.sizes,
        w.map((x) => x / total),
        rng,
      );
    });
  }

  const pitfalls = choosePitfalls(items, styles, skus.shares, opts.days, order.indexOf(drafts.indexOf(lateDraft)));
  plantSkuPitfalls(pitfalls, skus);

  return {
    categories: FASHION_CATEGORIES,
    items,
    styles,
    ...skus.columns(),
    seasons: seasonRecords(cal, items),
    pitfalls,
  };
}

/**
 * Catalogue pitfalls sit on items that sell during the period and have a real size run, so a feed lint sees them
 * in sales and stock too: first items launched from eight weeks before the start to eight weeks before the end,
 * then any whose first style is on sale for four weeks of the period, then any. The SKU left out of Items gets the
 * best candidate, since its point is to turn up in sales.
 */
function choosePitfalls(
  items: ItemDef[],
  styles: StyleDef[],
  shares: number[],
  days: number,
  lateOrderItem: number,
): CatalogPitfalls {
  const first = (it: ItemDef) => styles[it.styles[0]];
  const sized = (it: ItemDef) => first(it).skuCount >= 3;
  const inPeriod = (it: ItemDef) => it.launchDay >= -56 && it.launchDay <= Math.max(0, days - 56);
  const overlaps = (it: ItemDef) => first(it).endDay >= 28 && it.launchDay <= days - 28;
  const picked: ItemDef[] = [];
  for (const pass of [
    (it: ItemDef) => sized(it) && inPeriod(it),
    (it: ItemDef) => sized(it) && overlaps(it),
    sized,
    () => true,
  ]) {
    for (const it of items)
      if (picked.length < 5 && !picked.includes(it) && it.index !== lateOrderItem && pass(it)) picked.push(it);
  }
  if (picked.length < 5) throw new Error('too few items for the catalogue pitfalls; raise --skus');
  const [missingItem, barcodeItem, mixedItem, owner, reuser] = picked;
  const mixed = first(mixedItem);
  const missing = first(missingItem);
  let best = missing.firstSku;
  for (let k = missing.firstSku; k < missing.firstSku + missing.skuCount; k++) if (shares[k] > shares[best]) best = k;
  return {
    skuAsBarcode: first(barcodeItem).firstSku,
    attributeOwner: owner.index,
    attributeReuser: reuser.index,
    mixedColor: otherColor(mixed.firstSku + mixed.skuCount - 1, mixed),
    missingSku: best,
    lateOrderItem,
  };
}

/** The seasons the items launch in, oldest first. */
export function seasonRecords(cal: Calendar, items: readonly ItemDef[]): MasterRecord[] {
  const seasons = new Map<string, { rec: MasterRecord; sortKey: number }>();
  for (const it of items) {
    const year = cal.year(it.launchDay);
    const month = cal.month(it.launchDay);
    const rec = seasonOf(year, month);
    seasons.set(rec.id, { rec, sortKey: year * 2 + (month <= 6 ? 0 : 1) });
  }
  return [...seasons.values()].sort((a, b) => a.sortKey - b.sortKey).map((s) => s.rec);
}

/** The style-with-mixed-colours pitfall: this SKU of the style is sent with another colour than the style's. */
export function otherColor(sku: number, style: StyleDef): { sku: number; colorId: string } {
  return { sku, colorId: COLORS.find((c) => c.id !== style.colorId)!.id };
}

/**
 * The SKU pitfalls are catalogue facts: the SKU whose id is its barcode goes by that id in sales, stock and orders
 * too; the mixed colour is the SKU's colour everywhere.
 */
export function plantSkuPitfalls(p: CatalogPitfalls, skus: SkuTable): void {
  skus.ids[p.skuAsBarcode] = skus.barcodes[p.skuAsBarcode][0];
  skus.codes[p.skuAsBarcode] = skus.barcodes[p.skuAsBarcode][0];
  if (p.mixedColor) skus.colorIds[p.mixedColor.sku] = p.mixedColor.colorId;
}

/**
 * The Items request bodies' records, pitfalls included, the missing SKU left out (and with it the style attribute
 * of a style that has no other SKU, so nothing refers to a style Items does not hold).
 */
export function itemRecords(c: Catalog): Record<string, unknown>[] {
  return c.items.map((it) => {
    const materialOwner =
      it.index === c.pitfalls.attributeReuser ? c.items[c.pitfalls.attributeOwner].itemId : it.itemId;
    const skus: Record<string, unknown>[] = [];
    const styleAttributes: Record<string, unknown>[] = [];
    for (const s of it.styles) {
      const st = c.styles[s];
      if (st.skuCount === 1 && st.firstSku === c.pitfalls.missingSku) continue;
      styleAttributes.push({
        styleAttributeId: `${st.styleId}-segment`,
        key: 'segment',
        value: st.segment,
        styleId: st.styleId,
      });
      for (let k = st.firstSku; k < st.firstSku + st.skuCount; k++) {
        if (k === c.pitfalls.missingSku) continue;
        skus.push({
          skuId: c.skuIds[k],
          code: c.skuCodes[k],
          colorId: c.skuColorIds[k],
          sizeId: c.skuSizeIds[k],
          styleId: st.styleId,
          barcodes: c.skuBarcodes[k].map((code, i) => ({ barcodeId: code, code, isPrimary: i === 0 })),
        });
      }
    }
    return {
      itemId: it.itemId,
      code: it.code,
      description: it.description,
      themeId: it.themeId,
      brandId: it.brandId,
      seasonId: it.seasonId,
      collectionId: it.collectionId,
      merchandiseCategoryId: c.categories[it.category].id,
      attributes: [
        { attributeId: `${materialOwner}-material`, key: 'material', value: it.material },
        { attributeId: `${it.itemId}-gender`, key: 'gender', value: it.gender },
      ],
      styleAttributes,
      skus,
    };
  });
}
