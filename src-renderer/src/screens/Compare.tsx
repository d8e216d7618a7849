import { useEffect, useMemo, useState } from 'react';
import type { BacktestComparison, BacktestRun, AdminClient } from '../client';
import { Chart, ChartStep } from '../Chart';
import { difference, KPIS, show } from '../kpis';
import { scenarioOf } from '../runs';
import { go } from '../route';
import { Notices } from '../Notices';
import { latestOnly, useFetch } from '../use-fetch';

type Day = BacktestComparison['a']['daily'][number];

const describe = (r: BacktestRun) =>
  `${r.label ? `${r.label} (${r.runId})` : r.runId} · ${scenarioOf(r)} · ${r.from} … ${r.to}`;

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

/** Two kept backtest runs side by side, for tuning settings: each one's KPIs, the change from a to b, and the days. */
export function Compare({ client, a: routeA, b: routeB }: { client: AdminClient; a?: string; b?: string }) {
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
  const result = compared.data;
  const busy = compared.loading;
  const error = compared.error ? `The runs could not be compared: ${compared.error}` : listError;
  const a = picked?.a ?? '';
  const b = picked?.b ?? '';
  const setA = (v: string) => setPicked({ a: v, b });
  const setB = (v: string) => setPicked({ a, b: v });
  const compare = () => go({ screen: 'compare', a, b });

  const chart = useMemo(() => {
    if (!result) return undefined;
    const dates = [...new Set([...result.a.daily, ...result.b.daily].map((d) => d.date))].sort();
    const byDate = (rows: Day[]) => new Map(rows.map((r) => [r.date, r]));
    const [da, db] = [byDate(result.a.daily), byDate(result.b.daily)];
    // Legends name the scenarios; the run ids only tell apart two runs of one scenario.
    const sameScenario = scenarioOf(result.a.run) === scenarioOf(result.b.run);
    const name = (side: 'a' | 'b') => {
      const run = result[side].run;
      return `${side}: ${scenarioOf(run)}${sameScenario ? ` (${run.runId})` : ''}`;
    };
    const series = (pick: (r: Day) => number) => [
      { name: name('a'), values: dates.map((d) => (da.has(d) ? pick(da.get(d)!) : null)) },
      { name: name('b'), values: dates.map((d) => (db.has(d) ? pick(db.get(d)!) : null)) },
    ];
    return {
      dates,
      stockOuts: [
        ...series((r) => r.simulated.stockOutDays),
        { name: 'actual', values: dates.map((d) => (da.get(d) ?? db.get(d))?.actual.stockOutDays ?? null) },
      ],
      inventory: series((r) => Math.round(r.simulated.inventoryUnits)),
    };
  }, [result]);

  if (runs && runs.length === 0)
    return <p className="empty">No backtest runs yet: run one on the Backtest screen, then come back to compare.</p>;
  const samePeriod = result && result.a.run.from === result.b.run.from && result.a.run.to === result.b.run.to;
  return (
    <section aria-label="Compare runs">
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          compare();
        }}
      >
        {(
          [
            ['a', a, setA],
            ['b', b, setB],
          ] as const
        ).map(([name, value, set]) => (
          <label key={name}>
            Run {name}
            <select name={name} value={value} onChange={(e) => set(e.target.value)}>
              {(runs ?? []).map((r) => (
                <option key={r.runId} value={r.runId}>
                  {describe(r)}
                </option>
              ))}
            </select>
          </label>
        ))}
        <button type="submit" disabled={busy || !a || !b}>
          {busy ? 'Comparing…' : 'Compare'}
        </button>
      </form>
      <Notices error={error} />
      {result && chart && (
        <>
          {!samePeriod && (
            <p className="hint" role="note">
              The runs cover different periods: their totals are not like for like.
            </p>
          )}
          <table className="grid compare" aria-label="KPIs of both runs">
            <thead>
              <tr>
                <th>KPI</th>
                <th className="num">a: {scenarioOf(result.a.run)}</th>
                <th className="num">b: {scenarioOf(result.b.run)}</th>
                <th className="num">b − a</th>
                <th className="num">actual (a's period)</th>
              </tr>
            </thead>
            <tbody>
              {KPIS.map((kpi) => (
                <tr key={kpi.key} data-kpi={kpi.key}>
                  <td title={kpi.explains}>{kpi.label}</td>
                  <td className="num">{show(kpi, result.a.simulated)}</td>
                  <td className="num">{show(kpi, result.b.simulated)}</td>
                  <td className="num">{difference(kpi, result.difference[kpi.key])}</td>
                  <td className="num">{show(kpi, result.actual)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <SettingsDifference result={result} />
          <div className="chart-steps">
            <ChartStep />
          </div>
          <Chart
            title="Stock-out SKU-days per day"
            label="Daily stock-out SKU-days of both runs and actual"
            unit="SKU-days"
            dates={chart.dates}
            series={chart.stockOuts}
          />
          <Chart
            title="Inventory units at the end of each day"
            label="Daily inventory of both runs"
            unit="units"
            levels
            dates={chart.dates}
            series={chart.inventory}
          />
        </>
      )}
    </section>
  );
}

/** The settings behind the difference: each one the two runs were given differently. */
function SettingsDifference({ result }: { result: BacktestComparison }) {
  const value = (v: unknown) => (v === null ? '(not set)' : JSON.stringify(v));
  if (result.settings.length === 0)
    return (
      <p className="hint" data-testid="settings-difference">
        Both runs used the same settings.
      </p>
    );
  return (
    <>
      <h3>Settings that differ</h3>
      <table className="grid" aria-label="Settings that differ">
        <thead>
          <tr>
            <th>Setting</th>
            <th>a: {scenarioOf(result.a.run)}</th>
            <th>b: {scenarioOf(result.b.run)}</th>
          </tr>
        </thead>
        <tbody>
          {result.settings.map((d) => (
            <tr key={d.path} data-setting={d.path}>
              <td>{d.path}</td>
              <td>{value(d.a)}</td>
              <td>{value(d.b)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
