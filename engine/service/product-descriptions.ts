/**
 * Product descriptions and tags for GET /Recommendations/productDescriptions and …/tags. The live service writes
 * them with its own models; a rehearsal only needs answers of the same kind that follow from the data sent, so
 * these are put together from the workspace, deterministically: one description per style (an item in one
 * colour), in words made of the item's description, colour, brand, category, sizes and attributes, and its tags.
 */
import { Type, type Static } from '@sinclair/typebox';
import { getDataset } from '../model/datasets.js';
import type { JsonRecord } from '../model/fields.js';
import { readRecords } from '../store/read.js';
import type { Workspace } from '../store/workspace.js';

export const ProductTagSchema = Type.Object(
  {
    key: Type.String({
      description: 'What the tag says: brand, category, color, season, collection, theme, size, or an attribute key.',
    }),
    value: Type.String({ description: "The master record's description (else its code), or the attribute's value." }),
  },
  { title: 'ProductTag' },
);

export const ProductDescriptionSchema = Type.Object(
  {
    itemId: Type.String(),
    styleId: Type.String(),
    title: Type.String({ description: 'The item\'s name and colour, e.g. "Slim tee, Red".' }),
    description: Type.String({
      description: 'Name, colour, brand, category, sizes and attributes, in sentences, always in that order.',
    }),
    tags: Type.Array(ProductTagSchema),
  },
  { title: 'ProductDescription', description: 'One per style (an item in one colour), made from the data sent.' },
);

export type ProductTag = Static<typeof ProductTagSchema>;
export type ProductDescription = Static<typeof ProductDescriptionSchema>;

export const ProductTagCountSchema = Type.Composite(
  [ProductTagSchema, Type.Object({ styles: Type.Integer({ description: 'How many styles carry the tag.' }) })],
  { title: 'ProductTagCount' },
);

/** The master data a description names, by the field that refers to it: what each id is called. */
const NAMED = [
  ['brandId', 'Brands', 'brand'],
  ['merchandiseCategoryId', 'MerchandiseCategories', 'category'],
  ['colorId', 'Colors', 'color'],
  ['seasonId', 'Seasons', 'season'],
  ['collectionId', 'Collections', 'collection'],
  ['themeId', 'Themes', 'theme'],
  ['sizeId', 'Sizes', 'size'],
] as const;

type Names = Map<string, Map<string, string>>;

/** A master record's words: its description, else its code, else the id it was referred to by. */
async function names(ws: Workspace): Promise<Names> {
  const out: Names = new Map();
  for (const [field, dataset] of NAMED) {
    const records = await readRecords(ws, getDataset(dataset));
    out.set(field, new Map(records.map((r) => [String(r[field]), String(r.description ?? r.code ?? r[field])])));
  }
  return out;
}

const nameOf = (n: Names, field: string, id: unknown) =>
  typeof id === 'string' ? (n.get(field)!.get(id) ?? id) : undefined;

/** Every live style's description, in item and style order. */
export async function productDescriptions(ws: Workspace): Promise<ProductDescription[]> {
  const n = await names(ws);
  const out: ProductDescription[] = [];
  for (const item of await readRecords(ws, getDataset('Items'))) {
    const skus = (item.skus as JsonRecord[] | undefined) ?? [];
    const styles = [...new Set(skus.map((s) => String(s.styleId)))];
    for (const styleId of styles)
      out.push(
        describe(
          n,
          item,
          styleId,
          skus.filter((s) => s.styleId === styleId),
        ),
      );
  }
  return out;
}

function describe(n: Names, item: JsonRecord, styleId: string, skus: JsonRecord[]): ProductDescription {
  const first = skus[0];
  // A SKU's brand, season, collection and theme override the item's (the spec's Sku fields).
  const value = (field: string) => nameOf(n, field, first[field] ?? item[field]);
  const name = String(item.description ?? item.code);
  const color = value('colorId');
  const brand = value('brandId');
  const category = value('merchandiseCategoryId');
  const sizes = [...new Set(skus.map((s) => nameOf(n, 'sizeId', s.sizeId)!))];
  const attributes = [
    ...((item.attributes as JsonRecord[] | undefined) ?? []),
    ...((item.styleAttributes as JsonRecord[] | undefined) ?? []).filter((a) => a.styleId === styleId),
  ].map((a) => ({ key: String(a.key), value: String(a.value) }));

  const sentences = [
    `${name}${color ? ` in ${color}` : ''}${brand ? `, by ${brand}` : ''}.`,
    ...(category ? [`${category}.`] : []),
    `${sizes.length === 1 ? 'Size' : 'Sizes'} ${sizes.join(', ')}.`,
    ...attributes.map((a) => `${a.key[0].toUpperCase()}${a.key.slice(1)}: ${a.value}.`),
  ];
  const tags: ProductTag[] = [];
  for (const [field, , key] of NAMED) {
    if (field === 'sizeId') continue;
    const v = value(field);
    if (v !== undefined) tags.push({ key, value: v });
  }
  for (const size of sizes) tags.push({ key: 'size', value: size });
  tags.push(...attributes);
  return {
    itemId: String(item.itemId),
    styleId,
    title: color ? `${name}, ${color}` : name,
    description: sentences.join(' '),
    tags,
  };
}

/** The tags the descriptions use, each with how many styles carry it, by key and value. */
export function tagsOf(descriptions: readonly ProductDescription[]): Static<typeof ProductTagCountSchema>[] {
  const counts = new Map<string, ProductTag & { styles: number }>();
  for (const d of descriptions) {
    for (const t of new Map(d.tags.map((x) => [`${x.key}\u0000${x.value}`, x])).values()) {
      const k = `${t.key}\u0000${t.value}`;
      const seen = counts.get(k);
      if (seen) seen.styles++;
      else counts.set(k, { ...t, styles: 1 });
    }
  }
  return [...counts.values()].sort((a, b) =>
    a.key !== b.key ? (a.key < b.key ? -1 : 1) : a.value < b.value ? -1 : a.value > b.value ? 1 : 0,
  );
}

/** A page of a list as the recommendation endpoints answer it. */
export function pageOf<K extends string, T>(key: K, all: readonly T[], query: { offset: number; limit: number }) {
  const page = all.slice(query.offset, query.offset + query.limit);
  return {
    [key]: page,
    offset: query.offset,
    limit: query.limit,
    moreRecordsAvailable: query.offset + page.length < all.length,
  } as { [k in K]: T[] } & { offset: number; limit: number; moreRecordsAvailable: boolean };
}
