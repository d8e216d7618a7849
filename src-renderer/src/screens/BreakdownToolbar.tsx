import type { ReactNode } from 'react';
import { FilterSelect } from '../FilterSelect';
import type { Names } from '../names';
import type { Breakdown, BreakdownLevel } from '../store';

/** The kinds a location can be, as the data makes them. */
const KINDS = ['store', 'warehouse', 'online'] as const;

/**
 * How a run's breakdown is shown: by location or by style, narrowed by text, by a location's kind or a style's
 * category, and to the rows that saw anything; how many rows it shows (`count`), and their export.
 */
export function BreakdownToolbar({
  view,
  onView,
  names,
  count,
  onExport,
  canExport,
}: {
  view: Breakdown;
  onView: (view: Breakdown) => void;
  names: Names;
  count?: ReactNode;
  onExport: () => void;
  canExport: boolean;
}) {
  const { level, filter } = view;
  return (
    <div className="toolbar">
      <label>
        By
        <select
          name="level"
          value={level}
          onChange={(e) => onView({ ...view, level: e.target.value as BreakdownLevel })}
        >
          <option value="location">location</option>
          <option value="style">style</option>
        </select>
      </label>
      <label>
        Find{' '}
        <input
          name="find"
          value={filter}
          onChange={(e) => onView({ ...view, filter: e.target.value })}
          placeholder={level === 'location' ? 'id or name…' : 'id or description…'}
        />
      </label>
      {level === 'location' ? (
        <label>
          Kind
          <FilterSelect
            name="kind"
            value={view.kind ?? ''}
            values={KINDS}
            every="every kind"
            onChange={(k) => onView({ ...view, kind: k })}
          />
        </label>
      ) : (
        <label>
          Category
          <FilterSelect
            name="category"
            value={view.category ?? ''}
            values={names.categories.map((c) => [c.id, c.name] as const)}
            every="every category"
            onChange={(c) => onView({ ...view, category: c })}
          />
        </label>
      )}
      <label className="check">
        <input
          type="checkbox"
          name="active"
          checked={view.activeOnly ?? false}
          onChange={(e) => onView({ ...view, activeOnly: e.target.checked })}
        />{' '}
        Only rows with activity
      </label>
      {count}
      <button type="button" onClick={onExport} disabled={!canExport}>
        Export CSV
      </button>
    </div>
  );
}
