import type { StyleDaySeries } from '../client';

/** A style's charts, simulated against actual: stock-outs, sales and demand, units on hand, arrivals and moves. */
export function styleCharts(d: StyleDaySeries) {
  const s = d.series;
  const tenth = (xs: number[]) => xs.map((v) => Math.round(v * 10) / 10);
  const label = (what: string) => `Style ${d.styleId}: ${what}, simulated against actual`;
  return [
    {
      title: 'Stock-out SKU-days per day',
      label: label('stock-out SKU-days per day'),
      unit: 'SKU-days',
      series: [
        { name: 'simulated', values: s.simStockOutDays },
        { name: 'actual', values: s.actStockOutDays },
      ],
    },
    {
      title: 'Sales and demand per day (units)',
      label: label("demand, sales, lost sales and the engine's demand estimate per day"),
      unit: 'units',
      series: [
        { name: 'demand', values: tenth(s.demand) },
        { name: 'simulated sales', values: tenth(s.simSales) },
        { name: 'actual sales', values: tenth(s.actSales) },
        { name: 'simulated lost', values: tenth(s.simLostSales) },
        { name: 'actual lost', values: tenth(s.actLostSales) },
        { name: "engine's estimate", values: tenth(s.demandEstimate) },
      ],
    },
    {
      title: 'Units on hand at the end of each day',
      label: label('units on hand per day at the stores and at the warehouses'),
      unit: 'units',
      levels: true,
      series: [
        { name: 'simulated, stores', values: tenth(s.simInventoryUnits) },
        { name: 'actual, stores', values: tenth(s.actInventoryUnits) },
        { name: 'simulated, warehouses', values: tenth(s.simWarehouseUnits) },
        { name: 'actual, warehouses', values: tenth(s.actWarehouseUnits) },
      ],
    },
    {
      title: 'Arrivals and transfers per day (units)',
      clipSpikes: true,
      label: label('receipts and transfers per day'),
      unit: 'units',
      series: [
        { name: 'receipts (actual, both sides)', values: tenth(s.receipts) },
        { name: 'engine: transfers in', values: tenth(s.simTransfersIn) },
        { name: 'engine: transfers out', values: tenth(s.simTransfersOut) },
      ],
    },
  ];
}
