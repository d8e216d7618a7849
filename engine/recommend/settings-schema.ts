/**
 * The engine's settings, declared once: each setting's type, bounds, description and default. The `Settings` type,
 * `DEFAULT_SETTINGS`, the schema a scenario's settings are checked against (every setting optional, no defaults:
 * a scenario says only what it changes), the Settings screen's form and the sweep's axes are all read off this
 * schema; the feed's MerchandiseCategorySettings take the category settings' own definitions (model/settings.ts).
 * Every number has a bound a user could mean, so no value it lets through can overflow the engine's day arithmetic
 * or its arrays: category settings take the feed's own bounds, days at most MAX_DAYS, money the bound of any amount,
 * percentages 0–100. Inline settings of a run, a kept scenario and a sweep's values are all checked against it.
 */
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { Days, DaysSpan, Id, LIMITS, MAX_MAGNITUDE, Percentage } from '../model/fields.js';
import { CATEGORY_SETTING } from '../model/settings.js';
import { schemaProblems } from '../model/schema-errors.js';

/** The longest transit a workspace may state: a quarter of a year (a container from across the world). */
export const MAX_TRANSIT_DAYS = 90;
/**
 * The longest demand window: three years of days. The engine keeps a number per location×SKU per window day, so
 * the window is what a run's memory grows with; three years already hold every season three times.
 */
export const MAX_DEMAND_WINDOW_DAYS = 1095;
/** Trips a store sends or receives in one run: no store loads more vans a day than this. */
export const MAX_TRIPS_PER_STORE = 100;
/** Sizes a style's size run counts: more than any style is made in. */
export const MAX_SIZES_IN_RUN = 100;

/** A setting with the value it takes when nothing sets it. */
const given = <T extends TSchema>(value: Static<T>, schema: T): T => ({ ...schema, default: value });
const Money = (description: string) => Type.Number({ description, minimum: 0, maximum: MAX_MAGNITUDE });
const Switch = (description: string) => given(true, Type.Boolean({ description }));
const Section = <P extends Record<string, TSchema>>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });

/** An object by id (a category, a location): its keys are ids, as the feed sends them. */
const ById = <T extends TSchema>(value: T, description?: string) =>
  given(
    {},
    Type.Record(Type.String({ pattern: `^[\\s\\S]{1,${LIMITS.id}}$` }), value, {
      additionalProperties: false,
      errorMessage: `must be an object whose keys are ids (1 to ${LIMITS.id} characters)`,
      ...(description ? { description } : {}),
    }),
  );

/** What a merchandise category may set for itself; `defaults` holds every category's value unless it says otherwise. */
const CategorySettingsSchema = Section({
  presentationMinimum: given(1, CATEGORY_SETTING.presentationMinimum),
  /** No cap when unset. */
  maximumStock: Type.Optional(CATEGORY_SETTING.maximumStock),
  /** targets.ts cycleQuantile: a cycle of R days is held to SL^(R/7). */
  serviceLevel: given(0.9, CATEGORY_SETTING.serviceLevel),
  reviewPeriodDays: given(7, CATEGORY_SETTING.reviewPeriodDays),
  /** Unset: the receiving location's EngineState.locations.transitDays. */
  leadTimeDays: Type.Optional(CATEGORY_SETTING.leadTimeDays),
  minimumTransferQuantity: given(1, CATEGORY_SETTING.minimumTransferQuantity),
  holdbackPercentage: given(20, CATEGORY_SETTING.holdbackPercentage),
  blockRedistributionWithOpenPurchaseOrders: given(true, CATEGORY_SETTING.blockRedistributionWithOpenPurchaseOrders),
});

