/**
 * A run's transfers as the workspace keeps them: every one, in the run's order, with the reference the run's own
 * rows give it (transferRows), the n-th meeting of a reference on a day included.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/recommend/settings.js';
import { KEEP_LINES_AT_ONCE, storeBacktest } from '../engine/service/backtests.js';
import { Workbench } from '../engine/service/workbench.js';
import { dayText } from '../engine/model/datetime.js';
import type { SimulationResult } from '../engine/simulate/simulate.js';
import { transferRows, type TransferColumns } from '../engine/simulate/simulated-transfer.js';
import { useTempDirs } from './fixtures.js';
import { SCHEMA_VERSION } from '../engine/store/migrations.js';
import { transfersAsText } from './schema-history.js';
import type { Workspace } from '../engine/store/workspace.js';

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

/** A run's result with these transfers and nothing else. */
function resultOf(transfers: TransferColumns): SimulationResult {
  return {
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
}

/** The transfers a run made, as the service shows them, in order of their references. */
const made = (transfers: TransferColumns) =>
  transferRows(transfers)
    .map(({ day, ...t }) => ({ date: dayText(day), ...t }))
    .sort((x, y) => (x.referenceId < y.referenceId ? -1 : 1));

const keptOf = (ws: Workspace, runId: string) =>
  ws.rows(
    `SELECT strftime(date, '%Y-%m-%d') AS date, transferType, fromLocationId, toLocationId, skuId, quantity,
       referenceId FROM backtest_transfers WHERE runId = $1 ORDER BY referenceId`,
    [runId],
  );

const keep = (ws: Workspace, runId: string, transfers: TransferColumns) =>
  ws.exclusive(() =>
    ws.transaction(() => storeBacktest(ws, runId, 0, resultOf(transfers), DEFAULT_SETTINGS, 'default', 0)),
  );

describe('kept transfers', () => {
  it('keeps every transfer with its run reference, the second meeting of a day numbered', async () => {
    const transfers = columns();
    const wb = await Workbench.open(tempDir());
    try {
      const ws = wb.workspace;
      await keep(ws, 'bt-kept', transfers);
      expect(made(transfers).filter((t) => t.referenceId.endsWith('-3'))).toHaveLength(1);
      expect(await keptOf(ws, 'bt-kept')).toEqual(made(transfers));
      // As numbers beside the run's ids, once each.
      const [lines] = await ws.rows<{ n: number }>(
        `SELECT count(*)::INTEGER AS n FROM backtest_transfer_lines WHERE runId = 'bt-kept'`,
      );
      expect(lines.n).toBe(transfers.day.length);
      // Nothing of the way there is left on the connection.
      const temp = await ws.rows(`SELECT table_name FROM duckdb_tables() WHERE temporary AND table_name LIKE 'kept_%'`);
      expect(temp).toEqual([]);
    } finally {
      await wb.close();
    }
  });

  it('reads a run an earlier release kept as text beside one kept as numbers, and deletes it', async () => {
    const dir = tempDir();
    const transfers = columns();
    let wb = await Workbench.open(dir);
    try {
      // The workspace as the release before left it: its transfers a table of text, this migration not applied.
      const ws = wb.workspace;
      await keep(ws, 'bt-text', transfers);
      await transfersAsText((sql) => ws.run(sql));
      await ws.run('DELETE FROM schema_migrations WHERE version >= 13');
    } finally {
      await wb.close();
    }
    wb = await Workbench.open(dir);
    try {
      const ws = wb.workspace;
      expect(await ws.schemaVersion()).toBe(SCHEMA_VERSION);
      await keep(ws, 'bt-numbers', transfers);
      expect(await keptOf(ws, 'bt-text')).toEqual(made(transfers));
      expect(await keptOf(ws, 'bt-numbers')).toEqual(made(transfers));
      const [text] = await ws.rows<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM backtest_text_transfers`);
      expect(text.n).toBe(transfers.day.length);
      expect(await wb.deleteBacktest('bt-text')).toBe(true);
      expect(await keptOf(ws, 'bt-text')).toEqual([]);
      expect(await keptOf(ws, 'bt-numbers')).toEqual(made(transfers));
    } finally {
      await wb.close();
    }
  });

  it('keeps a run of more lines than one statement moves whole', async () => {
    const n = 2 * KEEP_LINES_AT_ONCE + 1;
    // One route a day: the digest met once a day, every line its own reference.
    const transfers: TransferColumns = {
      day: Int32Array.from({ length: n }, (_, i) => 20_000 + i),
      type: new Uint8Array(n).fill(1),
      from: new Int32Array(n),
      to: new Int32Array(n).fill(1),
      sku: new Int32Array(n),
      quantity: Float64Array.from({ length: n }, (_, i) => i + 1),
      locationIds: ['WH-01', 'ST-001'],
      skuIds: ['SKU-1'],
    };
    const wb = await Workbench.open(tempDir());
    try {
      const ws = wb.workspace;
      await keep(ws, 'bt-long', transfers);
      const [kept] = await ws.rows<{ n: number; units: number; first: string; last: string }>(
        `SELECT count(*)::INTEGER AS n, sum(quantity) AS units, min(referenceId) AS first, max(referenceId) AS last
         FROM backtest_transfers WHERE runId = 'bt-long'`,
      );
      const rows = transferRows(transfers);
      expect(kept).toEqual({
        n,
        units: (n * (n + 1)) / 2,
        first: rows[0].referenceId,
        last: rows[n - 1].referenceId,
      });
    } finally {
      await wb.close();
    }
  });
});
