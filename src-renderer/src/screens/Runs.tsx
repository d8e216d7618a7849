import { useEffect, useState } from 'react';
import type { AdminClient, KeptRun } from '../client';
import { download } from '../csv';
import { KPIS, show } from '../kpis';
import { go, routeHash } from '../route';
import { scenarioOf } from '../runs';

/** The headline KPIs a run is listed with, simulated over actual. */
const HEADLINE = ['fillRate', 'lostSales', 'inventoryUnits'].map((key) => KPIS.find((k) => k.key === key)!);

/** The backtest runs kept in the workspace: open one, compare two, export or delete. */
export function Runs({ client }: { client: AdminClient }) {
  const [runs, setRuns] = useState<KeptRun[]>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [chosen, setChosen] = useState<string[]>([]);

  const read = () =>
    client.call('GET /backtests').then(
      ({ runs: list }) => setRuns(list),
      (e: Error) => setError(`The runs could not be read: ${e.message}`),
    );
  useEffect(() => {
    void read();
  }, [client]);

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
        <span className="hint">{runs ? `${runs.length} runs kept, newest first` : 'Loading…'}</span>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {runs && (
        <table className="grid" aria-label="Kept runs">
          <thead>
            <tr>
              <th aria-label="Choose" />
              <th>Run</th>
              <th>Period</th>
              <th>Scenario</th>
              <th>Status</th>
              {HEADLINE.map((k) => (
                <th key={k.key} className="num">
                  {k.label}: simulated / actual
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
                <td className="nowrap">
                  <a className="link" href={routeHash({ screen: 'backtest', runId: r.runId })}>
                    {r.runId}
                  </a>
                  <div className="hint">{r.createdAt.slice(0, 16).replace('T', ' ')}</div>
                </td>
                <td className="nowrap">
                  {r.from} … {r.to}
                </td>
                <td>{scenarioOf(r)}</td>
                <td>{r.status}</td>
                {HEADLINE.map((k) => (
                  <td key={k.key} className="num">
                    {show(k, r.summary.simulated)} / {show(k, r.summary.actual)}
                  </td>
                ))}
                <td className="nowrap">
                  <button type="button" onClick={() => void exportRun(r.runId)}>
                    Export
                  </button>{' '}
                  <button type="button" onClick={() => void remove(r.runId)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
