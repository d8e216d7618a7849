/**
 * generate(): a seeded, deterministic retailer (fashion, basics or slow movers) written as the service's request
 * bodies. Master data and items first, then the day-by-day operation streams sales, stock snapshots and stock
 * mutations into files as they fill, and the purchase orders are written last, as they stand on the end date.
 * Beside them, into a sink of its own, the truth the feed censors: demand, sales and stock-outs per outlet and day.
 */
import { Calendar, parseDate } from './calendar.js';
import { buildCatalog, itemRecords, FIRST_LAUNCH_DAY, LAUNCH_AFTER_END_DAYS } from './catalog.js';
import { buildContinuityCatalog } from './continuity.js';
import { DemandModel, buildAssortment } from './demand.js';
import { DirtyExport } from './dirty-export.js';
import { buildListing } from './listing.js';
import { buildNetwork } from './locations.js';
import { BRANDS, COLLECTIONS, COLORS, CURRENCIES, SIZES, THEMES, VENDORS, type MasterRecord } from './masterdata.js';
import { resolveOptions, type GenerateOptions, type OptionInput } from './options.js';
import { listDirtyExport, listPitfalls, type Pitfall } from './pitfalls.js';
import { continuityPolicy, fashionPolicy } from './policy.js';
import { emptyPlan, planPurchases, purchaseOrderRecords } from './purchasing.js';
import { simulate, type Observer, type SimulationStats } from './operations.js';
import { TruthBook, type TruthTotals } from './truth.js';
import { BatchWriter, Output, type FileStat, type Sink } from './writer.js';

export type { Assortment, GenerateOptions, OptionInput } from './options.js';
export type { TruthTotals } from './truth.js';
export { TRUTH_DAILY, TRUTH_SUMMARY } from './truth.js';
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
  /** Totals of the truth over the written days (written out only when a truth sink is given). */
  truth: TruthTotals;
  pitfalls: Pitfall[];
}

const MAX_LIFE_DAYS = 26 * 7;

function master(idField: string, records: readonly MasterRecord[]): Record<string, unknown>[] {
  return records.map((r) => ({ [idField]: r.id, code: r.code, description: r.description }));
}

/** `truthSink` receives truth-daily.csv and truth-summary.json; keep it apart from the data folder. */
export function generate(input: OptionInput, sink: Sink, observer?: Observer, truthSink?: Sink): GenerateResult {
  const opts = resolveOptions(input);
  const cal = new Calendar(parseDate(opts.start)!);
  const out = new Output(sink);
  const fashion = opts.assortment === 'fashion';

  const catalog = fashion ? buildCatalog(opts, cal) : buildContinuityCatalog(opts, cal);
  const network = buildNetwork(opts);
  const carried = buildAssortment(opts, catalog, network);
  const demand = new DemandModel(
    opts,
    cal,
    catalog.categories,
    FIRST_LAUNCH_DAY - 40,
    opts.days + LAUNCH_AFTER_END_DAYS + MAX_LIFE_DAYS + 14,
  );
  const plan = fashion ? planPurchases(opts, catalog, network, carried, demand) : emptyPlan();
  const listing = opts.assortment === 'intermittent' ? buildListing(opts, cal, catalog, network) : undefined;
  const policy = fashion
    ? fashionPolicy(opts)
    : continuityPolicy(opts, catalog, network, carried, demand, plan, listing);
  const truth = new TruthBook(cal, network, catalog.pitfalls.missingSku);
  const dirty = opts.dirtyExport ? new DirtyExport(network, catalog, carried) : undefined;

  out.writeBody('Brands', 'brands', master('brandId', BRANDS));
  out.writeBody('Seasons', 'seasons', master('seasonId', catalog.seasons));
  out.writeBody('Collections', 'collections', master('collectionId', COLLECTIONS));
  out.writeBody('Themes', 'themes', master('themeId', THEMES));
  out.writeBody('Colors', 'colors', master('colorId', COLORS));
  out.writeBody('Sizes', 'sizes', master('sizeId', SIZES));
  out.writeBody('MerchandiseCategories', 'merchandiseCategories', master('merchandiseCategoryId', catalog.categories));
  out.writeBody('Vendors', 'vendors', master('vendorId', VENDORS));
  out.writeBody('Currencies', 'currencies', master('currencyId', CURRENCIES));
  out.writeBody('Locations', 'locations', [
    ...network.locations.map((l) => l.record),
    ...(dirty ? [dirty.popUpLocation()] : []),
  ]);
  const items = new BatchWriter(out, 'Items', 'items', 25_000, 'single');
  for (const r of [...itemRecords(catalog), ...(dirty ? [dirty.postageItem()] : [])]) items.add(JSON.stringify(r));
  items.finish();

  const { stats, sales } = simulate({
    seed: opts.seed,
    days: opts.days,
    cal,
    catalog,
    network,
    carried,
    demand,
    plan,
    policy,
    truth,
    out,
    observer,
    dirty,
    webshopFromWarehouse: opts.webshopFromWarehouse,
    listing,
  });
  if (truthSink) truth.write(truthSink, opts);

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
    truth: truth.totals(),
    pitfalls: [
      ...listPitfalls(catalog, catalog.pitfalls, network, po.pitfalls, sales.pitfalls),
      ...(dirty ? listDirtyExport(dirty.pitfalls) : []),
    ],
  };
}
