/**
 * How the retailer runs each assortment, as far as the day-by-day operation needs to ask: how full an outlet is
 * filled on Monday, how a day's demand is drawn, how many units come back, how a day's sales are written, who
 * resupplies the warehouses, how long the goods are on the road and when a store's replenishment is held up.
 *
 * Fashion fills outlets to the expected week plus one standard deviation, draws Poisson demand and buys every style
 * once before its launch (purchasing.ts). The continuity assortments (basics, slow movers) fill outlets to the
 * expected week times a planning factor fixed per outlet × SKU, with no safety stock, so stock-outs come in a good
 * share of weeks; their demand is overdispersed like real sales; their warehouses are resupplied every four weeks
 * (ordering.ts); and an outlet's day of units is one sale. The naive weekly retailer (slow-naive) fills to the
 * expected week rounded, at least one unit, and its goods reach the stores three days after they leave the
 * warehouse. The intermittent retailer's customers take one unit or several at once, and now and then a store's
 * replenishment of a SKU is held up for weeks (an order blocked in its system).
 */
import type { Catalog } from './catalog.js';
import type { DemandModel } from './demand.js';
import type { Listing } from './listing.js';
import type { LocationDef, Network } from './locations.js';
import type { GenerateOptions } from './options.js';
import { PeriodicBuyer } from './ordering.js';
import type { PurchasePlan } from './purchasing.js';
import { Random } from './rng.js';

export interface Policy {
  /** The level an outlet × SKU (`pair` = `location * SKUs + sku`) is filled up to from its expected coming week. */
  orderUpTo(expectedWeek: number, presentation: number, pair: number): number;
  /** One outlet × SKU × day's demand at the expected rate. */
  demand(rate: number, sku: number): number;
  /** Share of sold units that come back. */
  returnRate(loc: LocationDef): number;
  /** One sale per outlet and day with a line per SKU (else receipts of 1–3 lines of one or two units). */
  dailySales: boolean;
  /** Resupplies the warehouses as the simulation runs (fashion's orders are all planned before it). */
  buyer?: PeriodicBuyer;
  /** Days between the Monday the goods leave the warehouse and the morning they reach the outlet (0: at once). */
  transitDays: number;
  /** Whether the outlet × SKU's replenishment is held up this Monday (asked once per Monday, in a fixed order). */
  blocked?(pair: number, day: number): boolean;
}

export function fashionPolicy(opts: GenerateOptions): Policy {
  const rng = new Random(opts.seed, 'demand');
  return {
    orderUpTo: (e, presentation) => Math.max(presentation, Math.ceil(e + Math.sqrt(e))),
    demand: (rate) => rng.poisson(rate),
    returnRate: (loc) => (loc.kind === 'online' ? 0.1 : 0.025),
    dailySales: false,
    transitDays: 0,
  };
}

/** Gamma shape of the demand noise: a day's count is negative binomial with variance λ + λ²/8. */
const DISPERSION_SHAPE = 8;
/** σ of the log-normal planning factor (median 1): some outlet × SKU pairs are planned a little thin, some thick. */
const PLANNING_SIGMA = 0.15;
const RETURN_RATE = { basics: 0.02, slow: 0.03, 'slow-naive': 0.03, intermittent: 0.03 };
/** slow-naive: Monday's goods reach the stores on Thursday morning. */
const NAIVE_TRANSIT_DAYS = 3;
/** intermittent: the chance a store × SKU's replenishment is held up on a Monday, and for how many weeks. */
const BLOCK_CHANCE = 0.012;
const BLOCK_WEEKS = { min: 3, max: 10 };

export function continuityPolicy(
  opts: GenerateOptions,
  catalog: Catalog,
  network: Network,
  carried: Uint8Array,
  demand: DemandModel,
  plan: PurchasePlan,
  listing?: Listing,
): Policy {
  const rng = new Random(opts.seed, 'demand');
  const noise = new Random(opts.seed, 'overdispersion');
  const planning = new Random(opts.seed, 'planning');
  const nSku = catalog.skuIds.length;
  const factor = new Float32Array(network.locations.length * nSku);
  for (const l of network.outlets)
    for (let k = 0; k < nSku; k++) factor[l * nSku + k] = planning.logNormal(1, PLANNING_SIGMA);
  const returns = RETURN_RATE[opts.assortment as keyof typeof RETURN_RATE];
  const naive = opts.assortment === 'slow-naive';
  const basket = catalog.skuBasket;
  const held = new Random(opts.seed, 'held-up');
  const heldUntil =
    opts.assortment === 'intermittent' ? new Int32Array(network.locations.length * nSku).fill(-(2 ** 31)) : undefined;
  return {
    orderUpTo: naive
      ? (e, _presentation, pair) => Math.max(1, Math.round(e * factor[pair]))
      : (e, presentation, pair) => Math.max(presentation, Math.ceil(e * factor[pair])),
    demand: basket
      ? (rate, k) => lumpy(rng, rate * noise.gammaMeanOne(DISPERSION_SHAPE), basket[k])
      : (rate) => rng.poisson(rate * noise.gammaMeanOne(DISPERSION_SHAPE)),
    returnRate: () => returns,
    dailySales: true,
    buyer: new PeriodicBuyer(opts, catalog, network, carried, demand, plan, listing),
    transitDays: naive ? NAIVE_TRANSIT_DAYS : 0,
    blocked: heldUntil
      ? (pair, day) => {
          if (day < heldUntil[pair]) return true;
          if (!held.chance(BLOCK_CHANCE)) return false;
          heldUntil[pair] = day + 7 * held.int(BLOCK_WEEKS.min, BLOCK_WEEKS.max);
          return true;
        }
      : undefined,
  };
}

/**
 * Units wanted at mean `rate` when customers come at `rate / basket` and each takes a geometric number of units
 * with mean `basket`: most days none, now and then several at once.
 */
function lumpy(rng: Random, rate: number, basket: number): number {
  const customers = rng.poisson(rate / basket);
  let units = 0;
  for (let i = 0; i < customers; i++) units += 1 + Math.floor(Math.log(1 - rng.next()) / Math.log(1 - 1 / basket));
  return units;
}
