import { useCallback, useEffect, useState } from 'react';
import type { AdminClient, KeptRun } from '../client';
import { download } from '../csv';
import { KPIS, show } from '../kpis';
import { go, routeHash } from '../route';
import { runName, scenarioOf } from '../runs';
import { count } from '../../../common/format';
import { Notices } from '../Notices';

/** The headline KPIs a run is listed with, simulated over actual. */
const HEADLINE = (
  [
    ['fillRate', 'Fill rate'],
    ['lostSales', 'Lost sales'],
    ['inventoryUnits', 'Store stock'],
  ] as const
).map(([key, heading]) => ({ ...KPIS.find((k) => k.key === key)!, heading }));

/** The backtest runs kept in the workspace: open one, compare two, export or delete. */
export function Runs({ client }: { client: AdminClient }) {
  const [runs, setRuns] = useState<KeptRun[]>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [chosen, setChosen] = useState<string[]>([]);
  /** The run whose label and note are being edited. */
  const [editing, setEditing] = useState<string>();

  const read = useCallback(
    () =>
      client.call('GET /backtests').then(
        ({ runs: list }) => setRuns(list),
        (e: Error) => setError(`The runs could not be read: ${e.message}`),
      ),
    [client],
  );
  useEffect(() => {
    void read();
  }, [read]);

  const choose = (runId: string, on: boolean) =>
    // The two chosen last are the pair compared: the older one as a.
    setChosen((c) => (on ? [...c.filter((x) => x !== runId), runId].slice(-2) : c.filter((x) => x !== runId)));

  const remove = async (runId: string) => {
    if (!window.confirm(`Delete run ${runId} with its days, breakdowns and transfers?`)) return;
    setError(undefined);
    try {
      await client.call('DELETE /backtests/:runId', { params: { runId } });
      setChosen((c) => c.filter((x) => x !== runId));
      // The list first, then the notice: whoever reads the notice finds the list it speaks of.
      await read();
      setNotice(`Deleted run ${runId}`);
    } catch (e) {
      setError(`Run ${runId} was not deleted: ${(e as Error).message}`);
    }
  };

  const relabel = async (runId: string, change: { label: string; note: string }) => {
    setError(undefined);
    try {
      const run = await client.call('PUT /backtests/:runId/label', { params: { runId }, body: change });
      await read();
      setEditing(undefined);
      setNotice(run.label ? `Run ${runId} is labelled ${run.label}` : `Run ${runId} has no label`);
    } catch (e) {
      setError(`Run ${runId} was not labelled: ${(e as Error).message}`);
    }
  };

  const exportRun = async (runId: string) => {
    try {
      const report = await client.call('GET /backtests/:runId', { params: { runId } });
      download(`${runId}.json`, JSON.stringify(report, null, 2), 'application/json');
    } catch (e) {
      setError(`Run ${runId} could not be exported: ${(e as Error).message}`);
    }
  };

  if (runs && runs.length === 0)
    return (
      <p className="empty">
        No backtest runs kept yet: run one on the{' '}
        <a href="#/backtest" className="link">
          Backtest
        </a>{' '}
        screen.
      </p>
    );
  const byAge = (ids: string[]) =>
    [...ids].sort(
      (x, y) => (runs ?? []).findIndex((r) => r.runId === y) - (runs ?? []).findIndex((r) => r.runId === x),
    );
  return (
    <section aria-label="Runs">
      <div className="toolbar">
        <button
          type="button"
          disabled={chosen.length !== 2}
          onClick={() => {
            const [a, b] = byAge(chosen);
            go({ screen: 'compare', a, b });
          }}
        >
          Compare the two chosen
        </button>
        <span className="hint">{runs ? `${count(runs.length, 'run')} kept, newest first` : 'Loading…'}</span>
      </div>
      <Notices error={error} notice={notice} />
      {runs && (
        <table className="grid runs" aria-label="Kept runs">
          <thead>
            <tr>
              <th aria-label="Choose" />
              <th>Run</th>
              <th>Period and scenario</th>
              {HEADLINE.map((k) => (
                <th key={k.key} className="num" title={k.label}>
                  {k.heading}
                  <div className="hint">simulated / actual</div>
                </th>
              ))}
              <th />
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.runId} data-run={r.runId}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Choose ${r.runId}`}
                    checked={chosen.includes(r.runId)}
                    onChange={(e) => choose(r.runId, e.target.checked)}
                  />
                </td>
                <td className="runs__name">
                  <a
                    className={r.label ? 'link' : 'link nowrap'}
                    href={routeHash({ screen: 'backtest', runId: r.runId })}
                  >
                    {runName(r)}
                  </a>
                  <div className="hint">
                    {r.label ? `${r.runId} · ` : ''}
                    {r.createdAt.slice(0, 16).replace('T', ' ')}
                    {r.status === 'cancelled' ? ' · cancelled' : ''}
                  </div>
                  {r.note && (
                    <div className="runs__note" data-testid="run-note">
                      {r.note}
                    </div>
                  )}
                  {editing === r.runId && (
                    <LabelForm
                      run={r}
                      save={(change) => void relabel(r.runId, change)}
                      cancel={() => setEditing(undefined)}
                    />
                  )}
                </td>
                <td>
                  <span className="nowrap">
                    {r.from} … {r.to}
                  </span>
                  <div className="hint">{scenarioOf(r)}</div>
                </td>
                {HEADLINE.map((k) => (
                  <td key={k.key} className="num nowrap">
                    {show(k, r.summary.simulated)} / {show(k, r.summary.actual)}
                  </td>
                ))}
                <td>
                  <div className="runs__actions">
                    <button type="button" onClick={() => setEditing(r.runId)}>
                      Label…
                    </button>
                    <button type="button" onClick={() => void exportRun(r.runId)}>
                      Export
                    </button>
                    <button type="button" onClick={() => void remove(r.runId)}>
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** A run's label and note, edited where it is listed. */
function LabelForm({
  run,
  save,
  cancel,
}: {
  run: KeptRun;
  save: (change: { label: string; note: string }) => void;
  cancel: () => void;
}) {
  const [label, setLabel] = useState(run.label ?? '');
  const [note, setNote] = useState(run.note ?? '');
  return (
    <form
      className="runs__label"
      aria-label={`Label of ${run.runId}`}
      onSubmit={(e) => {
        e.preventDefault();
        save({ label, note });
      }}
    >
      <label>
        Label{' '}
        <input name="run-label" value={label} maxLength={200} onChange={(e) => setLabel(e.target.value)} autoFocus />
      </label>
      <label>
        Note{' '}
        <textarea name="run-note" value={note} maxLength={4000} rows={2} onChange={(e) => setNote(e.target.value)} />
      </label>
      <span>
        <button type="submit">Save</button>{' '}
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </span>
    </form>
  );
}
