import { useMemo, useRef, useState } from 'react';
import { count, whole } from '../../../common/format';
import { useNames } from '../use-names';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ProposalRow } from '../client';
import { download, toCsv } from '../csv';
import { useSort } from '../sort';
import { FilterSelect } from '../FilterSelect';

const TYPES = ['InitialDistribution', 'Replenishment', 'Redistribution'] as const;
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

interface Props {
  rows?: ProposalRow[];
  busy: boolean;
  run(): void;
  approve(referenceIds: string[], description: string, plannedDispatchDate: string): void;
}

/** Proposals and approved transfers: filter, read why, approve a selection as one batch, export. */
export function Transfers({ rows, busy, run, approve }: Props) {
  const names = useNames();
  const [type, setType] = useState('');
  const [location, setLocation] = useState('');
  const [style, setStyle] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [description, setDescription] = useState('');
  const [dispatch, setDispatch] = useState('');
  const shown = useMemo(
    () =>
      (rows ?? []).filter(
        (r) =>
          (!type || r.transferType === type) &&
          (!location ||
            names.location(r.fromLocationId).toLowerCase().includes(location.toLowerCase()) ||
            names.location(r.toLocationId).toLowerCase().includes(location.toLowerCase())) &&
          (!style || (r.styleId ?? r.skuId).toLowerCase().includes(style.toLowerCase())),
      ),
    [rows, type, location, style, names],
  );
  const { sorted, heading } = useSort(shown, {
    type: (r) => r.transferType,
    from: (r) => r.fromLocationId,
    to: (r) => r.toLocationId,
    sku: (r) => r.skuId,
    quantity: (r) => r.quantity,
    status: (r) => r.approvalBatchId ?? '',
    why: (r) => r.reason,
  });
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const open = sorted.filter((r) => !r.approvalBatchId);
  const openSelected = open.filter((r) => selected.has(r.referenceId)).length;
  /** The line clicked last: a shift-click selects or clears every open line from it to the one clicked. */
  const anchor = useRef<number>(undefined);
  const toggle = (index: number, range: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      const on = !s.has(sorted[index].referenceId);
      const from = range && anchor.current !== undefined ? Math.min(anchor.current, index) : index;
      const to = range && anchor.current !== undefined ? Math.max(anchor.current, index) : index;
      for (const r of sorted.slice(from, to + 1)) {
        if (r.approvalBatchId) continue;
        if (on) next.add(r.referenceId);
        else next.delete(r.referenceId);
      }
      anchor.current = index;
      return next;
    });
  /** Every open line shown, or none of them. */
  const toggleAll = () =>
    setSelected((s) => {
      const next = new Set(s);
      const all = openSelected < open.length;
      for (const r of open) {
        if (all) next.add(r.referenceId);
        else next.delete(r.referenceId);
      }
      return next;
    });
  /** A line in words, its locations and style by name: what the reason read in full speaks of. */
  const lineWords = (r: ProposalRow) =>
    `${r.transferType} ${names.location(r.fromLocationId)} → ${names.location(r.toLocationId)}, ${r.skuId}` +
    `${r.styleId ? ` (${names.style(r.styleId)})` : ''} × ${r.quantity}`;
  /** The line whose reason is read in full below the table. */
  const [reading, setReading] = useState<ProposalRow>();
  const exportCsv = () =>
    download(
      'transfers.csv',
      toCsv(
        [
          'referenceId',
          'transferType',
          'fromLocationId',
          'toLocationId',
          'skuId',
          'styleId',
          'quantity',
          'approvalBatchId',
          'reason',
        ],
        sorted.map((r) => [
          r.referenceId,
          r.transferType,
          r.fromLocationId,
          r.toLocationId,
          r.skuId,
          r.styleId,
          r.quantity,
          r.approvalBatchId,
          r.reason,
        ]),
      ),
    );

  return (
    <section aria-label="Transfers">
      <div className="toolbar">
        <button type="button" onClick={run} disabled={busy}>
          {busy ? 'Working…' : 'Run recommendations'}
        </button>
        <label>
          Type
          <FilterSelect name="type" value={type} values={TYPES} every="all" onChange={setType} />
        </label>
        <label>
          Location{' '}
          <input
            name="location"
            value={location}
            onChange={(e) => setLocation(e.target.value)}
            placeholder="id or name, from or to"
          />
        </label>
        <label>
          Style <input name="style" value={style} onChange={(e) => setStyle(e.target.value)} />
        </label>
        <button type="button" onClick={exportCsv} disabled={shown.length === 0}>
          Export CSV
        </button>
      </div>
      <p className="hint" data-testid="transfer-count">
        {rows === undefined
          ? 'No recommendations loaded yet.'
          : `${whole(shown.length)} of ${count(rows.length, 'line')}, ${whole(open.length)} open`}
      </p>
      {rows?.length === 0 && (
        <div className="empty" data-testid="no-proposals">
          <p>
            No proposals yet. <strong>Run recommendations</strong> runs the engine on the workspace&apos;s data, as of
            the morning after its last sale or stock count: each transfer it proposes is listed here with its reason, to
            approve a selection as one batch that a client then reads at <code>GET /Recommendations/transfers</code>.
          </p>
          <p>
            A workspace without items, locations, stock and sales has nothing to propose from:{' '}
            <a className="link" href="#/workspace">
              load data first
            </a>
            .
          </p>
        </div>
      )}
      {rows !== undefined && rows.length > 0 && shown.length === 0 && (
        <p className="empty" data-testid="none-shown">
          None of the {count(rows.length, 'line')} matches the filters above: clear them to see every line.
        </p>
      )}
      <div className="vtable" role="table" aria-label="Proposals and transfers" aria-rowcount={shown.length}>
        <div className="vrow vrow--head" role="row">
          <span role="columnheader">
            <input
              type="checkbox"
              aria-label="select every open line shown"
              checked={open.length > 0 && openSelected === open.length}
              ref={(el) => {
                if (el) el.indeterminate = openSelected > 0 && openSelected < open.length;
              }}
              disabled={open.length === 0}
              onChange={toggleAll}
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
            {virtual.getVirtualItems().map((v) => {
              const r = sorted[v.index];
              return (
                <div
                  key={r.referenceId}
                  className="vrow"
                  role="row"
                  data-reference={r.referenceId}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    right: 0,
                    height: ROW_HEIGHT,
                    transform: `translateY(${v.start}px)`,
                  }}
                >
                  <span role="cell">
                    {!r.approvalBatchId && (
                      <input
                        type="checkbox"
                        aria-label={`select ${r.referenceId}`}
                        checked={selected.has(r.referenceId)}
                        onClick={(e) => toggle(v.index, e.shiftKey)}
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
                  <span role="cell" className="why" title={r.reason} onClick={() => setReading(r)}>
                    {r.reason}
                  </span>
                </div>
              );
            })}
          </div>
        </div>
      </div>
      {reading && (
        <p className="why-full" data-testid="why-full">
          <strong>{lineWords(reading)}:</strong> {reading.reason}
        </p>
      )}
      <form
        className="toolbar approve"
        onSubmit={(e) => {
          e.preventDefault();
          approve([...selected], description, dispatch);
          setSelected(new Set());
        }}
      >
        <span>{selected.size} selected</span>
        <label>
          Description{' '}
          <input
            name="description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            maxLength={1000}
          />
        </label>
        <label>
          Planned dispatch{' '}
          <input type="date" name="dispatch" value={dispatch} onChange={(e) => setDispatch(e.target.value)} />
        </label>
        <button type="submit" disabled={busy || selected.size === 0}>
          Approve selection
        </button>
      </form>
    </section>
  );
}
