import { Type, type Static } from '@sinclair/typebox';
import { Code, DateTime, Decimal, Entity, Id, Integer, Opt, Str } from './fields.js';

/** A stock level at a moment: dated snapshots form the stock history (docs/design.md §3). */
export const StockLevel = Entity('StockLevel', ['locationId', 'skuId', 'stockDateTime'], {
  locationId: Id('Location holding the stock.'),
  skuId: Id('The SKU.'),
  quantity: Decimal('On-hand quantity at stockDateTime. May be negative where the source system allows it.'),
  stockDateTime: Opt(DateTime('Moment of the level; default: the time the call is received.')),
});

/** A signed stock delta (receipt, correction, shrinkage, transfer in or out). */
export const StockMutation = Entity('StockMutation', ['stockMutationId'], {
  stockMutationId: Id('Unique across all stock mutations.'),
  locationId: Id('Location whose stock changed.'),
  skuId: Id('The SKU.'),
  quantity: Decimal('Signed change of on-hand stock.'),
  mutationDateTime: DateTime('When the change took place.'),
  type: Opt(Str(60, 'Kind of mutation, free text (for example receipt, correction, shrinkage).')),
});

export const PrepackComponent = Entity('PrepackComponent', ['skuId'], {
  skuId: Id('A SKU contained in the prepack.'),
  quantity: Integer('Units of that SKU in one prepack.', 1),
});

/** A prepack: a SKU (sent with its item) that bundles fixed quantities of other SKUs. */
export const Prepack = Entity('Prepack', ['skuId'], {
  skuId: Id('The prepack SKU, as sent with its item to POST /Items.'),
  code: Code(),
  components: Type.Array(PrepackComponent, { minItems: 1, description: 'The SKUs and quantities in one prepack.' }),
});

export type StockLevel = Static<typeof StockLevel>;
export type StockMutation = Static<typeof StockMutation>;
export type Prepack = Static<typeof Prepack>;
