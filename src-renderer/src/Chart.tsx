/**
 * A line chart of daily series, simulated against actual (ECharts, only the parts used). Every chart pairs the two
 * sides the same way: the engine's line solid, the actual one dashed, in the same two colours (a second pair in a
 * lighter tint); the other series (demand, receipts…) in colours of their own. Long periods zoom; every chart of a
 * page switches between days and weeks together, by the page's one switch (`ChartStep`).
 */
import { useEffect, useMemo, useRef } from 'react';
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  TitleComponent,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { useWorkbench } from './store';
import { byWeek, type Series } from './weeks';
import { whole } from '../../common/format';
import { spikeCap } from './chart-scale';

export type { Series } from './weeks';

echarts.use([
  LineChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  TitleComponent,
  DataZoomComponent,
  CanvasRenderer,
]);

/** The engine's colour and the actual one, per pair: the first pair, then a lighter tint of each. */
const SIDE_COLOURS = [
  { simulated: '#2f6fb3', actual: '#d9822b' },
  { simulated: '#8fb8e3', actual: '#f0bd86' },
];
const OTHER_COLOURS = ['#3a9a5b', '#8a5cb8', '#7a7f87', '#c0392b'];
/** Beyond this many days the chart zooms: a slider below it, the wheel over it. */
const ZOOM_AFTER_DAYS = 90;
/** Days above a clipped axis named under the chart, at most. */
const SPIKES_NAMED = 3;

const sideOf = (name: string) => /^(simulated|actual)\b/.exec(name)?.[1] as 'simulated' | 'actual' | undefined;
const pairOf = (name: string) => name.replace(/^(simulated|actual)\b,?\s*/, '');

/** The one Daily / Weekly switch of a page: every chart on it shows days or weeks together. */
export function ChartStep() {
  const { chartStep, setChartStep } = useWorkbench();
  return (
    <span className="segmented chart__step" role="group" aria-label="Charts: by day or by week">
      {(['day', 'week'] as const).map((step) => (
        <button key={step} type="button" aria-pressed={chartStep === step} onClick={() => setChartStep(step)}>
          {step === 'day' ? 'Daily' : 'Weekly'}
        </button>
      ))}
    </span>
  );
}

export function Chart({
  title,
  dates,
  series,
  label,
  unit,
  levels = false,
  clipSpikes = false,
}: {
  title: string;
  dates: string[];
  series: Series[];
  label: string;
  /** What the values count, for the axis: "units", "SKU-days", "%". */
  unit: string;
  /** The values are levels or rates (a week shows their mean), not flows (a week shows their sum). */
  levels?: boolean;
  /** A day far above the others (a delivery among sales) ends the axis lower, so the other days stay readable. */
  clipSpikes?: boolean;
}) {
  const { chartStep } = useWorkbench();
  const shown = useMemo(
    () => (chartStep === 'week' ? byWeek(dates, series, levels) : { dates, series }),
    [chartStep, dates, series, levels],
  );
  const cap = useMemo(() => (clipSpikes ? spikeCap(shown.series) : undefined), [clipSpikes, shown]);
  const beyond = useMemo(
    () =>
      cap === undefined
        ? []
        : shown.series.flatMap((s) =>
            s.values.flatMap((v, i) => (v !== null && v > cap ? [{ name: s.name, date: shown.dates[i], v }] : [])),
          ),
    [cap, shown],
  );
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current);
    const pairs = [...new Set(shown.series.filter((s) => sideOf(s.name)).map((s) => pairOf(s.name)))];
    let others = 0;
    const zoom = dates.length > ZOOM_AFTER_DAYS;
    chart.setOption({
      // Results, not a show: drawn at once.
      animation: false,
      // The title on its line, the legend on the next: never over each other, however many series.
      title: { text: title, left: 0, top: 0, textStyle: { fontSize: 13, fontWeight: 600 } },
      tooltip: { trigger: 'axis' },
      legend: { type: 'scroll', left: 0, right: 0, top: 22 },
      grid: { left: 56, right: 16, top: 76, bottom: zoom ? 64 : 28 },
      xAxis: { type: 'category', data: shown.dates },
      yAxis: {
        type: 'value',
        name: chartStep === 'week' && !levels ? `${unit} per week` : unit,
        // From zero unless the data itself goes below it: no axis runs to −300 without a negative value.
        min: (extent: { min: number }) => Math.min(0, extent.min),
        ...(cap === undefined ? {} : { max: cap }),
      },
      ...(zoom ? { dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }] } : {}),
      series: shown.series.map((s) => {
        const side = sideOf(s.name);
        const colour = side
          ? SIDE_COLOURS[Math.min(pairs.indexOf(pairOf(s.name)), SIDE_COLOURS.length - 1)][side]
          : OTHER_COLOURS[others++ % OTHER_COLOURS.length];
        return {
          name: s.name,
          type: 'line',
          showSymbol: false,
          data: s.values,
          itemStyle: { color: colour },
          lineStyle: { color: colour, type: side === 'actual' ? 'dashed' : 'solid', width: side ? 2 : 1.5 },
        };
      }),
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [title, shown, unit, levels, chartStep, dates.length, cap]);
  // The canvas can't be read back; the count of drawn values says whether the chart shows data.
  const points = shown.series.reduce((n, s) => n + s.values.filter((v) => v !== null).length, 0);
  return (
    <div className="chart-box">
      <div
        ref={ref}
        className="chart"
        role="img"
        aria-label={label}
        data-points={points}
        data-step={chartStep}
        data-cap={cap}
      />
      {beyond.length > 0 && (
        <p className="hint chart__beyond" data-testid="beyond-axis">
          Above the axis ({whole(cap!)}):{' '}
          {beyond
            .slice(0, SPIKES_NAMED)
            .map((b) => `${b.name} ${whole(b.v)} on ${b.date}`)
            .join('; ')}
          {beyond.length > SPIKES_NAMED ? `; and ${whole(beyond.length - SPIKES_NAMED)} more` : ''}.
        </p>
      )}
    </div>
  );
}
