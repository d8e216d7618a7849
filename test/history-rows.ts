/** History rows written by hand: per cell, its days as the daily levels read them. */
import type { CellDayRows } from '../engine/simulate/actual-demand.js';

/** One day of a cell: its level at the end, what it sold, the level it started with (stamped at its midnight). */
export interface Day {
  d: number;
  end: number;
  sold?: number;
  open?: number;
}

/** Cell-major rows from per-cell day lists (cells in ascending order), each starting from `start`. */
export function rowsOf(cells: { cell: number; start?: number; days: Day[] }[]): CellDayRows {
  const out = {
    cell: [] as number[],
    d: [] as number[],
    endLevel: [] as number[],
    opening: [] as number[],
    soldOut: [] as number[],
    counted: [] as number[],
    sold: [] as number[],
    net: [] as number[],
  };
  for (const c of [...cells].sort((a, b) => a.cell - b.cell)) {
    const push = (d: number, end: number, sold: number, open: number | null) => {
      out.cell.push(c.cell);
      out.d.push(d);
      out.endLevel.push(end);
      out.sold.push(sold);
      out.net.push(sold);
      out.opening.push(open ?? Number.NaN);
      // A day that sold and ended empty sold out.
      out.soldOut.push(sold > 0 && end <= 0 ? 1 : 0);
      out.counted.push(open === null ? 0 : 1);
    };
    if (c.start !== undefined) push(-1, c.start, 0, null);
    for (const x of c.days) push(x.d, x.end, x.sold ?? 0, x.open ?? null);
  }
  return out;
}
