import { useCallback, useMemo } from 'react';
import { whole } from '../../../common/format';
import type { GroupKpis, AdminClient } from '../client';
import { KPIS, show } from '../kpis';
import { download, toCsv } from '../csv';
import { useSort } from '../sort';
import { useWorkbench, type BreakdownLevel } from '../store';
import { useNames } from '../use-names';
import { Notices } from '../Notices';
import { useFetch } from '../use-fetch';
import { FilterSelect } from '../FilterSelect';

/** Rows drawn at once; the filter narrows the rest. */
const SHOWN = 200;

/** The KPIs shown per group, with short headings; each reads as it does on the cards (a dash where there is none). */
const COLUMNS = (
  [
    ['stockOutDays', 'Stock-out days'],
    ['inStockRate', 'In-stock'],
    ['lostSales', 'Lost sales'],
    ['inventoryUnits', 'Avg stock, stores'],
    ['warehouseInventoryUnits', 'Avg stock, warehouses'],
  ] as const
).map(([key, heading]) => ({ kpi: KPIS.find((k) => k.key === key)!, heading }));

/** A group that saw anything on either side: a day carried, a sale, or stock held. */
const active = (g: GroupKpis) =>
  [g.simulated, g.actual].some(
    (k) => k.carriedDays > 0 || k.sales > 0 || k.inventoryUnits > 0 || k.warehouse.inventoryUnits > 0,
  );

/** The kinds a location can be, as the data makes them. */
const KINDS = ['store', 'warehouse', 'online'] as const;

/**
 * Where a run's stock-outs happened: its KPIs by location or by style, worst first, simulated beside actual, each
 * named as the business knows it (a store by its name, a style by its description and category), narrowed by text,
 * by a location's kind or a style's category, and to the rows that saw anything. A style opens day by day with
 * `onStyle`.
 */
export function Breakdown({
  client,
  runId,
  onStyle,
}: {
  client: AdminClient;
  runId: string;
  onStyle?: (styleId: string) => void;
}) {
  // Kept in the store: back from a style, or from another screen, the breakdown is as it was left.
  const { breakdown, setBreakdown } = useWorkbench();
  const names = useNames();
  const { level, filter } = breakdown;
  const kind = breakdown.kind ?? '';
  const category = breakdown.category ?? '';
  const activeOnly = breakdown.activeOnly ?? false;
  const setLevel = (next: BreakdownLevel) => setBreakdown({ ...breakdown, level: next });
  const setFilter = (next: string) => setBreakdown({ ...breakdown, filter: next });
  const nameOf = useCallback(
    (id: string) => (level === 'location' ? names.location(id) : names.style(id)),
    [level, names],
  );
  // As Arrow columns: a run's breakdown by style is a row per style of the data.
  const { data: groups, error } = useFetch(
    () => client.arrow('GET /backtests/:runId/groups/:level', { params: { runId, level } }).then((a) => a.rows),
    [client, runId, level],
  );
  const rows = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (groups ?? [])
      .filter((g) => !needle || nameOf(g.id).toLowerCase().includes(needle))
      .filter((g) => level !== 'location' || !kind || names.locationKind(g.id) === kind)
      .filter((g) => level !== 'style' || !category || names.styleCategoryId(g.id) === category)
      .filter((g) => !activeOnly || active(g))
      .sort((a, b) => b.simulated.stockOutDays - a.simulated.stockOutDays || a.id.localeCompare(b.id));
  }, [groups, filter, kind, category, activeOnly, level, names, nameOf]);
  const { sorted, heading, sort } = useSort(
    rows,
    Object.fromEntries([
      ['id', (g: GroupKpis) => g.id],
      ['category', (g: GroupKpis) => names.styleCategory(g.id) ?? ''],
      ...COLUMNS.flatMap((c) => [
        [c.kpi.key, (g: GroupKpis) => c.kpi.pick(g.simulated)],
        [`${c.kpi.key}-actual`, (g: GroupKpis) => c.kpi.pick(g.actual)],
      ]),
    ]),
  );
  const exportCsv = () =>
    download(
      `${runId}-by-${level}.csv`,
      toCsv(
        [
          level,
          level === 'location' ? 'name' : 'description',
          ...(level === 'style' ? ['category'] : ['kind']),
          ...COLUMNS.flatMap((c) => [`${c.kpi.key} simulated`, `${c.kpi.key} actual`]),
        ],
        sorted.map((g) => [
          g.id,
          names.words(level, g.id),
          level === 'style' ? names.styleCategory(g.id) : names.locationKind(g.id),
          ...COLUMNS.flatMap((c) => [c.kpi.pick(g.simulated) ?? undefined, c.kpi.pick(g.actual) ?? undefined]),
        ]),
      ),
    );
  const order = sort
    ? `sorted by ${sort.key === 'id' ? level : sort.key.replace('-actual', ' (actual)')}`
    : 'most stock-out days first';
  return (
    <section aria-label="Breakdown">
      <div className="toolbar">
        <label>
          By
          <select name="level" value={level} onChange={(e) => setLevel(e.target.value as BreakdownLevel)}>
            <option value="location">location</option>
            <option value="style">style</option>
          </select>
        </label>
        <label>
          Find{' '}
          <input
            name="find"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder={level === 'location' ? 'id or name…' : 'id or description…'}
          />
        </label>
        {level === 'location' ? (
          <label>
            Kind
            <FilterSelect
              name="kind"
              value={kind}
              values={KINDS}
              every="every kind"
              onChange={(k) => setBreakdown({ ...breakdown, kind: k })}
            />
          </label>
        ) : (
          <label>
            Category
            <FilterSelect
              name="category"
              value={category}
              values={names.categories.map((c) => [c.id, c.name] as const)}
              every="every category"
              onChange={(c) => setBreakdown({ ...breakdown, category: c })}
            />
          </label>
        )}
        <label className="check">
          <input
            type="checkbox"
            name="active"
            checked={activeOnly}
            onChange={(e) => setBreakdown({ ...breakdown, activeOnly: e.target.checked })}
          />{' '}
          Only rows with activity
        </label>
        {groups && (
          <span className="hint" data-testid="breakdown-count">
            {whole(Math.min(rows.length, SHOWN))} of {whole(rows.length)}{' '}
            {level === 'location' ? 'locations' : 'styles'}, {order}
          </span>
        )}
        <button type="button" onClick={exportCsv} disabled={sorted.length === 0}>
          Export CSV
        </button>
      </div>
      <Notices error={error} />
      <table className="grid compare" aria-label={`KPIs by ${level}`}>
        <thead>
          <tr>
            <th {...heading('id')}>{level === 'location' ? 'Location' : 'Style'}</th>
            {level === 'style' && <th {...heading('category')}>Category</th>}
            {COLUMNS.map((c) => [
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
          {sorted.slice(0, SHOWN).map((g) => (
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
              {COLUMNS.map((c) => [
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
    </section>
  );
}