export const SettingsSchema = Type.Object(
  {
    defaults: CategorySettingsSchema,
    /** By merchandiseCategoryId. */
    categories: ById(Type.Partial(CategorySettingsSchema)),
    demandWindowDays: given(
      56,
      Type.Integer({
        description: 'Days of sales history the demand estimate reads.',
        minimum: 7,
        maximum: MAX_DEMAND_WINDOW_DAYS,
      }),
    ),
    demandHalfLifeDays: given(
      7,
      DaysSpan('A day this many days older than the newest weighs half as much in the estimate (0: every day alike).'),
    ),
    promotionDays: given(
      7,
      Days(
        'Days a price cut (a promotion) is expected to last: while it is younger, the days it still has to run are ' +
          'planned at the lift its own days show (0: no lift).',
      ),
    ),
    poolingHalfWeightDays: given(
      56,
      DaysSpan(
        'In-stock days, weighed by recency as the estimate weighs them (the newest 1, one half life older ½), at ' +
          "which a SKU×location's own history gets half the weight against the pooled estimate. A whole window " +
          'weighs about half life / ln 2 such days (10 by default), so its own history weighs a sixth at most: the ' +
          'pools carry the estimate, and the cell shapes it.',
      ),
    ),
    warehouseReservePercentage: given(
      0,
      Percentage('Share of warehouse stock kept back from replenishment (percent).'),
    ),
    replenishment: Section({
      enabled: Switch('Propose replenishment.'),
      deliveryEveryDays: given(
        0,
        Days(
          "Days a store's delivery covers, when deliveries are fewer than reviews (0: a store below target is sent " +
            'stock at every review). A store is sent stock at the last review before these days run out, counted ' +
            "from when its last delivery was sent (a replenishment's arrival less the transit; a redistribution move " +
            "or a new style's first stock does not count): with a review every 5 days and " +
            'deliveries every 7, every 5 days. Or earlier, when the sales it would lose before the next review, at ' +
            "that pace over a delivery's days, are worth more than the early delivery value.",
        ),
      ),
      earlyDeliveryValue: given(
        250,
        Money(
          "Sales value a store would lose over a delivery's days, at the pace it loses them before the next review, " +
            'that is worth a delivery before its day.',
        ),
      ),
      shortageHorizonDays: given(
        28,
        Days(
          "Days a warehouse's stock of a SKU, with what the purchase orders due within them bring, must last (when " +
            'its next order is due later: until then). When it cannot bring every store to its expected demand until ' +
            'each order is due and until the days are out, it is ' +
            'rationed: the stores are sent the stock for their demand until their next delivery at the lowest ' +
            'service level (a week in two without running out), and the rest waits at the warehouse for the stores ' +
            'that sell it (0: never).',
        ),
      ),
    }),
    initialDistribution: Section({
      enabled: Switch('Propose initial distribution.'),
      firstFillDays: given(
        3,
        Days(
          "Days of a comparable SKU's demand a store is given of a new style (replenishment follows what it sells).",
          1,
        ),
      ),
    }),
    redistribution: Section({
      enabled: Switch('Propose redistribution.'),
      excessCoverDays: given(
        42,
        DaysSpan("A store's stock above target counts as excess only when it covers more days than this."),
      ),
      tripCost: given(25, Money('Cost of one trip (one sender, one receiver) in sales value.')),
      minimumGain: given(25, Money('Extra expected sales value a trip must bring beyond its cost.')),
      maxTripsPerStore: given(
        3,
        Type.Integer({
          description: 'Trips a store sends or receives at the most per run.',
          minimum: 1,
          maximum: MAX_TRIPS_PER_STORE,
        }),
      ),
      recentlyMovedDays: given(14, Days('Stock that arrived at a location this many days ago or less stays there.')),
      minimumSizesInRun: given(
        3,
        Type.Integer({
          description: 'A style held in fewer sizes than this at a store is a broken size run.',
          minimum: 1,
          maximum: MAX_SIZES_IN_RUN,
        }),
      ),
      returnOffSale: Switch(
        'Send what stores hold of a style off sale (it stopped selling everywhere), or of a style they do not sell, ' +
          'back to a warehouse.',
      ),
    }),
    locationKinds: ById(
      Type.Union([Type.Literal('warehouse'), Type.Literal('store'), Type.Literal('online')]),
      'Location kinds derived from the data, overridden by locationId.',
    ),
    fulfilledFrom: ById(
      Id("The warehouse's locationId."),
      "Online locations that sell from a warehouse's stock (locationId: the warehouse's locationId): such a " +
        'location holds no stock of its own (its stock records are not read), its sales take units from the ' +
        'warehouse, and the engine sends it nothing: the warehouse keeps what it needs.',
    ),
    transitDays: ById(
      Type.Integer({ minimum: 0, maximum: MAX_TRANSIT_DAYS }),
      'Days a transfer takes to reach a location (locationId: days), where the workspace states it rather than its ' +
        'data telling it: the world a backtest replays (simulate/transit.ts), never what the engine plans with ' +
        '(that is leadTimeDays).',
    ),
  },
  { additionalProperties: false, title: 'Scenario settings' },
);

export type Settings = Static<typeof SettingsSchema>;
export type CategorySettings = Static<typeof CategorySettingsSchema>;
export type LocationKind = Settings['locationKinds'][string];

/** Every setting optional, nested sections included: what a scenario states. */
type Override<T> = { [K in keyof T]?: T[K] extends Record<string, unknown> ? Override<T[K]> : T[K] };
export type SettingsOverride = Override<Settings>;

/**
 * The schema as a scenario states it: every setting optional and no defaults (a body validator that fills in
 * defaults would keep every default as if the scenario had said it).
 */
function stated(schema: TSchema): TSchema {
  const { default: _default, ...rest } = schema;
  if (rest.type === 'object' && rest.properties) {
    const properties = Object.fromEntries(
      Object.entries(rest.properties as Record<string, TSchema>).map(([k, s]) => [k, Type.Optional(stated(s))]),
    );
    const { required: _required, ...open } = rest;
    return { ...open, properties };
  }
  if (rest.patternProperties) {
    const patternProperties = Object.fromEntries(
      Object.entries(rest.patternProperties as Record<string, TSchema>).map(([k, s]) => [k, stated(s)]),
    );
    return { ...rest, patternProperties };
  }
  return rest;
}

export const SettingsOverrideSchema = stated(SettingsSchema) as TObject;

/** Every setting at its default: the schema's `default`s (a setting without one is unset). */
export const DEFAULT_SETTINGS: Settings = Value.Create(SettingsSchema);

const check = TypeCompiler.Compile(SettingsOverrideSchema as TSchema);

export class SettingsInvalid extends Error {
  constructor(
    readonly problems: { path: string; message: string }[],
    /** What was refused, and why, before the problems are listed. */
    lead = 'settings rejected',
  ) {
    super(`${lead}: ${problems.map((p) => `${p.path || '/'}: ${p.message}`).join('; ')}`);
  }
}

export function parseSettingsOverride(value: unknown): SettingsOverride {
  if (check.Check(value)) return value as SettingsOverride;
  throw new SettingsInvalid(schemaProblems(check, value, 20));
}
