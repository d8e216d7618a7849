/**
 * A line chart of daily series, simulated against actual (ECharts, only the parts used). Every chart pairs the two
 * sides the same way: the engine's line solid, the actual one dashed, in the same two colours (a second pair in a
 * lighter tint); the other series (demand, receipts…) in colours of their own. Long periods zoom; every chart
 * switches between days and weeks together.
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

echarts.use([
  LineChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  TitleComponent,
  DataZoomComponent,
  CanvasRenderer,
]);

export interface Series {
  /** "simulated …" and "actual …" pair up by the rest of their names ("simulated sales" with "actual sales"). */
  name: string;
  /** One per date; null where the series has no such day. */
  values: (number | null)[];
}

/** The engine's colour and the actual one, per pair: the first pair, then a lighter tint of each. */
const SIDE_COLOURS = [
  { simulated: '#2f6fb3', actual: '#d9822b' },
  { simulated: '#8fb8e3', actual: '#f0bd86' },
];
const OTHER_COLOURS = ['#3a9a5b', '#8a5cb8', '#7a7f87', '#c0392b'];
/** Beyond this many days the chart zooms: a slider below it, the wheel over it. */
const ZOOM_AFTER_DAYS = 90;

const sideOf = (name: string) => /^(simulated|actual)\b/.exec(name)?.[1] as 'simulated' | 'actual' | undefined;
const pairOf = (name: string) => name.replace(/^(simulated|actual)\b,?\s*/, '');

/** Monday of a date's week, as YYYY-MM-DD. */
function weekOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/**
 * Days gathered into weeks (labelled by their Monday): a flow adds up over the week, a level (stock on hand, a rate)
 * is the week's mean; a week with no value stays empty.
 */
export function byWeek(dates: string[], series: Series[], levels: boolean): { dates: string[]; series: Series[] } {
  const weeks: string[] = [];
  const at: number[] = [];
  for (const d of dates) {
    const w = weekOf(d);
    if (weeks[weeks.length - 1] !== w) weeks.push(w);
    at.push(weeks.length - 1);
  }
  return {
    dates: weeks,
    series: series.map((s) => {
      const sum = new Array<number>(weeks.length).fill(0);
      const n = new Array<number>(weeks.length).fill(0);
      s.values.forEach((v, i) => {
        if (v === null) return;
        sum[at[i]] += v;
        n[at[i]]++;
      });
      return {
        name: s.name,
        values: sum.map((x, w) => (n[w] === 0 ? null : Math.round((levels ? x / n[w] : x) * 10) / 10)),
      };
    }),
  };
}

export function Chart({
  title,
  dates,
  series,
  label,
  unit,
  levels = false,
}: {
  title: string;
  dates: string[];
  series: Series[];
  label: string;
  /** What the values count, for the axis: "units", "SKU-days", "%". */
  unit: string;
  /** The values are levels or rates (a week shows their mean), not flows (a week shows their sum). */
  levels?: boolean;
}) {
  const { chartStep, setChartStep } = useWorkbench();
  const shown = useMemo(
    () => (chartStep === 'week' ? byWeek(dates, series, levels) : { dates, series }),
    [chartStep, dates, series, levels],
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
      title: { text: title, textStyle: { fontSize: 13, fontWeight: 600 } },
      tooltip: { trigger: 'axis' },
      legend: { top: 0, right: 0 },
      grid: { left: 56, right: 16, top: 44, bottom: zoom ? 64 : 28 },
      xAxis: { type: 'category', data: shown.dates },
      yAxis: { type: 'value', name: chartStep === 'week' && !levels ? `${unit} per week` : unit },
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
  }, [title, shown, unit, levels, chartStep, dates.length]);
  // The canvas can't be read back; the count of drawn values says whether the chart shows data.
  const points = shown.series.reduce((n, s) => n + s.values.filter((v) => v !== null).length, 0);
  return (
    <div className="chart-box">
      <span className="segmented chart__step" role="group" aria-label={`${title}: by day or by week`}>
        {(['day', 'week'] as const).map((step) => (
          <button key={step} type="button" aria-pressed={chartStep === step} onClick={() => setChartStep(step)}>
            {step === 'day' ? 'Daily' : 'Weekly'}
          </button>
        ))}
      </span>
      <div ref={ref} className="chart" role="img" aria-label={label} data-points={points} data-step={chartStep} />
    </div>
  );
}
