import { Type, type Static } from '@sinclair/typebox';
import {
  Bool,
  Code,
  DateTime,
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

export const PurchaseOrderLine = Entity('PurchaseOrderLine', ['purchaseOrderLineId'], {
  purchaseOrderLineId: Id(
    'Unique across all purchase orders; a bare line number does not work. Combine the order id and the line number.',
  ),
  lineNumber: Integer('Line number.'),
  skuId: Id('Must match a skuId sent to POST /Items.'),
  quantity: Quantity('Quantity ordered from the vendor.'),
  quantityOutstanding: Quantity('Quantity still to be received (ordered minus received).'),
  quantityToReceive: Quantity('To be deprecated but still required; default: the value of quantityOutstanding.'),
  unitCostLocalCurrency: Decimal('Cost price in local currency.', { minimum: 0 }),
  vatPercentage: Opt(Percentage('VAT percentage of the line.')),
  plannedReceiptDate: DateTime('Expected arrival of this SKU.'),
});

export const PurchaseOrder = Entity('PurchaseOrder', ['purchaseOrderId'], {
  purchaseOrderId: Id('Unique across all purchase orders.'),
  code: Code(),
  collectionId: Opt(Id('Collection it belongs to.')),
  seasonId: Opt(Id('Season it belongs to.')),
  vendorId: Opt(Id('Must match an id sent to POST /Vendors.')),
  locationId: Opt(Id('Delivery location; must match an id sent to POST /Locations.')),
  currencyId: Opt(
    Str(LIMITS.id, 'To be deprecated: the fixed value "local". Either currencyId or currencyCode is required.'),
  ),
  currencyCode: Opt(Str(LIMITS.id, "Accepted in place of currencyId, as in the spec's sample body.")),
  completelyReceived: Bool('True means no further shipments are expected.'),
  orderDate: DateTime('Creation date of the order.'),
  orderDueDate: DateTime('Expected receipt date; decides whether the order is shown.'),
  purchaseOrderLines: Opt(Type.Array(PurchaseOrderLine, { description: 'Lines of the order.' })),
});

export type PurchaseOrder = Static<typeof PurchaseOrder>;
export type PurchaseOrderLine = Static<typeof PurchaseOrderLine>;
