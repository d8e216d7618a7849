import type { BacktestResult } from '../client';

type Day = BacktestResult['daily'][number];

/** A run's network charts, simulated against actual: stock-outs, the in-stock rate, sales, stock on hand. */
export function backtestCharts(result: BacktestResult) {
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
}
