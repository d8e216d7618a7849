import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ProposalRow } from '../client';
import type { Names } from '../names';
import type { useSort } from '../sort';

const ROW_HEIGHT = 34;
const HEADINGS = [
  ['type', 'Type'],
  ['from', 'From'],
  ['to', 'To'],
  ['sku', 'SKU'],
  ['quantity', 'Qty'],
  ['status', 'Status'],
  ['why', 'Why (click to read in full)'],
] as const;

/**
 * The lines as a table that renders only the rows in view (a run may propose a hundred thousand), each open line
 * with its box to select it, and its reason to click and read in full.
 */
export function TransferTable({
  rows,
  names,
  heading,
  selected,
  open,
  openSelected,
  onToggle,
  onToggleAll,
  onRead,
}: {
  rows: readonly ProposalRow[];
  names: Names;
  heading: ReturnType<typeof useSort<ProposalRow>>['heading'];
  selected: ReadonlySet<string>;
  /** How many open lines are shown, and how many of them are selected. */
  open: number;
  openSelected: number;
  /** A line's box clicked, by its place in `rows`; `range` with shift held. */
  onToggle: (index: number, range: boolean) => void;
  onToggleAll: () => void;
  onRead: (row: ProposalRow) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  return (
    <div className="vtable" role="table" aria-label="Proposals and transfers" aria-rowcount={rows.length}>
      <div className="vrow vrow--head" role="row">
        <span role="columnheader">
          <input
            type="checkbox"
            aria-label="select every open line shown"
            checked={open > 0 && openSelected === open}
            ref={(el) => {
              if (el) el.indeterminate = openSelected > 0 && openSelected < open;
            }}
            disabled={open === 0}
            onChange={onToggleAll}
          />
        </span>
        {HEADINGS.map(([key, label]) => (
          <span
            key={key}
            role="columnheader"
            {...heading(key)}
            className={key === 'quantity' ? 'sortable num' : 'sortable'}
          >
            {label}
          </span>
        ))}
      </div>
      <div className="vtable__body" ref={scroller}>
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => (
            <TransferRow
              key={rows[v.index].referenceId}
              row={rows[v.index]}
              top={v.start}
              names={names}
              selected={selected.has(rows[v.index].referenceId)}
              onToggle={(range) => onToggle(v.index, range)}
              onRead={onRead}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

/** One line of the table, placed where the scroll puts it; its box only while it is open. */
function TransferRow({
  row: r,
  top,
  names,
  selected,
  onToggle,
  onRead,
}: {
  row: ProposalRow;
  top: number;
  names: Names;
  selected: boolean;
  onToggle: (range: boolean) => void;
  onRead: (row: ProposalRow) => void;
}) {
  return (
    <div
      className="vrow"
      role="row"
      data-reference={r.referenceId}
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        height: ROW_HEIGHT,
        transform: `translateY(${top}px)`,
      }}
    >
      <span role="cell">
        {!r.approvalBatchId && (
          <input
            type="checkbox"
            aria-label={`select ${r.referenceId}`}
            checked={selected}
            onClick={(e) => onToggle(e.shiftKey)}
            onChange={() => undefined}
          />
        )}
      </span>
      <span role="cell">{r.transferType}</span>
      <span role="cell" title={names.location(r.fromLocationId)}>
        {r.fromLocationId}
      </span>
      <span role="cell" title={names.location(r.toLocationId)}>
        {r.toLocationId}
      </span>
      <span role="cell">{r.skuId}</span>
      <span role="cell" className="num">
        {r.quantity}
      </span>
      <span role="cell" className="status">
        {r.approvalBatchId ? `approved ${r.approvalBatchId}` : 'proposed'}
      </span>
      <span role="cell" className="why" title={r.reason} onClick={() => onRead(r)}>
        {r.reason}
      </span>
    </div>
  );
}
