/**
 * The continuity assortments, basics and slow movers: items on sale all year with no life cycle, each colour a
 * style (basics: one SKU, one size; slow: mostly one size, some a run of two or three). Most items were on sale
 * long before day 0 and stay well beyond the end; a few launch during the period and a few are delisted in it.
 * Each SKU draws its own rate, so the style's base rate is the sum of its SKUs' and the size share follows from it.
 * Built into the same shapes as the fashion catalogue, so demand, operations and the files treat both alike.
 */
import type { Calendar } from './calendar.js';
import {
  FIRST_LAUNCH_DAY,
  GENDERS,
  otherColor,
  plantSkuPitfalls,
  seasonRecords,
  type Catalog,
  type CatalogPitfalls,
  type ItemDef,
  type StyleDef,
} from './catalog.js';
import { BRANDS, CATEGORIES, COLORS, THEMES, seasonOf } from './masterdata.js';
import type { Assortment, GenerateOptions } from './options.js';
import { Random } from './rng.js';
import { SkuTable } from './sku-table.js';

type Continuity = Exclude<Assortment, 'fashion'>;
/** Units per day of an SKU at a median store (before the category's volume): log-normal, median and σ. */
const SKU_RATE: Record<Continuity, { median: number; sigma: number } | { from: number; to: number }> = {
  basics: { median: 15, sigma: 0.5 },
  slow: { median: 0.12, sigma: 0.5 },
  'slow-naive': { median: 0.5, sigma: 0.5 },
  // Spread evenly on a log scale: as many cells selling a unit every three weeks as selling one a day.
  intermittent: { from: 0.05, to: 1 },
};
/** Intermittent: the mean units a customer takes, drawn per SKU (one at a time up to a handful at once). */
const BASKET = { from: 1.2, to: 2.6 };
/** Lives: on sale throughout, launched in the period, delisted in it. */
const LIFE_WEIGHTS = [0.85, 0.08, 0.07];
/** A life that outlasts everything the simulation looks at (the period plus the buyer's eight weeks ahead). */
const BEYOND_END_DAYS = 365;

/**
 * A Monday for a launch or a delisting inside the period: between day 60 and 60 days before the end, so the
 * history holds both sides of it (narrowed on short periods).
 */
export function mondayInPeriod(days: number, cal: Calendar, rng: Random): number {
  const lo = Math.min(60, Math.floor(days / 3));
  const hi = Math.max(lo, days - 60);
  return cal.mondayOnOrAfter(rng.int(lo, hi));
}

interface Draft {
  category: number;
  colors: string[];
  launchDay: number;
  endDay: number;
}

