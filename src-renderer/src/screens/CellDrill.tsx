import { useEffect, useMemo, useRef } from 'react';
import { decimal } from '../../../common/format';
import { useNames } from '../use-names';
import type { CellDays, CellTotals, AdminClient } from '../client';
import { Chart } from '../Chart';
import { TRANSFER_KIND, units } from '../units';
import { download, toCsv } from '../csv';
import { useSort } from '../sort';
import { Notices } from '../Notices';
import { useFetch } from '../use-fetch';

/** The day-by-day series a cell's table shows, in its order, as exported. */
const DAY_COLUMNS = [
  'simStock',
  'actStock',
  'simSales',
  'actSales',
  'demand',
  'simLostSales',
  'actLostSales',
  'demandEstimate',
  'receipts',
  'transfersIn',
  'transfersOut',
] as const;

/** The table's headings over DAY_COLUMNS, in the same order. */
const DAY_HEADINGS = [
  'Stock',
  'actual',
  'Sales',
  'actual',
  'Demand',
  'Lost sales',
  'actual',
  "Engine's estimate",
  'Receipts',
  'In',
  'Out',
];

function exportDays(runId: string, d: CellDays, order: readonly number[]): void {
  download(
    `${runId}-${d.locationId}-${d.skuId}-days.csv`,
    toCsv(
      ['date', ...DAY_COLUMNS, 'estimatedDemand'],
      order.map((i) => [d.dates[i], ...DAY_COLUMNS.map((k) => d.series[k][i]), d.series.estimatedDemand[i] ? 1 : 0]),
    ),
  );
}

