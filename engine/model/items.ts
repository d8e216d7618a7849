import { Type, type Static } from '@sinclair/typebox';
import { Bool, Code, Description, Entity, Id, LIMITS, Opt, Str } from './fields.js';

export const Barcode = Entity('Barcode', ['barcodeId'], {
  barcodeId: Id('Unique across all barcodes.'),
  code: Code('The barcode value.'),
  isPrimary: Opt(
    Bool('Marks the primary barcode; a global standard barcode on the label is primary over an internal one.'),
  ),
});

export const Attribute = Entity('Attribute', ['attributeId'], {
  attributeId: Id(
    'Unique across all attributes; without one, combine the item code or id with the key, separated by "-".',
  ),
  key: Str(LIMITS.attributeKey, 'Attribute name.'),
  value: Str(LIMITS.attributeValue, 'Attribute value.'),
});

export const StyleAttribute = Entity('StyleAttribute', ['styleAttributeId'], {
  styleAttributeId: Id('Unique across all style attributes; without one, combine styleId with key, separated by "-".'),
  key: Str(LIMITS.attributeKey, 'Attribute name, for example a target customer segment.'),
  value: Str(LIMITS.attributeValue, 'Attribute value.'),
  styleId: Id('The style the attribute belongs to; equals the styleId given on the SKUs.'),
});

export const Sku = Entity(
  'Sku',
  ['skuId'],
  {
    skuId: Id(
      'Unique across all SKUs; used by sales, stock and purchase orders. Avoid using a barcode. ' +
        'Sent later under another item, the SKU moves to that item (a warning says so).',
    ),
    code: Code(),
    colorId: Id('Must match an id sent to POST /Colors.'),
    sizeId: Id('Must match an id sent to POST /Sizes.'),
    styleId: Id('Groups SKUs into a style (the item in one color).'),
    themeId: Opt(Id('Overrides the item value.')),
    brandId: Opt(Id('Overrides the item value.')),
    seasonId: Opt(Id('Overrides the item value.')),
    collectionId: Opt(Id('Overrides the item value.')),
    barcodes: Opt(Type.Array(Barcode, { description: 'Several barcodes per SKU are allowed.' })),
  },
  { 'x-unique': 'dataset' },
);

export const Item = Entity('Item', ['itemId'], {
  itemId: Id('Unique across all items. Resend with the same id to update.'),
  code: Code(),
  description: Opt(Description('Name of the item (highly preferred).')),
  themeId: Opt(Id('Must match an id sent to POST /Themes.')),
  brandId: Opt(Id('Must match an id sent to POST /Brands.')),
  seasonId: Opt(Id('Must match an id sent to POST /Seasons.')),
  collectionId: Opt(Id('Must match an id sent to POST /Collections.')),
  merchandiseCategoryId: Id('Must match an id sent to POST /MerchandiseCategories; gives the product type.'),
  attributes: Opt(Type.Array(Attribute, { description: 'Custom attributes of the item.' })),
  styleAttributes: Opt(Type.Array(StyleAttribute, { description: 'Custom attributes per style.' })),
  skus: Opt(Type.Array(Sku, { description: 'One entry per SKU, including prepack SKUs.' })),
});

export type Item = Static<typeof Item>;
export type Sku = Static<typeof Sku>;
