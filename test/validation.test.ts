import { describe, expect, it } from 'vitest';
import { DATASETS, getDataset } from '../engine/model/datasets.js';
import { MAX_MAGNITUDE } from '../engine/model/fields.js';
import { parseIsoMicros } from '../engine/model/datetime.js';
import { MAX_COUNTED_ERRORS, MAX_LISTED_ERRORS, validateBatch } from '../engine/ingest/validate.js';
import { ValidationFailed } from '../engine/model/problems.js';
import { item, purchaseOrder, sale, salesLine, sku, validRecords, type Rec } from './fixtures.js';
import { setAt, sitesIn } from './schema-sites.js';

/** Bodies go through JSON as a request's would: an undefined field is an absent one. */
function errorsOf(dataset: string, body: unknown, mode: 'upsert' | 'delete' = 'upsert') {
  try {
    validateBatch(getDataset(dataset), body === undefined ? body : JSON.parse(JSON.stringify(body)), mode);
  } catch (e) {
    if (e instanceof ValidationFailed) return e.errors;
    throw e;
  }
  return [];
}

const body = (dataset: string, records: Rec[]) => ({ [getDataset(dataset).envelope]: records });

const pointer = (dataset: string, path: (string | number)[]) => `/${getDataset(dataset).envelope}/0/${path.join('/')}`;

describe('every dataset schema', () => {
  const valid = validRecords();

  it('has a valid fixture for every dataset', () => {
    for (const d of DATASETS) expect(errorsOf(d.name, body(d.name, [valid[d.name]])), d.name).toEqual([]);
  });

  for (const d of DATASETS) {
    const fieldSites = sitesIn(d.record, valid[d.name]);

    it(`${d.name}: enforces every max length`, () => {
      const limited = fieldSites.filter(
        (s) => s.schema.type === 'string' && s.schema.maxLength !== undefined && !s.schema.format,
      );
      expect(limited.length).toBeGreaterThan(0);
      for (const s of limited) {
        const max = s.schema.maxLength as number;
        expect(
          errorsOf(d.name, body(d.name, [setAt(valid[d.name], s.path, 'x'.repeat(max))])),
          s.path.join('.'),
        ).toEqual([]);
        const errors = errorsOf(d.name, body(d.name, [setAt(valid[d.name], s.path, 'x'.repeat(max + 1))]));
        expect(errors, s.path.join('.')).toHaveLength(1);
        expect(errors[0].path).toBe(pointer(d.name, s.path));
        expect(errors[0].message).toBe(`is ${max + 1} characters long; at most ${max} allowed`);
      }
    });

    it(`${d.name}: enforces every required field and accepts null for optional ones`, () => {
      for (const s of fieldSites) {
        const without = errorsOf(d.name, body(d.name, [setAt(valid[d.name], s.path, undefined)]));
        if (s.required) {
          expect(without, `${s.path.join('.')} required`).toEqual([
            expect.objectContaining({ path: pointer(d.name, s.path), message: 'is required' }),
          ]);
          expect(
            errorsOf(d.name, body(d.name, [setAt(valid[d.name], s.path, null)])).length,
            `${s.path.join('.')} null`,
          ).toBe(1);
        } else if (!(d.name === 'PurchaseOrders' && s.path[0] === 'currencyId')) {
          // (currencyId may be left out only when currencyCode is sent: tested below.)
          expect(without, `${s.path.join('.')} optional`).toEqual([]);
          expect(
            errorsOf(d.name, body(d.name, [setAt(valid[d.name], s.path, null)])),
            `${s.path.join('.')} null`,
          ).toEqual([]);
        }
      }
    });

    it(`${d.name}: enforces every numeric bound, at most a million million either way`, () => {
      const numbers = fieldSites.filter((x) => x.schema.type === 'number' || x.schema.type === 'integer');
      for (const x of numbers) {
        const { minimum, maximum } = x.schema as { minimum?: number; maximum?: number };
        expect(maximum, `${x.path.join('.')} maximum`).toBeLessThanOrEqual(MAX_MAGNITUDE);
        expect(minimum, `${x.path.join('.')} minimum`).toBeGreaterThanOrEqual(-MAX_MAGNITUDE);
        for (const [bound, past] of [
          [maximum!, maximum! + 1],
          [minimum!, minimum! - 1],
        ]) {
          expect(
            errorsOf(d.name, body(d.name, [setAt(valid[d.name], x.path, bound)])),
            `${x.path.join('.')} = ${bound}`,
          ).toEqual([]);
          const errors = errorsOf(d.name, body(d.name, [setAt(valid[d.name], x.path, past)]));
          expect(
            errors.map((e) => e.path),
            `${x.path.join('.')} = ${past}`,
          ).toEqual([pointer(d.name, x.path)]);
        }
      }
    });

    it(`${d.name}: enforces every type`, () => {
      for (const s of fieldSites) {
        const wrong =
          s.schema.type === 'string' || s.schema.anyOf ? 12 : s.schema.type === 'array' ? { not: 'a list' } : 'text';
        const errors = errorsOf(d.name, body(d.name, [setAt(valid[d.name], s.path, wrong)]));
        expect(errors.length, s.path.join('.')).toBe(1);
        expect(errors[0].path).toBe(pointer(d.name, s.path));
        if (s.schema.type === 'integer') {
          expect(errorsOf(d.name, body(d.name, [setAt(valid[d.name], s.path, 1.5)]))[0].message).toMatch(
            /whole number/,
          );
        }
      }
    });
  }
});

