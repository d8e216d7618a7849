/**
 * What a retailer's spreadsheet export most likely means by its headers: `Quantity` the quantity sold, `Store` the
 * location, `VAT` the VAT percentage. The mapping step proposes these as guesses, marked as such, for the user to
 * keep or change; a load never applies a guess on its own (a command-line load maps by the fields' own names, and
 * whatever a mapping file says).
 */
import type { FileMapping } from './mapping-file.js';
import { CSV_LEVELS, normalizeName, type CsvLevel, type CsvTarget } from './levels.js';
import { proposeTarget } from './mapping.js';

/** A field by the headers exports give it, lower case letters and digits only (as `normalizeName` leaves them). */
const WORDS: Record<string, string[]> = {
  salesId: ['invoice', 'invoiceno', 'invoicenumber', 'receipt', 'receiptno', 'receiptnumber', 'ticket', 'ticketno'],
  salesLineId: ['lineid', 'invoicelineid', 'receiptlineid'],
  lineNumber: ['line', 'lineno', 'linenr'],
  salesDateTime: ['invoicedate', 'receiptdate', 'saledate', 'salesdate', 'date', 'datetime', 'timestamp'],
  skuId: ['stockcode', 'sku', 'skucode', 'article', 'articleno', 'articlenumber', 'productcode'],
  quantitySold: ['quantity', 'qty', 'units', 'unitssold', 'pieces', 'pcs'],
  salesAmountInclVat: ['amount', 'lineamount', 'linetotal', 'total', 'revenue', 'turnover'],
  originalSalesAmountInclVat: ['originalamount', 'grossamount', 'listamount'],
  vatPercentage: ['vat', 'vatrate', 'vatpct', 'vatpercent', 'tax', 'taxrate', 'btw'],
  locationId: ['store', 'storeid', 'storeno', 'storenumber', 'shop', 'shopid', 'branch', 'location', 'site'],
  currencyCode: ['currency', 'cur', 'curr'],
  online: ['web', 'webshop', 'ecommerce', 'isonline', 'onlinesale'],
  costPrice: ['cost', 'costprice', 'unitcost', 'purchaseprice'],
  quantity: ['qty', 'quantity', 'onhand', 'stock', 'units'],
  stockDateTime: ['date', 'stockdate', 'countdate', 'datetime'],
  description: ['name', 'productname', 'title'],
  colorId: ['colour', 'color', 'colourcode', 'colorcode'],
  sizeId: ['size', 'sizecode'],
};

/** The header's field by the words above: the file's own level's field first, then its parents', nearest first. */
function byWords(level: CsvLevel, header: string): CsvTarget | undefined {
  const word = normalizeName(header);
  const fields = Object.keys(WORDS).filter((f) => WORDS[f].includes(word));
  // Targets come the level's own first: the first one named is the nearest.
  return level.targets.find((t) => fields.includes(t.field));
}

/**
 * The fields a file's headers most likely mean that nothing maps yet: per header the mapping does not name and its
 * own name proposes nothing for, the target its words guess, unless another column already goes there.
 */
export function guessColumns(
  level: CsvLevel,
  headers: readonly string[],
  mapped: readonly CsvTarget[][],
  mapping: FileMapping,
): { header: string; target: string }[] {
  const taken = new Set(mapped.flat());
  const out: { header: string; target: string }[] = [];
  headers.forEach((header, i) => {
    if (mapped[i].length > 0 || Object.hasOwn(mapping.columns ?? {}, header)) return;
    const t = byWords(level, header);
    if (!t || taken.has(t)) return;
    taken.add(t);
    out.push({ header, target: t.id });
  });
  return out;
}

/**
 * The level a file most likely holds when neither its name nor its fields' own names tell: the one whose key (and
 * its parent's) the headers give, by name or by the words above, with the most columns used; none on a tie.
 */
export function guessLevel(headers: readonly string[]): CsvLevel | undefined {
  const scored = CSV_LEVELS.map((level) => {
    const targets = new Set(
      headers.map((h) => proposeTarget(level, h) ?? byWords(level, h)).filter((t) => t !== undefined),
    );
    const own = level.path.length - 1;
    const placed = level.targets
      .filter((t) => (t.depth === own || t.depth === own - 1) && t.key && t.required)
      .every((t) => targets.has(t));
    return { level, used: placed ? targets.size : 0 };
  })
    .filter((s) => s.used > 0)
    .sort((a, b) => b.used - a.used);
  const [first, second] = scored;
  return first && (!second || second.used < first.used) ? first.level : undefined;
}
