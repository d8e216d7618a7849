import { useCallback, useEffect, useState } from 'react';
import type { AdminClient, BacktestJob, SweepHeader, SweepReport, Sweepable } from '../client';
import { go } from '../route';
import { latestOnly } from '../use-fetch';
import { reachableFillRate, type Constraint } from './SweepPick';
import type { SweepRequest } from './SweepSetup';

const POLL_MS = 400;

/** The settings a sweep may vary and how many points it may have, read once. */
function useSweepable(client: AdminClient) {
  const [settings, setSettings] = useState<readonly Sweepable[]>([]);
  const [maxPoints, setMaxPoints] = useState(0);
  useEffect(() => {
    void client.call('GET /sweeps/settings').then((s) => {
      setSettings(s.settings);
      setMaxPoints(s.maxPoints);
    });
  }, [client]);
  return { settings, maxPoints };
}

/**
 * The sweep shown (read whenever its id changes), the constraint that picks one of its points and the point the
 * service picks for it (asked again whenever the constraint or the sweep changes).
 */
function useShownSweep(client: AdminClient, sweepId: string | undefined, setError: (e: string) => void) {
  const [report, setReport] = useState<SweepReport>();
  const [constraint, setConstraint] = useState<Constraint>({ kind: 'fillRate', value: '95' });
  const [picked, setPicked] = useState<number | null>();
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
  }, [client, sweepId, setError]);
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
  return { report, constraint, setConstraint, picked };
}

/** The sweeps kept, read again after a change, and one deleted after the user confirms (left when it is shown). */
function useKeptSweeps(
  client: AdminClient,
  sweepId: string | undefined,
  setError: (e: string) => void,
  setNotice: (n: string) => void,
) {
  const [kept, setKept] = useState<SweepHeader[]>();
  const readKept = useCallback(
    () =>
      client.call('GET /sweeps').then(
        ({ sweeps }) => setKept(sweeps),
        (e: Error) => setError(`The sweeps could not be read: ${e.message}`),
      ),
    [client, setError],
  );
  useEffect(() => {
    void readKept();
  }, [readKept]);

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

  return { kept, readKept, remove };
}

/**
 * What the Sweep screen shows and does: the sweepable settings, the kept sweeps, the one shown and its picked point;
 * a sweep run (its job polled until it ends, then opened), one deleted after the user confirms, and the point picked
 * kept as a scenario under a name, each outcome said.
 */
export function useSweep(client: AdminClient, sweepId: string | undefined, saved: () => void) {
  const { settings, maxPoints } = useSweepable(client);
  const [job, setJob] = useState<BacktestJob>();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const { report, constraint, setConstraint, picked } = useShownSweep(client, sweepId, setError);
  const { kept, readKept, remove } = useKeptSweeps(client, sweepId, setError, setNotice);

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

  const cancel = (jobId: string) => void client.call('POST /sweeps/jobs/:jobId/cancel', { params: { jobId } });

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

  return {
    settings,
    maxPoints,
    kept,
    job,
    report,
    constraint,
    setConstraint,
    picked,
    name,
    setName,
    error,
    notice,
    start,
    cancel,
    remove,
    save,
  };
}
