import { Type, type Static } from '@sinclair/typebox';
import { Bool, DateTime, Decimal, Entity, Id, Integer, LIMITS, Opt, Percentage, Str } from './fields.js';

export const SalesLine = Entity(
  'SalesLine',
  ['salesLineId'],
  {
    salesLineId: Id(
      'Unique across all sales lines; without one, combine salesId and line number with "-" or "_". ' +
        'Sent later under another sale, the line moves to that sale (a warning says so).',
    ),
    skuId: Id('Must match a skuId sent to POST /Items.'),
    lineNumber: Integer('Need not be unique across sales.'),
    originalSalesAmountInclVat: Decimal('Price before discounts, including VAT. Negative for a return.'),
    salesAmountInclVat: Decimal('Price after discounts, including VAT. Negative for a return.'),
    vatPercentage: Percentage('Sales tax percentage (0 if unknown).'),
    costPrice: Opt(Decimal('Unit cost price paid by the retailer; stays positive on returns.')),
    online: Bool('True if the sale came from an online channel.'),
    quantitySold: Decimal('Number of pieces. Negative on returns.'),
    quantityTransferred: Decimal('To be deprecated but still required; default: the same as quantitySold.'),
    quantityCancelled: Decimal('To be deprecated but still required; default: 0.'),
  },
  { 'x-unique': 'dataset' },
);

export const Sale = Entity('Sale', ['salesId'], {
  salesId: Id('Unique across all sales. Resend with the same id to update.'),
  code: Opt(Str(LIMITS.saleCode, 'Business key of the sale.')),
  salesDateTime: DateTime('When the sale took place.'),
  currencyCode: Str(LIMITS.id, 'To be deprecated but still required: the fixed value LOCAL.'),
  locationId: Id('Must match an id sent to POST /Locations.'),
  salesLines: Type.Array(SalesLine, { description: 'Lines of the sale.' }),
});

export type Sale = Static<typeof Sale>;
export type SalesLine = Static<typeof SalesLine>;
