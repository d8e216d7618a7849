import { useEffect, useState } from 'react';
import type { AdminClient, RequestLogEntry } from '../client';

/** How often the log is asked for the requests after the last one read. */
export const LOG_POLL_MS = 2000;
/** The requests read first, the most asked for at once after that, and the most kept. */
const FIRST = 200;
const AFTER = 1000;
const KEPT = 500;

/**
 * The request log as it grows, newest first: the last requests read at once, then those after the last one read,
 * again and again while the screen shows; a failed read is said and the next one tried.
 */
export function useRequestLog(client: AdminClient) {
  const [entries, setEntries] = useState<RequestLogEntry[]>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    let last: number | undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const { entries: fresh } = await client.call('GET /log', {
          query: last === undefined ? { limit: FIRST } : { afterId: last, limit: AFTER },
        });
        if (fresh.length) {
          last = fresh[fresh.length - 1].id;
          setEntries((old) => [...fresh.reverse(), ...old].slice(0, KEPT));
        }
      } catch (e) {
        setError((e as Error).message);
      }
      if (!stopped) timer = setTimeout(poll, LOG_POLL_MS);
    };
    let timer = setTimeout(poll, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [client]);
  return { entries, error, setError };
}
