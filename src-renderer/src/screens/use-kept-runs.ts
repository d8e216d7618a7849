import { useCallback, useEffect, useState } from 'react';
import type { AdminClient, KeptRun } from '../client';
import { download } from '../csv';

/**
 * The backtest runs kept in the workspace, newest first, and what the Runs screen does with them: two chosen to
 * compare, one labelled, exported or deleted (after the user confirms), each outcome said.
 */
export function useKeptRuns(client: AdminClient) {
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
  /** The two runs chosen, the older first; undefined unless two are. */
  const pair = (): [a: string, b: string] | undefined => {
    if (chosen.length !== 2) return undefined;
    // Listed newest first: the further down, the older.
    const place = (id: string) => (runs ?? []).findIndex((r) => r.runId === id);
    const [a, b] = [...chosen].sort((x, y) => place(y) - place(x));
    return [a, b];
  };

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

  return { runs, error, notice, chosen, choose, pair, editing, setEditing, remove, relabel, exportRun };
}
