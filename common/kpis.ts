/**
 * The backtest's KPIs, each declared once: what it counts, how it reads, which way is better and how it adds up.
 * Everything that lists them reads this: the engine's sums and figures (engine/simulate/kpi-sums.ts, kpis.ts), the
 * columns runs keep and export (engine/model/backtest-columns.ts), the command line's table
 * (engine/cli/backtest-format.ts) and the screens' cards (src-renderer/src/kpis.ts). Plain data, no imports: it
 * runs in the engine and in a browser alike.
 */

/** What a figure counts, and so how it reads (common/format.ts): days and units whole, rates in %, values, weeks. */
export type KpiUnit = 'days' | 'units' | 'rate' | 'money' | 'weeks';
/**
 * How a KPI adds up over the days and the location × SKUs: a `total` sums them all; an `average` is the days' sums
 * over the cells, averaged over the days; `end` is the last day's sum; a `ratio` divides two sums and adds up over
 * nothing (a group's is not the sum of its parts').
 */
export type KpiSum = 'total' | 'average' | 'end' | 'ratio';
/** Which way is better, the service being equal; null where neither is (the period's own figure, or a part's). */
export type Better = 'higher' | 'lower' | null;

interface Facts {
  unit: KpiUnit;
  better: Better;
  sum: KpiSum;
  /** Its words in the command line's table; on the screens' cards, with a capital. */
  label: string;
  /** When it has no figure (null); a KPI without it always has one. */
  none?: string;
  /** How the table reads a missing figure, where not with a dash. */
  missing?: string;
}

interface OwnFacts extends Facts {
  /** What the figure counts, in a sentence: the card's explanation on screen. */
  explains: string;
  /** A row of the command line's table; `under` another KPI's row, indented, as a part of it. */
  table?: { under?: string };
  /** A card on the screens, at this place among them (1 first). */
  card?: number;
}

/** The places stock is counted: the stores and webshop, the warehouses, and the network (their sum). */
export const STOCK_SCOPES = ['stores', 'warehouse', 'network'] as const;
export type StockScope = (typeof STOCK_SCOPES)[number];

interface StockFacts extends Facts {
  /** What the figure counts at a place (`at the warehouses`), in a sentence. */
  explains: (at: string) => string;
  /** The places whose figure is a row of the command line's table. */
  table: readonly StockScope[];
  /** The places whose figure is a card on the screens, at this place among them. */
  card?: { [S in StockScope]?: number };
}

/** The demand and service of the stores and webshop over their carried days: a side's own KPIs, in column order. */
export const OWN_KPIS = {
  carriedDays: {
    unit: 'days',
    better: null,
    sum: 'total',
    label: 'carried SKU-days',
    explains: 'Location × SKU days a store or the webshop carried the SKU: held it, or was out of a SKU it carries.',
    table: {},
  },
  stockOutDays: {
    unit: 'days',
    better: 'lower',
    sum: 'total',
    label: 'stock-out days',
    explains:
      'Location × SKU days carried that opened with none of the SKU on hand (after the night’s deliveries) and sold ' +
      'none: every customer that day found the shelf empty. A day that sold out during the day is not one; what its ' +
      'later customers wanted counts in lost sales.',
    table: {},
    card: 2,
  },
  inStockRate: {
    unit: 'rate',
    better: 'higher',
    sum: 'ratio',
    label: 'in-stock rate',
    none: 'without carried days',
    explains: 'The share of carried days that were not stock-out days: 1 − stock-out days / carried days.',
    table: {},
    card: 1,
  },
  demand: {
    unit: 'units',
    better: null,
    sum: 'total',
    label: 'demand (units)',
    explains: 'What customers wanted on the carried days: gross sales on days in stock, estimated on the others.',
    table: {},
  },
  estimatedDemand: {
    unit: 'units',
    better: null,
    sum: 'total',
    label: 'of it estimated',
    explains: 'The part of demand that is estimated: days without stock, and beyond the sales of days that sold out.',
    table: { under: 'demand' },
  },
  sales: {
    unit: 'units',
    better: 'higher',
    sum: 'total',
    label: 'sales (units)',
    explains: 'Units sold, gross of returns.',
    table: {},
    card: 5,
  },
  returns: {
    unit: 'units',
    better: null,
    sum: 'total',
    label: 'returns (units)',
    explains: 'Units that came back (returns and cancellations), put back on the shelf that day on both sides.',
    table: {},
  },
  netSales: {
    unit: 'units',
    better: 'higher',
    sum: 'total',
    label: 'net sales (units)',
    explains: 'Sales less returns.',
  },
  salesValue: {
    unit: 'money',
    better: 'higher',
    sum: 'total',
    label: 'sales value',
    explains: 'The units sold at their prices: the recorded amounts, the day’s price or the average one simulated.',
    table: {},
  },
  lostSales: {
    unit: 'units',
    better: 'lower',
    sum: 'total',
    label: 'lost sales (units)',
    explains:
      'Demand that found no stock: the estimated demand of stock-out days, and beyond the sales of days that sold out.',
    table: {},
    card: 4,
  },
  fillRate: {
    unit: 'rate',
    better: 'higher',
    sum: 'ratio',
    label: 'fill rate',
    none: 'without demand',
    explains: 'Units sold / units demanded, over carried days.',
    table: {},
    card: 3,
  },
  estimatedSales: {
    unit: 'units',
    better: null,
    sum: 'total',
    label: 'on estimated demand',
    explains: 'Units sold against estimated demand: none on the actual side, which had no stock on those days.',
    table: { under: 'sales' },
  },
} as const satisfies Record<string, OwnFacts>;
export type OwnKey = keyof typeof OWN_KPIS;

