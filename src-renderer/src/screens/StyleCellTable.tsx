import { duration } from '../../../common/format';
import type { CellTotals, StyleCells } from '../client';
import { CELL_COLUMNS, type useCellRows } from './use-cell-rows';
import { download, toCsv } from '../csv';
import type { Names } from '../names';
import { units } from '../units';

const CSV_HEADER = [
  'locationId',
  'skuId',
  'sizeId',
  'lostSales',
  'lostSalesActual',
  'stockOutDays',
  'stockOutDaysActual',
  'sales',
  'salesActual',
  'transfersIn',
  'transfersOut',
];

/** Rows drawn at once; the filter narrows the rest. */
export const SHOWN_CELLS = 100;

function exportCells(name: string, rows: readonly CellTotals[]): void {
  download(
    name,
    toCsv(
      CSV_HEADER,
      rows.map((c) => [
        c.locationId,
        c.skuId,
        c.sizeId,
        c.simulated.lostSales,
        c.actual.lostSales,
        c.simulated.stockOutDays,
        c.actual.stockOutDays,
        c.simulated.sales,
        c.actual.sales,
        c.transfersIn,
        c.transfersOut,
      ]),
    ),
  );
}

/**
 * A style's location × SKUs in a run as `shown`: the words to find them by, the first of them drawn, each opened by
 * its name, sorted by a click on a heading, and exported as they are shown.
 *
 * Over 80 lines only for the markup of its one table, with the filter and export above it.
 */
export function StyleCellTable({
  runId,
  styleId,
  cells,
  shown,
  names,
  openCell,
}: {
  runId: string;
  styleId: string;
  cells: StyleCells;
  /** The cells found and sorted, with the words they are found by (kept while a cell is open). */
  shown: ReturnType<typeof useCellRows>;
  names: Names;
  openCell: (cell: { locationId: string; skuId: string }) => void;
}) {
  const { filter, setFilter, rows, heading, sort } = shown;
  return (
    <>
      <div className="toolbar">
        <label>
          Find{' '}
          <input
            name="find-cell"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="location or SKU…"
          />
        </label>
        <span className="hint" data-testid="cell-count">
          {Math.min(rows.length, SHOWN_CELLS)} of {rows.length} location × SKUs,{' '}
          {sort ? `sorted by ${CELL_COLUMNS.find(([k]) => k === sort.key)?.[1]}` : 'most lost sales first'} (traced by
          replaying the run in {duration(cells.replayMs)})
        </span>
        <button
          type="button"
          onClick={() => exportCells(`${runId}-${styleId}-cells.csv`, rows)}
          disabled={rows.length === 0}
        >
          Export CSV
        </button>
      </div>
      <table className="grid compare" aria-label={`Location × SKUs of style ${styleId}`}>
        <thead>
          <tr>
            {CELL_COLUMNS.map(([key, label], i) => (
              <th key={key} {...heading(key)} className={i < 2 ? 'sortable' : 'num sortable'}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, SHOWN_CELLS).map((c) => (
            <tr key={`${c.locationId}/${c.skuId}`} data-cell={`${c.locationId}/${c.skuId}`}>
              <td>
                <button
                  type="button"
                  className="link"
                  onClick={() => openCell({ locationId: c.locationId, skuId: c.skuId })}
                >
                  {names.location(c.locationId)} · {c.skuId}
                </button>
                {c.locationKind === 'warehouse' && <span className="hint"> (warehouse)</span>}
              </td>
              <td>{c.sizeId}</td>
              <td className="num">{units(c.simulated.lostSales)}</td>
              <td className="num">{units(c.actual.lostSales)}</td>
              <td className="num">{units(c.simulated.stockOutDays)}</td>
              <td className="num">{units(c.actual.stockOutDays)}</td>
              <td className="num">{units(c.simulated.sales)}</td>
              <td className="num">{units(c.actual.sales)}</td>
              <td className="num">{units(c.transfersIn)}</td>
              <td className="num">{units(c.transfersOut)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
