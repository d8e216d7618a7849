/**
 * A run's transfers as the workspace keeps them: every one, in the run's order, with the reference the run's own
 * rows give it (transferRows), the n-th meeting of a reference on a day included.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/recommend/settings.js';
import { storeBacktest } from '../engine/service/backtests.js';
import { Workbench } from '../engine/service/workbench.js';
import { dayText } from '../engine/model/datetime.js';
import type { SimulationResult } from '../engine/simulate/simulate.js';
import { transferRows, type TransferColumns } from '../engine/simulate/simulated-transfer.js';
import { useTempDirs } from './fixtures.js';

const tempDir = useTempDirs('wb-kept-transfers-');

/** Transfers over two days: one route sent twice on a day (its second reference "-2"), under two types. */
function columns(): TransferColumns {
  const rows: [day: number, type: number, from: number, to: number, sku: number, quantity: number][] = [
    [20_000, 1, 0, 1, 0, 3],
    [20_000, 1, 0, 1, 0, 2],
    [20_000, 2, 0, 1, 0, 1],
    [20_000, 1, 0, 2, 1, 4],
    [20_000, 1, 0, 1, 0, 5],
    [20_001, 1, 0, 1, 0, 6],
    [20_001, 0, 0, 2, 1, 7.5],
  ];
  const col = <T extends Int32Array | Uint8Array | Float64Array>(make: (n: number) => T, i: number) =>
    make(rows.length).map((_, r) => rows[r][i]) as T;
  return {
    day: col((n) => new Int32Array(n), 0),
    type: col((n) => new Uint8Array(n), 1),
    from: col((n) => new Int32Array(n), 2),
    to: col((n) => new Int32Array(n), 3),
    sku: col((n) => new Int32Array(n), 4),
    quantity: col((n) => new Float64Array(n), 5),
    // Ids longer than DuckDB keeps inline, as a retailer's often are.
    locationIds: ['WAREHOUSE-CENTRAL-01', 'ST-001', 'STORE-AMSTERDAM-CENTRAAL'],
    skuIds: ['8712345678906', 'SKU-1'],
  };
}

describe('kept transfers', () => {
  it('keeps every transfer with its run reference, the second meeting of a day numbered', async () => {
    const transfers = columns();
    const result = {
      fromDay: 20_000,
      days: 2,
      daysDone: 2,
      cancelled: false,
      summary: {},
      daily: [],
      byLocation: [],
      byStyle: [],
      transfers,
      reviews: [],
      styleDays: { styles: 0, values: new Float64Array(0) },
    } as unknown as SimulationResult;
    const wb = await Workbench.open(tempDir());
    try {
      const ws = wb.workspace;
      await ws.exclusive(() =>
        ws.transaction(() => storeBacktest(ws, 'bt-kept', 0, result, DEFAULT_SETTINGS, 'default', 0)),
      );
      const kept = await ws.rows(
        `SELECT strftime(date, '%Y-%m-%d') AS date, transferType, fromLocationId, toLocationId, skuId, quantity,
           referenceId FROM backtest_transfers WHERE runId = 'bt-kept' ORDER BY referenceId`,
      );
      const made = transferRows(transfers).map(({ day, ...t }) => ({ date: dayText(day), ...t }));
      expect(made.map((t) => t.referenceId).filter((r) => r.endsWith('-3'))).toHaveLength(1);
      expect(kept).toEqual(made.sort((x, y) => (x.referenceId < y.referenceId ? -1 : 1)));
      // Nothing of the way there is left on the connection.
      const temp = await ws.rows(`SELECT table_name FROM duckdb_tables() WHERE temporary AND table_name LIKE 'kept_%'`);
      expect(temp).toEqual([]);
    } finally {
      await wb.close();
    }
  });
});
