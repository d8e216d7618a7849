import { useCallback, useEffect, useMemo, useState } from 'react';
import { whole } from '../../../common/format';
import type { DatasetSummary } from '../../../common/api-types';
import type { AdminClient, BacktestJob, SweepHeader, SweepReport, Sweepable } from '../client';
import { FrontierChart, type FrontierMeasure, type FrontierStock } from '../FrontierChart';
import { download, toCsv } from '../csv';
import { go } from '../route';
import { useSort } from '../sort';
import { useWorkbench } from '../store';
import { useNames } from '../use-names';
import { settingName } from '../../../common/setting-names';
import { Notices } from '../Notices';
import { KeptSweeps } from './KeptSweeps';
import { rate, sweepColumns, SweepPoints } from './SweepPoints';
import { latestOnly } from '../use-fetch';

/** One varied setting as the form holds it: the values as typed. */
interface Axis {
  setting: string;
  values: string;
}

type Constraint = { kind: 'fillRate'; value: string } | { kind: 'stock'; value: string };

const MAX_AXES = 3;
const POLL_MS = 400;

const parseValues = (text: string) =>
  text
    .split(/[,\s]+/)
    .filter(Boolean)
    .map(Number);

const units = whole;

/** The period the form starts with: the Backtest screen's, else the sales the workspace holds. */
function startingPeriod(summary: DatasetSummary[] | undefined, backtest?: { from: string; to: string }) {
  if (backtest?.from && backtest.to) return { from: backtest.from, to: backtest.to };
  const sales = summary?.find((d) => d.dataset === 'Sales');
  return { from: sales?.from?.slice(0, 10) ?? '', to: sales?.to?.slice(0, 10) ?? '' };
}

/**
 * A fill rate some point meets, to start the pick on: the history's own (the engine's points should match it), to a
 * tenth of a point, else the best any point reached. A goal no point meets picks nothing, which helps no one.
 */
function reachableFillRate(report: SweepReport): string {
  const best = Math.max(...report.runs.map((r) => r.fillRate ?? 0));
  const actual = report.actual.fillRate ?? 0;
  const goal = actual > 0 && actual <= best ? actual : best;
  return String(Math.floor(goal * 1000) / 10);
}

/**
 * Tuning offline: a grid of settings run as backtests over one period, and the trade-off they draw between lost
 * sales and store stock. A constraint picks a point, which is kept as a scenario in one click.
 */
