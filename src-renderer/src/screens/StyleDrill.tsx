import { useEffect, useMemo, useRef } from 'react';
import type { AdminClient, CellTotals } from '../client';
import { CellDrill } from './CellDrill';
import { sellingLife } from '../selling-life';
import { useNames } from '../use-names';
import { Notices } from '../Notices';
import { useFetch } from '../use-fetch';
import { StyleCellTable } from './StyleCellTable';
import { StyleDays } from './StyleDays';
import { TraceProgressNote } from './TraceProgressNote';
import { useCellRows } from './use-cell-rows';
import { useStyleCells } from './use-style-cells';

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
  const { cells, error: cellsError, waiting, progress } = useStyleCells(client, runId, styleId);
  const names = useNames();
  // Kept here, not in the table: back from a location × SKU, the table is found and sorted as it was left.
  const shown = useCellRows(cells, names);
  const top = useRef<HTMLElement>(null);
  // Opened from far down the breakdown (or back from a location × SKU): start at its top.
  useEffect(() => {
    top.current?.scrollIntoView({ block: 'start' });
  }, [styleId, cell?.locationId, cell?.skuId]);
  const life = useMemo(() => days && sellingLife(days), [days]);

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
      {days && life && <StyleDays days={days} life={life} />}
      <h3>Where it happened: location × SKU</h3>
      <Notices
        error={
          cell && cells && !open && `The run has no figures for ${cell.locationId} × ${cell.skuId} in style ${styleId}.`
        }
      />
      <Notices error={cellsError} />
      {waiting && <TraceProgressNote progress={progress} />}
      {cells && (
        <StyleCellTable runId={runId} styleId={styleId} cells={cells} shown={shown} names={names} openCell={openCell} />
      )}
    </section>
  );
}
