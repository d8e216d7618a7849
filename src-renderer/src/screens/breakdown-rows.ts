import type { GroupKpis } from '../client';
import { download, toCsv } from '../csv';
import { KPIS } from '../kpis';
import type { Names } from '../names';
import type { SortValue } from '../sort';
import type { Breakdown } from '../store';

/** The KPIs shown per group, with short headings; each reads as it does on the cards (a dash where there is none). */
export const BREAKDOWN_COLUMNS = (
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

/** A group's name as the business knows it: a store by its name, a style by its description. */
export const groupName = (level: Breakdown['level'], id: string, names: Names) =>
  level === 'location' ? names.location(id) : names.style(id);

/**
 * The groups the breakdown's choices let through, most simulated stock-out days first: their name holding the
 * text, a location of the kind chosen, a style of the category chosen, and only those that saw anything if asked.
 */
export function breakdownRows(groups: readonly GroupKpis[], view: Breakdown, names: Names): GroupKpis[] {
  const { level, kind, category, activeOnly } = view;
  const needle = view.filter.trim().toLowerCase();
  return groups
    .filter((g) => !needle || groupName(level, g.id, names).toLowerCase().includes(needle))
    .filter((g) => level !== 'location' || !kind || names.locationKind(g.id) === kind)
    .filter((g) => level !== 'style' || !category || names.styleCategoryId(g.id) === category)
    .filter((g) => !activeOnly || active(g))
    .sort((a, b) => b.simulated.stockOutDays - a.simulated.stockOutDays || a.id.localeCompare(b.id));
}

/** What a breakdown's table sorts by: the group, its category, and each KPI on either side. */
export function breakdownSorts(names: Names): Record<string, (g: GroupKpis) => SortValue> {
  return Object.fromEntries([
    ['id', (g: GroupKpis) => g.id],
    ['category', (g: GroupKpis) => names.styleCategory(g.id) ?? ''],
    ...BREAKDOWN_COLUMNS.flatMap((c) => [
      [c.kpi.key, (g: GroupKpis) => c.kpi.pick(g.simulated)],
      [`${c.kpi.key}-actual`, (g: GroupKpis) => c.kpi.pick(g.actual)],
    ]),
  ]);
}

/** The groups as shown, with their names, kind or category, and each KPI on either side. */
export function exportBreakdown(runId: string, level: Breakdown['level'], rows: readonly GroupKpis[], names: Names) {
  download(
    `${runId}-by-${level}.csv`,
    toCsv(
      [
        level,
        level === 'location' ? 'name' : 'description',
        ...(level === 'style' ? ['category'] : ['kind']),
        ...BREAKDOWN_COLUMNS.flatMap((c) => [`${c.kpi.key} simulated`, `${c.kpi.key} actual`]),
      ],
      rows.map((g) => [
        g.id,
        names.words(level, g.id),
        level === 'style' ? names.styleCategory(g.id) : names.locationKind(g.id),
        ...BREAKDOWN_COLUMNS.flatMap((c) => [c.kpi.pick(g.simulated) ?? undefined, c.kpi.pick(g.actual) ?? undefined]),
      ]),
    ),
  );
}
