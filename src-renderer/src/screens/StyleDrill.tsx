import { useEffect, useMemo, useRef, useState } from 'react';
import { duration } from '../../../common/format';
import type { CellTotals, StyleDaySeries, TraceProgress, AdminClient } from '../client';
import { Chart } from '../Chart';
import { CellDrill } from './CellDrill';
import { units } from '../units';
import { download, toCsv } from '../csv';
import { useSort, type SortValue } from '../sort';
import { sellingLife } from '../selling-life';
import { useNames } from '../use-names';
import { Notices } from '../Notices';
import { useFetch } from '../use-fetch';

/** The columns of a style's location × SKUs: heading, and the value it shows and sorts by. */
const CELL_COLUMNS: [key: string, heading: string, pick: (c: CellTotals) => SortValue][] = [
  ['cell', 'Location × SKU', (c) => `${c.locationId} · ${c.skuId}`],
  ['size', 'Size', (c) => c.sizeId],
  ['lost', 'Lost sales', (c) => c.simulated.lostSales],
  ['lostActual', 'actual', (c) => c.actual.lostSales],
  ['stockOut', 'Stock-out days', (c) => c.simulated.stockOutDays],
  ['stockOutActual', 'actual', (c) => c.actual.stockOutDays],
  ['sales', 'Sales', (c) => c.simulated.sales],
  ['salesActual', 'actual', (c) => c.actual.sales],
  ['in', 'Transfers in', (c) => c.transfersIn],
  ['out', 'Transfers out', (c) => c.transfersOut],
];
const CSV_HEADER = [
  'locationId',
  'skuId',
  'sizeId',
  'lostSales',
  'lostSalesActual',
  'stockOutDays',
  'stockOutDaysActual',
  'sales',
  'salesActual',
  'transfersIn',
  'transfersOut',
];

/** Rows drawn at once; the filter narrows the rest. */
const SHOWN = 100;
/** How often a style being traced is asked how far it got. */
const POLL_MS = 500;