describe('datetimes', () => {
  it('accepts ISO 8601 forms and reads a missing zone as UTC', () => {
    const base = Date.UTC(2024, 2, 1, 10, 15) * 1000;
    expect(parseIsoMicros('2024-03-01T10:15:00.000Z')).toBe(base);
    expect(parseIsoMicros('2024-03-01T10:15:00Z')).toBe(base);
    expect(parseIsoMicros('2024-03-01T10:15')).toBe(base);
    expect(parseIsoMicros('2024-03-01T11:15:00+01:00')).toBe(base);
    expect(parseIsoMicros('2024-03-01T10:15:00.123456Z')).toBe(base + 123456);
    expect(parseIsoMicros('2024-03-01')).toBe(Date.UTC(2024, 2, 1) * 1000);
  });

  it('rejects what is not a real ISO 8601 datetime', () => {
    for (const bad of [
      '2024-02-30T00:00:00Z',
      '2023-02-29',
      '2024-13-01',
      '2024-03-01T25:00:00Z',
      '01-03-2024',
      '2024-03-01T10:15:00+25:00',
      'now',
      '',
      '2024-03-01Z',
    ]) {
      expect(parseIsoMicros(bad), bad).toBeUndefined();
    }
    const errors = errorsOf('Sales', body('Sales', [sale('S1', undefined, { salesDateTime: '2024-02-30T00:00:00Z' })]));
    expect(errors).toEqual([
      { path: '/sales/0/salesDateTime', recordId: 'S1', message: expect.stringMatching(/not an ISO 8601 datetime/) },
    ]);
  });

  it('reads the form JSON serializers write as the general pattern does, to the microsecond', () => {
    // Instants every 7,919,999,999 ms from 0100-01-01, and each side of the leap days.
    const instants = Array.from({ length: 1000 }, (_, i) => Date.UTC(100, 0, 1) + i * 7_919_999_999);
    for (const year of [1900, 2000, 2023, 2024])
      instants.push(Date.UTC(year, 1, 28, 23, 59, 59, 999), Date.UTC(year, 2, 1));
    for (const ms of instants) {
      const text = new Date(ms).toISOString();
      expect(parseIsoMicros(text), text).toBe(ms * 1000);
      expect(parseIsoMicros(text.replace('Z', '000Z')), text).toBe(ms * 1000);
    }
    for (const bad of [
      '2023-02-29T00:00:00.000Z',
      '2024-04-31T00:00:00.000Z',
      '2024-00-10T00:00:00.000Z',
      '2024-03-01T24:00:00.001Z',
      '2024-03-01T10:60:00.000Z',
      '2024-03-01T10:15:60.000Z',
      '2024-03-01T10:15:00.0a0Z',
      '2024-03-01T10:15:00.000z0',
    ])
      expect(parseIsoMicros(bad), bad).toBeUndefined();
  });

  it('reads 24:00 as the midnight that ends the day, as ISO 8601 has it, across a month and a year', () => {
    expect(parseIsoMicros('2024-03-01T24:00:00Z')).toBe(Date.UTC(2024, 2, 2) * 1000);
    expect(parseIsoMicros('2024-02-29T24:00Z')).toBe(Date.UTC(2024, 2, 1) * 1000);
    expect(parseIsoMicros('2024-12-31T24:00:00+01:00')).toBe(Date.UTC(2024, 11, 31, 23) * 1000);
    expect(new Date(parseIsoMicros('0099-12-31T24:00:00Z')! / 1000).toISOString()).toBe('0100-01-01T00:00:00.000Z');
  });

  it('keeps years below 100 as written', () => {
    expect(new Date(parseIsoMicros('0001-01-01T00:00:00Z')! / 1000).toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(new Date(parseIsoMicros('0050-06-15T12:00:00.250Z')! / 1000).toISOString()).toBe('0050-06-15T12:00:00.250Z');
    expect(new Date(parseIsoMicros('0099-12-31T10:00:00+02:00')! / 1000).toISOString()).toBe(
      '0099-12-31T08:00:00.000Z',
    );
  });

  it('rejects strings with an unpaired surrogate', () => {
    const errors = errorsOf('Brands', {
      brands: [
        { brandId: 'X\ud800', code: 'A' },
        { brandId: 'X\udc00', code: 'B' },
      ],
    });
    expect(errors.map((e) => e.path)).toEqual(['/brands/0/brandId', '/brands/1/brandId']);
    expect(errors[0].message).toMatch(/unpaired UTF-16 surrogate/);
  });

  it('rejects numbers out of range', () => {
    expect(
      errorsOf('Sales', body('Sales', [sale('S1', [salesLine('S1-1', 'SKU1', 1, { vatPercentage: 101 })])]))[0],
    ).toMatchObject({ path: '/sales/0/salesLines/0/vatPercentage', message: 'is 101; must be at most 100' });
    expect(
      errorsOf(
        'PurchaseOrders',
        body('PurchaseOrders', [purchaseOrder('P1', [{ ...purchaseOrder('x').purchaseOrderLines[0], quantity: -1 }])]),
      )[0].message,
    ).toBe('is -1; must be at least 0');
    expect(
      errorsOf('Locations', body('Locations', [{ locationId: 'L', code: 'L', name: 'L', latitude: 91 }]))[0].path,
    ).toBe('/locations/0/latitude');
  });
});

describe('batch rules', () => {
  it('stops checking at MAX_COUNTED_ERRORS errors, within one record as across records', () => {
    const failure = (body: unknown) => {
      try {
        validateBatch(getDataset('Sales'), body);
      } catch (e) {
        return e as ValidationFailed;
      }
      throw new Error('accepted');
    };
    // One sale whose 300,000 lines each lack their required fields: the walk through its lines stops too.
    const one = failure({
      sales: [
        sale(
          'S-MANY',
          Array.from({ length: 300_000 }, (_, i) => ({ salesLineId: `L${i}` })),
        ),
      ],
    });
    expect([one.errorCount, one.countStopped, one.errors.length]).toEqual([
      MAX_COUNTED_ERRORS,
      true,
      MAX_LISTED_ERRORS,
    ]);
    expect(one.message).toContain(`${MAX_COUNTED_ERRORS} or more errors`);
    const few = failure({ sales: [sale('S-FEW', [{ salesLineId: 'L1' }])] });
    expect(few.countStopped).toBe(false);
    expect(few.message).not.toContain('or more');
  });

  it('lists every problem of the batch with its record id and JSON pointer', () => {
    const errors = errorsOf(
      'Sales',
      body('Sales', [
        sale('S1'),
        sale('S2', [salesLine('S2-1', 'SKU1', 1, { quantitySold: 'one' }), salesLine('S2-2', 'x'.repeat(81))]),
        sale('S3', undefined, { locationId: undefined }),
      ]),
    );
    expect(errors).toEqual([
      { path: '/sales/1/salesLines/0/quantitySold', recordId: 'S2', message: 'must be a number, got "one"' },
      { path: '/sales/1/salesLines/1/skuId', recordId: 'S2', message: 'is 81 characters long; at most 80 allowed' },
      { path: '/sales/2/locationId', recordId: 'S3', message: 'is required' },
    ]);
  });

  it('caps the listed errors but counts them all', () => {
    const records = Array.from({ length: MAX_LISTED_ERRORS + 5 }, (_, i) =>
      sale(`S${i}`, undefined, { currencyCode: 7 }),
    );
    try {
      validateBatch(getDataset('Sales'), body('Sales', records));
      expect.unreachable();
    } catch (e) {
      expect((e as ValidationFailed).errors).toHaveLength(MAX_LISTED_ERRORS);
      expect((e as ValidationFailed).errorCount).toBe(MAX_LISTED_ERRORS + 5);
    }
  });

  it('rejects a body that is not the endpoint envelope', () => {
    expect(errorsOf('Sales', [sale('S1')])[0].message).toMatch(/JSON object holding an array "sales"/);
    expect(errorsOf('Sales', { items: [] })).toEqual([
      { path: '/sales', message: expect.stringMatching(/is required/) },
    ]);
    expect(errorsOf('Sales', { sales: {} })).toEqual([{ path: '/sales', message: 'must be an array, got an object' }]);
    expect(errorsOf('Sales', null)[0].message).toMatch(/got null/);
  });

  it('rejects a record sent twice in one batch, comparing datetimes by instant', () => {
    expect(errorsOf('Sales', body('Sales', [sale('S1'), sale('S2'), sale('S1')]))).toEqual([
      {
        path: '/sales/2',
        recordId: 'S1',
        message: expect.stringMatching(/appears twice in this batch \(first at \/sales\/0\)/),
      },
    ]);
    const stock = [
      { locationId: 'L1', skuId: 'A', quantity: 1, stockDateTime: '2024-03-01T10:00:00Z' },
      { locationId: 'L1', skuId: 'A', quantity: 2, stockDateTime: '2024-03-01T11:00:00.000+01:00' },
      { locationId: 'L2', skuId: 'A', quantity: 2, stockDateTime: '2024-03-01T10:00:00Z' },
    ];
    expect(errorsOf('Stock', body('Stock', stock)).map((e) => e.path)).toEqual(['/stock/1']);
  });

  it('rejects a child id twice inside one record, and a SKU in two items of one batch', () => {
    expect(errorsOf('Sales', body('Sales', [sale('S1', [salesLine('L1'), salesLine('L1')])]))).toEqual([
      { path: '/sales/0/salesLines/1', recordId: 'S1', message: expect.stringMatching(/appears twice in salesLines/) },
    ]);
    expect(errorsOf('Items', body('Items', [item('I1', ['A']), item('I2', ['A'])]))).toEqual([
      { path: '/items/1/skus/0', recordId: 'I2', message: expect.stringMatching(/also sent at \/items\/0\/skus\/0/) },
    ]);
    const withBarcodes = item('I1', [], {
      skus: [
        sku('A', 'ST1', {
          barcodes: [
            { barcodeId: 'b', code: '1' },
            { barcodeId: 'b', code: '2' },
          ],
        }),
      ],
    });
    expect(errorsOf('Items', body('Items', [withBarcodes]))[0].path).toBe('/items/0/skus/0/barcodes/1');
  });

  it('refuses a sales line id in two sales of one batch: it is unique across all sales lines', () => {
    expect(errorsOf('Sales', body('Sales', [sale('S1', [salesLine('1')]), sale('S2', [salesLine('1')])]))).toEqual([
      {
        path: '/sales/1/salesLines/0',
        recordId: 'S2',
        message: expect.stringMatching(/^salesLineId "1" is also sent at \/sales\/0\/salesLines\/0/),
      },
    ]);
  });

  it('reports unknown fields as warnings, once per field with a count', () => {
    const batch = validateBatch(getDataset('Sales'), {
      sales: [
        sale('S1', [salesLine('a', 'SKU1', 1, { discount: 1 })], { store: 'x' }),
        sale('S2', [salesLine('b', 'SKU1', 1, { discount: 2 })]),
      ],
      meta: 1,
    });
    expect(batch.warnings).toEqual(
      [
        { path: '/meta', message: 'unknown field "meta" ignored; the records go in "sales"' },
        { path: '/sales/0/salesLines/0/discount', message: 'unknown field "discount" ignored (in 2 records)' },
        { path: '/sales/0/store', message: 'unknown field "store" ignored' },
      ].sort((a, b) => (a.path === '/meta' ? -1 : b.path === '/meta' ? 1 : 0)),
    );
  });

  it('takes currencyCode in place of currencyId on purchase orders, and requires one of them', () => {
    expect(
      errorsOf(
        'PurchaseOrders',
        body('PurchaseOrders', [purchaseOrder('P1', undefined, { currencyId: undefined, currencyCode: 'local' })]),
      ),
    ).toEqual([]);
    expect(
      errorsOf('PurchaseOrders', body('PurchaseOrders', [purchaseOrder('P1', undefined, { currencyId: undefined })])),
    ).toEqual([
      {
        path: '/purchaseOrders/0/currencyId',
        recordId: 'P1',
        message: expect.stringMatching(/currencyId is required/),
      },
    ]);
  });

  it('validates DELETE bodies as key lists', () => {
    expect(errorsOf('PurchaseOrders', { purchaseOrders: [{ purchaseOrderId: 'P1' }] }, 'delete')).toEqual([]);
    expect(errorsOf('PurchaseOrders', { purchaseOrders: [{ code: 'P1' }] }, 'delete')).toEqual([
      { path: '/purchaseOrders/0/purchaseOrderId', message: 'is required' },
    ]);
    expect(errorsOf('StockTargets', { stockTargets: [{ locationId: 'L1' }] }, 'delete')[0].path).toBe(
      '/stockTargets/0/skuId',
    );
  });
});
