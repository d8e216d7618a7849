/** The schema of a scenario's settings file: checked before a run, so a typo is an error, not a silent default. */
import { Type, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { schemaProblems } from '../model/schema-errors.js';
import type { SettingsOverride } from './settings.js';

const n = (description: string, minimum = 0, maximum?: number) =>
  Type.Optional(Type.Number({ description, minimum, maximum }));
const int = (description: string, minimum = 0) => Type.Optional(Type.Integer({ description, minimum }));
const bool = (description: string) => Type.Optional(Type.Boolean({ description }));

const Category = Type.Object(
  {
    presentationMinimum: n('Units per SKU a store shows at the least.'),
    maximumStock: n('Units per SKU a store holds at the most.'),
    serviceLevel: n('Probability of not running out within review period + lead time.', 0.5, 0.9999),
    reviewPeriodDays: int('Days between replenishment reviews.', 1),
    leadTimeDays: int('Days from proposal to arrival.'),
    minimumTransferQuantity: int('Smallest quantity worth a transfer line.', 1),
    holdbackPercentage: n('Share of a new style kept at the warehouse (percent).', 0, 100),
    blockRedistributionWithOpenPurchaseOrders: bool('Keep styles with open purchase orders out of redistribution.'),
  },
  { additionalProperties: false },
);

export const SettingsOverrideSchema = Type.Object(
  {
    defaults: Type.Optional(Category),
    categories: Type.Optional(Type.Record(Type.String(), Category)),
    demandWindowDays: int('Days of sales history the demand estimate reads.', 7),
    demandHalfLifeDays: n('A day this many days older than the newest weighs half as much in the estimate (0: alike).'),
    poolingHalfWeightDays: n('In-stock days at which own history weighs half against the pooled estimate.', 0),
    warehouseReservePercentage: n('Share of warehouse stock kept back from replenishment (percent).', 0, 100),
    replenishment: Type.Optional(
      Type.Object({ enabled: bool('Propose replenishment.') }, { additionalProperties: false }),
    ),
    initialDistribution: Type.Optional(
      Type.Object(
        {
          enabled: bool('Propose initial distribution.'),
          firstFillDays: int("Days of a comparable SKU's demand a store is given of a new style.", 1),
        },
        { additionalProperties: false },
      ),
    ),
    redistribution: Type.Optional(
      Type.Object(
        {
          enabled: bool('Propose redistribution.'),
          excessCoverDays: n('Stock above target is excess only beyond this many days of cover.'),
          tripCost: n('Cost of one trip in sales value.'),
          minimumGain: n('Extra sales value a trip must bring beyond its cost.'),
          maxTripsPerStore: int('Trips a store sends or receives at the most per run.', 1),
          recentlyMovedDays: int('Stock that arrived this many days ago or less stays.'),
          minimumSizesInRun: int('Fewer sizes than this at a store is a broken size run.', 1),
          returnOffSale: bool('Send what stores hold of a style off sale back to a warehouse.'),
        },
        { additionalProperties: false },
      ),
    ),
    locationKinds: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Union([Type.Literal('warehouse'), Type.Literal('store'), Type.Literal('online')]),
      ),
    ),
    fulfilledFrom: Type.Optional(
      Type.Record(Type.String(), Type.String({ minLength: 1 }), {
        description:
          "Online locations that sell from a warehouse's stock (locationId: the warehouse's locationId): such a " +
          'location holds none of its own, and the warehouse keeps what it needs.',
      }),
    ),
    transitDays: Type.Optional(
      Type.Record(Type.String(), Type.Integer({ minimum: 0, maximum: 90 }), {
        description:
          'Days a transfer takes to reach a location (locationId: days), where the data cannot tell it: the world ' +
          'a backtest replays, not what the engine plans with (that is leadTimeDays).',
      }),
    ),
  },
  { additionalProperties: false, title: 'Scenario settings' },
);

const check = TypeCompiler.Compile(SettingsOverrideSchema as TSchema);

export class SettingsInvalid extends Error {
  constructor(readonly problems: { path: string; message: string }[]) {
    super(`settings rejected: ${problems.map((p) => `${p.path || '/'}: ${p.message}`).join('; ')}`);
  }
}

export function parseSettingsOverride(value: unknown): SettingsOverride {
  if (check.Check(value)) return value as SettingsOverride;
  throw new SettingsInvalid(schemaProblems(check, value, 20));
}
