import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MICROS } from '../engine/model/datetime.js';
import {
  dailyLevels,
  STOCK_LOOK_BACK_DAYS,
  TRANSFER_MUTATION,
  writeCellIndex,
  type DailyLevels,
} from '../engine/store/daily-levels.js';
import { LevelFold, type LevelEvents } from '../engine/store/level-fold.js';
import { timestampValue } from '../engine/store/values.js';
import { Workspace } from '../engine/store/workspace.js';
import { item, location, sale, salesLine, tempWorkbench, type TempWorkbench } from './fixtures.js';

let t: TempWorkbench | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const DAY_MS = 86_400_000;
const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY_MS;
const at = (d: number, hour = 0, minute = 0) => new Date(d * DAY_MS + (hour * 60 + minute) * 60_000).toISOString();

/**
 * The stock per day as the release before this one read it: every event since the look-back's latest level in one
 * ordered query of eight columns, folded by the same LevelFold.
 */
async function previousDailyLevels(
  ws: Workspace,
  locationIds: readonly string[],
  skuIds: readonly string[],
  fromDay: number,
  toDay: number,
  untilMicros = toDay * DAY_MICROS,
): Promise<DailyLevels> {
  const L = locationIds.length;
  await writeCellIndex(ws, locationIds, skuIds);
  const fold = new LevelFold(fromDay);
  const { int32, float64 } = Workspace;
  await ws.eachChunk<LevelEvents>(
    `
    WITH base AS (
      SELECT locationId, skuId, arg_max(quantity, stockDateTime) AS quantity, max(stockDateTime) AS t
      FROM stock WHERE stockDateTime >= $3 AND stockDateTime < $1 GROUP BY 1, 2),
    ev AS (
      SELECT locationId, skuId, t, 0 AS kind, quantity AS v, 0 AS sold, 0 AS net, 0 AS mut, 0 AS revenue FROM base
      UNION ALL SELECT locationId, skuId, stockDateTime, 0, quantity, 0, 0, 0, 0
        FROM stock WHERE stockDateTime >= $1 AND stockDateTime < $2
      UNION ALL SELECT m.locationId, m.skuId, m.mutationDateTime, 1, m.quantity, 0, 0,
               CASE WHEN regexp_matches(coalesce(m.type, ''), '${TRANSFER_MUTATION.source}', 'i')
                    THEN 0 ELSE m.quantity END, 0
        FROM stock_mutations AS m
        LEFT JOIN base AS b ON b.locationId = m.locationId AND b.skuId = m.skuId
        WHERE m._deleted_at IS NULL AND m.mutationDateTime >= $3 AND m.mutationDateTime < $2
          AND (b.t IS NULL OR m.mutationDateTime >= b.t)
      UNION ALL SELECT s.locationId, l.skuId, s.salesDateTime, 1, -l.quantitySold, greatest(l.quantitySold, 0),
               l.quantitySold, 0,
               CASE WHEN l.quantitySold > 0 THEN l.salesAmountInclVat ELSE 0 END
        FROM sales AS s JOIN sales__salesLines AS l ON l._salesId = s.salesId
        LEFT JOIN base AS b ON b.locationId = s.locationId AND b.skuId = l.skuId
        WHERE s._deleted_at IS NULL AND s.salesDateTime >= $3 AND s.salesDateTime < $2
          AND (b.t IS NULL OR s.salesDateTime >= b.t))
    SELECT (es.k * ${L} + el.l)::INTEGER AS cell, epoch_us(ev.t)::DOUBLE AS t, ev.kind::INTEGER AS kind,
           ev.v::DOUBLE AS v, ev.sold::DOUBLE AS sold, ev.net::DOUBLE AS net, ev.mut::DOUBLE AS mut,
           ev.revenue::DOUBLE AS revenue
    FROM ev JOIN level_locations AS el ON el.locationId = ev.locationId JOIN level_skus AS es ON es.skuId = ev.skuId
    ORDER BY 1, 2, 3`,
    [
      timestampValue(fromDay * DAY_MICROS),
      timestampValue(untilMicros),
      timestampValue((fromDay - STOCK_LOOK_BACK_DAYS) * DAY_MICROS),
    ],
    { cell: int32, t: float64, kind: int32, v: float64, sold: float64, net: float64, mut: float64, revenue: float64 },
    (events, rows) => fold.push(events, rows),
  );
  return fold.finish();
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)],
  };
}

