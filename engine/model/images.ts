import { type Static } from '@sinclair/typebox';
import { Entity, Id, Integer, LIMITS, Opt, Str } from './fields.js';

/** An image sent as data. The spec shows no shape (docs/design.md §3): stored, never interpreted. */
export const Image = Entity('Image', ['imageId'], {
  imageId: Id('Unique across all images.'),
  itemId: Opt(Id('Item the image shows.')),
  styleId: Opt(Id('Style the image shows.')),
  fileName: Opt(Str(255, 'Original file name.')),
  contentType: Opt(Str(100, 'Media type, e.g. image/jpeg.')),
  data: Opt(Str(16 * 1024 * 1024, 'The image, base64-encoded.')),
});

/** An image location by URL; the workbench stores it and never fetches it. */
export const ImageUrl = Entity('ImageUrl', ['styleId', 'url'], {
  styleId: Id('Style the image shows.'),
  url: Str(LIMITS.url, 'Where the image is; never fetched.'),
  itemId: Opt(Id('Item the image shows.')),
  sortOrder: Opt(Integer("Position among the style's images.")),
});

export type Image = Static<typeof Image>;
export type ImageUrl = Static<typeof ImageUrl>;
