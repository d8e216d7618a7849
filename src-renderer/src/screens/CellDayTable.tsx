import { useMemo } from 'react';
import { decimal } from '../../../common/format';
import type { CellDays } from '../client';
import { download, toCsv } from '../csv';
import { useSort } from '../sort';
import { units } from '../units';

/** The day-by-day series a cell's table shows, in its order, as exported. */
const DAY_COLUMNS = [
  'simStock',
  'actStock',
  'simSales',
  'actSales',
  'demand',
  'simLostSales',
  'actLostSales',
  'demandEstimate',
  'receipts',
  'transfersIn',
  'transfersOut',
] as const;

/** The table's headings over DAY_COLUMNS, in the same order. */
const DAY_HEADINGS = [
  'Stock',
  'actual',
  'Sales',
  'actual',
  'Demand',
  'Lost sales',
  'actual',
  "Engine's estimate",
  'Receipts',
  'In',
  'Out',
];

function exportDays(runId: string, d: CellDays, order: readonly number[]): void {
  download(
    `${runId}-${d.locationId}-${d.skuId}-days.csv`,
    toCsv(
      ['date', ...DAY_COLUMNS, 'estimatedDemand'],
      order.map((i) => [d.dates[i], ...DAY_COLUMNS.map((k) => d.series[k][i]), d.series.estimatedDemand[i] ? 1 : 0]),
    ),
  );
}

/**
 * A cell's days as a table: by date, or by any column clicked, and exported in the order shown. A day the cell was
 * carried and out of stock with the engine is marked, and a day whose demand is estimated says so.
 */
export function CellDayTable({
  runId,
  name,
  days,
}: {
  runId: string;
  /** The cell as its heading names it: "ST-005 · TEE-100-WHT-M". */
  name: string;
  days: CellDays;
}) {
  const dayIndex = useMemo(() => days.dates.map((_, i) => i), [days]);
  const { sorted: order, heading } = useSort(dayIndex, {
    date: (i) => days.dates[i],
    ...Object.fromEntries(DAY_COLUMNS.map((k) => [k, (i: number) => days.series[k][i]])),
  });
  const s = days.series;
  return (
    <>
      <h3>
        Day by day{' '}
        <button type="button" onClick={() => exportDays(runId, days, order)}>
          Export CSV
        </button>
      </h3>
      <div className="scroll">
        <table className="grid" aria-label={`${name} day by day`}>
          <thead>
            <tr>
              <th {...heading('date')}>Date</th>
              {DAY_COLUMNS.map((k, c) => (
                <th key={k} {...heading(k)} className="num sortable">
                  {DAY_HEADINGS[c]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {order.map((i) => (
              <tr key={days.dates[i]} className={s.carried[i] && !s.simInStock[i] ? 'row--bad' : undefined}>
                <td>
                  {days.dates[i]}
                  {s.estimatedDemand[i] ? (
                    <span
                      className="hint"
                      title="Demand estimated from the history: the shelf was empty in fact, or sold out that day"
                    >
                      {' '}
                      est.
                    </span>
                  ) : null}
                </td>
                <td className="num">{units(s.simStock[i])}</td>
                <td className="num">{units(s.actStock[i])}</td>
                <td className="num">{units(s.simSales[i])}</td>
                <td className="num">{units(s.actSales[i])}</td>
                <td className="num">{units(s.demand[i])}</td>
                <td className="num">{units(s.simLostSales[i])}</td>
                <td className="num">{units(s.actLostSales[i])}</td>
                <td className="num">{decimal(s.demandEstimate[i], 2)}</td>
                <td className="num">{units(s.receipts[i])}</td>
                <td className="num">{units(s.transfersIn[i])}</td>
                <td className="num">{units(s.transfersOut[i])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
