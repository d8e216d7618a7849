import type { CellDays } from '../client';

/** A cell's days cut to the style's selling life (its reviews and transfers too); all of them without one. */
export function within(d: CellDays, life?: { from: string; to: string }): CellDays {
  if (!life) return d;
  const first = d.dates.findIndex((x) => x >= life.from);
  const end = d.dates.findIndex((x) => x > life.to);
  const [a, b] = [first < 0 ? d.dates.length : first, end < 0 ? d.dates.length : end];
  const inside = (date: string) => date >= life.from && date <= life.to;
  return {
    ...d,
    dates: d.dates.slice(a, b),
    series: Object.fromEntries(Object.entries(d.series).map(([k, v]) => [k, v.slice(a, b)])) as CellDays['series'],
    reviews: d.reviews.filter((r) => inside(r.date)),
    transfers: d.transfers.filter((x) => inside(x.date) || inside(x.arrives)),
  };
}

/** A cell's charts, simulated against actual: stock, sales and demand, arrivals and moves. */
export function cellCharts(d: CellDays) {
  const s = d.series;
  const name = `${d.locationId} · ${d.skuId}`;
  return [
    {
      title: 'Stock at the end of each day (units)',
      label: `${name}: stock per day, simulated against actual`,
      unit: 'units',
      levels: true,
      series: [
        { name: 'simulated', values: s.simStock },
        { name: 'actual', values: s.actStock },
      ],
    },
    {
      title: 'Sales and demand per day (units)',
      label: `${name}: demand, sales, lost sales and the engine's demand estimate per day, simulated against actual`,
      unit: 'units',
      series: [
        { name: 'demand', values: s.demand },
        { name: 'simulated sales', values: s.simSales },
        { name: 'actual sales', values: s.actSales },
        { name: 'simulated lost', values: s.simLostSales },
        { name: 'actual lost', values: s.actLostSales },
        { name: "engine's estimate", values: s.demandEstimate },
      ],
    },
    {
      title: 'Arrivals and transfers per day (units)',
      clipSpikes: true,
      label: `${name}: receipts and the engine's transfers per day`,
      unit: 'units',
      series: [
        { name: 'receipts (actual, both sides)', values: s.receipts },
        { name: 'engine: in', values: s.transfersIn },
        { name: 'engine: out', values: s.transfersOut },
      ],
    },
  ];
}
