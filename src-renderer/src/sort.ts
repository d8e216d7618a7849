/**
 * Sorting a table by any of its columns: a click on a heading sorts by it, a second click reverses. Numbers sort as
 * numbers, text in the reader's order, empty values last either way.
 */
import { useMemo, useState } from 'react';

export type SortValue = string | number | null | undefined;
export interface SortState {
  key: string;
  descending: boolean;
}

const compare = (a: SortValue, b: SortValue): number => {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
};

export function useSort<T>(rows: readonly T[], columns: Record<string, (row: T) => SortValue>, initial?: SortState) {
  const [sort, setSort] = useState<SortState | undefined>(initial);
  const sorted = useMemo(() => {
    if (!sort || !columns[sort.key]) return rows;
    const pick = columns[sort.key];
    // Empty values stay last whichever way the rest goes; ties keep the rows' own order.
    return rows
      .map((row, i) => ({ row, i, v: pick(row) }))
      .sort((x, y) => {
        const empty = Number(x.v === null || x.v === undefined) - Number(y.v === null || y.v === undefined);
        if (empty) return empty;
        return (sort.descending ? compare(y.v, x.v) : compare(x.v, y.v)) || x.i - y.i;
      })
      .map((x) => x.row);
  }, [rows, sort, columns]);
  /** A heading's attributes: what it says to a screen reader, and the click that sorts by it. */
  const heading = (key: string) => ({
    'aria-sort': (sort?.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none') as
      'ascending' | 'descending' | 'none',
    onClick: () => setSort((s) => ({ key, descending: s?.key === key ? !s.descending : false })),
    className: 'sortable',
  });
  return { sorted, sort, heading };
}
