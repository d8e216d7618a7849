import type { GroupKpis } from '../client';
import { show } from '../kpis';
import type { Names } from '../names';
import type { useSort } from '../sort';
import type { BreakdownLevel } from '../store';
import { BREAKDOWN_COLUMNS, groupName } from './breakdown-rows';

/**
 * A run's KPIs by location or by style, simulated beside actual, each group named as the business knows it (a
 * location not a store says what it is, a style its category); a style opens day by day with `onStyle`.
 */
export function BreakdownTable({
  level,
  rows,
  names,
  heading,
  onStyle,
}: {
  level: BreakdownLevel;
  rows: readonly GroupKpis[];
  names: Names;
  heading: ReturnType<typeof useSort<GroupKpis>>['heading'];
  onStyle?: (styleId: string) => void;
}) {
  const nameOf = (id: string) => groupName(level, id, names);
  return (
    <table className="grid compare" aria-label={`KPIs by ${level}`}>
      <thead>
        <tr>
          <th {...heading('id')}>{level === 'location' ? 'Location' : 'Style'}</th>
          {level === 'style' && <th {...heading('category')}>Category</th>}
          {BREAKDOWN_COLUMNS.map((c) => [
            <th key={c.kpi.key} {...heading(c.kpi.key)} className="num sortable">
              {c.heading}
            </th>,
            <th key={`${c.kpi.key}-actual`} {...heading(`${c.kpi.key}-actual`)} className="num sortable">
              actual
            </th>,
          ])}
        </tr>
      </thead>
      <tbody>
        {rows.map((g) => (
          <tr key={g.id} data-group={g.id}>
            <td>
              {level === 'style' && onStyle ? (
                <button type="button" className="link" onClick={() => onStyle(g.id)}>
                  {nameOf(g.id)}
                </button>
              ) : (
                nameOf(g.id)
              )}
              {level === 'location' && names.locationKind(g.id) && names.locationKind(g.id) !== 'store' && (
                <span className="hint"> ({names.locationKind(g.id)})</span>
              )}
            </td>
            {level === 'style' && <td>{names.styleCategory(g.id) ?? ''}</td>}
            {BREAKDOWN_COLUMNS.map((c) => [
              <td key={c.kpi.key} className="num">
                {show(c.kpi, g.simulated)}
              </td>,
              <td key={`${c.kpi.key}-actual`} className="num">
                {show(c.kpi, g.actual)}
              </td>,
            ])}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
