/** bench:growth's sizes and its table: the big set grown by stores and by SKUs, each cost against the first size's. */
import { describe, expect, it } from 'vitest';
import {
  costPerCellDay,
  cpuPerCellDay,
  growthSizes,
  growthTable,
  pickedSizes,
  type GrowthRow,
  type MeasuredRow,
} from './bench/growth-table.js';

const big = { stores: 100, skus: 5000, days: 730 };

const measured = (key: string, stores: number, cells: number, loadMs: number, simMs: number): MeasuredRow => ({
  key,
  size: { ...big, stores },
  cells,
  days: 10,
  firstLoadMs: 2000,
  firstLoadRssKb: 2 ** 20,
  loadMs,
  simMs,
  floorMs: 50,
  loadCpuMs: loadMs / 2,
  simCpuMs: 2 * simMs,
  maxRssKb: 3 * 2 ** 19,
});

describe('bench:growth', () => {
  it('grows the big set by its stores, then by its SKUs, the days kept', () => {
    expect(growthSizes(big).map((s) => [s.key, s.size.stores, s.size.skus, s.size.days])).toEqual([
      ['1x', 100, 5000, 730],
      ['2x', 200, 5000, 730],
      ['4x', 400, 5000, 730],
      ['4x-skus', 100, 20000, 730],
    ]);
  });

  it('picks sizes by key in the order given, all when unset, and refuses an unknown key by name', () => {
    const all = growthSizes(big);
    expect(pickedSizes(undefined, all)).toBe(all);
    expect(pickedSizes('4x-skus,1x', all).map((s) => s.key)).toEqual(['4x-skus', '1x']);
    expect(() => pickedSizes('1x,8x', all)).toThrow(/no size "8x": one of 1x, 2x, 4x, 4x-skus/);
  });

  it('costs a run its load and replay per location×SKU-day, in µs of wall and of CPU time', () => {
    expect(costPerCellDay(measured('1x', 100, 1000, 4, 6))).toBeCloseTo(1, 10);
    expect(cpuPerCellDay(measured('1x', 100, 1000, 4, 6))).toBeCloseTo(1.4, 10);
  });

  it('sets each size against the first, and says in its row why a size did not run', () => {
    const rows: GrowthRow[] = [
      measured('1x', 100, 100_000, 400, 600),
      measured('2x', 200, 200_000, 1000, 2000),
      { key: '4x', size: { ...big, stores: 400 }, failed: 'did not run: out of memory' },
    ];
    const [header, rule, ...lines] = growthTable(rows).split('\n');
    const cells = (line: string) =>
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
    const columns = cells(header).length;
    expect(cells(header)).toContain('ratio to 1x');
    expect(cells(rule)).toHaveLength(columns);
    for (const line of lines) expect(cells(line)).toHaveLength(columns);
    const at = (line: string, name: string) => cells(line)[cells(header).indexOf(name)];
    expect(at(lines[0], 'cells')).toBe('100,000');
    expect(at(lines[0], 'µs per cell-day')).toBe('1.000');
    expect(at(lines[0], 'ratio to 1x')).toBe('1.00');
    expect(at(lines[1], 'stores × SKUs')).toBe('200 × 5,000');
    expect(at(lines[1], 'wall s')).toBe('3.0');
    expect(at(lines[1], 'µs per cell-day')).toBe('1.500');
    expect(at(lines[1], 'ratio to 1x')).toBe('1.50');
    expect(at(lines[0], 'CPU µs per cell-day')).toBe('1.400');
    expect(at(lines[1], 'CPU s')).toBe('4.5');
    expect(at(lines[1], 'CPU ratio to 1x')).toBe('1.61');
    expect(at(lines[1], 'peak RSS')).toBe('1.50 GiB');
    expect(at(lines[1], 'floor ns per cell-day')).toBe('25.0');
    expect(at(lines[2], 'cells')).toBe('did not run: out of memory');
  });
});
