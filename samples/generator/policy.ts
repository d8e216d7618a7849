/**
 * How the retailer runs each assortment, as far as the day-by-day operation needs to ask: how full an outlet is
 * filled on Monday, how a day's demand is drawn, how many units come back, how a day's sales are written and who
 * resupplies the warehouses.
 *
 * Fashion fills outlets to the expected week plus one standard deviation, draws Poisson demand and buys every style
 * once before its launch (purchasing.ts). Basics and slow movers (the continuity assortments) fill outlets to the
 * expected week times a planning factor fixed per outlet × SKU, with no safety stock, so stock-outs come in a good
 * share of weeks; their demand is overdispersed like real sales; their warehouses are resupplied every four weeks
 * (ordering.ts); and an outlet's day of units is one sale.
 */
import type { Catalog } from './catalog.js';
import type { DemandModel } from './demand.js';
import type { LocationDef, Network } from './locations.js';
import type { GenerateOptions } from './options.js';
import { PeriodicBuyer } from './ordering.js';
import type { PurchasePlan } from './purchasing.js';
import { Random } from './rng.js';

export interface Policy {
  /** The level an outlet × SKU (`pair` = `location * SKUs + sku`) is filled up to from its expected coming week. */
  orderUpTo(expectedWeek: number, presentation: number, pair: number): number;
  /** One outlet × SKU × day's demand at the expected rate. */
  demand(rate: number): number;
  /** Share of sold units that come back. */
  returnRate(loc: LocationDef): number;
  /** One sale per outlet and day with a line per SKU (else receipts of 1–3 lines of one or two units). */
  dailySales: boolean;
  /** Resupplies the warehouses as the simulation runs (fashion's orders are all planned before it). */
  buyer?: PeriodicBuyer;
}

export function fashionPolicy(opts: GenerateOptions): Policy {
  const rng = new Random(opts.seed, 'demand');
  return {
    orderUpTo: (e, presentation) => Math.max(presentation, Math.ceil(e + Math.sqrt(e))),
    demand: (rate) => rng.poisson(rate),
    returnRate: (loc) => (loc.kind === 'online' ? 0.1 : 0.025),
    dailySales: false,
  };
}

/** Gamma shape of the demand noise: a day's count is negative binomial with variance λ + λ²/8. */
const DISPERSION_SHAPE = 8;
/** σ of the log-normal planning factor (median 1): some outlet × SKU pairs are planned a little thin, some thick. */
const PLANNING_SIGMA = 0.15;
const RETURN_RATE = { basics: 0.02, slow: 0.03 };

export function continuityPolicy(
  opts: GenerateOptions,
  catalog: Catalog,
  network: Network,
  carried: Uint8Array,
  demand: DemandModel,
  plan: PurchasePlan,
): Policy {
  const rng = new Random(opts.seed, 'demand');
  const noise = new Random(opts.seed, 'overdispersion');
  const planning = new Random(opts.seed, 'planning');
  const nSku = catalog.skuIds.length;
  const factor = new Float32Array(network.locations.length * nSku);
  for (const l of network.outlets)
    for (let k = 0; k < nSku; k++) factor[l * nSku + k] = planning.logNormal(1, PLANNING_SIGMA);
  const returns = RETURN_RATE[opts.assortment as keyof typeof RETURN_RATE];
  return {
    orderUpTo: (e, presentation, pair) => Math.max(presentation, Math.ceil(e * factor[pair])),
    demand: (rate) => rng.poisson(rate * noise.gammaMeanOne(DISPERSION_SHAPE)),
    returnRate: () => returns,
    dailySales: true,
    buyer: new PeriodicBuyer(opts, catalog, network, carried, demand, plan),
  };
}
