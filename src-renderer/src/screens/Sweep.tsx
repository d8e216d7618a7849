import { useCallback, useEffect, useMemo, useState } from 'react';
import { whole } from '../../../common/format';
import type { DatasetSummary } from '../../../common/api-types';
import type { AdminClient, BacktestJob, SweepHeader, SweepReport, Sweepable } from '../client';
import { FrontierChart, type FrontierMeasure, type FrontierStock } from '../FrontierChart';
import { download, toCsv } from '../csv';
import { go } from '../route';
import { useSort } from '../sort';
import { useNames } from '../use-names';
import { Notices } from '../Notices';
import { KeptSweeps } from './KeptSweeps';
import { rate, sweepColumns, SweepPoints } from './SweepPoints';
import { reachableFillRate, SweepPick, type Constraint } from './SweepPick';
import { SweepSetup, type SweepRequest } from './SweepSetup';
import { latestOnly } from '../use-fetch';

const POLL_MS = 400;

const units = whole;

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
  const { currency } = useNames();
  const [job, setJob] = useState<BacktestJob>();
  const [report, setReport] = useState<SweepReport>();
  const [measure, setMeasure] = useState<FrontierMeasure>('lostSales');
  const [stock, setStock] = useState<FrontierStock>('inventoryUnits');
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

  const start = async (body: SweepRequest) => {
    setError(undefined);
    setNotice(undefined);
    try {
      let j = await client.call('POST /sweeps', { body });
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
      <SweepSetup
        settings={settings}
        maxPoints={maxPoints}
        scenarios={scenarios}
        summary={summary}
        running={!!job}
        onStart={(request) => void start(request)}
      />
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
          <SweepPick
            report={report}
            measure={measure}
            onMeasure={setMeasure}
            stock={stock}
            onStock={setStock}
            constraint={constraint}
            onConstraint={setConstraint}
            picked={picked}
            name={name}
            onName={setName}
            onSave={() => void save()}
          />
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
