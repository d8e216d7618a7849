/** A line chart of daily series, simulated against actual (ECharts, only the parts used). */
import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, TitleComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, TitleComponent, CanvasRenderer]);

export interface Series {
  name: string;
  /** One per date; null where the series has no such day. */
  values: (number | null)[];
}

export function Chart({
  title,
  dates,
  series,
  label,
}: {
  title: string;
  dates: string[];
  series: Series[];
  label: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current);
    chart.setOption({
      // Results, not a show: drawn at once.
      animation: false,
      title: { text: title, textStyle: { fontSize: 13, fontWeight: 600 } },
      tooltip: { trigger: 'axis' },
      legend: { top: 0, right: 0 },
      grid: { left: 50, right: 16, top: 36, bottom: 28 },
      xAxis: { type: 'category', data: dates },
      yAxis: { type: 'value' },
      series: series.map((s) => ({ name: s.name, type: 'line', showSymbol: false, data: s.values })),
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [title, dates, series]);
  // The canvas can't be read back; the count of drawn values says whether the chart shows data.
  const points = series.reduce((n, s) => n + s.values.filter((v) => v !== null).length, 0);
  return <div ref={ref} className="chart" role="img" aria-label={label} data-points={points} />;
}
