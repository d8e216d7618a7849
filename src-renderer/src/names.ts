/**
 * The business names beside the ids on every screen: a store by its name ("ST-005 · Nordvik Ede"), a style by its
 * description and colour, with its category, read once per workspace (`GET /names`) and again after data comes in.
 */
import type { BusinessNames } from '../../common/api-types';

export type { BusinessNames };

export interface Names {
  /** The workspace's currency code, for values. */
  currency?: string;
  /** "ST-005 · Nordvik Ede", or the id alone while no name is known. */
  location(id: string): string;
  /** The words beside the id alone: "Nordvik Ede", "Basic tee, White"; '' while none are known. */
  words(level: 'location' | 'style', id: string): string;
  /** "TEE-100-WHT · Basic tee, White", or the id alone. */
  style(id: string): string;
  /** The style's category's name, if it has one. */
  styleCategory(id: string): string | undefined;
  styleCategoryId(id: string): string | undefined;
  /** What the data makes a location: store, warehouse or online. */
  locationKind(id: string): string | undefined;
  categories: BusinessNames['categories'];
}

const said = (id: string, words: (string | undefined)[]) =>
  words.filter((w): w is string => !!w && w !== id).join(', ');
const join = (id: string, words: string) => (words ? `${id} · ${words}` : id);

/** Look-ups over the names as read; ids without a name read as themselves. */
export function namesOf(read?: BusinessNames): Names {
  const locations = new Map(read?.locations.map((l) => [l.id, l]));
  const styles = new Map(read?.styles.map((s) => [s.id, s]));
  const locationWords = (id: string) => said(id, [locations.get(id)?.name]);
  const styleWords = (id: string) => said(id, [styles.get(id)?.description, styles.get(id)?.color]);
  return {
    currency: read?.currency,
    location: (id) => join(id, locationWords(id)),
    style: (id) => join(id, styleWords(id)),
    words: (level, id) => (level === 'location' ? locationWords(id) : styleWords(id)),
    styleCategory: (id) => styles.get(id)?.category,
    styleCategoryId: (id) => styles.get(id)?.categoryId,
    locationKind: (id) => locations.get(id)?.kind,
    categories: read?.categories ?? [],
  };
}
