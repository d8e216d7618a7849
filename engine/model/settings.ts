import { Type, type Static } from '@sinclair/typebox';
import {
  Bool,
  DateOnly,
  DateTime,
  Days,
  Decimal,
  Entity,
  Id,
  Integer,
  LIMITS,
  Opt,
  Percentage,
  Quantity,
  Str,
} from './fields.js';

export const ExcludedCollection = Entity('ExcludedCollection', ['collectionId'], {
  collectionId: Id('A collection kept out of every recommendation.'),
});

export const ExcludedLocation = Entity('ExcludedLocation', ['locationId'], {
  locationId: Id('A location that neither sends nor receives recommended transfers.'),
});

export const ExcludedSku = Entity('ExcludedSku', ['skuId'], {
  skuId: Id('A SKU kept out of every recommendation.'),
});

/**
 * Each category setting's type and bounds, written once: the feed's MerchandiseCategorySettings and a scenario's
 * settings (recommend/settings-schema.ts) set the same values and refuse the same ones.
 */
export const CATEGORY_SETTING = {
  presentationMinimum: Quantity('Units per SKU a store shows at the least.'),
  maximumStock: Quantity('Units per SKU a store holds at the most.'),
  serviceLevel: Decimal('Chance a week goes by without running out, however often the engine reviews.', {
    minimum: 0.5,
    maximum: 0.9999,
  }),
  reviewPeriodDays: Days('Days between replenishment reviews.', 1),
  leadTimeDays: Days(
    'Days from proposal to arrival at the store, as the engine plans (unset: the transit the data shows).',
  ),
  minimumTransferQuantity: Integer('Smallest quantity worth a transfer line.', 1),
  holdbackPercentage: Percentage('Share of a new style kept at the warehouse at initial distribution (percent).'),
  blockRedistributionWithOpenPurchaseOrders: Bool('Keep styles with open purchase orders out of redistribution.'),
};

/** Engine settings per merchandise category; an absent value falls back to the workspace default. */
export const MerchandiseCategorySetting = Entity('MerchandiseCategorySetting', ['merchandiseCategoryId'], {
  merchandiseCategoryId: Id('Must match an id sent to POST /MerchandiseCategories.'),
  presentationMinimum: Opt(CATEGORY_SETTING.presentationMinimum),
  maximumStock: Opt(CATEGORY_SETTING.maximumStock),
  serviceLevel: Opt(CATEGORY_SETTING.serviceLevel),
  reviewPeriodDays: Opt(CATEGORY_SETTING.reviewPeriodDays),
  leadTimeDays: Opt(CATEGORY_SETTING.leadTimeDays),
  minimumTransferQuantity: Opt(CATEGORY_SETTING.minimumTransferQuantity),
  holdbackPercentage: Opt(CATEGORY_SETTING.holdbackPercentage),
  blockRedistributionWithOpenPurchaseOrders: Opt(CATEGORY_SETTING.blockRedistributionWithOpenPurchaseOrders),
});

export const StockNotForReplenishment = Entity('StockNotForReplenishment', ['locationId', 'skuId'], {
  locationId: Id('Location holding the stock (usually a warehouse).'),
  skuId: Id('The SKU.'),
  quantity: Quantity('Units that must not be used for replenishment.'),
});

export const StockTarget = Entity('StockTarget', ['locationId', 'skuId'], {
  locationId: Id('The location.'),
  skuId: Id('The SKU.'),
  targetQuantity: Quantity("Target stock; overrides the engine's own target."),
  minimumQuantity: Opt(Quantity('Never plan below this.')),
  maximumQuantity: Opt(Quantity('Never plan above this.')),
});

export const TRANSFER_TYPES = ['InitialDistribution', 'Replenishment', 'Redistribution'] as const;
export const TransferType = Type.Union(
  TRANSFER_TYPES.map((t) => Type.Literal(t)),
  { description: 'Kind of transfer.' },
);

/** A transfer the client carried out or planned itself (stock in transit for the engine). */
export const ClientTransfer = Entity('Transfer', ['transferId'], {
  transferId: Id('Unique across all client transfers.'),
  fromLocationId: Id('Location the stock leaves.'),
  toLocationId: Id('Location the stock goes to.'),
  skuId: Id('The SKU.'),
  quantity: Quantity('Units moved.'),
  referenceId: Opt(Id('referenceId of the recommended transfer this one carries out, if any.')),
  transferType: Opt(TransferType),
  shippedDateTime: Opt(DateTime('When the stock left.')),
  expectedArrivalDateTime: Opt(DateTime('When the stock is expected at the destination.')),
  received: Opt(Bool('True once the destination has received the stock.')),
  plannedDispatchDate: Opt(DateOnly('Dispatch date (YYYY-MM-DD).')),
  description: Opt(Str(LIMITS.freeText, 'Free text.')),
});

export type MerchandiseCategorySetting = Static<typeof MerchandiseCategorySetting>;
export type StockTarget = Static<typeof StockTarget>;
export type ClientTransfer = Static<typeof ClientTransfer>;
