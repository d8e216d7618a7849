/**
 * How a backtest run keeps its transfers: millions of lines on a large retailer, each kept as numbers (its day, its
 * type and route by number, its quantity, and what its reference is made of) beside the run's location and SKU ids,
 * once each. `backtest_transfers` is a view that writes them out as the service's transfers: the ids joined back and
 * the reference made by DuckDB as it is read (referenceSql). Turning every line into text as a run was kept took
 * 6–7 s of a 22 s `workbench backtest` of the big set, for rows a user reads a few at a time.
 *
 * The numbers stand for TRANSFER_TYPES by position: a change to that list, or to a reference's form, adds a
 * migration that makes the view again.
 */
import { referenceSql } from '../model/transfer-reference.js';
import { TRANSFER_TYPES } from '../model/settings.js';

/** A run's ids by number: its locations (kind 0) and its SKUs (kind 1). */
export const ROUTE_ID_KIND = { location: 0, sku: 1 } as const;

export const TRANSFER_LINE_COLUMNS = [
  ['runId', 'VARCHAR'],
  ['day', 'INTEGER'],
  ['type', 'INTEGER'],
  ['fromLoc', 'INTEGER'],
  ['toLoc', 'INTEGER'],
  ['sku', 'INTEGER'],
  ['quantity', 'DOUBLE'],
  ['digest', 'DOUBLE'],
  ['n', 'INTEGER'],
] as const;

export const CREATE_TRANSFER_LINES = `CREATE TABLE IF NOT EXISTS backtest_transfer_lines (
  ${TRANSFER_LINE_COLUMNS.map(([name, type]) => `${name} ${type} NOT NULL`).join(', ')})`;

export const CREATE_ROUTE_IDS = `CREATE TABLE IF NOT EXISTS backtest_route_ids (
  runId VARCHAR NOT NULL, kind INTEGER NOT NULL, i INTEGER NOT NULL, id VARCHAR NOT NULL)`;

const typeList = `[${TRANSFER_TYPES.map((t) => `'${t}'`).join(', ')}]`;

/**
 * The transfers as the service shows them, with the columns of the table they were kept in before: those kept as
 * numbers written out, then those an earlier release kept as text (backtest_text_transfers), as they were.
 */
export const CREATE_TRANSFERS_VIEW = `CREATE OR REPLACE VIEW backtest_transfers AS
  SELECT r.runId, DATE '1970-01-01' + r.day AS date, ${typeList}[r.type + 1] AS transferType,
    f.id AS fromLocationId, o.id AS toLocationId, s.id AS skuId, r.quantity,
    ${referenceSql(TRANSFER_TYPES, { type: 'r.type', day: 'r.day', digest: 'r.digest', n: 'r.n' })} AS referenceId
  FROM backtest_transfer_lines r
  JOIN backtest_route_ids f ON f.runId = r.runId AND f.kind = ${ROUTE_ID_KIND.location} AND f.i = r.fromLoc
  JOIN backtest_route_ids o ON o.runId = r.runId AND o.kind = ${ROUTE_ID_KIND.location} AND o.i = r.toLoc
  JOIN backtest_route_ids s ON s.runId = r.runId AND s.kind = ${ROUTE_ID_KIND.sku} AND s.i = r.sku
  UNION ALL
  SELECT runId, date, transferType, fromLocationId, toLocationId, skuId, quantity, referenceId
  FROM backtest_text_transfers`;

/**
 * Runs kept as text stay so (turning 56 M of them into numbers took minutes at a workspace's first opening): their
 * table is renamed, and the view takes its name.
 */
export const KEEP_TEXT_TRANSFERS = 'ALTER TABLE backtest_transfers RENAME TO backtest_text_transfers';

/** The tables a run's transfers are kept in (what deleting a run deletes from). */
export const KEPT_TRANSFER_TABLES = [
  'backtest_transfer_lines',
  'backtest_route_ids',
  'backtest_text_transfers',
] as const;
