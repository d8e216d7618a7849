import { useEffect, useMemo, useState } from 'react';
import type { GroupKpis, AdminClient } from '../client';
import { KPIS, show } from '../kpis';
import { download, toCsv } from '../csv';
import { useSort } from '../sort';
import { useWorkbench, type BreakdownLevel } from '../store';

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

/**
 * Where a run's stock-outs happened: its KPIs by location or by style, worst first, simulated beside actual. A
 * style opens day by day with `onStyle`.
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
  const { level, filter } = breakdown;
  const setLevel = (next: BreakdownLevel) => setBreakdown({ level: next, filter });
  const setFilter = (next: string) => setBreakdown({ level, filter: next });
  const [groups, setGroups] = useState<GroupKpis[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    // Only the answer for the run and level shown now: a slower earlier one must not replace it.
    let live = true;
    setGroups(undefined);
    setError(undefined);
    // As Arrow columns: a run's breakdown by style is a row per style of the data.
    void client.arrow('GET /backtests/:runId/groups/:level', { params: { runId, level } }).then(
      ({ rows }) => live && setGroups(rows),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [client, runId, level]);
  const rows = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (groups ?? [])
      .filter((g) => !needle || g.id.toLowerCase().includes(needle))
      .sort((a, b) => b.simulated.stockOutDays - a.simulated.stockOutDays || a.id.localeCompare(b.id));
  }, [groups, filter]);
  const { sorted, heading, sort } = useSort(
    rows,
    Object.fromEntries([
      ['id', (g: GroupKpis) => g.id],
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
        [level, ...COLUMNS.flatMap((c) => [`${c.kpi.key} simulated`, `${c.kpi.key} actual`])],
        sorted.map((g) => [
          g.id,
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
          <input name="find" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="id contains…" />
        </label>
        {groups && (
          <span className="hint" data-testid="breakdown-count">
            {Math.min(rows.length, SHOWN).toLocaleString('en')} of {rows.length.toLocaleString('en')}{' '}
            {level === 'location' ? 'locations' : 'styles'}, {order}
          </span>
        )}
        <button type="button" onClick={exportCsv} disabled={sorted.length === 0}>
          Export CSV
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <table className="grid compare" aria-label={`KPIs by ${level}`}>
        <thead>
          <tr>
            <th {...heading('id')}>{level === 'location' ? 'Location' : 'Style'}</th>
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
                    {g.id}
                  </button>
                ) : (
                  g.id
                )}
              </td>
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
