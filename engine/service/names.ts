/**
 * The business names an analyst reads beside the ids: a location's name and kind, a style's description, colour and
 * merchandise category, and the workspace's currency. One query each, read whenever the screens or the command
 * line show ids, so a name sent later shows at once.
 */
import type { LocationKind } from '../recommend/settings.js';
import type { Workspace } from '../store/workspace.js';

export interface LocationName {
  id: string;
  name?: string;
  city?: string;
  /** What its last year of sales makes it (the rule a run uses). */
  kind: LocationKind;
}

export interface StyleName {
  id: string;
  /** Its item's description. */
  description?: string;
  /** Its colour's description, else its colorId. */
  color?: string;
  categoryId?: string;
  /** The category's description, else its code. */
  category?: string;
}

export interface BusinessNames {
  /** The code values are written in: the one currency the workspace's Currencies hold, else most sales' own. */
  currency?: string;
  locations: LocationName[];
  styles: StyleName[];
  categories: { id: string; name: string }[];
}

/** The workspace's currency code (`LOCAL`, `EUR`), or undefined while it holds neither currencies nor sales. */
export async function workspaceCurrency(ws: Workspace): Promise<string | undefined> {
  const [row] = await ws.rows<{ code: string | null }>(
    `SELECT coalesce(
       (SELECT any_value(code) FROM currencies WHERE _deleted_at IS NULL HAVING count(*) = 1),
       (SELECT mode(currencyCode) FROM sales WHERE _deleted_at IS NULL)) AS code`,
  );
  return row?.code ?? undefined;
}

const orUndefined = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

/** Every live location and style with its names; `kinds` are the locations' kinds as the data gives them. */
export async function businessNames(ws: Workspace, kinds: Map<string, LocationKind>): Promise<BusinessNames> {
  const locations = await ws.rows<{ id: string; name: string | null; city: string | null }>(
    `SELECT locationId AS id, name, city FROM locations WHERE _deleted_at IS NULL ORDER BY locationId`,
  );
  // A style is one item in one colour: the first SKU of it names the item, the colour and the category.
  const styles = await ws.rows<{
    id: string;
    description: string | null;
    color: string | null;
    categoryId: string | null;
    category: string | null;
  }>(
    `SELECT DISTINCT ON (s.styleId) s.styleId AS id, i.description,
            coalesce(c.description, s.colorId) AS color, i.merchandiseCategoryId AS categoryId,
            coalesce(m.description, m.code) AS category
     FROM items__skus AS s JOIN items AS i ON i.itemId = s._itemId AND i._deleted_at IS NULL
     LEFT JOIN colors AS c ON c.colorId = s.colorId AND c._deleted_at IS NULL
     LEFT JOIN merchandise_categories AS m
       ON m.merchandiseCategoryId = i.merchandiseCategoryId AND m._deleted_at IS NULL
     WHERE s.styleId IS NOT NULL
     ORDER BY s.styleId, i.itemId, s.skuId`,
  );
  const categories = await ws.rows<{ id: string; name: string }>(
    `SELECT merchandiseCategoryId AS id, coalesce(description, code, merchandiseCategoryId) AS name
     FROM merchandise_categories WHERE _deleted_at IS NULL ORDER BY code, merchandiseCategoryId`,
  );
  return {
    currency: await workspaceCurrency(ws),
    locations: locations.map((l) => ({
      id: l.id,
      name: orUndefined(l.name),
      city: orUndefined(l.city),
      kind: kinds.get(l.id) ?? 'warehouse',
    })),
    styles: styles.map((s) => ({
      id: s.id,
      description: orUndefined(s.description),
      color: orUndefined(s.color),
      categoryId: orUndefined(s.categoryId),
      category: orUndefined(s.category),
    })),
    categories,
  };
}
