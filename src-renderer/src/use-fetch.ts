import { useEffect, useState, type DependencyList } from 'react';

/**
 * Starts `load` and hands its answer or its error's message to `settle`, unless `cancel` (returned) was called
 * first: a screen that moves on (another run, another style) never shows a slower earlier answer under the new one.
 */
export function latestOnly<T>(
  load: () => Promise<T>,
  settle: (outcome: { data: T } | { error: string }) => void,
): () => void {
  let live = true;
  load().then(
    (data) => live && settle({ data }),
    (e: Error) => live && settle({ error: e.message }),
  );
  return () => {
    live = false;
  };
}

export interface Fetched<T> {
  data?: T;
  /** The workbench's message when the call failed. */
  error?: string;
  loading: boolean;
}

/**
 * What a screen reads from the workbench: `load` called when the screen shows and again when `deps` change (no
 * `load`: nothing is read). While a new answer is awaited the last one is gone, so no figures show under names they
 * are not of; only the latest call's answer is kept.
 */
export function useFetch<T>(load: (() => Promise<T>) | undefined, deps: DependencyList): Fetched<T> {
  const [fetched, setFetched] = useState<Fetched<T>>({ loading: load !== undefined });
  useEffect(() => {
    if (!load) {
      setFetched({ loading: false });
      return undefined;
    }
    setFetched({ loading: true });
    return latestOnly(load, (outcome) => setFetched({ ...outcome, loading: false }));
    // The caller names what the call depends on, as for useEffect; `load` itself is a new function every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return fetched;
}
