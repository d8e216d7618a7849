/** Which styles two runs differ by (styleDifference), and how the command line writes them. */
import { describe, expect, it } from 'vitest';
import { styleDifference } from '../engine/service/backtests.js';
import { styleDifferenceText } from '../engine/cli/backtest-format.js';
import type { SideKpis } from '../engine/simulate/kpis.js';

const kpis = (lostSales: number, sales: number, inventoryUnits: number, warehouseUnits: number) =>
  ({ lostSales, sales, inventoryUnits, warehouse: { inventoryUnits: warehouseUnits } }) as SideKpis;
const style = (id: string, ...k: Parameters<typeof kpis>) => ({ id, simulated: kpis(...k) });

describe('styleDifference', () => {
  const a = [style('TEE', 100, 900, 50, 20), style('JEANS', 10, 90, 5, 2), style('CAP', 3, 30, 1, 1)];
  const b = [style('TEE', 60, 940, 55, 15), style('JEANS', 35, 65, 4, 30), style('SCARF', 5, 10, 2, 0)];

  it('gives b − a per style, the most moved first, and the whole difference over every style', () => {
    const d = styleDifference(a, b);
    expect(d.styles.map((s) => [s.id, s.lostSales, s.sales, s.inventoryUnits, s.warehouseUnits])).toEqual([
      ['TEE', -40, 40, 5, -5],
      ['JEANS', 25, -25, -1, 28],
      // A style in one run only counts as none in the other.
      ['SCARF', 5, 10, 2, 0],
      ['CAP', -3, -30, -1, -1],
    ]);
    expect(d.lostSales).toBe(-13);
    expect(d.namedLostSales).toBe(-13);
  });

  it('names the most moved only, and none that did not move', () => {
    const d = styleDifference(a, [...b, style('CAP', 3, 30, 1, 1)], 2);
    expect(d.styles.map((s) => s.id)).toEqual(['TEE', 'JEANS']);
    expect(d.lostSales).toBe(-10);
    expect(d.namedLostSales).toBe(-15);
    expect(styleDifference(a, a).styles).toEqual([]);
  });

  it('writes one style a line for the command line', () => {
    const text = styleDifferenceText(styleDifference(a, b, 2));
    expect(text.split('\n')[0]).toBe('Lost sales b − a: −13 units; the 2 styles that moved most: −15');
    expect(text.split('\n')[1]).toMatch(/^ {2}TEE +lost +−40 +sold +\+40 +store stock +\+5 +warehouse +−5$/);
    expect(styleDifferenceText(styleDifference(a, a))).toBe('No style lost more or fewer sales in b than in a.');
  });
});
