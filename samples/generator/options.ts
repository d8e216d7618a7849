/** The generator's knobs, their defaults and their limits (the CLI and the tests share them). */
import { parseDate } from './calendar.js';

/**
 * What the retailer sells and how it runs it: `fashion` (seasonal styles with a size run and a life cycle, bought
 * once), `basics` (one-size staples selling tens a day, year-round), `slow` (year-round slow movers, most days
 * nothing), `slow-naive` (one-size slow movers filled weekly to the expected week, at least one unit, the goods three
 * days on the road) or `intermittent` (lumpy sellers of a few units a month to one a day, outages of weeks, stores
 * listing and delisting styles during the history).
 */
export const ASSORTMENTS = ['fashion', 'basics', 'slow', 'slow-naive', 'intermittent'] as const;
export type Assortment = (typeof ASSORTMENTS)[number];

export interface GenerateOptions {
  seed: number;
  stores: number;
  warehouses: 1 | 2;
  skus: number;
  days: number;
  /** `YYYY-MM-DD`, day 0 of the period. */
  start: string;
  assortment: Assortment;
  /** Also plant the dirt of a spreadsheet export of sales (dirty-export.ts). */
  dirtyExport: boolean;
  /**
   * The webshop ships from its warehouse's stock: it holds none and is sent none, its sales take units from the
   * warehouse and its returns go back there, and no stock level is written for it.
   */
  webshopFromWarehouse: boolean;
}

export type OptionInput = Partial<Omit<GenerateOptions, 'warehouses' | 'assortment'>> & {
  warehouses?: number;
  assortment?: string;
};

export const LIMITS = {
  // Four stores carry the location pitfalls (an incomplete address, two stores sharing a name); the town list
  // (60 towns, then districts of the 25 first, then of the others) names at most 540.
  stores: { min: 4, max: 500 },
  // Below ~100 SKUs there are too few items to hold the catalogue pitfalls apart.
  skus: { min: 100, max: 200_000 },
  days: { min: 28, max: 3_660 },
  seed: { min: 0, max: 2 ** 31 - 1 },
} as const;

export class OptionError extends Error {}

function integerIn(name: keyof typeof LIMITS, value: number): number {
  const { min, max } = LIMITS[name];
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new OptionError(`--${name} must be a whole number from ${min} to ${max}, got ${value}`);
  }
  return value;
}

export function resolveOptions(input: OptionInput = {}): GenerateOptions {
  const stores = integerIn('stores', input.stores ?? 20);
  const warehouses = input.warehouses ?? (stores > 30 ? 2 : 1);
  if (warehouses !== 1 && warehouses !== 2) throw new OptionError(`--warehouses must be 1 or 2, got ${warehouses}`);
  const start = input.start ?? '2024-01-01';
  if (parseDate(start) === undefined)
    throw new OptionError(`--start must be a calendar date YYYY-MM-DD, got "${start}"`);
  const assortment = ASSORTMENTS.find((a) => a === (input.assortment ?? 'fashion'));
  if (!assortment)
    throw new OptionError(`--assortment must be one of ${ASSORTMENTS.join(', ')}, got "${input.assortment}"`);
  return {
    seed: integerIn('seed', input.seed ?? 1),
    stores,
    warehouses,
    skus: integerIn('skus', input.skus ?? 3000),
    days: integerIn('days', input.days ?? 730),
    start,
    assortment,
    dirtyExport: input.dirtyExport ?? false,
    webshopFromWarehouse: input.webshopFromWarehouse ?? false,
  };
}

/** The flags that reproduce a run, in the CLI's spelling. */
export function toFlags(o: GenerateOptions): string {
  return (
    `--seed ${o.seed} --stores ${o.stores} --warehouses ${o.warehouses} --skus ${o.skus} ` +
    `--days ${o.days} --start ${o.start} --assortment ${o.assortment}${o.dirtyExport ? ' --dirty-export' : ''}` +
    (o.webshopFromWarehouse ? ' --webshop-from-warehouse' : '')
  );
}