/** The stock of one kind of place, the same figures for each (STOCK_SCOPES), in column order. */
export const STOCK_KPIS = {
  inventoryUnits: {
    unit: 'units',
    better: 'lower',
    sum: 'average',
    label: 'avg inventory (units)',
    explains: (at) => `Units on hand ${at} at the end of a day, the average day.`,
    table: ['stores', 'warehouse', 'network'],
    card: { stores: 6, warehouse: 7 },
  },
  inventoryValue: {
    unit: 'money',
    better: 'lower',
    sum: 'average',
    label: 'inventory value',
    none: 'where no SKU counted has a cost price (a value of 0 would be false)',
    missing: 'n/a',
    explains: (at) => `The value at cost of the units on hand ${at} at the end of a day, the average day.`,
    table: ['stores'],
  },
  weeksOfCover: {
    unit: 'weeks',
    better: 'lower',
    sum: 'ratio',
    label: 'weeks of cover',
    none: 'without sales',
    explains: (at) =>
      `The average inventory ${at} over the weekly sales it serves (the warehouses' and the network's: the network's).`,
    table: ['stores', 'network'],
  },
  endUnsoldUnits: {
    unit: 'units',
    better: 'lower',
    sum: 'end',
    label: 'unsold at end (units)',
    explains: (at) => `Units left ${at} at the end of the period (simulated: on hand and on their way there).`,
    table: ['stores', 'warehouse'],
  },
  endUnsoldValue: {
    unit: 'money',
    better: 'lower',
    sum: 'end',
    label: 'unsold value at end',
    none: 'where no SKU counted has a cost price',
    explains: (at) => `The value at cost of the units left ${at} at the end of the period.`,
    table: [],
  },
} as const satisfies Record<string, StockFacts>;
export type StockKey = keyof typeof STOCK_KPIS;

/** A KPI by the name runs keep it under: the stores' stock as such, the warehouses' and the network's prefixed. */
export type KpiKey = OwnKey | StockKey | `${'warehouse' | 'network'}${Capitalize<StockKey>}`;

/** A KPI as the tables, the command line and the screens list it. */
export interface Kpi {
  /** The column runs keep and export it as, and its key in a comparison's differences. */
  key: KpiKey;
  /** Its field in a side's KPIs: under `scope` where that is the warehouses or the network. */
  field: OwnKey | StockKey;
  /** The place of a stock KPI; null for the others. */
  scope: StockScope | null;
  unit: KpiUnit;
  better: Better;
  sum: KpiSum;
  /** The words of the command line's table (a stock KPI's with its place: `warehouses: avg inventory (units)`). */
  label: string;
  /** The words of the screens' card: `Avg inventory, warehouses (units)`. */
  cardLabel: string;
  /** What the figure counts, in a sentence: the card's explanation on screen. */
  explains: string;
  none?: string;
  missing?: string;
  table?: { under?: string };
  card?: number;
}

/** A place in words, as a table's row and a card name it, and where a sentence puts it. */
const PLACES: Record<StockScope, { name: string; at: string }> = {
  stores: { name: 'stores', at: 'at the stores' },
  warehouse: { name: 'warehouses', at: 'at the warehouses' },
  network: { name: 'network', at: 'in the network (the stores and the warehouses)' },
};

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

function stockKpi(field: StockKey, scope: StockScope): Kpi {
  const { explains, table, card, ...facts }: StockFacts = STOCK_KPIS[field];
  const place = PLACES[scope];
  const at = card?.[scope];
  return {
    ...facts,
    key: scope === 'stores' ? field : (`${scope}${capital(field)}` as KpiKey),
    field,
    scope,
    label: `${place.name}: ${facts.label}`,
    // The place before the unit: `Avg inventory, stores (units)`.
    cardLabel: capital(facts.label.replace(/^(.*?)( \(units\))?$/, `$1, ${place.name}$2`)),
    explains: explains(place.at),
    ...(table.includes(scope) ? { table: {} } : {}),
    ...(at === undefined ? {} : { card: at }),
  };
}

/** Every KPI, in column order: a side's own, then the stock of the stores, the warehouses and the network. */
export const KPIS: readonly Kpi[] = [
  ...(Object.keys(OWN_KPIS) as OwnKey[]).map((field): Kpi => {
    const facts: OwnFacts = OWN_KPIS[field];
    return { ...facts, key: field, field, scope: null, cardLabel: capital(facts.label) };
  }),
  ...STOCK_SCOPES.flatMap((scope) => (Object.keys(STOCK_KPIS) as StockKey[]).map((f) => stockKpi(f, scope))),
];

/** The KPIs two of which differ in percentage points. */
export const isRate = (k: Kpi) => k.unit === 'rate';

/** A KPI's figure in a side's KPIs (`warehouse` and `network` hold those places' stock), null where it has none. */
export function figureOf(kpi: Kpi, side: { readonly [field: string]: unknown }): number | null {
  const from = kpi.scope === 'warehouse' || kpi.scope === 'network' ? side[kpi.scope] : side;
  const v = (from as Record<string, unknown> | undefined)?.[kpi.field];
  return typeof v === 'number' ? v : null;
}
