/** A backtest run's figures per style and day: kept with the run, read back as one style's day-by-day series. */
import { DuckDBDateValue } from '@duckdb/node-api';
import { RequestRejected } from '../model/problems.js';
import { dayText } from '../model/datetime.js';
import { STYLE_DAY_FIELDS, type StyleDayField, type StyleDays } from '../simulate/style-days.js';
import { appendRows } from '../store/append.js';
import type { Workspace } from '../store/workspace.js';

export interface StyleDaySeries {
  runId: string;
  styleId: string;
  /** One per day replayed. */
  dates: string[];
  series: Record<StyleDayField, number[]>;
}

/** Sums of the day's changes carry float noise (2.9999999999996); a millionth of a unit is plenty. */
const tidy = (v: number) => Math.round(v * 1e6) / 1e6;

/** Keeps the first `daysDone` days of every style; a style-day with nothing in it is left out (read back as 0). */
export async function storeStyleDays(
  ws: Workspace,
  runId: string,
  fromDay: number,
  daysDone: number,
  styleIds: readonly string[],
  d: StyleDays,
): Promise<number> {
  const F = STYLE_DAY_FIELDS.length;
  const dates = Array.from({ length: daysDone }, (_, i) => new DuckDBDateValue(fromDay + i));
  function* rows() {
    for (let s = 0; s < d.styles; s++) {
      for (let i = 0; i < daysDone; i++) {
        const at = (i * d.styles + s) * F;
        let any = false;
        for (let f = 0; f < F && !any; f++) any = d.values[at + f] !== 0;
        if (!any) continue;
        const row: (string | number | DuckDBDateValue)[] = [runId, styleIds[s], dates[i]];
        for (let f = 0; f < F; f++) row.push(tidy(d.values[at + f]));
        yield row;
      }
    }
  }
  return appendRows(
    ws,
    'backtest_style_days',
    ['VARCHAR', 'VARCHAR', 'DATE', ...STYLE_DAY_FIELDS.map(() => 'DOUBLE' as const)],
    rows(),
  );
}

/** The run's period as replayed: its first day and the days done (fewer than the period when cancelled). */
export async function replayedDays(ws: Workspace, runId: string): Promise<{ fromDay: number; daysDone: number }> {
  const [r] = await ws.rows<{ fromDate: DuckDBDateValue; n: number }>(
    `SELECT fromDate, (SELECT count(*) FROM backtest_daily WHERE runId = $1 AND side = 'simulated')::INTEGER AS n
    FROM backtest_runs WHERE runId = $1`,
    [runId],
  );
  if (!r) throw new RequestRejected(`no backtest run "${runId.slice(0, 80)}"`, 404);
  return { fromDay: r.fromDate.days, daysDone: Number(r.n) };
}

export async function styleDaySeries(ws: Workspace, runId: string, styleId: string): Promise<StyleDaySeries> {
  const { fromDay, daysDone } = await replayedDays(ws, runId);
  // The fields are never NULL: every style-day kept is written whole (storeStyleDays).
  const cols = await ws.columns<{ i: number } & Record<StyleDayField, number>>(
    `SELECT datediff('day', $3::DATE, date)::INTEGER AS i, ${STYLE_DAY_FIELDS.join(', ')}
    FROM backtest_style_days WHERE runId = $1 AND styleId = $2`,
    [runId, styleId, new DuckDBDateValue(fromDay)],
  );
  const index = cols.i;
  if (index.length === 0) {
    const [kept] = await ws.rows('SELECT 1 FROM backtest_style_days WHERE runId = $1 LIMIT 1', [runId]);
    // Days are kept only where something happened: a style of the run with none has all-zero days.
    const [ofRun] = await ws.rows(
      `SELECT 1 FROM backtest_groups WHERE runId = $1 AND level = 'style' AND id = $2 LIMIT 1`,
      [runId, styleId],
    );
    if (!kept && daysDone > 0)
      throw new RequestRejected(
        `run "${runId}" was kept before runs recorded their days per style: ` +
          `run the backtest again to see a style day by day`,
        404,
      );
    if (!ofRun) throw new RequestRejected(`run "${runId}" has no style "${styleId.slice(0, 80)}"`, 404);
  }
  const series = Object.fromEntries(
    STYLE_DAY_FIELDS.map((f) => {
      const out = new Array<number>(daysDone).fill(0);
      const v = cols[f];
      for (let j = 0; j < index.length; j++) out[index[j]] = v[j];
      return [f, out];
    }),
  ) as Record<StyleDayField, number[]>;
  return { runId, styleId, dates: Array.from({ length: daysDone }, (_, i) => dayText(fromDay + i)), series };
}
