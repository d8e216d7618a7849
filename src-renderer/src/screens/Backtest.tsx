import { useEffect, useMemo } from 'react';
import { duration, money, percent } from '../../../common/format';
import { useNames } from '../use-names';
import type { BacktestJob, BacktestResult, AdminClient } from '../client';
import type { DatasetSummary } from '../../../common/api-types';
import { go, routeHash, type Route } from '../route';
import { useWorkbench, type BacktestForm } from '../store';
import { Breakdown } from './Breakdown';
import { StyleDrill } from './StyleDrill';

type Day = BacktestResult['daily'][number];
import { Chart, ChartStep } from '../Chart';
import { KPIS, show, versusActual, type Kpi } from '../kpis';
import { units } from '../units';
import { runName, scenarioOf } from '../runs';

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
  const { backtestForm, setBacktestForm, openRun } = useWorkbench();
  const { runId, styleId, cell } = route;
  useEffect(() => {
    if (runId) void openRun(runId);
  }, [runId, openRun]);
  // The run the address names, once it is read; the form stays whatever it holds meanwhile.
  const shown = runId && kept?.run.runId === runId ? kept : undefined;
  const form = backtestForm ?? defaultForm(summary, scenarios[0]);
  const { from, to } = form;
  const scenario = scenarios.includes(form.scenario) ? form.scenario : scenarios[0];
  const edit = (change: Partial<BacktestForm>) => setBacktestForm({ ...form, scenario, ...change });
  const dates = useMemo(() => shown?.daily.map((d) => d.date) ?? [], [shown]);
  const charts = useMemo(() => {
    const result = shown;
    if (!result) return [];
    const side = (name: 'simulated' | 'actual', pick: (d: Day[typeof name]) => number | null) => ({
      name,
      values: result.daily.map((d) => pick(d[name])),
    });
    const both = (pick: (d: Day['actual']) => number | null) => [side('simulated', pick), side('actual', pick)];
    // A day with nothing on sale has no in-stock rate; the line breaks there rather than showing 100%.
    const inStock = (d: Day['actual']) =>
      d.carriedDays ? Math.round((1 - d.stockOutDays / d.carriedDays) * 1000) / 10 : null;
    return [
      {
        title: 'Stock-out SKU-days per day',
        label: 'Daily stock-out SKU-days, simulated and actual',
        unit: 'SKU-days',
        series: both((d) => d.stockOutDays),
      },
      {
        title: 'In-stock rate per day (%)',
        label: 'Daily in-stock rate, simulated and actual',
        unit: '%',
        levels: true,
        series: both(inStock),
      },
      {
        title: 'Sales and lost sales per day (units)',
        label: 'Daily sales and lost sales, simulated and actual',
        unit: 'units',
        series: [
          { name: 'simulated sales', values: result.daily.map((d) => Math.round(d.simulated.sales)) },
          { name: 'actual sales', values: result.daily.map((d) => Math.round(d.actual.sales)) },
          { name: 'simulated lost', values: result.daily.map((d) => Math.round(d.simulated.lostSales * 10) / 10) },
          { name: 'actual lost', values: result.daily.map((d) => Math.round(d.actual.lostSales * 10) / 10) },
        ],
      },
      {
        title: 'Inventory units at the end of each day',
        label: 'Daily inventory at the stores and at the warehouses, simulated and actual',
        unit: 'units',
        levels: true,
        series: [
          { name: 'simulated, stores', values: result.daily.map((d) => Math.round(d.simulated.inventoryUnits)) },
          { name: 'actual, stores', values: result.daily.map((d) => Math.round(d.actual.inventoryUnits)) },
          { name: 'simulated, warehouses', values: result.daily.map((d) => Math.round(d.simulated.warehouseUnits)) },
          { name: 'actual, warehouses', values: result.daily.map((d) => Math.round(d.actual.warehouseUnits)) },
        ],
      },
    ];
  }, [shown]);
  const result = shown;
  return (
    <section aria-label="Backtest">
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          run(from, to, scenario);
        }}
      >
        <label>
          From <input type="date" name="from" value={from} onChange={(e) => edit({ from: e.target.value })} required />
        </label>
        <label>
          To <input type="date" name="to" value={to} onChange={(e) => edit({ to: e.target.value })} required />
        </label>
        <label>
          Scenario
          <select name="scenario" value={scenario} onChange={(e) => edit({ scenario: e.target.value })}>
            {scenarios.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={running}>
          {running ? 'Running…' : 'Run backtest'}
        </button>
        {running && (
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        )}
      </form>
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
          <p className="hint">
            Run {runName(result.run)}
            {result.run.label ? ` (${result.run.runId})` : ''}, {result.run.from} … {result.run.to}, scenario{' '}
            {scenarioOf(result.run)}
            {result.run.sweep && (
              <>
                {' '}
                (point {result.run.sweep.point} of{' '}
                <a className="link" href={routeHash({ screen: 'sweep', sweepId: result.run.sweep.sweepId })}>
                  sweep {result.run.sweep.sweepId}
                </a>
                )
              </>
            )}
            , {duration(result.run.durationMs)}
          </p>
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

/**
 * The period the form starts with: the sales the workspace holds, start to end (the whole history a backtest can
 * compare against), else the last quarter.
 */
function defaultForm(summary: DatasetSummary[] | undefined, scenario: string): BacktestForm {
  const sales = summary?.find((d) => d.dataset === 'Sales');
  if (sales?.from && sales.to) return { from: sales.from.slice(0, 10), to: sales.to.slice(0, 10), scenario };
  const today = new Date();
  const before = new Date(today.getTime() - 90 * 86_400_000);
  return { from: before.toISOString().slice(0, 10), to: today.toISOString().slice(0, 10), scenario };
}

/** A KPI with the engine's figure first, the actual one under it, and the difference coloured better or worse. */
function KpiCard({ kpi, summary }: { kpi: Kpi; summary: BacktestResult['summary'] }) {
  const change = versusActual(kpi, summary.simulated, summary.actual);
  return (
    <div className="card" data-kpi={kpi.key} title={kpi.explains}>
      <div className="card__label">{kpi.label}</div>
      <div className="card__value">{show(kpi, summary.simulated)}</div>
      <div className="card__actual">
        actual {show(kpi, summary.actual)}
        {change && (
          <span className={`card__change card__change--${change.tone}`} data-tone={change.tone}>
            {' '}
            {change.text}
          </span>
        )}
      </div>
    </div>
  );
}

const STOCK_OUT_DAY = KPIS.find((k) => k.key === 'stockOutDays')!;

/** How much of the comparison rests on estimates, and what happened only in one of the two worlds. */
function Estimates({ summary }: { summary: BacktestResult['summary'] }) {
  const { currency } = useNames();
  const s = summary.simulated;
  const share = s.demand > 0 ? ` (${percent(s.estimatedDemand / s.demand)})` : '';
  return (
    <p className="hint" data-testid="estimates">
      Demand {units(s.demand)} units, of it {units(s.estimatedDemand)} estimated{share}: on days a store carried a SKU
      without stock, and beyond the sales of days it sold out; both sides meet the same demand.{' '}
      <span data-testid="stock-out-day">Stock-out days: {STOCK_OUT_DAY.explains}</span> The engine sold{' '}
      {units(s.estimatedSales)} of the estimated units.
      {s.writeDownShortfall.units > 0 &&
        ` Write-downs beyond the simulated stock: ${units(s.writeDownShortfall.units)} units ` +
          `on ${units(s.writeDownShortfall.days)} SKU-days, taken in fact only.`}
      {s.unsentTransferUnits > 0 &&
        ` Transfers never sent: ${units(s.unsentTransferUnits)} units ` +
          '(the stock their sender waited for did not come in time).'}
      {typeof summary.actual.recordedRevenue === 'number' &&
        ` Recorded revenue of the period: ${money(summary.actual.recordedRevenue, currency)} (every sales line's ` +
          `amount, ` +
          `returns, cancellations and discount lines included); sales value counts the units sold at their own ` +
          `lines' amounts.`}
      <NegativeStockNote below={summary.actual.negativeStock} />
      {summary.world && (
        <span data-testid="world">
          {' '}
          Transit in the world the data shows: {summary.world.transit}; the replay's transfers take that long, whatever
          lead time the scenario plans with.
          {` Deliveries to the stores (store-days stock arrived): ${units(s.deliveries)} simulated, `}
          {`${units(summary.actual.deliveries)} in fact.`}
        </span>
      )}
    </p>
  );
}

/** Where the history's actual stock went below zero: counted as none, and named, so no one reads it as stock. */
function NegativeStockNote({ below }: { below?: BacktestResult['summary']['actual']['negativeStock'] }) {
  if (!below || below.cells === 0) return null;
  const worst = below.worst[0];
  return (
    <span data-testid="negative-stock">
      {' '}
      Actual stock went below zero at {units(below.cells)} location×SKUs on {units(below.cellDays)} days (lowest{' '}
      {units(worst.lowest)} at {worst.locationId} × {worst.skuId}): the history sold what it did not hold, so that stock
      counts as none in the actual figures. The feed lint names the cells.
    </span>
  );
}
