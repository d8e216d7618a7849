import { useMemo } from 'react';
import type { AdminClient, BacktestResult } from '../client';
import { Chart, ChartStep } from '../Chart';
import { KPIS } from '../kpis';
import { go, type Route } from '../route';
import { backtestCharts } from './backtest-charts';
import { Estimates, KpiCard } from './BacktestFigures';
import { Breakdown } from './Breakdown';
import { RunCaption } from './RunCaption';
import { StyleDrill } from './StyleDrill';

/**
 * A run shown: which it is, its KPIs against what happened, what they rest on, its days, and where it happened (by
 * location and style), a style opened day by day from there (and a location × SKU from the style).
 */
export function BacktestRunView({
  client,
  result,
  styleId,
  cell,
}: {
  client: AdminClient;
  result: BacktestResult;
  styleId?: string;
  cell?: Extract<Route, { screen: 'backtest' }>['cell'];
}) {
  const dates = useMemo(() => result.daily.map((d) => d.date), [result]);
  const charts = useMemo(() => backtestCharts(result), [result]);
  return (
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
  );
}
