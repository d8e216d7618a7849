/** Where a chart's value axis ends: the charts' own arithmetic, kept apart so it is tested in plain Node. */
import type { Series } from './weeks';

/**
 * Where a chart's axis stops when one day dwarfs the rest: above four times the 95th percentile of the values that
 * are not zero, the axis ends at twice that percentile and the days beyond it are named under the chart.
 */
export function spikeCap(series: Series[]): number | undefined {
  const values = series
    .flatMap((s) => s.values)
    .filter((v): v is number => v !== null && v > 0)
    .sort((a, b) => a - b);
  if (values.length < 20) return undefined;
  const p95 = values[Math.floor(values.length * 0.95) - 1];
  if (!(p95 > 0) || values[values.length - 1] <= 4 * p95) return undefined;
  const raw = 2 * p95;
  const step = 10 ** Math.floor(Math.log10(raw));
  return Math.ceil(raw / step) * step;
}
