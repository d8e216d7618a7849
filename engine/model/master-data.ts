import { type Static, type TObject } from '@sinclair/typebox';
import { Code, Description, Entity, Id, Opt } from './fields.js';

/** The master-data endpoints: `{<singular>Id, code, description?}` each (docs/design.md §3). */
export const MASTER_DATA = [
  ['Brands', 'brandId', 'Brand'],
  ['Collections', 'collectionId', 'Collection'],
  ['Colors', 'colorId', 'Color'],
  ['MerchandiseCategories', 'merchandiseCategoryId', 'MerchandiseCategory'],
  ['Seasons', 'seasonId', 'Season'],
  ['Sizes', 'sizeId', 'Size'],
  ['Themes', 'themeId', 'Theme'],
  ['Vendors', 'vendorId', 'Vendor'],
  ['Categories', 'categoryId', 'Category'],
  ['Materials', 'materialId', 'Material'],
  ['MerchandiseCategoryLevels', 'merchandiseCategoryLevelId', 'MerchandiseCategoryLevel'],
  ['UnitOfMeasures', 'unitOfMeasureId', 'UnitOfMeasure'],
  ['Currencies', 'currencyId', 'Currency'],
  ['DiscountReasons', 'discountReasonId', 'DiscountReason'],
  ['SaleDiscountCodes', 'saleDiscountCodeId', 'SaleDiscountCode'],
] as const;

export type MasterDataName = (typeof MASTER_DATA)[number][0];

export function masterDataRecord(idField: string, title: string): TObject {
  return Entity(title, [idField], {
    [idField]: Id(`Unique across all ${title} records; the id other records refer to.`),
    code: Code(),
    description: Opt(Description()),
  });
}

const _example = masterDataRecord('brandId', 'Brand');
export type MasterDataRecord = Static<typeof _example> & Record<string, unknown>;
