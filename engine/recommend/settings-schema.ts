/**
 * The schema of a scenario's settings: checked before anything is kept or run, so a typo is an error, not a silent
 * default. Every number has a bound a user could mean, so no value it lets through can overflow the engine's day
 * arithmetic or its arrays: category settings take the feed's own bounds (model/settings.ts), days at most
 * MAX_DAYS, money the bound of any amount, percentages 0–100. Inline settings of a run, a kept scenario and a
 * sweep's values are all checked against this one schema.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Days, DaysSpan, Id, LIMITS, MAX_MAGNITUDE, Percentage } from '../model/fields.js';
import { CATEGORY_SETTING } from '../model/settings.js';
import { schemaProblems } from '../model/schema-errors.js';
import type { SettingsOverride } from './settings.js';

/** The longest transit a workspace may state: a quarter of a year (a container from across the world). */
export const MAX_TRANSIT_DAYS = 90;

const opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
const bool = (description: string) => Type.Optional(Type.Boolean({ description }));

/**
 * The longest demand window: three years of days. The engine keeps a number per location×SKU per window day, so
 * the window is what a run's memory grows with; three years already hold every season three times.
 */
export const MAX_DEMAND_WINDOW_DAYS = 1095;
/** Trips a store sends or receives in one run: no store loads more vans a day than this. */
export const MAX_TRIPS_PER_STORE = 100;
/** Sizes a style's size run counts: more than any style is made in. */
export const MAX_SIZES_IN_RUN = 100;

const Money = (description: string) => Type.Number({ description, minimum: 0, maximum: MAX_MAGNITUDE });

const Category = Type.Object(
  {
    presentationMinimum: opt(CATEGORY_SETTING.presentationMinimum),
    maximumStock: opt(CATEGORY_SETTING.maximumStock),
    serviceLevel: opt(CATEGORY_SETTING.serviceLevel),
    reviewPeriodDays: opt(CATEGORY_SETTING.reviewPeriodDays),
    leadTimeDays: opt(CATEGORY_SETTING.leadTimeDays),
    minimumTransferQuantity: opt(CATEGORY_SETTING.minimumTransferQuantity),
    holdbackPercentage: opt(CATEGORY_SETTING.holdbackPercentage),
    blockRedistributionWithOpenPurchaseOrders: opt(CATEGORY_SETTING.blockRedistributionWithOpenPurchaseOrders),
  },
  { additionalProperties: false },
);

/** An object by id (a category, a location): its keys are ids, as the feed sends them. */
const ById = <T extends TSchema>(value: T, description?: string) =>
  Type.Record(Type.String({ pattern: `^[\\s\\S]{1,${LIMITS.id}}$` }), value, {
    additionalProperties: false,
    errorMessage: `must be an object whose keys are ids (1 to ${LIMITS.id} characters)`,
    ...(description ? { description } : {}),
  });

export const SettingsOverrideSchema = Type.Object(
  {
    defaults: Type.Optional(Category),
    categories: Type.Optional(ById(Category)),
    demandWindowDays: opt(
      Type.Integer({
        description: 'Days of sales history the demand estimate reads.',
        minimum: 7,
        maximum: MAX_DEMAND_WINDOW_DAYS,
      }),
    ),
    demandHalfLifeDays: opt(
      DaysSpan('A day this many days older than the newest weighs half as much in the estimate (0: every day alike).'),
    ),
    promotionDays: opt(
      Days(
        'Days a price cut (a promotion) is expected to last: while it is younger, its remaining days are planned at ' +
          'the lift its own days show (0: no lift).',
      ),
    ),
    poolingHalfWeightDays: opt(
      DaysSpan(
        'Recency-weighted in-stock days (the newest 1, one half life older ½) at which own history weighs half ' +
          'against the pooled estimate.',
      ),
    ),
    warehouseReservePercentage: opt(Percentage('Share of warehouse stock kept back from replenishment (percent).')),
    replenishment: Type.Optional(
      Type.Object(
        {
          enabled: bool('Propose replenishment.'),
          deliveryEveryDays: opt(
            Days(
              "Days a store's delivery covers, when deliveries are fewer than reviews (0: a store below target is " +
                'sent stock at every review).',
            ),
          ),
          earlyDeliveryValue: opt(
            Money('Sales value a store would lose before the next review that is worth an early delivery.'),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    initialDistribution: Type.Optional(
      Type.Object(
        {
          enabled: bool('Propose initial distribution.'),
          firstFillDays: opt(Days("Days of a comparable SKU's demand a store is given of a new style.", 1)),
        },
        { additionalProperties: false },
      ),
    ),
    redistribution: Type.Optional(
      Type.Object(
        {
          enabled: bool('Propose redistribution.'),
          excessCoverDays: opt(DaysSpan('Stock above target is excess only beyond this many days of cover.')),
          tripCost: opt(Money('Cost of one trip in sales value.')),
          minimumGain: opt(Money('Extra sales value a trip must bring beyond its cost.')),
          maxTripsPerStore: opt(
            Type.Integer({
              description: 'Trips a store sends or receives at the most per run.',
              minimum: 1,
              maximum: MAX_TRIPS_PER_STORE,
            }),
          ),
          recentlyMovedDays: opt(Days('Stock that arrived this many days ago or less stays.')),
          minimumSizesInRun: opt(
            Type.Integer({
              description: 'Fewer sizes than this at a store is a broken size run.',
              minimum: 1,
              maximum: MAX_SIZES_IN_RUN,
            }),
          ),
          returnOffSale: bool(
            'Send what stores hold of a style off sale, or of a style they do not sell, back to a warehouse.',
          ),
        },
        { additionalProperties: false },
      ),
    ),
    locationKinds: Type.Optional(
      ById(Type.Union([Type.Literal('warehouse'), Type.Literal('store'), Type.Literal('online')])),
    ),
    fulfilledFrom: Type.Optional(
      ById(
        Id("The warehouse's locationId."),
        "Online locations that sell from a warehouse's stock (locationId: the warehouse's locationId): such a " +
          'location holds none of its own, and the warehouse keeps what it needs.',
      ),
    ),
    transitDays: Type.Optional(
      ById(
        Type.Integer({ minimum: 0, maximum: MAX_TRANSIT_DAYS }),
        'Days a transfer takes to reach a location (locationId: days), where the data cannot tell it: the world ' +
          'a backtest replays, not what the engine plans with (that is leadTimeDays).',
      ),
    ),
  },
  { additionalProperties: false, title: 'Scenario settings' },
);

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
