import { useEffect, useState } from 'react';
import type { AdminClient, BacktestRun } from '../client';
import { go } from '../route';
import { latestOnly, useFetch } from '../use-fetch';

/**
 * The pair compared when the address names none: the newest run against the newest earlier one over the same period
 * (a comparison of different periods is not like for like), else against the one before it.
 */
export function defaultPair(runs: BacktestRun[]): { a: string; b: string } | undefined {
  const [newest, ...older] = runs;
  if (!newest) return undefined;
  const same = older.find((r) => r.from === newest.from && r.to === newest.to);
  return { a: (same ?? older[0] ?? newest).runId, b: newest.runId };
}

/**
 * The Compare screen's runs and the comparison of the pair the address names (`routeA`, `routeB`): with none named,
 * the default pair is put in the address; the pair picked in the form follows the address until the user picks.
 */
export function useComparison(client: AdminClient, routeA?: string, routeB?: string) {
  const [runs, setRuns] = useState<BacktestRun[]>();
  // The pair picked in the form; the address holds the pair compared.
  const [picked, setPicked] = useState<{ a: string; b: string }>();
  const [listError, setListError] = useState<string>();

  // Read again whenever the address names no pair, so the default pair is picked among the runs kept now; put in
  // the address (Back skips it: it only names what is shown).
  const pairless = !routeA || !routeB;
  useEffect(
    () =>
      latestOnly(
        () => client.call('GET /backtests'),
        (read) => {
          if ('error' in read) return setListError(read.error);
          setRuns(read.data.runs);
          const pair = pairless && defaultPair(read.data.runs);
          if (pair) go({ screen: 'compare', ...pair }, { replace: true });
        },
      ),
    [client, pairless],
  );
  useEffect(() => {
    if (routeA && routeB) setPicked({ a: routeA, b: routeB });
  }, [routeA, routeB]);
  // No pair named: nothing compared is shown until the default pair is (never the last pair under a bare address).
  const compared = useFetch(
    routeA && routeB
      ? () => client.call('GET /backtests/:a/compare/:b', { params: { a: routeA, b: routeB } })
      : undefined,
    [client, routeA, routeB],
  );
  return {
    runs,
    picked: { a: picked?.a ?? '', b: picked?.b ?? '' },
    setPicked,
    result: compared.data,
    busy: compared.loading,
    error: compared.error ? `The runs could not be compared: ${compared.error}` : listError,
  };
}
