// @vitest-environment happy-dom
/** A location × SKU's days cut to the style's selling life (cell-days.ts), and its day table (CellDayTable.tsx). */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CELL_DAY_FIELDS } from '../../engine/simulate/trace';
import type { CellDays } from '../../src-renderer/src/client';
import { within } from '../../src-renderer/src/screens/cell-days';
import { CellDayTable } from '../../src-renderer/src/screens/CellDayTable';

afterEach(cleanup);

const DATES = ['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04', '2025-03-05'];
const series = Object.fromEntries(CELL_DAY_FIELDS.map((k) => [k, DATES.map(() => 0)])) as unknown as CellDays['series'];
series.simStock = [5, 0, 7, 2, 9];
series.simSales = [1, 4, 0, 3, 2];
series.carried = [1, 1, 1, 1, 0];
series.simInStock = [1, 0, 1, 1, 0];
series.estimatedDemand = [0, 1, 0, 0, 0];
const transfer = (referenceId: string, date: string, arrives: string) =>
  ({ referenceId, date, arrives }) as unknown as CellDays['transfers'][number];
const DAYS: CellDays = {
  runId: 'bt-1',
  styleId: 'TEE-100',
  locationId: 'ST-001',
  locationKind: 'store',
  skuId: 'TEE-100-S',
  sizeId: 'S',
  dates: DATES,
  series,
  reviews: DATES.map((date) => ({ date, estimate: 1, target: 2, sent: 0, outcome: 'sent' as never })),
  transfers: [
    transfer('before', '2025-02-20', '2025-02-25'),
    transfer('arrives-inside', '2025-02-27', '2025-03-02'),
    transfer('inside', '2025-03-03', '2025-03-05'),
    transfer('after', '2025-03-05', '2025-03-08'),
    transfer('later', '2025-03-06', '2025-03-09'),
  ],
};

describe('within', () => {
  it("cuts the days, every series, the reviews and the transfers sent or arriving to the style's selling life", () => {
    const cut = within(DAYS, { from: '2025-03-02', to: '2025-03-04' });
    expect(cut.dates).toEqual(['2025-03-02', '2025-03-03', '2025-03-04']);
    expect(cut.series.simStock).toEqual([0, 7, 2]);
    expect(cut.series.simInStock).toEqual([0, 1, 1]);
    expect(cut.reviews.map((r) => r.date)).toEqual(cut.dates);
    expect(cut.transfers.map((x) => x.referenceId)).toEqual(['arrives-inside', 'inside']);
    expect(within(DAYS, undefined)).toBe(DAYS);
  });
});

describe('CellDayTable', () => {
  const dates = () => [...document.querySelectorAll('tbody tr td:first-child')].map((td) => td.firstChild!.textContent);

  it('lists the days by date, then by a column clicked, either way', () => {
    render(<CellDayTable runId="bt-1" name="ST-001 · TEE-100-S" days={DAYS} />);
    expect(screen.getByRole('table', { name: 'ST-001 · TEE-100-S day by day' })).toBeTruthy();
    expect(dates()).toEqual(DATES);
    fireEvent.click(screen.getAllByRole('columnheader', { name: 'Stock' })[0]);
    expect(dates()).toEqual(['2025-03-02', '2025-03-04', '2025-03-01', '2025-03-03', '2025-03-05']);
    fireEvent.click(screen.getAllByRole('columnheader', { name: 'Stock' })[0]);
    expect(dates()).toEqual(['2025-03-05', '2025-03-03', '2025-03-01', '2025-03-04', '2025-03-02']);
    fireEvent.click(screen.getByRole('columnheader', { name: 'Sales' }));
    expect(dates()).toEqual(['2025-03-03', '2025-03-01', '2025-03-05', '2025-03-04', '2025-03-02']);
  });

  it('marks a day carried but out of stock with the engine, and a day whose demand is estimated', () => {
    render(<CellDayTable runId="bt-1" name="ST-001 · TEE-100-S" days={DAYS} />);
    const rows = [...document.querySelectorAll('tbody tr')];
    expect(rows.map((tr) => tr.classList.contains('row--bad'))).toEqual([false, true, false, false, false]);
    expect(rows.map((tr) => tr.querySelector('td')!.textContent)).toEqual([
      '2025-03-01',
      '2025-03-02 est.',
      '2025-03-03',
      '2025-03-04',
      '2025-03-05',
    ]);
  });
});
