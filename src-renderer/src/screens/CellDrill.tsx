import { useEffect, useMemo, useRef } from 'react';
import { useNames } from '../use-names';
import type { CellTotals, AdminClient } from '../client';
import { Chart } from '../Chart';
import { units } from '../units';
import { Notices } from '../Notices';
import { useFetch } from '../use-fetch';
import { cellCharts, within } from './cell-days';
import { CellDayTable } from './CellDayTable';
import { CellReviews } from './CellReviews';
import { CellTransfers } from './CellTransfers';

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
          <CellReviews reviews={days.reviews} />
          <h3>The engine's transfers</h3>
          <CellTransfers transfers={days.transfers} names={names} />
          <CellDayTable runId={runId} name={name} days={days} />
        </>
      )}
    </section>
  );
}
