import { useMemo } from 'react';
import type { StyleDaySeries } from '../client';
import { Chart } from '../Chart';
import { units } from '../units';
import { styleCharts } from './style-charts';

const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * A style's days in a run: its totals, simulated against actual, and its charts over its selling life (`life`, the
 * days themselves when it lived through the whole run).
 */
export function StyleDays({ days, life }: { days: StyleDaySeries; life: StyleDaySeries }) {
  const charts = useMemo(() => styleCharts(life), [life]);
  return (
    <>
      {/* prettier-ignore */}
      <p className="hint" data-testid="style-totals">
        {days.dates[0]} … {days.dates.at(-1)}: {units(total(days.series.simStockOutDays))} stock-out SKU-days
        and{' '}
        {units(total(days.series.simLostSales))} units of lost sales with the engine, against{' '}
        {units(total(days.series.actStockOutDays))} and {units(total(days.series.actLostSales))} in fact, of a
        demand of {units(total(days.series.demand))} units ({units(total(days.series.estimatedDemand))} of them
        estimated).
      </p>
      {life.dates.length < days.dates.length && (
        <p className="hint" data-testid="selling-life">
          Its selling life in this run: {life.dates[0]} … {life.dates.at(-1)} ({life.dates.length} of{' '}
          {days.dates.length} days); the charts span it.
        </p>
      )}
      {charts.map((c) => (
        <Chart key={c.title} {...c} dates={life.dates} />
      ))}
    </>
  );
}
