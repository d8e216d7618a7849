import { useMemo } from 'react';
import { whole } from '../../../common/format';
import type { AdminClient } from '../client';
import { useSort } from '../sort';
import { useWorkbench } from '../store';
import { useNames } from '../use-names';
import { Notices } from '../Notices';
import { useFetch } from '../use-fetch';
import { breakdownRows, breakdownSorts, exportBreakdown } from './breakdown-rows';
import { BreakdownTable } from './BreakdownTable';
import { BreakdownToolbar } from './BreakdownToolbar';

/** Rows drawn at once; the filter narrows the rest. */
const SHOWN = 200;

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
  const breakdown = useWorkbench((s) => s.breakdown);
  const setBreakdown = useWorkbench((s) => s.setBreakdown);
  const names = useNames();
  const { level } = breakdown;
  // As Arrow columns: a run's breakdown by style is a row per style of the data.
  const { data: groups, error } = useFetch(
    () => client.arrow('GET /backtests/:runId/groups/:level', { params: { runId, level } }).then((a) => a.rows),
    [client, runId, level],
  );
  const rows = useMemo(() => breakdownRows(groups ?? [], breakdown, names), [groups, breakdown, names]);
  const sorts = useMemo(() => breakdownSorts(names), [names]);
  const { sorted, heading, sort } = useSort(rows, sorts);
  const order = sort
    ? `sorted by ${sort.key === 'id' ? level : sort.key.replace('-actual', ' (actual)')}`
    : 'most stock-out days first';
  return (
    <section aria-label="Breakdown">
      <BreakdownToolbar
        view={breakdown}
        onView={setBreakdown}
        names={names}
        count={
          groups && (
            <span className="hint" data-testid="breakdown-count">
              {whole(Math.min(rows.length, SHOWN))} of {whole(rows.length)}{' '}
              {level === 'location' ? 'locations' : 'styles'}, {order}
            </span>
          )
        }
        onExport={() => exportBreakdown(runId, level, sorted, names)}
        canExport={sorted.length > 0}
      />
      <Notices error={error} />
      <BreakdownTable level={level} rows={sorted.slice(0, SHOWN)} names={names} heading={heading} onStyle={onStyle} />
    </section>
  );
}
