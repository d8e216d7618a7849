import { FilterSelect } from '../FilterSelect';
import type { TransferFilters } from './use-transfers';

const TYPES = ['InitialDistribution', 'Replenishment', 'Redistribution'] as const;

/** The Transfers screen's toolbar: the engine run, the filters over its lines, and the export of the lines shown. */
export function TransfersToolbar({
  busy,
  filters,
  onFilter,
  onRun,
  onExport,
  canExport,
}: {
  busy: boolean;
  filters: TransferFilters;
  onFilter: (key: keyof TransferFilters, value: string) => void;
  onRun: () => void;
  onExport: () => void;
  /** Whether any line is shown to export. */
  canExport: boolean;
}) {
  return (
    <div className="toolbar">
      <button type="button" onClick={onRun} disabled={busy}>
        {busy ? 'Working…' : 'Run recommendations'}
      </button>
      <label>
        Type
        <FilterSelect
          name="type"
          value={filters.type}
          values={TYPES}
          every="all"
          onChange={(v) => onFilter('type', v)}
        />
      </label>
      <label>
        Location{' '}
        <input
          name="location"
          value={filters.location}
          onChange={(e) => onFilter('location', e.target.value)}
          placeholder="id or name, from or to"
        />
      </label>
      <label>
        Style <input name="style" value={filters.style} onChange={(e) => onFilter('style', e.target.value)} />
      </label>
      <button type="button" onClick={onExport} disabled={!canExport}>
        Export CSV
      </button>
    </div>
  );
}
