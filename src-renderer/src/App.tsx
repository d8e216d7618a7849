import { lazy, Suspense, useEffect, useRef } from 'react';
import { AdminClient, desktopBridge, httpTransport, ipcTransport, sessionFromLocation } from './client';
import { useWorkbench } from './store';
import { Datasets } from './screens/Datasets';
import { DataQuality } from './screens/DataQuality';
import { Workspaces } from './screens/Workspaces';
import type { Staleness } from './screens/Behind';

// The first screen loads alone; each other screen (and ECharts, with the screens that chart) on its first visit.
const Backtest = lazy(() => import('./screens/Backtest').then((m) => ({ default: m.Backtest })));
const Transfers = lazy(() => import('./screens/Transfers').then((m) => ({ default: m.Transfers })));
const Integration = lazy(() => import('./screens/Integration').then((m) => ({ default: m.Integration })));
const Settings = lazy(() => import('./screens/Settings').then((m) => ({ default: m.Settings })));
const Compare = lazy(() => import('./screens/Compare').then((m) => ({ default: m.Compare })));
const Load = lazy(() => import('./screens/Load').then((m) => ({ default: m.Load })));
const Runs = lazy(() => import('./screens/Runs').then((m) => ({ default: m.Runs })));
const Sweep = lazy(() => import('./screens/Sweep').then((m) => ({ default: m.Sweep })));
import { go, SCREEN_NAMES, useRoute, type Route, type Screen } from './route';
import { Notices } from './Notices';

export function App() {
  const {
    summary,
    lint,
    summaryBehind,
    lintBehind,
    loadRunning,
    loading,
    error,
    notice,
    connect,
    refresh,
    client,
    backtest,
    backtestRunning,
    runBacktest,
    proposals,
    transfersBusy,
    runRecommendations,
    loadProposals,
    approve,
    scenarios,
    loadScenarios,
    backtestJob,
    cancelBacktest,
    loadNames,
  } = useWorkbench();
  const route = useRoute();
  const staleness = (behind: boolean): Staleness | undefined =>
    !behind ? undefined : loadRunning ? 'loading' : loading ? 'refreshing' : 'stale';
  const tab = route.screen;
  // A screen's tab goes back to the view last shown on it: the run, the style and the location × SKU left open.
  const lastShown = useRef<Partial<Record<Screen, Route>>>({});
  lastShown.current[tab] = route;
  useEffect(() => {
    if (tab === 'transfers' && !proposals) void loadProposals();
  }, [tab, proposals, loadProposals]);
  useEffect(() => {
    const bridge = desktopBridge();
    const session = bridge ? undefined : sessionFromLocation();
    if (bridge) connect(new AdminClient(ipcTransport(bridge)));
    else if (session) connect(new AdminClient(httpTransport(session)));
  }, [connect]);
  useEffect(() => {
    void refresh();
  }, [client, refresh]);
  // The names follow the data: read again whenever the counts change (a load, another workspace).
  useEffect(() => {
    if (summary) void loadNames();
  }, [summary, loadNames]);

  if (!client) {
    return (
      <main className="app">
        <h1 className="app__title">Replenishment Workbench</h1>
        <Notices
          error={
            <>
              Not connected: open the address that <code>npm run web</code> printed (it carries this session's key).
            </>
          }
        />
      </main>
    );
  }
  return (
    <main className="app">
      <header className="app__bar">
        <h1 className="app__title">Replenishment Workbench</h1>
        <button type="button" onClick={() => void refresh()} disabled={loading}>
          {loading ? 'Loading…' : 'Refresh'}
        </button>
      </header>
      <nav className="tabs" role="tablist">
        {(Object.keys(SCREEN_NAMES) as Screen[]).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={tab === t ? 'tab tab--on' : 'tab'}
            onClick={() => go(t === tab ? { screen: t } : (lastShown.current[t] ?? { screen: t }))}
          >
            {SCREEN_NAMES[t]}
          </button>
        ))}
      </nav>
      {/* A notice belongs to the screen whose action it tells of. */}
      <Notices error={error} notice={notice?.screen === tab && notice.text} />
      {tab === 'workspace' && (
        <>
          <Workspaces client={client} />
          <h2>Datasets</h2>
          {summary ? (
            <Datasets summary={summary} behind={staleness(summaryBehind)} />
          ) : (
            <p className="hint">Loading…</p>
          )}
          <h2>Data quality</h2>
          {lint ? (
            <DataQuality report={lint} client={client} behind={staleness(lintBehind)} />
          ) : (
            <p className="hint">Loading…</p>
          )}
        </>
      )}
      <Suspense fallback={<p className="hint">Loading…</p>}>
        {tab === 'load' && <Load client={client} />}
        {(tab === 'settings' || tab === 'backtest' || tab === 'sweep') && scenarios.length === 0 && (
          <p className="hint">Loading…</p>
        )}
        {route.screen === 'settings' && scenarios.length > 0 && (
          <Settings
            client={client}
            names={scenarios}
            scenario={route.scenario ?? scenarios[0]}
            pick={(scenario) => go({ screen: 'settings', scenario })}
            saved={loadScenarios}
          />
        )}
        {route.screen === 'backtest' && scenarios.length > 0 && (
          <Backtest
            route={route}
            summary={summary}
            client={client}
            run={(f, t, s) => void runBacktest(f, t, s)}
            cancel={() => void cancelBacktest()}
            job={backtestJob}
            result={backtest}
            running={backtestRunning}
            scenarios={scenarios}
          />
        )}
        {tab === 'runs' && <Runs client={client} />}
        {route.screen === 'compare' && <Compare client={client} a={route.a} b={route.b} />}
        {route.screen === 'sweep' && scenarios.length > 0 && (
          <Sweep
            client={client}
            sweepId={route.sweepId}
            summary={summary}
            scenarios={scenarios}
            saved={loadScenarios}
          />
        )}
        {tab === 'transfers' && (
          <Transfers
            rows={proposals}
            busy={transfersBusy}
            run={() => void runRecommendations()}
            approve={(ids, d, p) => void approve(ids, d, p)}
          />
        )}
        {tab === 'integration' && <Integration client={client} />}
      </Suspense>
    </main>
  );
}