export function Sweep({
  client,
  sweepId,
  summary,
  scenarios,
  saved,
}: {
  client: AdminClient;
  sweepId?: string;
  summary: DatasetSummary[] | undefined;
  scenarios: string[];
  /** The scenario names changed: a point was kept as one. */
  saved: () => void;
}) {
  const [settings, setSettings] = useState<readonly Sweepable[]>([]);
  const [maxPoints, setMaxPoints] = useState(0);
  const [kept, setKept] = useState<SweepHeader[]>();
  const { backtestForm } = useWorkbench();
  const { currency } = useNames();
  const [period, setPeriod] = useState(() => startingPeriod(summary, backtestForm));
  const [base, setBase] = useState(scenarios[0] ?? 'default');
  const [axes, setAxes] = useState<Axis[]>([
    { setting: 'defaults.serviceLevel', values: '0.85, 0.9, 0.95, 0.99' },
    { setting: 'redistribution.tripCost', values: '20, 40, 80' },
  ]);
  const [job, setJob] = useState<BacktestJob>();
  const [report, setReport] = useState<SweepReport>();
  const [measure, setMeasure] = useState<FrontierMeasure>('lostSales');
  const [stock, setStock] = useState<FrontierStock>('inventoryUnits');
  /** No SKU has a cost price: stock has no value to tell, so the frontier is in units. */
  const unvalued = report?.actual.inventoryValue === null;
  const [constraint, setConstraint] = useState<Constraint>({ kind: 'fillRate', value: '95' });
  const [picked, setPicked] = useState<number | null>();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();

  const readKept = useCallback(
    () =>
      client.call('GET /sweeps').then(
        ({ sweeps }) => setKept(sweeps),
        (e: Error) => setError(`The sweeps could not be read: ${e.message}`),
      ),
    [client],
  );
  useEffect(() => {
    void client.call('GET /sweeps/settings').then((s) => {
      setSettings(s.settings);
      setMaxPoints(s.maxPoints);
    });
    void readKept();
  }, [client, readKept]);
  useEffect(() => {
    if (!period.from && summary) setPeriod(startingPeriod(summary, backtestForm));
  }, [summary, period.from, backtestForm]);
  useEffect(() => {
    setReport(undefined);
    setPicked(undefined);
    if (!sweepId) return;
    return latestOnly(
      () => client.call('GET /sweeps/:sweepId', { params: { sweepId } }),
      (read) => {
        if ('error' in read) return setError(`Sweep ${sweepId} could not be read: ${read.error}`);
        setReport(read.data);
        // The pick starts on a goal some point meets.
        setConstraint({ kind: 'fillRate', value: reachableFillRate(read.data) });
      },
    );
  }, [client, sweepId]);

  // The point the constraint picks, asked of the service whenever the constraint or the sweep changes.
  useEffect(() => {
    setPicked(undefined);
    const value = Number(constraint.value);
    if (!report || constraint.value.trim() === '' || !Number.isFinite(value)) return;
    const query =
      constraint.kind === 'fillRate' ? { fillRateAtLeast: value / 100 } : { inventoryAtMost: String(value) };
    return latestOnly(
      () => client.call('GET /sweeps/:sweepId/pick', { params: { sweepId: report.sweepId }, query }),
      (read) => setPicked('data' in read ? (read.data.point ?? null) : null),
    );
  }, [client, report, constraint]);

  const points = axes.reduce((n, a) => n * Math.max(1, parseValues(a.values).length), 1);
  const start = async () => {
    setError(undefined);
    setNotice(undefined);
    try {
      let j = await client.call('POST /sweeps', {
        body: {
          from: period.from,
          to: period.to,
          scenario: base,
          vary: axes.map((a) => ({ setting: a.setting, values: parseValues(a.values) })),
        },
      });
      setJob(j);
      while (j.status === 'running') {
        await new Promise((r) => setTimeout(r, POLL_MS));
        j = await client.call('GET /sweeps/jobs/:jobId', { params: { jobId: j.jobId } });
        setJob(j);
      }
      if (j.status === 'failed') throw new Error(j.error ?? 'it failed');
      await readKept();
      if (j.sweepId) go({ screen: 'sweep', sweepId: j.sweepId });
    } catch (e) {
      setError(`The sweep did not run: ${(e as Error).message}`);
    } finally {
      setJob(undefined);
    }
  };

  const remove = async (id: string) => {
    if (!window.confirm(`Delete sweep ${id} with its runs?`)) return;
    try {
      await client.call('DELETE /sweeps/:sweepId', { params: { sweepId: id } });
      await readKept();
      if (id === sweepId) go({ screen: 'sweep' });
      setNotice(`Deleted sweep ${id}`);
    } catch (e) {
      setError(`Sweep ${id} was not deleted: ${(e as Error).message}`);
    }
  };

  const save = async () => {
    if (!report || !picked) return;
    setError(undefined);
    try {
      await client.call('POST /sweeps/:sweepId/points/:point/scenario', {
        params: { sweepId: report.sweepId, point: picked },
        body: { name },
      });
      saved();
      setNotice(`Kept point ${picked} as scenario ${name}`);
    } catch (e) {
      setError(`The scenario was not kept: ${(e as Error).message}`);
    }
  };

  const open = useCallback((runId: string) => go({ screen: 'backtest', runId }), []);
  const varied = report?.axes.map((a) => a.setting) ?? [];
  const columns = useMemo(() => sweepColumns(report?.axes.map((a) => a.setting) ?? []), [report]);
  const { sorted, heading } = useSort(report?.runs ?? [], columns);
  const exportCsv = () => {
    if (!report) return;
    const head = ['point', ...varied, 'lostSales', 'fillRate', 'inventoryUnits', 'trips', 'units', 'frontier', 'runId'];
    const rows = sorted.map((r) => [
      r.point,
      ...varied.map((s) => r.vary[s]),
      r.lostSales,
      r.fillRate ?? '',
      r.inventoryUnits,
      r.trips,
      r.units,
      r.frontier ? 'yes' : '',
      r.runId,
    ]);
    download(`${report.sweepId}.csv`, toCsv(head, rows));
  };

  return (
    <section aria-label="Sweep">
      <form
        className="toolbar"
        aria-label="Set up a sweep"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <label>
          From{' '}
          <input type="date" value={period.from} onChange={(e) => setPeriod({ ...period, from: e.target.value })} />
        </label>
        <label>
          To <input type="date" value={period.to} onChange={(e) => setPeriod({ ...period, to: e.target.value })} />
        </label>
        <label>
          Starting from{' '}
          <select value={base} onChange={(e) => setBase(e.target.value)}>
            {scenarios.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        {axes.map((a, i) => (
          <span key={i} className="axis" data-axis={i}>
            <select
              aria-label={`Setting ${i + 1}`}
              value={a.setting}
              onChange={(e) => setAxes(axes.map((x, j) => (j === i ? { ...x, setting: e.target.value } : x)))}
            >
              {settings.map((s) => (
                <option key={s.path} value={s.path} title={`${s.path}: ${s.description}`}>
                  {settingName(s.path)}
                </option>
              ))}
            </select>{' '}
            <input
              aria-label={`Values of setting ${i + 1}`}
              value={a.values}
              onChange={(e) => setAxes(axes.map((x, j) => (j === i ? { ...x, values: e.target.value } : x)))}
            />{' '}
            <button
              type="button"
              aria-label={`Remove setting ${i + 1}`}
              onClick={() => setAxes(axes.filter((_, j) => j !== i))}
            >
              ×
            </button>
          </span>
        ))}
        {axes.length < MAX_AXES && (
          <button type="button" onClick={() => setAxes([...axes, { setting: settings[0]?.path ?? '', values: '' }])}>
            Vary another setting
          </button>
        )}
        <button type="submit" disabled={!!job || axes.length === 0 || points > maxPoints}>
          {`Run sweep (${points} point${points === 1 ? '' : 's'})`}
        </button>
        {points > maxPoints && <span className="error">at most {maxPoints} points</span>}
      </form>
      {job && (
        <div className="progress" data-testid="sweep-progress">
          <progress max={job.days} value={job.daysDone} /> day {whole(job.daysDone)} of {whole(job.days)} over every
          point{' '}
          <button
            type="button"
            onClick={() => void client.call('POST /sweeps/jobs/:jobId/cancel', { params: { jobId: job.jobId } })}
          >
            Cancel
          </button>
        </div>
      )}
      <Notices error={error} notice={notice} />

      {report && (
        <>
          <h2>
            {report.sweepId}: {report.from} … {report.to}, {report.points} points from {report.scenario ?? 'default'}
            {report.status === 'cancelled' ? ' (cancelled)' : ''}
          </h2>
          <div className="toolbar">
            <span className="segmented" role="group" aria-label="Measure against stock">
              {(['lostSales', 'fillRate'] as const).map((m) => (
                <button key={m} type="button" aria-pressed={measure === m} onClick={() => setMeasure(m)}>
                  {m === 'lostSales' ? 'Lost sales' : 'Fill rate'}
                </button>
              ))}
            </span>
            <span className="segmented" role="group" aria-label="Stock in">
              {(['inventoryUnits', 'inventoryValue'] as const).map((m) => (
                <button
                  key={m}
                  type="button"
                  aria-pressed={stock === m}
                  onClick={() => setStock(m)}
                  // Without cost prices stock has no value to tell: units it is.
                  disabled={m === 'inventoryValue' && unvalued}
                  title={m === 'inventoryValue' && unvalued ? 'no cost prices: value n/a' : ''}
                >
                  {m === 'inventoryUnits' ? 'Units' : 'Value'}
                </button>
              ))}
            </span>
            <label>
              Pick{' '}
              <select
                aria-label="Constraint"
                value={constraint.kind}
                onChange={(e) =>
                  setConstraint(
                    e.target.value === 'fillRate'
                      ? { kind: 'fillRate', value: reachableFillRate(report) }
                      : { kind: 'stock', value: String(Math.round(report.actual.inventoryUnits)) },
                  )
                }
              >
                <option value="fillRate">the least stock with a fill rate of at least (%)</option>
                <option value="stock">the least lost sales with store stock at most (units)</option>
              </select>{' '}
              <input
                aria-label="Constraint value"
                value={constraint.value}
                onChange={(e) => setConstraint({ ...constraint, value: e.target.value })}
                size={8}
              />
            </label>
            <span data-testid="picked">{picked ? `point ${picked}` : picked === null ? 'no point meets it' : ''}</span>
            <label>
              Keep as scenario{' '}
              <input aria-label="Scenario name" value={name} onChange={(e) => setName(e.target.value)} />
            </label>
            <button type="button" disabled={!picked || !name} onClick={() => void save()}>
              Save as scenario
            </button>
          </div>
          <FrontierChart
            sweep={report}
            measure={measure}
            stock={stock}
            picked={picked ?? undefined}
            open={open}
            currency={currency}
          />
          <p className="hint" data-testid="actual-point">
            {`Actual: lost sales ${units(report.actual.lostSales)}, fill rate ${rate(report.actual.fillRate)}, ` +
              `store stock ${units(report.actual.inventoryUnits)}. Points on the frontier lose less at no more ` +
              'stock than any other. Click a point to open its run.'}
          </p>
          <div className="toolbar">
            <button type="button" onClick={exportCsv}>
              Export CSV
            </button>
          </div>
          <SweepPoints rows={sorted} varied={varied} heading={heading} picked={picked} />
        </>
      )}

      <h2>Kept sweeps</h2>
      <KeptSweeps kept={kept} remove={(id) => void remove(id)} />
    </section>
  );
}
