/**
 * Versioned migrations of a workspace. Version 1 creates the dataset tables from the schemas as they are in
 * this release; a later change to a schema adds a migration that alters existing workspaces, and
 * `checkSchema` refuses to open a workspace whose tables do not match the schemas.
 */
import { DATASETS } from '../model/datasets.js';
import { allTables, createTableSql, tablePlan } from './table-plan.js';
import { DAILY_COLUMNS, KPI_COLUMNS, STYLE_DAY_FIELDS } from '../model/backtest-columns.js';
import {
  CREATE_ROUTE_IDS,
  CREATE_TRANSFER_LINES,
  CREATE_TRANSFERS_VIEW,
  KEEP_TEXT_TRANSFERS,
} from './kept-transfers.js';

export interface Migration {
  version: number;
  description: string;
  statements: () => string[];
}

/**
 * The latest level per location/SKU and the sum of the live stock mutations after it; `after` is how a mutation
 * stamped at the level's own instant counts.
 */
const levelAndMutations = (after: '>' | '>=') => `WITH snap AS (
  SELECT locationId, skuId, arg_max(quantity, stockDateTime) AS quantity, max(stockDateTime) AS asOf,
         max(_updated_at) AS updatedAt
  FROM stock GROUP BY locationId, skuId),
mut AS (
  SELECT m.locationId, m.skuId, sum(m.quantity) AS delta
  FROM stock_mutations AS m LEFT JOIN snap AS s ON s.locationId = m.locationId AND s.skuId = m.skuId
  WHERE m._deleted_at IS NULL AND (s.asOf IS NULL OR m.mutationDateTime ${after} s.asOf)
  GROUP BY m.locationId, m.skuId)`;

/** Version 1's current stock: the latest level plus the live mutations after it (replaced in version 4). */
const CURRENT_STOCK_VIEW_V1 = `CREATE OR REPLACE VIEW current_stock AS
${levelAndMutations('>')}
SELECT coalesce(s.locationId, m.locationId) AS locationId, coalesce(s.skuId, m.skuId) AS skuId,
       coalesce(s.quantity, 0) + coalesce(m.delta, 0) AS quantity, s.asOf, s.updatedAt
FROM snap AS s FULL OUTER JOIN mut AS m ON s.locationId = m.locationId AND s.skuId = m.skuId`;

/**
 * Current on-hand per location/SKU: the latest level, plus the live stock mutations and minus the net sales
 * after it — the rule the engine and the backtest reconstruct stock with (daily-levels.ts). `after` is how a
 * move stamped at the level's own instant counts: version 4 left it out; since version 6 it comes after the count
 * (a feed that sends dates only stamps a day's count and its sales alike at midnight).
 */
const currentStockView = (after: '>' | '>=') => `CREATE OR REPLACE VIEW current_stock AS
${levelAndMutations(after)},
sold AS (
  SELECT sa.locationId, l.skuId, sum(l.quantitySold) AS net
  FROM sales AS sa JOIN sales__salesLines AS l ON l._salesId = sa.salesId
  LEFT JOIN snap AS s ON s.locationId = sa.locationId AND s.skuId = l.skuId
  WHERE sa._deleted_at IS NULL AND (s.asOf IS NULL OR sa.salesDateTime ${after} s.asOf)
  GROUP BY sa.locationId, l.skuId),
cells AS (
  SELECT locationId, skuId FROM snap UNION SELECT locationId, skuId FROM mut UNION SELECT locationId, skuId FROM sold)
SELECT c.locationId, c.skuId,
       coalesce(s.quantity, 0) + coalesce(m.delta, 0) - coalesce(x.net, 0) AS quantity, s.asOf, s.updatedAt
FROM cells AS c
LEFT JOIN snap AS s ON s.locationId = c.locationId AND s.skuId = c.skuId
LEFT JOIN mut AS m ON m.locationId = c.locationId AND m.skuId = c.skuId
LEFT JOIN sold AS x ON x.locationId = c.locationId AND x.skuId = c.skuId`;

/**
 * The spec's purchase-order states: deleted (DELETE), closed (completely received, or every line has nothing
 * outstanding), partially received (a line has received part), open.
 */
const PURCHASE_ORDER_STATUS_VIEW = `CREATE OR REPLACE VIEW purchase_order_status AS
SELECT p.purchaseOrderId,
  CASE WHEN p._deleted_at IS NOT NULL THEN 'deleted'
       WHEN p.completelyReceived THEN 'closed'
       WHEN count(l._ord) > 0 AND coalesce(max(l.quantityOutstanding), 0) <= 0 THEN 'closed'
       WHEN coalesce(bool_or(l.quantityOutstanding < l.quantity), false) THEN 'partiallyReceived'
       ELSE 'open' END AS status,
  coalesce(sum(l.quantityOutstanding), 0) AS quantityOutstanding,
  p.orderDueDate
FROM purchase_orders AS p
LEFT JOIN purchase_orders__purchaseOrderLines AS l ON l._purchaseOrderId = p.purchaseOrderId
GROUP BY p.purchaseOrderId, p._deleted_at, p.completelyReceived, p.orderDueDate`;

