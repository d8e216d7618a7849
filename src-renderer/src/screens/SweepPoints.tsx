import { percent, whole } from '../../../common/format';
import { settingName } from '../../../common/setting-names';
import type { SweepReport } from '../client';
import type { SortValue, useSort } from '../sort';

/** A sweep's points lie close: their rates to a hundredth of a point, as a fill-rate goal is typed. */
export const rate = (v: number | null) => (v === null ? '—' : percent(v, 2));

type SweepRow = SweepReport['runs'][number];

/** What each column of the points sorts by (`useSort`): the point, each setting varied, the figures. */
export function sweepColumns(varied: readonly string[]): Record<string, (r: SweepRow) => SortValue> {
  return {
    point: (r) => r.point,
    ...Object.fromEntries(varied.map((s) => [s, (r: SweepRow) => r.vary[s]])),
    lostSales: (r) => r.lostSales,
    fillRate: (r) => r.fillRate,
    inventoryUnits: (r) => r.inventoryUnits,
    trips: (r) => r.trips,
    units: (r) => r.units,
  };
}

/** A sweep's points in the order chosen: the settings varied, the figures, the frontier, the point picked. */
export function SweepPoints({
  rows,
  varied,
  heading,
  picked,
}: {
  rows: readonly SweepRow[];
  varied: readonly string[];
  heading: ReturnType<typeof useSort>['heading'];
  picked?: number | null;
}) {
  return (
    <table className="grid" aria-label="Sweep points">
      <thead>
        <tr>
          <th {...heading('point')}>Point</th>
          {varied.map((s) => (
            <th key={s} {...heading(s)} className="num sortable" title={s}>
              {settingName(s)}
            </th>
          ))}
          <th {...heading('lostSales')} className="num sortable">
            Lost sales
          </th>
          <th {...heading('fillRate')} className="num sortable">
            Fill rate
          </th>
          <th {...heading('inventoryUnits')} className="num sortable">
            Store stock
          </th>
          <th {...heading('trips')} className="num sortable">
            Trips
          </th>
          <th {...heading('units')} className="num sortable">
            Units moved
          </th>
          <th>Frontier</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.point} data-point={r.point} className={r.point === picked ? 'row--picked' : undefined}>
            <td>
              <a className="link" href={`#/backtest/${encodeURIComponent(r.runId)}`}>
                {r.point}
              </a>
            </td>
            {varied.map((s) => (
              <td key={s} className="num">
                {r.vary[s]}
              </td>
            ))}
            <td className="num">{whole(r.lostSales)}</td>
            <td className="num">{rate(r.fillRate)}</td>
            <td className="num">{whole(r.inventoryUnits)}</td>
            <td className="num">{whole(r.trips)}</td>
            <td className="num">{whole(r.units)}</td>
            <td>{r.frontier ? 'on it' : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
