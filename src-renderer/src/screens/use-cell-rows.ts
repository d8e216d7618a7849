import { useMemo, useState } from 'react';
import type { CellTotals, StyleCells } from '../client';
import type { Names } from '../names';
import { useSort, type SortValue } from '../sort';

/** The columns of a style's location × SKUs: heading, and the value it shows and sorts by. */
export const CELL_COLUMNS: [key: string, heading: string, pick: (c: CellTotals) => SortValue][] = [
  ['cell', 'Location × SKU', (c) => `${c.locationId} · ${c.skuId}`],
  ['size', 'Size', (c) => c.sizeId],
  ['lost', 'Lost sales', (c) => c.simulated.lostSales],
  ['lostActual', 'actual', (c) => c.actual.lostSales],
  ['stockOut', 'Stock-out days', (c) => c.simulated.stockOutDays],
  ['stockOutActual', 'actual', (c) => c.actual.stockOutDays],
  ['sales', 'Sales', (c) => c.simulated.sales],
  ['salesActual', 'actual', (c) => c.actual.sales],
  ['in', 'Transfers in', (c) => c.transfersIn],
  ['out', 'Transfers out', (c) => c.transfersOut],
];
const SORTS = Object.fromEntries(CELL_COLUMNS.map(([key, , pick]) => [key, pick]));

/**
 * A style's location × SKUs as its table shows them: found by a location's id or name or a SKU, and sorted by any
 * column (most lost sales first, the order they are read in, until then).
 */
export function useCellRows(cells: StyleCells | undefined, names: Names) {
  const [filter, setFilter] = useState('');
  const found = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (cells?.cells ?? []).filter(
      (c) => !needle || `${names.location(c.locationId)} ${c.skuId}`.toLowerCase().includes(needle),
    );
  }, [cells, filter, names]);
  const { sorted: rows, heading, sort } = useSort(found, SORTS);
  return { filter, setFilter, rows, heading, sort };
}
