/**
 * The mapping step's guesses from a spreadsheet export's headers (engine/ingest/csv/guess.ts): proposed, never
 * applied by a load on their own; and the levels named as a person reads them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewCsv } from '../engine/service/file-load.js';
import { LEVEL_CHOICES } from '../engine/ingest/csv/preview.js';

const EXPORT = readFileSync(join(process.cwd(), 'test', 'fixtures', 'csv', 'export', 'Sales-export.csv'), 'utf8');
const file = { name: 'Sales-export.csv', text: EXPORT };

describe("guesses from an export's headers", () => {
  it('guess what the file holds when neither its name nor its fields tell, and apply nothing', async () => {
    const [preview] = (await previewCsv([file])).files;
    expect(preview.level).toBeUndefined();
    expect(preview.guessedLevel).toBe('Sales.salesLines');
  });

  it("guess each obvious column's field, one column a field, and leave the rest to the user", async () => {
    const [preview] = (await previewCsv([file], { mapping: { 'Sales-export.csv': { level: 'Sales.salesLines' } } }))
      .files;
    expect(Object.fromEntries(preview.guesses.map((g) => [g.header, g.target]))).toEqual({
      Invoice: 'Sales.salesId',
      'Line ID': 'salesLineId',
      Line: 'lineNumber',
      StockCode: 'skuId',
      Quantity: 'quantitySold',
      InvoiceDate: 'Sales.salesDateTime',
      Amount: 'salesAmountInclVat',
      VAT: 'vatPercentage',
      Store: 'Sales.locationId',
      Web: 'online',
      Currency: 'Sales.currencyCode',
    });
    // Proposed, not applied: the columns still load into nothing until a mapping says so.
    expect(preview.columns.every((c) => c === null)).toBe(true);
  });

  it('guess nothing for a column the mapping names, or whose field another column already fills', async () => {
    const mapping = { 'Sales-export.csv': { level: 'Sales.salesLines', columns: { Quantity: null, Store: 'skuId' } } };
    const [preview] = (await previewCsv([file], { mapping })).files;
    const guessed = preview.guesses.map((g) => g.header);
    expect(guessed).not.toContain('Quantity');
    expect(guessed).not.toContain('Store');
    // skuId is the Store column's, by the mapping: StockCode is not guessed into it too.
    expect(guessed).not.toContain('StockCode');
  });
});

describe('levels in words', () => {
  it('read as a person says them', () => {
    const label = (id: string) => LEVEL_CHOICES.find((l) => l.id === id)!.label;
    expect(label('UnitOfMeasures')).toBe('Units of measure: one row per unit of measure');
    expect(label('ExcludedSkus')).toBe('Excluded SKUs: one row per excluded SKU');
    expect(label('Images/urls')).toBe('Image URLs: one row per image URL');
    expect(label('Items.skus')).toBe('Items: one row per SKU');
  });
});
