import { useEffect, useMemo } from 'react';
import type { BacktestJob, BacktestResult, AdminClient } from '../client';
import type { DatasetSummary } from '../../../common/api-types';
import { go, type Route } from '../route';
import { useWorkbench } from '../store';
import { Breakdown } from './Breakdown';
import { StyleDrill } from './StyleDrill';
import { Chart, ChartStep } from '../Chart';
import { KPIS } from '../kpis';
import { backtestCharts } from './backtest-charts';
import { Estimates, KpiCard } from './BacktestFigures';
import { BacktestToolbar } from './BacktestToolbar';
import { RunCaption } from './RunCaption';
import { useBacktestForm } from './use-backtest-form';

/** Run a backtest over a period and see how the engine would have done against what happened. */
export function Backtest({
  route,
  summary,
  client,
  run,
  cancel,
  job,
  result: kept,
  running,
  scenarios,
}: {
  route: Extract<Route, { screen: 'backtest' }>;
  summary?: DatasetSummary[];
  client: AdminClient;
  run: (from: string, to: string, scenario: string) => void;
  cancel: () => void;
  job?: BacktestJob;
  result?: BacktestResult;
  running: boolean;
  scenarios: string[];
}) {
  const openRun = useWorkbench((s) => s.openRun);
  const { runId, styleId, cell } = route;
  useEffect(() => {
    if (runId) void openRun(runId);
  }, [runId, openRun]);
  // The run the address names, once it is read; the form stays whatever it holds meanwhile.
  const result = runId && kept?.run.runId === runId ? kept : undefined;
  const { edit, ...form } = useBacktestForm(summary, scenarios);
  const dates = useMemo(() => result?.daily.map((d) => d.date) ?? [], [result]);
  const charts = useMemo(() => (result ? backtestCharts(result) : []), [result]);
  return (
    <section aria-label="Backtest">
      <BacktestToolbar
        form={form}
        scenarios={scenarios}
        running={running}
        onEdit={edit}
        onRun={run}
        onCancel={cancel}
      />
      {job && (
        <div className="progress">
          <progress max={job.days} value={job.daysDone} aria-label="Days replayed" />
          <span className="hint" data-testid="backtest-progress">
            {job.daysDone} of {job.days} days
          </span>
        </div>
      )}
      {result && (
        <>
          <RunCaption run={result.run} />
          <div className="cards">
            {KPIS.map((kpi) => (
              <KpiCard key={kpi.key} kpi={kpi} summary={result.summary} />
            ))}
          </div>
          <Estimates summary={result.summary} />
          {/* One switch for every chart of the page, the style's and the location × SKU's below included. */}
          <div className="chart-steps">
            <ChartStep />
          </div>
          {charts.map((c) => (
            <Chart key={c.title} {...c} dates={dates} />
          ))}
          {/* Kept while a style is open, so going back finds the breakdown as it was left. */}
          <div hidden={styleId !== undefined}>
            <h2>By location and style</h2>
            <Breakdown
              client={client}
              runId={result.run.runId}
              onStyle={(style) => go({ screen: 'backtest', runId: result.run.runId, styleId: style })}
            />
          </div>
          {styleId && (
            <StyleDrill
              client={client}
              runId={result.run.runId}
              styleId={styleId}
              cell={cell}
              openCell={(c) => go({ screen: 'backtest', runId: result.run.runId, styleId, cell: c })}
              closeCell={() => go({ screen: 'backtest', runId: result.run.runId, styleId })}
              back={() => go({ screen: 'backtest', runId: result.run.runId })}
            />
          )}
        </>
      )}
    </section>
  );
}