/** One style of a run, day by day, simulated against actual, and its location×SKUs with the most lost sales first. */
export function StyleDrill({
  client,
  runId,
  styleId,
  cell,
  openCell,
  closeCell,
  back,
}: {
  client: AdminClient;
  runId: string;
  styleId: string;
  /** The location × SKU the address opens, shown once the style's cells are read. */
  cell?: { locationId: string; skuId: string };
  openCell: (cell: { locationId: string; skuId: string }) => void;
  closeCell: () => void;
  back: () => void;
}) {
  const { data: days, error } = useFetch(
    () => client.call('GET /backtests/:runId/styles/:styleId/days', { params: { runId, styleId } }),
    [client, runId, styleId],
  );
  const { data: cells, error: cellsError } = useFetch(
    () => client.call('GET /backtests/:runId/styles/:styleId/cells', { params: { runId, styleId } }),
    [client, runId, styleId],
  );
  const [filter, setFilter] = useState('');
  const names = useNames();
  const top = useRef<HTMLElement>(null);
  // Opened from far down the breakdown (or back from a location × SKU): start at its top.
  useEffect(() => {
    top.current?.scrollIntoView({ block: 'start' });
  }, [styleId, cell?.locationId, cell?.skuId]);
  // A big run takes as long to trace as it took to run: say how far the replay got while the cells are awaited.
  const [progress, setProgress] = useState<TraceProgress>();
  const waiting = !cells && !cellsError;
  useEffect(() => {
    if (!waiting) return undefined;
    let live = true;
    // A failed poll says nothing the awaited cells will not: their answer carries any error.
    const timer = setInterval(
      () =>
        client.call('GET /backtests/:runId/styles/:styleId/trace', { params: { runId, styleId } }).then(
          (p) => live && setProgress(p),
          () => undefined,
        ),
      POLL_MS,
    );
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [client, runId, styleId, waiting]);
  const life = useMemo(() => days && sellingLife(days), [days]);
  const charts = useMemo(() => (life ? styleCharts(life) : []), [life]);
  const cellRows = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (cells?.cells ?? []).filter(
      (c) => !needle || `${names.location(c.locationId)} ${c.skuId}`.toLowerCase().includes(needle),
    );
  }, [cells, filter, names]);
  const {
    sorted: rows,
    heading,
    sort,
  } = useSort(cellRows, Object.fromEntries(CELL_COLUMNS.map(([key, , pick]) => [key, pick])));
  const exportCsv = () =>
    download(
      `${runId}-${styleId}-cells.csv`,
      toCsv(
        CSV_HEADER,
        rows.map((c) => [
          c.locationId,
          c.skuId,
          c.sizeId,
          c.simulated.lostSales,
          c.actual.lostSales,
          c.simulated.stockOutDays,
          c.actual.stockOutDays,
          c.simulated.sales,
          c.actual.sales,
          c.transfersIn,
          c.transfersOut,
        ]),
      ),
    );

  const open: CellTotals | undefined =
    cell && cells?.cells.find((c) => c.locationId === cell.locationId && c.skuId === cell.skuId);
  if (open)
    return (
      <CellDrill
        client={client}
        runId={runId}
        styleId={styleId}
        cell={open}
        back={closeCell}
        life={
          life && life.dates.length < days!.dates.length ? { from: life.dates[0], to: life.dates.at(-1)! } : undefined
        }
      />
    );
  const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return (
    <section aria-label={`Style ${styleId}`} className="drill" ref={top}>
      <div className="toolbar">
        <button type="button" onClick={back}>
          ← All styles
        </button>
        <h2 className="drill__title">
          Style {names.style(styleId)}
          {names.styleCategory(styleId) ? ` (${names.styleCategory(styleId)})` : ''}, day by day
        </h2>
      </div>
      <Notices error={error} />
      {days && (
        <>
          {/* prettier-ignore */}
          <p className="hint" data-testid="style-totals">
            {days.dates[0]} … {days.dates.at(-1)}: {units(total(days.series.simStockOutDays))} stock-out SKU-days
            and{' '}
            {units(total(days.series.simLostSales))} units of lost sales with the engine, against{' '}
            {units(total(days.series.actStockOutDays))} and {units(total(days.series.actLostSales))} in fact, of a
            demand of {units(total(days.series.demand))} units ({units(total(days.series.estimatedDemand))} of them
            estimated).
          </p>
          {life && life.dates.length < days.dates.length && (
            <p className="hint" data-testid="selling-life">
              Its selling life in this run: {life.dates[0]} … {life.dates.at(-1)} ({life.dates.length} of{' '}
              {days.dates.length} days); the charts span it.
            </p>
          )}
          {charts.map((c) => (
            <Chart key={c.title} {...c} dates={life!.dates} />
          ))}
        </>
      )}
      <h3>Where it happened: location × SKU</h3>
      <Notices
        error={
          cell && cells && !open && `The run has no figures for ${cell.locationId} × ${cell.skuId} in style ${styleId}.`
        }
      />
      <Notices error={cellsError} />
      {waiting && (
        <div className="progress">
          {progress?.status === 'replaying' && (
            <progress max={progress.days} value={progress.daysDone} aria-label="Days replayed to trace the style" />
          )}
          <span className="hint" data-testid="trace-progress">
            {progress?.status === 'replaying'
              ? 'Replaying the run to follow each location × SKU of the style: ' +
                `${progress.daysDone} of ${progress.days} days`
              : "Reading the run's days to replay them and follow each location × SKU of the style…"}
          </span>
        </div>
      )}
      {cells && (
        <>
          <div className="toolbar">
            <label>
              Find{' '}
              <input
                name="find-cell"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                placeholder="location or SKU…"
              />
            </label>
            <span className="hint" data-testid="cell-count">
              {Math.min(rows.length, SHOWN)} of {rows.length} location × SKUs,{' '}
              {sort ? `sorted by ${CELL_COLUMNS.find(([k]) => k === sort.key)?.[1]}` : 'most lost sales first'} (traced
              by replaying the run in {duration(cells.replayMs)})
            </span>
            <button type="button" onClick={exportCsv} disabled={rows.length === 0}>
              Export CSV
            </button>
          </div>
          <table className="grid compare" aria-label={`Location × SKUs of style ${styleId}`}>
            <thead>
              <tr>
                {CELL_COLUMNS.map(([key, label], i) => (
                  <th key={key} {...heading(key)} className={i < 2 ? 'sortable' : 'num sortable'}>
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, SHOWN).map((c) => (
                <tr key={`${c.locationId}/${c.skuId}`} data-cell={`${c.locationId}/${c.skuId}`}>
                  <td>
                    <button
                      type="button"
                      className="link"
                      onClick={() => openCell({ locationId: c.locationId, skuId: c.skuId })}
                    >
                      {names.location(c.locationId)} · {c.skuId}
                    </button>
                    {c.locationKind === 'warehouse' && <span className="hint"> (warehouse)</span>}
                  </td>
                  <td>{c.sizeId}</td>
                  <td className="num">{units(c.simulated.lostSales)}</td>
                  <td className="num">{units(c.actual.lostSales)}</td>
                  <td className="num">{units(c.simulated.stockOutDays)}</td>
                  <td className="num">{units(c.actual.stockOutDays)}</td>
                  <td className="num">{units(c.simulated.sales)}</td>
                  <td className="num">{units(c.actual.sales)}</td>
                  <td className="num">{units(c.transfersIn)}</td>
                  <td className="num">{units(c.transfersOut)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

function styleCharts(d: StyleDaySeries) {
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
