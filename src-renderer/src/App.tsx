import { useEffect } from 'react';
import { HttpWorkbenchClient, sessionFromLocation } from './client';
import { useWorkbench } from './store';
import { Datasets } from './screens/Datasets';
import { DataQuality } from './screens/DataQuality';

export function App() {
  const { summary, lint, loading, error, connect, refresh, client } = useWorkbench();
  useEffect(() => {
    const session = sessionFromLocation();
    if (session) connect(new HttpWorkbenchClient(session));
  }, [connect]);
  useEffect(() => {
    void refresh();
  }, [client, refresh]);

  if (!client) {
    return (
      <main className="app">
        <h1 className="app__title">Replenishment Workbench</h1>
        <p className="error" role="alert">Not connected: open the address that <code>npm run web</code> printed (it carries this session's key).</p>
      </main>
    );
  }
  return (
    <main className="app">
      <header className="app__bar">
        <h1 className="app__title">Replenishment Workbench</h1>
        <button type="button" onClick={() => void refresh()} disabled={loading}>{loading ? 'Loading…' : 'Refresh'}</button>
      </header>
      {error && <p className="error" role="alert">{error}</p>}
      <h2>Datasets</h2>
      {summary ? <Datasets summary={summary} /> : <p className="hint">Loading…</p>}
      <h2>Data quality</h2>
      {lint ? <DataQuality report={lint} /> : <p className="hint">Loading…</p>}
    </main>
  );
}