describe('the level a period starts from', () => {
  it('is the latest count before it plus what moved the stock since, on every cell and day', async () => {
    t = await tempWorkbench();
    const wb = t.wb;
    const locations = ['L1', 'L2', 'L3'];
    const skus = ['S1', 'S2', 'S3', 'S4', 'S5'];
    // A location and a SKU the run does not hold: their events stay out.
    await wb.ingest('Locations', { locations: [...locations, 'LX'].map((l) => location(l)) });
    await wb.ingest('Items', { items: [item('I1', [...skus, 'SX'])] });
    const first = day('2025-03-01');
    const r = random(20250301);
    // Instants shared by counts, mutations and sales, so that moves land on a count's own instant; midnights
    // among them (a feed that sends dates only).
    const instants = Array.from({ length: 220 }, () => {
      const d = first - 440 + r.int(500);
      return r.next() < 0.3 ? at(d) : at(d, 8 + r.int(12), r.int(60));
    });
    const cells = [...locations, 'LX'].flatMap((l) => [...skus, 'SX'].map((s) => [l, s] as const));
    const stock = new Map<string, { locationId: string; skuId: string; quantity: number; stockDateTime: string }>();
    const byHand = (l: string, s: string) => l === 'L1' && s === 'S1';
    // One location×SKU is never counted: it starts from 0 at the look-back.
    for (const [locationId, skuId] of cells.filter(([l, s]) => !(l === 'L3' && s === 'S5') && !byHand(l, s))) {
      for (let n = 0; n < 1 + r.int(4); n++) {
        const stockDateTime = r.pick(instants);
        stock.set(`${locationId}|${skuId}|${stockDateTime}`, {
          locationId,
          skuId,
          quantity: r.int(12) - 1,
          stockDateTime,
        });
      }
    }
    // L1×S1 by hand: a count beyond the look-back, one 300 days before the period, the moves after it.
    stock.set('old', { locationId: 'L1', skuId: 'S1', quantity: 99, stockDateTime: at(first - 420) });
    stock.set('base', { locationId: 'L1', skuId: 'S1', quantity: 10, stockDateTime: at(first - 300, 9) });
    await wb.ingest('Stock', { stock: [...stock.values()] });
    const types = ['receipt', 'correction', 'Transfer out', 'transfer in', null];
    const mutations = Array.from({ length: 160 }, (_, i) => {
      const [locationId, skuId] = r.pick(cells.filter(([l, s]) => !byHand(l, s)));
      return {
        stockMutationId: `M${i}`,
        locationId,
        skuId,
        quantity: r.pick([-3, -1, 1, 2, 5, 0.5]),
        mutationDateTime: r.pick(instants),
        type: r.pick(types),
      };
    });
    mutations.push(
      {
        stockMutationId: 'H1',
        locationId: 'L1',
        skuId: 'S1',
        quantity: 5,
        mutationDateTime: at(first - 100, 10),
        type: 'receipt',
      },
      {
        stockMutationId: 'H2',
        locationId: 'L1',
        skuId: 'S1',
        quantity: -2,
        mutationDateTime: at(first - 50, 10),
        type: 'transfer',
      },
      // Before the count: it is in the count already.
      {
        stockMutationId: 'H3',
        locationId: 'L1',
        skuId: 'S1',
        quantity: 40,
        mutationDateTime: at(first - 310, 10),
        type: 'receipt',
      },
      {
        stockMutationId: 'GONE',
        locationId: 'L2',
        skuId: 'S2',
        quantity: 1000,
        mutationDateTime: at(first - 20, 10),
        type: 'receipt',
      },
    );
    await wb.ingest('StockMutations', { stockMutations: mutations });
    await wb.remove('StockMutations', { stockMutations: [{ stockMutationId: 'GONE' }] });
    const amounts = [0.1, 0.2, 0.3, 19.99, 5];
    const sales = Array.from({ length: 260 }, (_, i) => {
      const locationId = r.pick([...locations, 'LX']);
      const lines = Array.from({ length: 1 + r.int(3) }, (_, j) =>
        salesLine(
          `R${i}-${j}`,
          r.pick([...skus, 'SX'].filter((s) => !byHand(locationId, s))),
          r.pick([1, 1, 2, 3, -1, 0]),
          {
            salesAmountInclVat: r.pick(amounts),
          },
        ),
      );
      return sale(`R${i}`, lines, { locationId, salesDateTime: r.pick(instants) });
    });
    sales.push(
      sale('H4', [salesLine('H4-1', 'S1', 3)], { locationId: 'L1', salesDateTime: at(first - 200, 15) }),
      // At the count's own instant: after it.
      sale('H5', [salesLine('H5-1', 'S1', 1)], { locationId: 'L1', salesDateTime: at(first - 300, 9) }),
      sale('GONE', [salesLine('GONE-1', 'S2', 500)], { locationId: 'L2', salesDateTime: at(first - 20, 11) }),
    );
    await wb.ingest('Sales', { sales });
    await wb.remove('Sales', { sales: [{ salesId: 'GONE' }] });

    const ws = wb.workspace;
    const periods: [from: number, to: number, until?: number][] = [
      [first, first + 28],
      [first - 100, first - 60],
      [first + 30, first + 61],
      [first, first + 28, (first + 27) * DAY_MICROS + 13 * 3_600_000_000],
    ];
    for (const [from, to, until] of periods) {
      const previous = await ws.exclusive(() => previousDailyLevels(ws, locations, skus, from, to, until));
      const next = await ws.exclusive(() => dailyLevels(ws, locations, skus, from, to, { untilMicros: until }));
      expect(next).toEqual(previous);
    }

    // What the comparison covers: cells that start from a level, moves after it, days with sales, sold-out days.
    const levels = await ws.exclusive(() => dailyLevels(ws, locations, skus, first, first + 28));
    const rows = Array.from(levels.d.keys());
    const before = rows.filter((j) => levels.d[j] === -1);
    expect(before.length).toBeGreaterThan(10);
    expect(before.filter((j) => levels.sold[j] > 0).length).toBeGreaterThan(3);
    expect(rows.filter((j) => levels.d[j] >= 0 && levels.soldOut[j] === 1).length).toBeGreaterThan(0);
    // L1×S1 (cell 0): 10 counted 300 days before, − 1 at the count's instant − 3 + 5, and − 2 by a transfer.
    const j = rows.find((x) => levels.cell[x] === 0 && levels.d[x] === -1)!;
    expect([levels.endLevel[j], levels.sold[j], levels.mutations[j], levels.counted[j]]).toEqual([9, 4, 5, 1]);
  });
});
