/**
 * generate(): a seeded, deterministic fashion retailer written as the service's request bodies. Master data and
 * items first, then the day-by-day operation streams sales, stock snapshots and stock mutations into files as they
 * fill, and the purchase orders are written last, as they stand on the end date.
 */
import { Calendar, parseDate } from './calendar.js';
import { buildCatalog, itemRecords, FIRST_LAUNCH_DAY, LAUNCH_AFTER_END_DAYS } from './catalog.js';
import { DemandModel, buildAssortment } from './demand.js';
import { buildNetwork } from './locations.js';
import { BRANDS, CATEGORIES, COLLECTIONS, COLORS, CURRENCIES, SIZES, THEMES, VENDORS, type MasterRecord } from './masterdata.js';
import { resolveOptions, type GenerateOptions, type OptionInput } from './options.js';
import { listPitfalls, type Pitfall } from './pitfalls.js';
import { planPurchases, purchaseOrderRecords } from './purchasing.js';
import { simulate, type Observer, type SimulationStats } from './operations.js';
import { BatchWriter, Output, type FileStat, type Sink } from './writer.js';

export type { GenerateOptions, OptionInput } from './options.js';
export type { Observer, Layout } from './operations.js';
export type { Pitfall, PitfallKind } from './pitfalls.js';
export { MemorySink, DirSink, type Sink, type FileStat } from './writer.js';
export { resolveOptions, toFlags, OptionError } from './options.js';

export interface GenerateResult {
  options: GenerateOptions;
  files: FileStat[];
  bytes: number;
  counts: {
    locations: number;
    stores: number;
    items: number;
    styles: number;
    skus: number;
    purchaseOrders: number;
    openPurchaseOrders: number;
  };
  stats: SimulationStats;
  pitfalls: Pitfall[];
}

const MAX_LIFE_DAYS = 26 * 7;

function master(idField: string, records: readonly MasterRecord[]): Record<string, unknown>[] {
  return records.map((r) => ({ [idField]: r.id, code: r.code, description: r.description }));
}

export function generate(input: OptionInput, sink: Sink, observer?: Observer): GenerateResult {
  const opts = resolveOptions(input);
  const cal = new Calendar(parseDate(opts.start)!);
  const out = new Output(sink);

  const catalog = buildCatalog(opts, cal);
  const network = buildNetwork(opts);
  const carried = buildAssortment(opts, catalog, network);
  const demand = new DemandModel(opts, cal, FIRST_LAUNCH_DAY - 40, opts.days + LAUNCH_AFTER_END_DAYS + MAX_LIFE_DAYS + 14);
  const plan = planPurchases(opts, catalog, network, carried, demand);

  out.writeBody('Brands', 'brands', master('brandId', BRANDS));
  out.writeBody('Seasons', 'seasons', master('seasonId', catalog.seasons));
  out.writeBody('Collections', 'collections', master('collectionId', COLLECTIONS));
  out.writeBody('Themes', 'themes', master('themeId', THEMES));
  out.writeBody('Colors', 'colors', master('colorId', COLORS));
  out.writeBody('Sizes', 'sizes', master('sizeId', SIZES));
  out.writeBody('MerchandiseCategories', 'merchandiseCategories', master('merchandiseCategoryId', CATEGORIES));
  out.writeBody('Vendors', 'vendors', master('vendorId', VENDORS));
  out.writeBody('Currencies', 'currencies', master('currencyId', CURRENCIES));
  out.writeBody('Locations', 'locations', network.locations.map((l) => l.record));
  const items = new BatchWriter(out, 'Items', 'items', 25_000, 'single');
  for (const r of itemRecords(catalog)) items.add(JSON.stringify(r));
  items.finish();

  const { stats, sales } = simulate({ seed: opts.seed, days: opts.days, cal, catalog, network, carried, demand, plan, out, observer });

  const po = purchaseOrderRecords(opts, cal, catalog, network, plan);
  const orders = new BatchWriter(out, 'PurchaseOrders', 'purchaseOrders', 25_000, 'single');
  for (const r of po.records) orders.add(JSON.stringify(r));
  orders.finish();

  return {
    options: opts,
    files: out.files,
    bytes: out.bytes(),
    counts: {
      locations: network.locations.length,
      stores: network.locations.filter((l) => l.kind === 'store').length,
      items: catalog.items.length,
      styles: catalog.styles.length,
      skus: catalog.skuIds.length,
      purchaseOrders: po.records.length,
      openPurchaseOrders: po.records.filter((r) => !r.completelyReceived).length,
    },
    stats,
    pitfalls: listPitfalls(catalog, catalog.pitfalls, network, po.pitfalls, sales.pitfalls),
  };
}
