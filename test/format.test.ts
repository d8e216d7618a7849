/** One number format for the screens and the command line (common/format.ts), and the CLI's tables written with it. */
import { describe, expect, it } from 'vitest';
import { count, decimal, duration, money, percent, points, signed, weeks, whole } from '../common/format.js';
import { labelOf, settingName } from '../common/setting-names.js';
import { formatSummary } from '../engine/cli/backtest-format.js';
import type { SideKpis } from '../engine/simulate/kpis.js';

describe('the number format', () => {
  it('writes counts and units whole, with thousands separated, and a count with its noun in the right number', () => {
    expect(whole(1310.5)).toBe('1,311');
    expect(whole(-3)).toBe('-3');
    expect(whole(-0.2)).toBe('0');
    expect(count(1, 'record')).toBe('1 record');
    expect(count(0, 'error')).toBe('0 errors');
    expect(count(2048, 'record')).toBe('2,048 records');
    expect(count(1, 'batch')).toBe('1 batch');
    expect(count(3, 'batch')).toBe('3 batches');
    expect(count(2, 'entry', 'entries')).toBe('2 entries');
  });

  it('writes rates in %, and their differences in percentage points, never as bare fractions', () => {
    expect(percent(0.8623)).toBe('86.2%');
    expect(percent(0.97234, 2)).toBe('97.23%');
    expect(points(0.0235)).toBe('+2.4 pp');
    expect(points(-0.0222)).toBe('−2.2 pp');
    expect(points(0.0004)).toBe('±0.0 pp');
  });

  it('signs a difference as its figure reads, and reads a difference that rounds away as none', () => {
    expect(signed(177)).toBe('+177');
    expect(signed(-974)).toBe('−974');
    expect(signed(0.3)).toBe('±0');
    expect(signed(0.5, weeks)).toBe('+0.5');
    expect(signed(-0.51, weeks)).toBe('−0.5');
    expect(decimal(2.27)).toBe('2.3');
    expect(decimal(1310.5)).toBe('1,310.5');
  });

  it("writes values with the workspace's currency, and times in ms or s", () => {
    expect(money(386612.9, 'LOCAL')).toBe('386,613 LOCAL');
    expect(money(386612.9)).toBe('386,613');
    expect(duration(250)).toBe('250 ms');
    expect(duration(3210)).toBe('3.2 s');
  });

  it('names a setting in words, its path kept for a tooltip', () => {
    expect(labelOf('serviceLevel')).toBe('Service level');
    expect(settingName('defaults.serviceLevel')).toBe('Service level');
    expect(settingName('redistribution.tripCost')).toBe('Redistribution: trip cost');
  });
});

describe("the command line's backtest summary", () => {
  const stock = { inventoryUnits: 2434.8, inventoryValue: null, weeksOfCover: 21.3, endUnsoldUnits: 4027 };
  const side = (over: Partial<SideKpis>): SideKpis =>
    ({
      carriedDays: 41477,
      stockOutDays: 6685,
      inStockRate: 0.8388,
      demand: 7965,
      estimatedDemand: 1480,
      sales: 6485,
      returns: 254,
      netSales: 6231,
      salesValue: 374150.2,
      lostSales: 1480,
      fillRate: 0.8142,
      estimatedSales: 0,
      inventoryUnits: 220.2,
      inventoryValue: 5233.3,
      weeksOfCover: 1.77,
      endUnsoldUnits: 432,
      endUnsoldValue: null,
      warehouse: { ...stock },
      network: { ...stock, inventoryUnits: 2715.9, weeksOfCover: 21.8 },
      ...over,
    }) as SideKpis;
  const text = formatSummary(
    side({ inStockRate: 0.8623, fillRate: 0.8364, weeksOfCover: 2.27, inventoryUnits: 290.5, salesValue: 386612.9 }),
    side({}),
    { currency: 'LOCAL' },
  );
  const row = (label: string) =>
    text
      .split('\n')
      .find((l) => l.startsWith(label))!
      .trim()
      .split(/\s{2,}/);

  it('gives rates in %, their difference in points, weeks to a tenth, values in the currency', () => {
    expect(row('in-stock rate')).toEqual(['in-stock rate', '86.2%', '83.9%', '+2.3 pp']);
    expect(row('fill rate')).toEqual(['fill rate', '83.6%', '81.4%', '+2.2 pp']);
    expect(row('stores: weeks of cover')).toEqual(['stores: weeks of cover', '2.3', '1.8', '+0.5']);
    expect(row('stores: avg inventory')).toEqual(['stores: avg inventory (units)', '291', '220', '+70']);
    expect(row('sales value')).toEqual(['sales value', '386,613 LOCAL', '374,150 LOCAL', '+12,463']);
    // No figure as a bare fraction to four places, as the table once printed.
    expect(text).not.toMatch(/\d\.\d{4}/);
  });
});
