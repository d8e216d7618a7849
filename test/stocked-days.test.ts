import { describe, expect, it } from 'vitest';
import { emptyState, stockedDays, type EngineState } from '../engine/recommend/state.js';

/** A state of one location and `cells` SKUs whose window is a ring turned by `head`, each day in stock or not. */
function ringState(days: boolean[][], head: number, keepCounts: boolean): EngineState {
  const W = days[0].length;
  const state = emptyState(100, W, 1, days.length) as EngineState;
  state.windowHead = head;
  days.forEach((cellDays, c) =>
    cellDays.forEach((inStock, d) => {
      state.sales[c * W + ((head + d) % W)] = inStock ? d % 3 : Number.NaN;
    }),
  );
  if (keepCounts) state.inStockDays = Int32Array.from(days, (cellDays) => cellDays.filter(Boolean).length);
  return state;
}

describe('stockedDays', () => {
  const W = 10;
  const days = [
    Array.from({ length: W }, (_, d) => d % 4 !== 1),
    Array.from({ length: W }, () => false),
    Array.from({ length: W }, () => true),
  ];
  const ranges: [number, number][] = [
    [0, W],
    [2, 7],
    [-3, 4],
    [6, W + 5],
    [5, 5],
    [8, 3],
  ];

  it('counts the days of a range the cell held stock, read across the ring', () => {
    const state = ringState(days, 7, false);
    for (const [c, cellDays] of days.entries())
      for (const [from, to] of ranges) {
        const want = cellDays.slice(Math.max(0, from), Math.max(0, Math.min(W, to))).filter(Boolean).length;
        expect(stockedDays(state, c, from, to), `cell ${c}, days ${from}…${to}`).toBe(want);
      }
  });

  it('answers the same where the state keeps each cell’s count', () => {
    const reading = ringState(days, 3, false);
    const counted = ringState(days, 3, true);
    for (let c = 0; c < days.length; c++)
      for (const [from, to] of ranges)
        expect(stockedDays(counted, c, from, to)).toBe(stockedDays(reading, c, from, to));
  });
});
