import { useEffect, useState } from 'react';
import type { ListenerStatus, AdminClient } from '../client';
import { ApiFacts } from './ApiFacts';
import { Notices } from '../Notices';

const DEFAULT_PORT = 8080;

/** The port typed, as a number a listener can take (0 picks any free port); undefined when it is none. */
export function parsePort(text: string): number | undefined {
  const p = Number(text);
  return Number.isInteger(p) && p >= 0 && p <= 65_535 ? p : undefined;
}

/** Starts and stops the local API an integrator's client posts to, on this computer only, and says how to reach it. */
export function LocalApi({ client }: { client: AdminClient }) {
  const [status, setStatus] = useState<ListenerStatus>();
  const [port, setPort] = useState(String(DEFAULT_PORT));
  const [tenant, setTenant] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    void client.call('GET /listener').then(
      (s) => {
        setStatus(s);
        setTenant(s.tenant);
      },
      (e: Error) => setError(e.message),
    );
  }, [client]);

  const act = async (change: () => Promise<ListenerStatus>, failed: string) => {
    setError(undefined);
    setBusy(true);
    try {
      setStatus(await change());
    } catch (e) {
      setError(`${failed}: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  const start = (e: React.FormEvent) => {
    e.preventDefault();
    const p = parsePort(port);
    if (p === undefined) return setError('The port is a whole number from 1 to 65535 (0 picks any free port).');
    void act(
      () => client.call('POST /listener/start', { body: { port: p, tenant: tenant || undefined } }),
      'Not started',
    );
  };

  return (
    <section aria-label="Local API">
      <h2>Local API</h2>
      <Notices error={error} />
      {status && !status.listening && (
        <form className="toolbar" onSubmit={start}>
          <label>
            Port{' '}
            <input name="port" inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} size={6} />
          </label>
          <label>
            Tenant <input name="tenant" value={tenant} onChange={(e) => setTenant(e.target.value)} size={12} />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Starting…' : 'Start'}
          </button>
          <span className="hint">Listens on this computer only (127.0.0.1), on the workspace open now.</span>
        </form>
      )}
      {status?.listening && (
        <>
          <ApiFacts
            label="Listening on"
            {...status}
            url={status.url!}
            testIds={{ facts: 'listener', url: 'listener-url', curl: 'listener-curl' }}
          />
          <button
            type="button"
            disabled={busy}
            onClick={() => void act(() => client.call('POST /listener/stop'), 'Not stopped')}
          >
            {busy ? 'Stopping…' : 'Stop'}
          </button>
        </>
      )}
    </section>
  );
}
