// @vitest-environment happy-dom
/**
 * A CSV file's mapping: the fields one column loads into (ColumnTargets.tsx), and its first rows as they will be
 * loaded (MappingRows.tsx over csv-mapping-fields.ts).
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CsvFilePreview, CsvTarget } from '../../src-renderer/src/client';
import { ColumnTargets } from '../../src-renderer/src/screens/ColumnTargets';
import { mappingFields } from '../../src-renderer/src/screens/csv-mapping-fields';
import { MappingRows } from '../../src-renderer/src/screens/MappingRows';

afterEach(cleanup);

const target = (id: string, of: string, required = false) =>
  ({ id, field: id.split('.').at(-1), of, kind: 'text', required, depth: 0, key: false }) as unknown as CsvTarget;
const TARGETS = [
  target('skuId', 'sales line', true),
  target('quantity', 'sales line', true),
  target('Sales.saleId', 'sale', true),
  target('Sales.storeId', 'sale'),
];

function renderColumn(fields: string[], more: { guessed?: boolean; leftOut?: boolean } = {}) {
  const did: (string | string[] | null)[] = [];
  render(
    <ColumnTargets
      header="code"
      fields={fields}
      targets={TARGETS}
      guessed={more.guessed ?? false}
      leftOut={more.leftOut ?? false}
      onColumn={(t) => did.push(t)}
    />,
  );
  return did;
}
const first = () => screen.getByRole('combobox', { name: 'Column code loads into' }) as HTMLSelectElement;
const also = () => screen.queryByRole('combobox', { name: 'Column code also loads into' }) as HTMLSelectElement | null;
const optionsOf = (select: HTMLSelectElement) => [...select.options].map((o) => o.value);

describe('ColumnTargets', () => {
  it('hands back a first field chosen with the others kept, and none for "not loaded"', () => {
    const did = renderColumn(['skuId', 'Sales.saleId']);
    fireEvent.change(first(), { target: { value: 'quantity' } });
    fireEvent.change(first(), { target: { value: '' } });
    expect(did).toEqual([['quantity', 'Sales.saleId'], null]);
    // The first choice offers every field but those the column loads into besides it.
    expect(optionsOf(first())).toEqual(['', 'skuId', 'quantity', 'Sales.storeId']);
  });

  it('adds a field from the same column, and takes one away, one at a time', () => {
    const did = renderColumn(['skuId']);
    expect(optionsOf(also()!)).toEqual(['', 'quantity', 'Sales.saleId', 'Sales.storeId']);
    fireEvent.change(also()!, { target: { value: 'Sales.saleId' } });
    cleanup();
    const more = renderColumn(['skuId', 'Sales.saleId', 'Sales.storeId']);
    expect(screen.getByText('and saleId', { exact: false })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Column code stops loading into Sales.saleId' }));
    fireEvent.click(screen.getByRole('button', { name: 'Column code stops loading into Sales.storeId' }));
    expect(did).toEqual([['skuId', 'Sales.saleId']]);
    expect(more).toEqual([
      ['skuId', 'Sales.storeId'],
      ['skuId', 'Sales.saleId'],
    ]);
  });

  it('offers no second field to a column not loaded; marks a guess and a column no field takes', () => {
    renderColumn([], { leftOut: true });
    expect(also()).toBeNull();
    expect(screen.getByText('not loaded: no field takes it', { exact: false })).toBeTruthy();
    expect(screen.queryByText('guessed')).toBeNull();
    cleanup();
    renderColumn(['skuId'], { guessed: true });
    expect(screen.getByText('guessed')).toBeTruthy();
  });
});

describe('MappingRows', () => {
  const FILE = {
    name: 'sales.csv',
    level: 'Sales.lines',
    headers: ['sku', 'qty', 'note'],
    columns: ['skuId', 'quantity', null],
    derived: [{ field: 'Sales.storeId', value: 7 }],
    targets: TARGETS,
    rows: [
      { row: 2, cells: ['A', '1', 'x'], values: { skuId: 'A', quantity: 1, 'Sales.storeId': 7 } },
      { row: 3, cells: ['B', 'two', ''], values: { skuId: 'B', quantity: null, 'Sales.storeId': 7 } },
    ],
    problems: [{ row: 3, column: 'qty', message: 'not a number' }],
    warnings: [],
  } as unknown as CsvFilePreview;

  it('shows each field a column gives, then those a default fills, and marks the cells the load refuses', () => {
    const fields = mappingFields(FILE);
    expect(fields.filled(fields.derived[0])).toBe('set to 7');
    render(<MappingRows file={FILE} fields={fields} />);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Row',
      'skuId',
      'quantity',
      'storeId',
    ]);
    const rows = [...document.querySelectorAll('tbody tr')];
    expect(rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['2', 'A', '1', '7'],
      ['3', 'B', '', '7'],
    ]);
    expect(
      [...document.querySelectorAll('.cell--bad')].map((td) => td.closest('tr')!.getAttribute('data-row')),
    ).toEqual(['3']);
    expect(document.querySelector('tr[data-row="3"] td:nth-child(3)')!.classList.contains('cell--bad')).toBe(true);
  });
});
