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

/** Whether two lists of dependencies hold the same values, as React compares them. */
const sameDeps = (a: DependencyList, b: DependencyList) =>
  a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

/**
 * What a screen reads from the workbench: `load` called when the screen shows and again when `deps` change (no
 * `load`: nothing is read). While a new answer is awaited the last one is gone, so no figures show under names they
 * are not of; only the latest call's answer is kept.
 */
export function useFetch<T>(load: (() => Promise<T>) | undefined, deps: DependencyList): Fetched<T> {
  // Each outcome with the dependencies it was read for.
  const [fetched, setFetched] = useState<{ deps: DependencyList; outcome: Fetched<T> }>(() => ({
    deps,
    outcome: { loading: load !== undefined },
  }));
  useEffect(() => {
    if (!load) {
      setFetched({ deps, outcome: { loading: false } });
      return undefined;
    }
    setFetched({ deps, outcome: { loading: true } });
    return latestOnly(load, (outcome) => setFetched({ deps, outcome: { ...outcome, loading: false } }));
    // The caller names what the call depends on, as for useEffect; `load` itself is a new function every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  // The render in which the dependencies change comes before the effect that reads for them: the answer held then is
  // for the old ones, and shows nowhere.
  return sameDeps(fetched.deps, deps) ? fetched.outcome : { loading: load !== undefined };
}