export function buildContinuityCatalog(opts: GenerateOptions, cal: Calendar): Catalog {
  const assortment = opts.assortment as Continuity;
  const categories = CATEGORIES[assortment];
  const rng = new Random(opts.seed, 'continuity-catalog');
  const rate = SKU_RATE[assortment];
  const drawRate = (volume: number) =>
    'median' in rate
      ? rng.logNormal(rate.median * volume, rate.sigma)
      : volume * rate.from * Math.exp(rng.next() * Math.log(rate.to / rate.from));

  // Draft items until the SKU count is met exactly: the last items shrink to what is left.
  const drafts: Draft[] = [];
  let remaining = opts.skus;
  const catWeights = categories.map((c) => c.weight);
  const oneSize = categories.findIndex((c) => c.sizes.length === 1);
  while (remaining > 0) {
    let category = rng.weighted(catWeights);
    let colorCount = Math.min(
      1 + rng.weighted([0.35, 0.4, 0.25]),
      Math.floor(remaining / categories[category].sizes.length),
    );
    if (colorCount === 0) {
      category = oneSize;
      colorCount = Math.min(3, remaining);
    }
    remaining -= colorCount * categories[category].sizes.length;
    const life = rng.weighted(LIFE_WEIGHTS);
    const old = cal.mondayOnOrAfter(rng.int(FIRST_LAUNCH_DAY, -35));
    drafts.push({
      category,
      colors: rng.shuffle([...categories[category].palette]).slice(0, colorCount),
      launchDay: life === 1 ? mondayInPeriod(opts.days, cal, rng) : old,
      endDay: life === 2 ? mondayInPeriod(opts.days, cal, rng) : opts.days + BEYOND_END_DAYS,
    });
  }
  // Ids in launch order read naturally (IT10001 is the oldest product); the sort is stable, so it is deterministic.
  drafts.sort((a, b) => a.launchDay - b.launchDay);

  const items: ItemDef[] = [];
  const styles: StyleDef[] = [];
  const skus = new SkuTable();
  const skuRates: number[] = [];
  const colorById = new Map(COLORS.map((c) => [c.id, c]));

  for (const draft of drafts) {
    const cat = categories[draft.category];
    const index = items.length;
    const code = String(10001 + index);
    const itemId = `IT${code}`;
    const summer = cal.month(draft.launchDay) <= 6;
    const item: ItemDef = {
      index,
      itemId,
      code,
      description: rng.pick(cat.names),
      category: draft.category,
      brandId: BRANDS[rng.weighted(BRANDS.map((b) => b.weight))].id,
      seasonId: seasonOf(cal.year(draft.launchDay), cal.month(draft.launchDay)).id,
      collectionId: rng.pick(cat.collections),
      themeId: rng.pick(THEMES.filter((t) => (summer ? t.summer : t.winter))).id,
      vendorId: cat.vendorId,
      launchDay: draft.launchDay,
      styles: [],
      material: rng.pick(cat.materials),
      gender: rng.pick(GENDERS),
    };
    items.push(item);
    const priceCents = rng.pick(cat.prices);
    for (const colorId of draft.colors) {
      const color = colorById.get(colorId)!;
      const rates = cat.sizes.map(() => drawRate(cat.volume));
      const total = rates.reduce((a, b) => a + b, 0);
      const style: StyleDef = {
        index: styles.length,
        item: index,
        category: draft.category,
        styleId: `${itemId}-${color.code}`,
        colorId,
        colorCode: color.code,
        launchDay: draft.launchDay,
        endDay: draft.endDay,
        clearanceDay: draft.endDay,
        priceCents,
        costCents: Math.round(priceCents * rng.uniform(0.35, 0.45)),
        baseRate: total,
        flat: true,
        // Staples are in nearly every store.
        breadth: rng.uniform(0.7, 1),
        segment: 'Core',
        firstSku: skus.size,
        skuCount: cat.sizes.length,
      };
      styles.push(style);
      item.styles.push(style.index);
      skus.addStyle(
        item,
        style,
        cat.sizes,
        rates.map((r) => r / total),
        rng,
      );
      skuRates.push(...rates);
    }
  }

  const pitfalls = choosePitfalls(items, styles, skuRates, opts.days);
  plantSkuPitfalls(pitfalls, skus);
  const baskets = new Random(opts.seed, 'baskets');
  return {
    categories,
    items,
    styles,
    ...skus.columns(),
    skuBasket:
      assortment === 'intermittent'
        ? Float64Array.from(skus.ids, () => baskets.uniform(BASKET.from, BASKET.to))
        : undefined,
    seasons: seasonRecords(cal, items),
    pitfalls,
  };
}

/**
 * Catalogue pitfalls sit on items on sale through the whole period (then any), so a feed lint meets them in sales
 * and stock from the first day to the last. The SKU left out of Items is the best seller of an item that keeps
 * other SKUs there. A basics style is a single SKU and cannot mix colours, so basics go without that pitfall.
 */
function choosePitfalls(items: ItemDef[], styles: StyleDef[], rates: number[], days: number): CatalogPitfalls {
  const throughout = (it: ItemDef) => it.launchDay < 0 && styles[it.styles[0]].endDay > days;
  const pool = [...items.filter(throughout), ...items.filter((it) => !throughout(it))];
  const skusOf = (it: ItemDef) =>
    it.styles.flatMap((s) => Array.from({ length: styles[s].skuCount }, (_, i) => styles[s].firstSku + i));
  const take = (ok: (it: ItemDef) => boolean): ItemDef | undefined => {
    const i = pool.findIndex(ok);
    return i < 0 ? undefined : pool.splice(i, 1)[0];
  };
  const missingItem = take((it) => skusOf(it).length > 1);
  const sizedStyle = (it: ItemDef) => it.styles.map((s) => styles[s]).find((s) => s.skuCount > 1);
  const mixedItem = take((it) => sizedStyle(it) !== undefined);
  const [barcodeItem, owner, reuser, late] = [0, 1, 2, 3].map(() => take(() => true));
  if (!missingItem || !late) throw new Error('too few items for the catalogue pitfalls; raise --skus');
  const missing = skusOf(missingItem).reduce((best, k) => (rates[k] > rates[best] ? k : best));
  const mixed = mixedItem && sizedStyle(mixedItem)!;
  return {
    skuAsBarcode: styles[barcodeItem!.styles[0]].firstSku,
    attributeOwner: owner!.index,
    attributeReuser: reuser!.index,
    mixedColor: mixed && otherColor(mixed.firstSku + mixed.skuCount - 1, mixed),
    missingSku: missing,
    lateOrderItem: late.index,
  };
}
