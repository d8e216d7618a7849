/** The KPIs the screens show, in order, with how each reads. */
export const KPIS: [key: string, label: string, format: (v: number) => string][] = [
  ['inStockRate', 'In-stock rate', (v) => `${(v * 100).toFixed(1)}%`],
  ['stockOutDays', 'Stock-out days', (v) => v.toLocaleString('en')],
  ['fillRate', 'Fill rate', (v) => `${(v * 100).toFixed(1)}%`],
  ['lostSales', 'Lost sales (units)', (v) => Math.round(v).toLocaleString('en')],
  ['sales', 'Sales (units)', (v) => Math.round(v).toLocaleString('en')],
  ['inventoryUnits', 'Avg inventory (units)', (v) => Math.round(v).toLocaleString('en')],
];