/** The tables of the datasets a schema version introduced, generated from their schemas. */
function datasetTables(version: number): string[] {
  return DATASETS.filter((d) => d.since === version).flatMap((d) =>
    allTables(tablePlan(d)).map((t) => createTableSql(t, d)),
  );
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'dataset tables, split full-load staging, workspace settings',
    statements: () => [
      ...datasetTables(1),
      `CREATE TABLE IF NOT EXISTS full_load_staging (
         dataset VARCHAR NOT NULL, started_at TIMESTAMP NOT NULL, received_at TIMESTAMP NOT NULL,
         seq INTEGER NOT NULL, records VARCHAR NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS workspace_settings (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`,
      CURRENT_STOCK_VIEW_V1,
      PURCHASE_ORDER_STATUS_VIEW,
    ],
  },
  {
    version: 2,
    description: 'images, request log, recommendation runs and transfer proposals',
    statements: () => [
      ...datasetTables(2),
      `CREATE TABLE IF NOT EXISTS request_log (
         id BIGINT NOT NULL, loggedAt TIMESTAMP NOT NULL, requestId VARCHAR NOT NULL, tenant VARCHAR,
         method VARCHAR NOT NULL, path VARCHAR NOT NULL, query VARCHAR, status INTEGER NOT NULL,
         durationMs DOUBLE NOT NULL, dataset VARCHAR, records INTEGER, errorCount INTEGER NOT NULL, errors VARCHAR,
         warningCount INTEGER NOT NULL, warnings VARCHAR, bodyExcerpt VARCHAR)`,
      `CREATE TABLE IF NOT EXISTS recommendation_runs (
         runId VARCHAR NOT NULL, startedAt TIMESTAMP NOT NULL, finishedAt TIMESTAMP NOT NULL,
         asOfDate TIMESTAMP NOT NULL, proposals INTEGER NOT NULL, summary VARCHAR NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS transfer_proposals (
         referenceId VARCHAR NOT NULL, runId VARCHAR NOT NULL, transferType VARCHAR NOT NULL,
         fromLocationId VARCHAR NOT NULL, toLocationId VARCHAR NOT NULL, skuId VARCHAR NOT NULL,
         quantity DOUBLE NOT NULL, reason VARCHAR NOT NULL, details VARCHAR, createdAt TIMESTAMP NOT NULL,
         approvalBatchId VARCHAR, confirmedDateTime TIMESTAMP, approvalBatchDescription VARCHAR,
         plannedDispatchDate DATE)`,
    ],
  },
  {
    version: 3,
    description: 'backtest runs and their results',
    statements: () => [
      `CREATE TABLE IF NOT EXISTS backtest_runs (
         runId VARCHAR PRIMARY KEY, createdAt TIMESTAMP NOT NULL, fromDate DATE NOT NULL, toDate DATE NOT NULL,
         status VARCHAR NOT NULL, scenario VARCHAR, settings VARCHAR NOT NULL, summary VARCHAR NOT NULL,
         durationMs DOUBLE NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS backtest_daily (
         runId VARCHAR NOT NULL, date DATE NOT NULL, side VARCHAR NOT NULL, stockOutDays DOUBLE, activeDays DOUBLE,
         sales DOUBLE, lostSales DOUBLE, inventoryUnits DOUBLE, transferUnits DOUBLE)`,
      `CREATE TABLE IF NOT EXISTS backtest_groups (
         runId VARCHAR NOT NULL, level VARCHAR NOT NULL, id VARCHAR NOT NULL, side VARCHAR NOT NULL,
         stockOutDays DOUBLE, activeDays DOUBLE, inStockRate DOUBLE, sales DOUBLE, salesValue DOUBLE, lostSales DOUBLE,
         fillRate DOUBLE, inventoryUnits DOUBLE, inventoryValue DOUBLE, weeksOfCover DOUBLE,
         endUnsoldUnits DOUBLE, endUnsoldValue DOUBLE)`,
      `CREATE TABLE IF NOT EXISTS backtest_transfers (
         runId VARCHAR NOT NULL, date DATE NOT NULL, transferType VARCHAR NOT NULL, fromLocationId VARCHAR NOT NULL,
         toLocationId VARCHAR NOT NULL, skuId VARCHAR NOT NULL, quantity DOUBLE NOT NULL,
         referenceId VARCHAR NOT NULL)`,
    ],
  },
  {
    version: 4,
    description: 'current stock subtracts the net sales after the latest level',
    statements: () => [currentStockView('>')],
  },
  {
    version: 5,
    description: 'backtest runs keep their review interval and their figures per style and day',
    // The columns are the fields of this release; a change to STYLE_DAY_FIELDS adds a migration.
    statements: () => [
      'ALTER TABLE backtest_runs ADD COLUMN IF NOT EXISTS reviewEveryDays INTEGER',
      `CREATE TABLE IF NOT EXISTS backtest_style_days (
         runId VARCHAR NOT NULL, styleId VARCHAR NOT NULL, date DATE NOT NULL,
         ${STYLE_DAY_FIELDS.map((f) => `${f} DOUBLE`).join(', ')})`,
    ],
  },
  {
    version: 6,
    description: "current stock counts the moves stamped at the latest level's own instant after it",
    statements: () => [currentStockView('>=')],
  },
  {
    version: 7,
    description:
      "backtests meet the history's demand on both sides and count stock where it is; " +
      'runs kept before are dropped (their actual side followed the scenario)',
    // The columns are this release's; a change to the KPI, daily or style-day columns adds a migration.
    statements: () => [
      'DROP TABLE IF EXISTS backtest_daily',
      'DROP TABLE IF EXISTS backtest_groups',
      'DROP TABLE IF EXISTS backtest_style_days',
      'DELETE FROM backtest_transfers',
      'DELETE FROM backtest_runs',
      `CREATE TABLE backtest_daily (runId VARCHAR NOT NULL, date DATE NOT NULL, side VARCHAR NOT NULL,
         ${DAILY_COLUMNS.map((c) => `${c} DOUBLE`).join(', ')})`,
      `CREATE TABLE backtest_groups (runId VARCHAR NOT NULL, level VARCHAR NOT NULL, id VARCHAR NOT NULL,
         side VARCHAR NOT NULL, ${KPI_COLUMNS.map((c) => `${c} DOUBLE`).join(', ')})`,
      `CREATE TABLE backtest_style_days (runId VARCHAR NOT NULL, styleId VARCHAR NOT NULL, date DATE NOT NULL,
         ${STYLE_DAY_FIELDS.map((f) => `${f} DOUBLE`).join(', ')})`,
    ],
  },
  {
    version: 8,
    description: "the request log keeps the port a request came in on and the start of the response's body",
    statements: () => [
      'ALTER TABLE request_log ADD COLUMN IF NOT EXISTS port INTEGER',
      'ALTER TABLE request_log ADD COLUMN IF NOT EXISTS responseExcerpt VARCHAR',
    ],
  },
  {
    version: 9,
    description: 'a SKU or sales line that a later item or sale took over from another is kept as a move',
    statements: () => [
      `CREATE TABLE IF NOT EXISTS record_moves (dataset VARCHAR NOT NULL, kind VARCHAR NOT NULL, id VARCHAR NOT NULL,
         fromParent VARCHAR NOT NULL, toParent VARCHAR NOT NULL, movedAt TIMESTAMP NOT NULL)`,
    ],
  },
  {
    version: 10,
    description: 'sweeps are kept with their runs, which stay out of the run list',
    statements: () => [
      'ALTER TABLE backtest_runs ADD COLUMN IF NOT EXISTS sweepId VARCHAR',
      `CREATE TABLE IF NOT EXISTS sweeps (sweepId VARCHAR PRIMARY KEY, createdAt TIMESTAMP NOT NULL,
         fromDate DATE NOT NULL, toDate DATE NOT NULL, scenario VARCHAR, axes VARCHAR NOT NULL,
         status VARCHAR NOT NULL, durationMs DOUBLE NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS sweep_points (sweepId VARCHAR NOT NULL, point INTEGER NOT NULL,
         runId VARCHAR NOT NULL, vary VARCHAR NOT NULL)`,
    ],
  },
  {
    version: 11,
    description: "a run keeps each review's network sums and trips, so a style can be replayed alone to trace it",
    statements: () => [
      'CREATE TABLE IF NOT EXISTS backtest_reviews (runId VARCHAR PRIMARY KEY, reviews BLOB NOT NULL)',
    ],
  },
  {
    version: 12,
    description: 'a backtest run keeps a label and a note its user gives it',
    statements: () => [
      'ALTER TABLE backtest_runs ADD COLUMN IF NOT EXISTS label VARCHAR',
      'ALTER TABLE backtest_runs ADD COLUMN IF NOT EXISTS note VARCHAR',
    ],
  },
  {
    version: 13,
    description:
      "a run's transfers are kept as numbers beside its ids and written out as they are read; runs kept before " +
      'stay as text',
    statements: () => [KEEP_TEXT_TRANSFERS, CREATE_TRANSFER_LINES, CREATE_ROUTE_IDS, CREATE_TRANSFERS_VIEW],
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

export const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY, description VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)`;
