import { useEffect, useState } from 'react';
import type { AdminClient, TraceProgress } from '../client';
import { useFetch } from '../use-fetch';

/** How often a style being traced is asked how far it got. */
export const TRACE_POLL_MS = 500;

/**
 * A style's location × SKUs in a run, and, while they are awaited, how far the replay that traces them got: a big
 * run takes as long to trace as it took to run.
 */
export function useStyleCells(client: AdminClient, runId: string, styleId: string) {
  const { data: cells, error } = useFetch(
    () => client.call('GET /backtests/:runId/styles/:styleId/cells', { params: { runId, styleId } }),
    [client, runId, styleId],
  );
  const [progress, setProgress] = useState<TraceProgress>();
  const waiting = !cells && !error;
  useEffect(() => {
    if (!waiting) return undefined;
    let live = true;
    // A failed poll says nothing the awaited cells will not: their answer carries any error.
    const timer = setInterval(
      () =>
        client.call('GET /backtests/:runId/styles/:styleId/trace', { params: { runId, styleId } }).then(
          (p) => live && setProgress(p),
          () => undefined,
        ),
      TRACE_POLL_MS,
    );
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [client, runId, styleId, waiting]);
  return { cells, error, waiting, progress };
}
