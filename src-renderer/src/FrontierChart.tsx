/**
 * A sweep's trade-off as a scatter (ECharts, only the parts used): each run a point of store stock against lost
 * sales (or fill rate), the efficient frontier joined by a line, the history's own point apart, and the point a
 * constraint picks ringed. Hovering a point tells its settings; clicking it opens its run.
 */
import { useEffect, useMemo, useRef } from 'react';
import { count, money, percent } from '../../common/format';
import { settingName } from '../../common/setting-names';
import * as echarts from 'echarts/core';
import { LineChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, TitleComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { SweepReport } from './client';

echarts.use([
  ScatterChart,
  LineChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  TitleComponent,
  CanvasRenderer,
]);

export type FrontierMeasure = 'lostSales' | 'fillRate';
/** What stock is counted in: units, or their value at cost. */
export type FrontierStock = 'inventoryUnits' | 'inventoryValue';

const MEASURE_NAMES: Record<FrontierMeasure, string> = { lostSales: 'lost sales (units)', fillRate: 'fill rate (%)' };
const STOCK_NAMES: Record<FrontierStock, string> = {
  inventoryUnits: 'average store stock (units)',
  inventoryValue: 'average store stock (value at cost)',
};
const COLOURS = { run: '#8fb8e3', frontier: '#2f6fb3', actual: '#d9822b', picked: '#3a9a5b' };

type Run = SweepReport['runs'][number];

const y = (r: { lostSales: number; fillRate: number | null }, measure: FrontierMeasure) =>
  measure === 'lostSales' ? r.lostSales : r.fillRate === null ? null : Math.round(r.fillRate * 10000) / 100;

/** A bound rounded outwards to a figure an axis reads well at (two significant digits). */
const step = (v: number) => 10 ** Math.max(0, Math.floor(Math.log10(Math.abs(v) || 1)) - 1);
const niceDown = (v: number) => Math.floor(v / step(v)) * step(v);
const niceUp = (v: number) => Math.ceil(v / step(v)) * step(v);

/** An axis's range over `values`: from a little below the least to a little above the most, at round figures. */
function span(values: (number | null)[]): { min?: number; max?: number } {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return {};
  const [lo, hi] = [Math.min(...known), Math.max(...known)];
  const pad = (hi - lo) * 0.08 || Math.abs(hi) * 0.05 || 1;
  // Counts and rates stop at zero.
  return { min: lo >= 0 ? Math.max(0, niceDown(lo - pad)) : niceDown(lo - pad), max: niceUp(hi + pad) };
}

/** A point's words: its settings and its figures, for the tooltip. */
function describe(r: Run, currency?: string): string {
  const settings = Object.entries(r.vary).map(([k, v]) => `${settingName(k)} = ${v}`);
  return [
    `<b>point ${r.point}</b>`,
    ...settings,
    `lost sales ${count(r.lostSales, 'unit')}`,
    `fill rate ${r.fillRate === null ? '—' : percent(r.fillRate, 2)}`,
    `store stock ${count(r.inventoryUnits, 'unit')}, ` +
      (r.inventoryValue === null ? 'value n/a (no cost prices)' : `value ${money(r.inventoryValue, currency)}`),
    `transfers: ${count(r.trips, 'trip')}, ${count(r.units, 'unit')}`,
  ].join('<br>');
}

export function FrontierChart({
  sweep,
  measure,
  stock,
  picked,
  open,
  currency,
}: {
  sweep: SweepReport;
  /** The workspace's currency, for the values of stock. */
  currency?: string;
  measure: FrontierMeasure;
  stock: FrontierStock;
  /** The point a constraint picked, ringed. */
  picked?: number;
  open: (runId: string) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // Both axes span the points and the history's own point, a little beyond: none sits on an edge, none is off.
  const axes = useMemo(() => {
    const everyPoint = [...sweep.runs, sweep.actual];
    return { x: span(everyPoint.map((r) => r[stock])), y: span(everyPoint.map((r) => y(r, measure))) };
  }, [sweep, stock, measure]);
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current);
    const frontier = sweep.runs.filter((r) => r.frontier).sort((a, b) => (a[stock] ?? 0) - (b[stock] ?? 0));
    const others = sweep.runs.filter((r) => !r.frontier);
    // The third measure, transfers, in the size of a point: from 8 px for the fewest trips to 20 for the most.
    const trips = sweep.runs.map((r) => r.trips);
    const [fewest, most] = [Math.min(...trips), Math.max(...trips)];
    const size = (r: Run) => (most > fewest ? 8 + (12 * (r.trips - fewest)) / (most - fewest) : 10);
    const point = (r: Run) => ({ value: [r[stock], y(r, measure)], run: r, symbolSize: size(r) });
    const chosen = sweep.runs.find((r) => r.point === picked);

    chart.setOption({
      animation: false,
      title: {
        text: `Store stock against ${MEASURE_NAMES[measure]}; a point's size: its trips`,
        textStyle: { fontSize: 13, fontWeight: 600 },
      },
      legend: { top: 0, right: 0 },
      grid: { left: 64, right: 16, top: 44, bottom: 40 },
      tooltip: {
        trigger: 'item',
        formatter: (p: { data: { run?: Run }; seriesName: string }) =>
          p.data.run
            ? describe(p.data.run, currency)
            : `<b>actual</b><br>lost sales ${count(sweep.actual.lostSales, 'unit')}<br>` +
              `fill rate ${sweep.actual.fillRate === null ? '—' : percent(sweep.actual.fillRate, 2)}<br>` +
              `store stock ${count(sweep.actual.inventoryUnits, 'unit')}`,
      },
      xAxis: {
        type: 'value',
        name: STOCK_NAMES[stock],
        nameLocation: 'middle',
        nameGap: 26,
        ...axes.x,
      },
      yAxis: { type: 'value', name: MEASURE_NAMES[measure], ...axes.y },
      series: [
        {
          name: 'frontier',
          type: 'line',
          data: frontier.map(point),
          itemStyle: { color: COLOURS.frontier },
          lineStyle: { color: COLOURS.frontier },
        },
        {
          name: 'other points',
          type: 'scatter',
          data: others.map(point),
          symbolSize: 8,
          itemStyle: { color: COLOURS.run },
        },
        {
          name: 'actual',
          type: 'scatter',
          symbol: 'diamond',
          symbolSize: 14,
          data: [{ value: [sweep.actual[stock], y(sweep.actual, measure)] }],
          itemStyle: { color: COLOURS.actual },
        },
        ...(chosen
          ? [
              {
                name: 'picked',
                type: 'scatter',
                data: [{ ...point(chosen), symbolSize: size(chosen) + 12 }],
                itemStyle: { color: 'transparent', borderColor: COLOURS.picked, borderWidth: 3 },
              },
            ]
          : []),
      ],
    });
    chart.on('click', (p) => {
      const run = (p.data as { run?: Run } | undefined)?.run;
      if (run) open(run.runId);
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [sweep, measure, stock, picked, open, currency, axes]);
  return (
    <div
      ref={ref}
      className="chart"
      role="img"
      aria-label={`Frontier of ${sweep.sweepId}: ${STOCK_NAMES[stock]} against ${MEASURE_NAMES[measure]}`}
      data-points={sweep.runs.length}
      data-frontier={sweep.runs.filter((r) => r.frontier).length}
      data-axes={JSON.stringify(axes)}
    />
  );
}
