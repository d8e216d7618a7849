import { afterEach, describe, expect, it } from 'vitest';
import { dailyLevels } from '../engine/store/daily-levels.js';
import { item, location, sale, salesLine, tempWorkbench, type TempWorkbench } from './fixtures.js';

let t: TempWorkbench | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});
const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;

describe('actual stock per day', () => {
  it('ends a day at the same level however events of one instant are ordered', async () => {
    t = await tempWorkbench();
    const skus = Array.from({ length: 40 }, (_, i) => `SKU${String(i).padStart(2, '0')}`);
    await t.wb.ingest('Locations', { locations: [location('L1')] });
    await t.wb.ingest('Items', { items: [item('I1', skus)] });
    await t.wb.ingest('Stock', {
      stock: skus.map((skuId) => ({ locationId: 'L1', skuId, quantity: 5, stockDateTime: '2024-03-01T08:00:00Z' })),
    });
    // Each SKU gets a correction of +2, then sells twice in one receipt: two lines, one instant, the day's last.
    await t.wb.ingest('Sales', {
      sales: [
        sale(
          'R1',
          skus.flatMap((skuId, i) => [salesLine(`R1-${i}-a`, skuId, 1), salesLine(`R1-${i}-b`, skuId, 1)]),
          { salesDateTime: '2024-03-02T10:00:00Z' },
        ),
      ],
    });
    await t.wb.ingest('StockMutations', {
      stockMutations: skus.map((skuId, i) => ({
        stockMutationId: `M${i}`,
        locationId: 'L1',
        skuId,
        quantity: 2,
        mutationDateTime: '2024-03-02T09:00:00Z',
        type: 'correction',
      })),
    });
    const levels = await t.wb.workspace.exclusive(() =>
      dailyLevels(t!.wb.workspace, ['L1'], skus, day('2024-03-02'), day('2024-03-03')),
    );
    const today = Array.from(levels.d).flatMap((d, j) => (d === 0 ? [j] : []));
    expect(today).toHaveLength(skus.length);
    // 5 + 2 − 1 − 1: never the level between the two lines of the receipt.
    expect(today.map((j) => levels.endLevel[j])).toEqual(skus.map(() => 5));
    expect(today.map((j) => levels.sold[j])).toEqual(skus.map(() => 2));
    expect(today.map((j) => levels.mutations[j])).toEqual(skus.map(() => 2));
  });

  const countInstantTitle =
    "counts what is stamped at a count's own instant after it, whether the period starts at the count or after it";
  it(countInstantTitle, async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Locations', { locations: [location('L1')] });
    await t.wb.ingest('Items', { items: [item('I1', ['SKU1'])] });
    // A feed that sends dates only: the count and the day's first sale both at midnight.
    await t.wb.ingest('Stock', {
      stock: [{ locationId: 'L1', skuId: 'SKU1', quantity: 10, stockDateTime: '2024-03-04T00:00:00Z' }],
    });
    await t.wb.ingest('Sales', {
      sales: [
        sale('R1', [salesLine('R1-1', 'SKU1', 3)], { salesDateTime: '2024-03-04T00:00:00Z' }),
        sale('R2', [salesLine('R2-1', 'SKU1', 1)], { salesDateTime: '2024-03-07T10:00:00Z' }),
      ],
    });
    const closing = async (from: string) => {
      const levels = await t!.wb.workspace.exclusive(() =>
        dailyLevels(t!.wb.workspace, ['L1'], ['SKU1'], day(from), day('2024-03-09')),
      );
      return Object.fromEntries(Array.from(levels.d, (d, j) => [d, levels.endLevel[j]]));
    };
    // From the count's day: 10 − 3, then − 1 on the 7th.
    expect(await closing('2024-03-04')).toEqual({ 0: 7, 3: 6 });
    // From a later day the count is where the period starts from: the same 7, never 10.
    expect(await closing('2024-03-05')).toEqual({ '-1': 7, 2: 6 });
    expect(await t.wb.stock('L1', 'SKU1')).toMatchObject({ quantity: 6 });
  });

  it("adds up a day's amounts exactly, in whatever order they come", async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Locations', { locations: [location('L1')] });
    await t.wb.ingest('Items', { items: [item('I1', ['SKU1'])] });
    // 0.1 + 0.2 + 0.3 in floating point is 0.6000000000000001 one way round and 0.6 the other.
    const amounts = [0.1, 0.2, 0.3];
    await t.wb.ingest('Sales', {
      sales: amounts.map((a, i) =>
        sale(`R${i}`, [salesLine(`R${i}-1`, 'SKU1', 1, { salesAmountInclVat: a })], {
          salesDateTime: `2024-03-02T1${i}:00:00Z`,
        }),
      ),
    });
    const levels = await t.wb.workspace.exclusive(() =>
      dailyLevels(t!.wb.workspace, ['L1'], ['SKU1'], day('2024-03-02'), day('2024-03-03')),
    );
    expect(Array.from(levels.revenue)).toEqual([0.6]);
    expect(Array.from(levels.sold)).toEqual([3]);
  });
});
