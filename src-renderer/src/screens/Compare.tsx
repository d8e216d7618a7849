import { useMemo } from 'react';
import type { AdminClient } from '../client';
import { Chart, ChartStep } from '../Chart';
import { go } from '../route';
import { Notices } from '../Notices';
import { comparisonCharts } from './compare-charts';
import { CompareKpis } from './CompareKpis';
import { ComparePicker } from './ComparePicker';
import { SettingsDifference } from './SettingsDifference';
import { StylesDifference } from './StylesDifference';
import { useComparison } from './use-comparison';

/** Two kept backtest runs side by side, for tuning settings: each one's KPIs, the change from a to b, and the days. */
export function Compare({ client, a: routeA, b: routeB }: { client: AdminClient; a?: string; b?: string }) {
  const { runs, picked, setPicked, result, busy, error } = useComparison(client, routeA, routeB);
  const chart = useMemo(() => result && comparisonCharts(result), [result]);
  if (runs && runs.length === 0)
    return <p className="empty">No backtest runs yet: run one on the Backtest screen, then come back to compare.</p>;
  const samePeriod = result && result.a.run.from === result.b.run.from && result.a.run.to === result.b.run.to;
  return (
    <section aria-label="Compare runs">
      <ComparePicker
        runs={runs ?? []}
        picked={picked}
        busy={busy}
        onPick={setPicked}
        onCompare={(pair) => go({ screen: 'compare', ...pair })}
      />
      <Notices error={error} />
      {result && chart && (
        <>
          {!samePeriod && (
            <p className="hint" role="note">
              The runs cover different periods: their totals are not like for like.
            </p>
          )}
          <CompareKpis result={result} />
          <SettingsDifference result={result} />
          <StylesDifference result={result} />
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
