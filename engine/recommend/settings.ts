/**
 * Engine settings: one typed object with documented defaults. Per merchandise category a value of
 * MerchandiseCategorySettings overrides the default; a scenario overrides both.
 */
export interface CategorySettings {
  /** Units per SKU a store shows at the least. */
  presentationMinimum: number;
  /** Units per SKU a store holds at the most (no cap when undefined). */
  maximumStock?: number;
  /** The chance a week goes by without running out (targets.ts cycleQuantile), however often the engine reviews. */
  serviceLevel: number;
  /** Days between replenishment reviews. */
  reviewPeriodDays: number;
  /**
   * Days from proposal to arrival at the store, as the engine plans; when unset, the transit the data shows for the
   * receiving location (EngineState.locations.transitDays).
   */
  leadTimeDays?: number;
  /** Smallest quantity worth a transfer line. */
  minimumTransferQuantity: number;
  /** Share of a new style kept at the warehouse at initial distribution (percent). */
  holdbackPercentage: number;
  /** Keep styles with open purchase orders out of redistribution. */
  blockRedistributionWithOpenPurchaseOrders: boolean;
}

export type LocationKind = 'warehouse' | 'store' | 'online';

export interface Settings {
  defaults: CategorySettings;
  /** By merchandiseCategoryId. */
  categories: Record<string, Partial<CategorySettings>>;
  /** Days of sales history the demand estimate reads. */
  demandWindowDays: number;
  /** A day this many days older than the newest weighs half as much in the estimate (0: every day alike). */
  demandHalfLifeDays: number;
  /**
   * Days a price cut (a promotion) is expected to last: while it is younger, the days it still has to run are planned
   * at the lift its own days show (forecast/promotion.ts); 0 plans no lift.
   */
  promotionDays: number;
  /**
   * In-stock days, weighed by recency as the estimate weighs them (the newest 1, one `demandHalfLifeDays` older ½), at
   * which a SKU×location's own history gets half the weight against the pooled estimate. A whole window weighs about
   * `demandHalfLifeDays` / ln 2 such days (10 with the defaults), so its own history weighs a sixth at most: the pools
   * carry the estimate, and the cell shapes it.
   */
  poolingHalfWeightDays: number;
  /** Share of warehouse stock kept back from replenishment (percent). */
  warehouseReservePercentage: number;
  replenishment: {
    enabled: boolean;
    /**
     * Days a store's delivery covers, when deliveries are fewer than reviews (0: a store below target is sent stock
     * at every review). A store is sent stock once this many days have passed since stock last arrived there, or
     * earlier when the sales it would lose before the next review are worth more than `earlyDeliveryValue`.
     */
    deliveryEveryDays: number;
    /** Sales value a store would lose before the next review that is worth a delivery before its day. */
    earlyDeliveryValue: number;
  };
  initialDistribution: {
    enabled: boolean;
    /** Days of a comparable SKU's demand a store is given of a new style (replenishment follows what it sells). */
    firstFillDays: number;
  };
  redistribution: {
    enabled: boolean;
    /** A store's stock above target counts as excess only when it covers more days than this. */
    excessCoverDays: number;
    /** Cost of one trip (one sender, one receiver) in sales value. */
    tripCost: number;
    /** Extra expected sales value a trip must bring beyond its cost. */
    minimumGain: number;
    /** Trips a store sends or receives at the most per run. */
    maxTripsPerStore: number;
    /** Stock that arrived at a location this many days ago or less stays there. */
    recentlyMovedDays: number;
    /** A style held in fewer sizes than this at a store is a broken size run. */
    minimumSizesInRun: number;
    /** What stores hold of a style off sale (it stopped selling everywhere) goes back to a warehouse. */
    returnOffSale: boolean;
  };
  /** Location kinds derived from the data can be overridden here, by locationId. */
  locationKinds: Record<string, LocationKind>;
  /**
   * Online locations that sell from a warehouse's stock, by locationId: the warehouse's locationId. Such a location
   * holds no stock of its own (its stock records are not read), its sales take units from the warehouse, and the
   * engine sends it nothing: the warehouse keeps what it needs.
   */
  fulfilledFrom: Record<string, string>;
  /**
   * Days a transfer takes to reach a location, by locationId, where the workspace states it rather than its data
   * telling it: a fact of the world a backtest replays (simulate/transit.ts), never what the engine plans with.
   */
  transitDays: Record<string, number>;
}

