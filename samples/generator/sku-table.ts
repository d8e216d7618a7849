/**
 * The catalogue's SKU columns, filled style by style in id order. Both catalogue builders (fashion and continuity)
 * write their SKUs here, so an SKU's id, code, presentation minimum and barcodes are made one way.
 */
import { gs1 } from './gs1.js';
import type { Random } from './rng.js';

/** What the table reads of the item and the style an SKU belongs to. */
interface ItemKey {
  itemId: string;
  code: string;
}
interface StyleKey {
  index: number;
  colorId: string;
  colorCode: string;
}

export class SkuTable {
  readonly ids: string[] = [];
  readonly codes: string[] = [];
  readonly sizeIds: string[] = [];
  readonly colorIds: string[] = [];
  readonly barcodes: string[][] = [];
  private readonly styleOf: number[] = [];
  readonly shares: number[] = [];
  private readonly presentation: number[] = [];

  get size(): number {
    return this.ids.length;
  }

  /** A style's size run; `shares[i]` is size i's share of the style's demand. Draws each SKU's barcodes from `rng`. */
  addStyle(item: ItemKey, style: StyleKey, sizes: readonly string[], shares: readonly number[], rng: Random): void {
    sizes.forEach((sizeId, si) => {
      const sizeCode = sizeId.replace(/^SZ-(EU|D)?/, '');
      this.barcodes.push(barcodesOf(this.ids.length, rng));
      this.ids.push(`${item.itemId}-${style.colorCode}-${sizeCode}`);
      this.codes.push(`${item.code}-${style.colorCode}-${sizeCode}`);
      this.sizeIds.push(sizeId);
      this.colorIds.push(style.colorId);
      this.styleOf.push(style.index);
      this.shares.push(shares[si]);
      // A one-size style, or a size that sells a good share of its style, is presented with two units.
      this.presentation.push(sizes.length === 1 || shares[si] >= 0.18 ? 2 : 1);
    });
  }

  /** The columns as the catalogue holds them. */
  columns() {
    return {
      skuIds: this.ids,
      skuCodes: this.codes,
      skuSizeIds: this.sizeIds,
      skuColorIds: this.colorIds,
      skuBarcodes: this.barcodes,
      skuStyle: Int32Array.from(this.styleOf),
      skuShare: Float64Array.from(this.shares),
      skuPresentation: Int32Array.from(this.presentation),
    };
  }
}

/** A GS1 EAN-13 on the label; some SKUs also carry an in-store code (prefix 2, for internal use). */
export function barcodesOf(sku: number, rng: Random): string[] {
  const barcodes = [gs1(`871234${String(sku + 1).padStart(6, '0')}`)];
  if (rng.chance(0.3)) barcodes.push(gs1(`20${String(sku + 1).padStart(10, '0')}`));
  return barcodes;
}
