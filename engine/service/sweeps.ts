/**
 * Sweeps kept in the workspace: the grid a sweep ran, and for each point its run (kept like any backtest, but
 * listed with its sweep rather than among the runs), read back with the frontier marked.
 */
import type { SimulationResult } from '../simulate/simulate.js';
import { formatIsoMicros } from '../model/datetime.js';
import { timestampValue, toDuck } from '../store/values.js';
import type { Workspace } from '../store/workspace.js';
import { deleteBacktest } from './backtests.js';
import { onFrontier, type FrontierPoint } from './sweep-frontier.js';
import type { SweepAxis, SweepPoint } from './sweep-grid.js';

type Summary = SimulationResult['summary'];

export interface SweepHeader {
  sweepId: string;
  createdAt: string;
  from: string;
  to: string;
  /** The scenario every point starts from (the default one when none was named). */
  scenario?: string;
  /** The settings varied, by path, with their values. */
  axes: SweepAxis[];
  status: 'completed' | 'cancelled';
  durationMs: number;
  /** Points run (a cancelled sweep keeps those it finished). */
  points: number;
}

export interface SweepRun extends FrontierPoint {
  point: number;
  runId: string;
  /** The value of each varied setting at this point. */
  vary: SweepPoint;
  units: number;
  lines: number;
  inStockRate: number | null;
  /** No other point loses less and holds less stock at once. */
  frontier: boolean;
}

export interface SweepReport extends SweepHeader {
  runs: SweepRun[];
  /** The history's own point (the same for every run: the actual side does not depend on the settings). */
  actual: FrontierPoint & { inStockRate: number | null };
}

/** A run's point on the frontier, from its summary. */
export function pointOf(summary: Summary): Omit<SweepRun, 'point' | 'runId' | 'vary' | 'frontier'> {
  const s = summary.simulated;
  const transfers = Object.values(s.transfers);
  return {
    lostSales: s.lostSales,
    fillRate: s.fillRate,
    inStockRate: s.inStockRate,
    inventoryUnits: s.inventoryUnits,
    inventoryValue: s.inventoryValue,
    trips: transfers.reduce((n, t) => n + t.trips, 0),
    lines: transfers.reduce((n, t) => n + t.lines, 0),
    units: transfers.reduce((n, t) => n + t.units, 0),
  };
}

export async function storeSweep(
  ws: Workspace,
  header: Omit<SweepHeader, 'createdAt' | 'points'> & { createdAt: number },
  points: { point: number; runId: string; vary: SweepPoint }[],
): Promise<void> {
  await ws.run('INSERT INTO sweeps VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
    header.sweepId,
    timestampValue(header.createdAt),
    toDuck('DATE', header.from),
    toDuck('DATE', header.to),
    header.scenario ?? null,
    JSON.stringify(header.axes),
    header.status,
    header.durationMs,
  ]);
  for (const p of points)
    await ws.run('INSERT INTO sweep_points VALUES ($1, $2, $3, $4)', [
      header.sweepId,
      p.point,
      p.runId,
      JSON.stringify(p.vary),
    ]);
}

interface SweepRow {
  sweepId: string;
  created: bigint;
  fromText: string;
  toText: string;
  scenario: string | null;
  axes: string;
  status: SweepHeader['status'];
  durationMs: number;
  points: bigint;
}

const SWEEP_COLUMNS = `s.sweepId, epoch_us(s.createdAt) AS created, strftime(s.fromDate, '%Y-%m-%d') AS fromText,
  strftime(s.toDate, '%Y-%m-%d') AS toText, s.scenario, s.axes, s.status, s.durationMs,
  (SELECT count(*) FROM sweep_points AS p WHERE p.sweepId = s.sweepId) AS points`;

const headerOf = (r: SweepRow): SweepHeader => ({
  sweepId: r.sweepId,
  createdAt: formatIsoMicros(Number(r.created)),
  from: r.fromText,
  to: r.toText,
  ...(r.scenario ? { scenario: r.scenario } : {}),
  axes: JSON.parse(r.axes),
  status: r.status,
  durationMs: Math.round(Number(r.durationMs)),
  points: Number(r.points),
});

export async function listSweeps(ws: Workspace): Promise<SweepHeader[]> {
  const rows = await ws.rows<SweepRow>(`SELECT ${SWEEP_COLUMNS} FROM sweeps AS s ORDER BY s.createdAt DESC`);
  return rows.map(headerOf);
}

export async function getSweep(ws: Workspace, sweepId: string): Promise<SweepReport | undefined> {
  const [row] = await ws.rows<SweepRow>(`SELECT ${SWEEP_COLUMNS} FROM sweeps AS s WHERE s.sweepId = $1`, [sweepId]);
  if (!row) return undefined;
  // A point whose run was deleted on its own is left out.
  const points = await ws.rows<{ point: number; runId: string; vary: string; summary: string }>(
    `SELECT p.point, p.runId, p.vary, r.summary FROM sweep_points AS p JOIN backtest_runs AS r USING (runId)
     WHERE p.sweepId = $1 ORDER BY p.point`,
    [sweepId],
  );
  const summaries = points.map((p) => JSON.parse(p.summary) as Summary);
  const figures = summaries.map(pointOf);
  const frontier = onFrontier(figures);
  const actualSide = summaries[0]?.actual;
  return {
    ...headerOf(row),
    runs: points.map((p, i) => ({
      point: p.point,
      runId: p.runId,
      vary: JSON.parse(p.vary),
      ...figures[i],
      frontier: frontier[i],
    })),
    actual: {
      lostSales: actualSide?.lostSales ?? 0,
      fillRate: actualSide?.fillRate ?? null,
      inStockRate: actualSide?.inStockRate ?? null,
      inventoryUnits: actualSide?.inventoryUnits ?? 0,
      inventoryValue: actualSide?.inventoryValue ?? null,
      trips: 0,
    },
  };
}

/** Deletes a sweep and its runs; false when there is no such sweep. */
export async function deleteSweep(ws: Workspace, sweepId: string): Promise<boolean> {
  const [found] = await ws.rows<{ n: bigint }>('SELECT count(*) AS n FROM sweeps WHERE sweepId = $1', [sweepId]);
  if (found.n === 0n) return false;
  const runs = await ws.rows<{ runId: string }>('SELECT runId FROM sweep_points WHERE sweepId = $1', [sweepId]);
  for (const r of runs) await deleteBacktest(ws, r.runId);
  await ws.run('DELETE FROM sweep_points WHERE sweepId = $1', [sweepId]);
  await ws.run('DELETE FROM sweeps WHERE sweepId = $1', [sweepId]);
  return true;
}