/** One location × SKU of a run, day by day: stock, sales, the engine's demand estimate, arrivals and its transfers. */
export function CellDrill({
  client,
  runId,
  styleId,
  cell,
  back,
  life,
}: {
  client: AdminClient;
  runId: string;
  styleId: string;
  cell: CellTotals;
  back: () => void;
  /** The style's selling life within the run, when shorter than the run: the days shown, not the empty ones before. */
  life?: { from: string; to: string };
}) {
  const names = useNames();
  const { data: whole, error } = useFetch(
    () =>
      client.call('GET /backtests/:runId/styles/:styleId/cells/:locationId/:skuId', {
        params: { runId, styleId, locationId: cell.locationId, skuId: cell.skuId },
      }),
    [client, runId, styleId, cell],
  );
  const days = useMemo(() => whole && within(whole, life), [whole, life]);
  const top = useRef<HTMLElement>(null);
  useEffect(() => {
    top.current?.scrollIntoView({ block: 'start' });
  }, []);
  const charts = useMemo(() => (days ? cellCharts(days) : []), [days]);
  // The days by date, or by any column clicked; exported in the order shown.
  const dayIndex = useMemo(() => (days ? days.dates.map((_, i) => i) : []), [days]);
  const { sorted: order, heading } = useSort(dayIndex, {
    date: (i) => days?.dates[i],
    ...Object.fromEntries(DAY_COLUMNS.map((k) => [k, (i: number) => days?.series[k][i]])),
  });
  const name = `${cell.locationId} · ${cell.skuId}`;
  return (
    <section aria-label={`Location × SKU ${name}`} className="drill" ref={top}>
      <div className="toolbar">
        <button type="button" onClick={back}>
          ← Style {styleId}
        </button>
        <h2 className="drill__title">
          {names.location(cell.locationId)} · {cell.skuId} (size {cell.sizeId}
          {cell.locationKind === 'warehouse' ? ', warehouse' : ''}), day by day
        </h2>
      </div>
      <Notices error={error} />
      {!days && !error && <p className="hint">Loading…</p>}
      {days && (
        <>
          {/* prettier-ignore */}
          <p className="hint">
            Carried here on {units(cell.carriedDays)} of {days.dates.length} days, with a demand
            of {units(cell.demand)}{' '}
            units; {units(cell.estimatedDemand)} of them are estimated from the history (days the shelf was empty in
            fact, and beyond the sales of days it sold out), the same on both sides. Stock is counted at the end of each
            day.
          </p>
          {life && (
            <p className="hint" data-testid="cell-life">
              The style&apos;s selling life in this run: {life.from} … {life.to} ({days.dates.length} of{' '}
              {whole!.dates.length} days); the charts and the table span it.
            </p>
          )}
          {charts.map((c) => (
            <Chart key={c.title} {...c} dates={days.dates} />
          ))}
          <h3>Each review</h3>
          {days.reviews.length === 0 ? (
            <p className="hint">No review fell in the period.</p>
          ) : (
            <div className="scroll">
              <table className="grid" aria-label="Each review">
                <thead>
                  <tr>
                    <th>Review</th>
                    <th className="num">Estimate (a day)</th>
                    <th className="num">Target</th>
                    <th className="num">Sent</th>
                    <th>What it did</th>
                  </tr>
                </thead>
                <tbody>
                  {days.reviews.map((r) => (
                    <tr key={r.date} data-outcome={r.outcome}>
                      <td className="nowrap">{r.date}</td>
                      <td className="num">{decimal(r.estimate, 2)}</td>
                      <td className="num">{units(r.target)}</td>
                      <td className="num">{units(r.sent)}</td>
                      <td>{r.outcome === 'sent' ? 'sent' : `sent nothing: ${r.outcome}`}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3>The engine's transfers</h3>
          {days.transfers.length === 0 ? (
            <p className="hint">The engine moved none of this SKU to or from here.</p>
          ) : (
            <table className="grid" aria-label="The engine's transfers">
              <thead>
                <tr>
                  <th>Sent</th>
                  <th>Arrives</th>
                  <th>Kind</th>
                  <th>From</th>
                  <th>To</th>
                  <th className="num">Units</th>
                  <th>Why</th>
                </tr>
              </thead>
              <tbody>
                {days.transfers.map((x) => (
                  <tr key={x.referenceId} data-direction={x.direction}>
                    <td className="nowrap">{x.date}</td>
                    <td className="nowrap">{x.arrives}</td>
                    <td>{TRANSFER_KIND[x.transferType] ?? x.transferType}</td>
                    <td className="nowrap" title={names.location(x.fromLocationId)}>
                      {x.fromLocationId}
                    </td>
                    <td className="nowrap" title={names.location(x.toLocationId)}>
                      {x.toLocationId}
                    </td>
                    <td className="num">{units(x.quantity)}</td>
                    <td className="why-text">{x.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h3>
            Day by day{' '}
            <button type="button" onClick={() => exportDays(runId, days, order)}>
              Export CSV
            </button>
          </h3>
          <div className="scroll">
            <table className="grid" aria-label={`${name} day by day`}>
              <thead>
                <tr>
                  <th {...heading('date')}>Date</th>
                  {DAY_COLUMNS.map((k, c) => (
                    <th key={k} {...heading(k)} className="num sortable">
                      {DAY_HEADINGS[c]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {order.map((i) => {
                  const date = days.dates[i];
                  const s = days.series;
                  return (
                    <tr key={date} className={s.carried[i] && !s.simInStock[i] ? 'row--bad' : undefined}>
                      <td>
                        {date}
                        {s.estimatedDemand[i] ? (
                          <span
                            className="hint"
                            title="Demand estimated from the history: the shelf was empty in fact, or sold out that day"
                          >
                            {' '}
                            est.
                          </span>
                        ) : null}
                      </td>
                      <td className="num">{units(s.simStock[i])}</td>
                      <td className="num">{units(s.actStock[i])}</td>
                      <td className="num">{units(s.simSales[i])}</td>
                      <td className="num">{units(s.actSales[i])}</td>
                      <td className="num">{units(s.demand[i])}</td>
                      <td className="num">{units(s.simLostSales[i])}</td>
                      <td className="num">{units(s.actLostSales[i])}</td>
                      <td className="num">{decimal(s.demandEstimate[i], 2)}</td>
                      <td className="num">{units(s.receipts[i])}</td>
                      <td className="num">{units(s.transfersIn[i])}</td>
                      <td className="num">{units(s.transfersOut[i])}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

/** A cell's days cut to the style's selling life (its reviews and transfers too); all of them without one. */
function within(d: CellDays, life?: { from: string; to: string }): CellDays {
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

function cellCharts(d: CellDays) {
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
