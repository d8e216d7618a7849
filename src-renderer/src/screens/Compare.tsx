import { useEffect, useMemo, useState } from 'react';
import type { BacktestComparison, BacktestRun, AdminClient } from '../client';
import { Chart } from '../Chart';
import { difference, KPIS, show } from '../kpis';
import { scenarioOf } from '../runs';

type Day = BacktestComparison['a']['daily'][number];

const describe = (r: BacktestRun) => `${r.runId} · ${scenarioOf(r)} · ${r.from} … ${r.to}`;

/** Two kept backtest runs side by side, for tuning settings: each one's KPIs, the change from a to b, and the days. */
export function Compare({ client }: { client: AdminClient }) {
  const [runs, setRuns] = useState<BacktestRun[]>();
  const [a, setA] = useState('');
  const [b, setB] = useState('');
  const [result, setResult] = useState<BacktestComparison>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void client.call('GET /backtests').then(
      ({ runs: list }) => {
        setRuns(list);
        // Newest first: the latest run against the one before it.
        setB(list[0]?.runId ?? '');
        setA(list[1]?.runId ?? list[0]?.runId ?? '');
      },
      (e: Error) => setError(e.message),
    );
  }, [client]);

  const compare = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setResult(await client.call('GET /backtests/:a/compare/:b', { params: { a, b } }));
    } catch (e) {
      setError(`The runs could not be compared: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  const chart = useMemo(() => {
    if (!result) return undefined;
    const dates = [...new Set([...result.a.daily, ...result.b.daily].map((d) => d.date))].sort();
    const byDate = (rows: Day[]) => new Map(rows.map((r) => [r.date, r]));
    const [da, db] = [byDate(result.a.daily), byDate(result.b.daily)];
    const series = (pick: (r: Day) => number) => [
      { name: `a ${result.a.run.runId}`, values: dates.map((d) => (da.has(d) ? pick(da.get(d)!) : null)) },
      { name: `b ${result.b.run.runId}`, values: dates.map((d) => (db.has(d) ? pick(db.get(d)!) : null)) },
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
          void compare();
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
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
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
                <th className="num">a</th>
                <th className="num">b</th>
                <th className="num">b − a</th>
                <th className="num">actual (a's period)</th>
              </tr>
            </thead>
            <tbody>
              {KPIS.map((kpi) => (
                <tr key={kpi.key} data-kpi={kpi.key}>
                  <td>{kpi.label}</td>
                  <td className="num">{show(kpi, result.a.simulated)}</td>
                  <td className="num">{show(kpi, result.b.simulated)}</td>
                  <td className="num">{difference(kpi, result.difference[kpi.key])}</td>
                  <td className="num">{show(kpi, result.actual)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Chart
            title="Stock-out SKU-days per day"
            label="Daily stock-out SKU-days of both runs and actual"
            dates={chart.dates}
            series={chart.stockOuts}
          />
          <Chart
            title="Inventory units at the end of each day"
            label="Daily inventory of both runs"
            dates={chart.dates}
            series={chart.inventory}
          />
        </>
      )}
    </section>
  );
}
