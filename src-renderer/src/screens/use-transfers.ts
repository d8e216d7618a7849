import { useMemo, useRef, useState } from 'react';
import type { ProposalRow } from '../client';
import type { Names } from '../names';
import { useSort } from '../sort';

/** What the Transfers screen's lines are narrowed by: '' lets every line through. */
export interface TransferFilters {
  type: string;
  /** Part of a location's id or name, from or to. */
  location: string;
  /** Part of a style's id (a SKU's, for a line without a style). */
  style: string;
}

const TRANSFER_COLUMNS = {
  type: (r: ProposalRow) => r.transferType,
  from: (r: ProposalRow) => r.fromLocationId,
  to: (r: ProposalRow) => r.toLocationId,
  sku: (r: ProposalRow) => r.skuId,
  quantity: (r: ProposalRow) => r.quantity,
  status: (r: ProposalRow) => r.approvalBatchId ?? '',
  why: (r: ProposalRow) => r.reason,
};

/** The lines the filters let through, in the rows' order. */
export function filterTransfers(rows: readonly ProposalRow[], filters: TransferFilters, names: Names): ProposalRow[] {
  const location = filters.location.toLowerCase();
  const style = filters.style.toLowerCase();
  return rows.filter(
    (r) =>
      (!filters.type || r.transferType === filters.type) &&
      (!location ||
        names.location(r.fromLocationId).toLowerCase().includes(location) ||
        names.location(r.toLocationId).toLowerCase().includes(location)) &&
      (!style || (r.styleId ?? r.skuId).toLowerCase().includes(style)),
  );
}

/**
 * The Transfers screen's lines as shown: filtered, sorted by a heading, and the open lines (not yet approved)
 * selected to approve as one batch.
 */
export function useTransfers(rows: ProposalRow[] | undefined, names: Names) {
  const [filters, setFilters] = useState<TransferFilters>({ type: '', location: '', style: '' });
  const shown = useMemo(() => filterTransfers(rows ?? [], filters, names), [rows, filters, names]);
  const { sorted, heading } = useSort(shown, TRANSFER_COLUMNS);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
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
  const setFilter = (key: keyof TransferFilters, value: string) => setFilters((f) => ({ ...f, [key]: value }));
  const clearSelection = () => setSelected(new Set());
  return {
    filters,
    setFilter,
    shown,
    sorted,
    heading,
    selected,
    open: open.length,
    openSelected,
    toggle,
    toggleAll,
    clearSelection,
  };
}
