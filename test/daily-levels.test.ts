import { afterEach, describe, expect, it } from 'vitest';
import { dailyLevels } from '../engine/store/daily-levels.js';
import { LevelFold } from '../engine/store/level-fold.js';
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

  const fulfilledTitle =
    "reads an online location selling from a warehouse's stock as the warehouse's level, its sales moving it";
  it(fulfilledTitle, async () => {
    t = await tempWorkbench();
    await t.wb.ingest('Locations', { locations: [location('WEB'), location('WH'), location('S1')] });
    await t.wb.ingest('Items', { items: [item('I1', ['SKU1'])] });
    // The warehouse counts 10, then 5 (what the webshop shipped, 3 and 2, is gone); the webshop's own records and
    // a store's sale are none of the warehouse's.
    const count = (locationId: string, quantity: number, at: string) => ({
      locationId,
      skuId: 'SKU1',
      quantity,
      stockDateTime: `${at}T00:00:00Z`,
    });
    await t.wb.ingest('Stock', {
      stock: [count('WH', 10, '2024-03-01'), count('WH', 5, '2024-03-04'), count('WEB', 99, '2024-03-01')],
    });
    await t.wb.ingest('StockMutations', {
      stockMutations: [
        {
          stockMutationId: 'M1',
          locationId: 'WEB',
          skuId: 'SKU1',
          quantity: 7,
          mutationDateTime: '2024-03-02T08:00:00Z',
        },
      ],
    });
    const online = { locationId: 'WEB', online: true };
    await t.wb.ingest('Sales', {
      sales: [
        sale('W1', [salesLine('W1-1', 'SKU1', 3)], { ...online, salesDateTime: '2024-03-02T10:00:00Z' }),
        sale('W2', [salesLine('W2-1', 'SKU1', 2)], { ...online, salesDateTime: '2024-03-03T10:00:00Z' }),
        sale('W3', [salesLine('W3-1', 'SKU1', -1)], { ...online, salesDateTime: '2024-03-04T12:00:00Z' }),
        sale('S1', [salesLine('S1-1', 'SKU1', 4)], { locationId: 'S1', salesDateTime: '2024-03-02T11:00:00Z' }),
      ],
    });
    const ids = ['S1', 'WEB', 'WH'];
    const read = (fulfilledFrom?: Int32Array) =>
      t!.wb.workspace.exclusive(() =>
        dailyLevels(t!.wb.workspace, ids, ['SKU1'], day('2024-03-01'), day('2024-03-05'), { fulfilledFrom }),
      );
    const days = (levels: Awaited<ReturnType<typeof read>>, l: number) =>
      Array.from(levels.cell).flatMap((c, j) =>
        c === l
          ? [
              [
                levels.d[j],
                levels.endLevel[j],
                levels.sold[j],
                levels.mutations[j],
                levels.soldOut[j],
                levels.counted[j],
              ],
            ]
          : [],
      );
    const fulfilled = await read(Int32Array.from([-1, 2, -1]));
    // [day, end, sold, mutations, sold out, counted]: the webshop's sales move the warehouse's level, which the
    // count then finds; a return goes back to it. Nothing is a mutation to replay, and the warehouse sells nothing.
    expect(days(fulfilled, 2)).toEqual([
      [0, 10, 0, 0, 0, 1],
      [1, 7, 0, 0, 0, 0],
      [2, 5, 0, 0, 0, 0],
      [3, 6, 0, 0, 0, 1],
    ]);
    // The webshop: the warehouse's level, its own sales; its own count and receipt are not read.
    expect(days(fulfilled, 1)).toEqual([
      [0, 10, 0, 0, 0, 1],
      [1, 7, 3, 0, 0, 0],
      [2, 5, 2, 0, 0, 0],
      [3, 6, 0, 0, 0, 1],
    ]);
    // The store is as it was.
    const own = await read();
    expect(days(fulfilled, 0)).toEqual(days(own, 0));
    // Read as selling from its own stock, the webshop holds its count and receipt, and the warehouse never moves.
    expect(days(own, 2).map((r) => r[1])).toEqual([10, 5]);
    expect(days(own, 1).map((r) => r[1])).toEqual([99, 103, 101, 102]);
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

describe('folding events into days', () => {
  // Two cells over three days: a count, a receipt of two lines at one instant, sales, a return, a midnight count.
  const T = (day: number, hour: number) => (day * 24 + hour) * 3_600_000_000;
  const rows: [cell: number, t: number, kind: number, v: number, sold: number, net: number, mut: number][] = [
    [0, T(9, 8), 0, 3, 0, 0, 0],
    [0, T(10, 9), 1, 2, 0, 0, 2],
    [0, T(10, 9), 1, 1, 0, 0, 1],
    [0, T(10, 12), 1, -6, 6, 6, 0],
    [0, T(10, 15), 1, 1, 0, -1, 0],
    [0, T(11, 0), 0, 4, 0, 0, 0],
    [0, T(11, 0), 1, -1, 1, 1, 0],
    [4, T(10, 10), 1, -2, 2, 2, 0],
  ];
  const events = (list: typeof rows) => ({
    cell: Int32Array.from(list, (r) => r[0]),
    t: Float64Array.from(list, (r) => r[1]),
    kind: Int32Array.from(list, (r) => r[2]),
    v: Float64Array.from(list, (r) => r[3]),
    sold: Float64Array.from(list, (r) => r[4]),
    net: Float64Array.from(list, (r) => r[5]),
    mut: Float64Array.from(list, (r) => r[6]),
    revenue: Float64Array.from(list, (r) => r[4] * 10),
  });
  const fold = (chunks: (typeof rows)[]) => {
    const f = new LevelFold(10);
    for (const c of chunks) f.push(events(c), c.length);
    return f.finish();
  };

  it('gives each cell its days: start, end, sold out, counted and the sums', () => {
    const days = fold([rows]);
    expect(Array.from(days.cell)).toEqual([0, 0, 0, 4]);
    expect(Array.from(days.d)).toEqual([-1, 0, 1, 0]);
    // 3, +3 at one instant, −6 sold (out at noon), +1 returned later; a cell never counted starts from 0.
    expect(Array.from(days.endLevel)).toEqual([3, 1, 3, -2]);
    expect(Array.from(days.soldOut)).toEqual([0, 1, 0, 1]);
    // Day 1 opens with what its midnight stamps leave: the count, less the sale stamped at midnight.
    expect(Array.from(days.opening)).toEqual([NaN, NaN, 3, NaN]);
    expect(Array.from(days.counted)).toEqual([1, 0, 1, 0]);
    expect(Array.from(days.sold)).toEqual([0, 6, 1, 2]);
    expect(Array.from(days.net)).toEqual([0, 5, 1, 2]);
    expect(Array.from(days.mutations)).toEqual([0, 3, 0, 0]);
    expect(Array.from(days.revenue)).toEqual([0, 60, 10, 20]);
  });

  it('gives the same days however the events are cut into chunks', () => {
    const whole = fold([rows]);
    for (let cut = 1; cut < rows.length; cut++) expect(fold([rows.slice(0, cut), rows.slice(cut)])).toEqual(whole);
    expect(fold(rows.map((r) => [r]))).toEqual(whole);
  });
});
