/**
 * Required fields the specification gives a default, and where a file load takes it from when a file has no column
 * for the field: every row's own value of another field, or a constant. A call to the API still sends each of them,
 * as the specification requires; a spreadsheet export seldom has them, and refusing it for a value the
 * specification already knows would only make a user invent the column. docs/design.md §8.15 records why.
 */
import type { Static, TObject } from '@sinclair/typebox';
import { SalesLine } from './sales.js';
import { PurchaseOrderLine } from './purchase-orders.js';

/** Where a missing field's value comes from: another field of the same record, or a constant. */
export type FieldDefault = { from: string; why: string } | { value: number; why: string };

type Rules<T extends TObject> = {
  [K in keyof Static<T> & string]?:
    { from: Exclude<keyof Static<T> & string, K>; why: string } | { value: number; why: string };
};

const table = new WeakMap<TObject, Record<string, FieldDefault>>();
/** Field names are checked against the record's type: a renamed field breaks the build, not a load. */
function rules<T extends TObject>(entity: T, fields: Rules<T>): void {
  table.set(entity, fields as Record<string, FieldDefault>);
}

rules(SalesLine, {
  originalSalesAmountInclVat: {
    from: 'salesAmountInclVat',
    why: 'the price before discounts; without it, the amount after them is the best known',
  },
  quantityTransferred: { from: 'quantitySold', why: 'the specification: "Default: same as quantitySold"' },
  quantityCancelled: { value: 0, why: 'the specification: "Default: 0"' },
});

rules(PurchaseOrderLine, {
  quantityToReceive: {
    from: 'quantityOutstanding',
    why: 'the specification: "default: the value of quantityOutstanding"',
  },
});

/** The default of a record's field, if the specification gives one. */
export function fieldDefault(entity: TObject, field: string): FieldDefault | undefined {
  return table.get(entity)?.[field];
}