/** The scenario a run uses when none is named; it overrides nothing until someone saves it. */
export const DEFAULT_SCENARIO = 'default';

export const DEFAULT_SETTINGS: Settings = {
  defaults: {
    presentationMinimum: 1,
    serviceLevel: 0.9,
    reviewPeriodDays: 7,
    minimumTransferQuantity: 1,
    holdbackPercentage: 20,
    blockRedistributionWithOpenPurchaseOrders: true,
  },
  categories: {},
  demandWindowDays: 56,
  demandHalfLifeDays: 7,
  promotionDays: 7,
  poolingHalfWeightDays: 56,
  warehouseReservePercentage: 0,
  replenishment: { enabled: true, deliveryEveryDays: 0, earlyDeliveryValue: 250 },
  initialDistribution: { enabled: true, firstFillDays: 7 },
  redistribution: {
    enabled: true,
    excessCoverDays: 42,
    tripCost: 25,
    minimumGain: 25,
    maxTripsPerStore: 3,
    recentlyMovedDays: 14,
    minimumSizesInRun: 3,
    returnOffSale: true,
  },
  locationKinds: {},
  fulfilledFrom: {},
  transitDays: {},
};

export type SettingsOverride = Partial<
  Omit<Settings, 'defaults' | 'replenishment' | 'initialDistribution' | 'redistribution'>
> & {
  defaults?: Partial<CategorySettings>;
  replenishment?: Partial<Settings['replenishment']>;
  initialDistribution?: Partial<Settings['initialDistribution']>;
  redistribution?: Partial<Settings['redistribution']>;
};

/** Settings = defaults ← per-category values from the workspace ← a scenario's overrides. */
export function resolveSettings(
  fromWorkspace: Record<string, Partial<CategorySettings>>,
  scenario: SettingsOverride = {},
): Settings {
  const categories: Record<string, Partial<CategorySettings>> = {};
  for (const [k, v] of Object.entries(fromWorkspace)) categories[k] = { ...v };
  for (const [k, v] of Object.entries(scenario.categories ?? {})) categories[k] = { ...categories[k], ...v };
  return {
    ...DEFAULT_SETTINGS,
    ...scenario,
    defaults: { ...DEFAULT_SETTINGS.defaults, ...scenario.defaults },
    categories,
    replenishment: { ...DEFAULT_SETTINGS.replenishment, ...scenario.replenishment },
    initialDistribution: { ...DEFAULT_SETTINGS.initialDistribution, ...scenario.initialDistribution },
    redistribution: { ...DEFAULT_SETTINGS.redistribution, ...scenario.redistribution },
    locationKinds: { ...DEFAULT_SETTINGS.locationKinds, ...scenario.locationKinds },
    fulfilledFrom: { ...DEFAULT_SETTINGS.fulfilledFrom, ...scenario.fulfilledFrom },
    transitDays: { ...DEFAULT_SETTINGS.transitDays, ...scenario.transitDays },
  };
}

/**
 * The days a store's stock must last until stock can come again: the review period, or the days a delivery covers
 * when deliveries are fewer than reviews.
 */
export function coverDays(cs: CategorySettings, settings: Pick<Settings, 'replenishment'>): number {
  return Math.max(cs.reviewPeriodDays, settings.replenishment.deliveryEveryDays);
}

/** The lead time the engine plans a transfer to location `l` with: the settings', else the data's transit. */
export function planningLead(
  cs: CategorySettings,
  state: { locations: { transitDays: Int32Array } },
  l: number,
): number {
  return cs.leadTimeDays ?? state.locations.transitDays[l];
}

export function categorySettings(settings: Settings, categoryId: string | undefined): CategorySettings {
  const own = categoryId === undefined ? undefined : settings.categories[categoryId];
  if (!own) return settings.defaults;
  const merged = { ...settings.defaults };
  for (const [k, v] of Object.entries(own))
    if (v !== undefined && v !== null) (merged as Record<string, unknown>)[k] = v;
  return merged;
}
