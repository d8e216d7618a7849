import type { KeptRun } from '../client';
import { KPIS, show } from '../kpis';
import { routeHash } from '../route';
import { runName, scenarioOf } from '../runs';
import { RunLabelForm } from './RunLabelForm';

/** The headline KPIs a run is listed with, simulated over actual. */
const HEADLINE = (
  [
    ['fillRate', 'Fill rate'],
    ['lostSales', 'Lost sales'],
    ['inventoryUnits', 'Store stock'],
  ] as const
).map(([key, heading]) => ({ ...KPIS.find((k) => k.key === key)!, heading }));

/** What can be done with a kept run, each given its id. */
interface RunActions {
  onChoose: (runId: string, on: boolean) => void;
  /** `onEdit` with no run stops editing. */
  onEdit: (runId?: string) => void;
  onRelabel: (runId: string, change: { label: string; note: string }) => void;
  onExport: (runId: string) => void;
  onDelete: (runId: string) => void;
}

/**
 * The kept runs, one row each: a box to choose it for a comparison, its name linked to it, its period and
 * scenario, its headline KPIs, and what can be done with it (its label and note edited in place, export, delete).
 */
export function RunsTable({
  runs,
  chosen,
  editing,
  ...actions
}: {
  runs: KeptRun[];
  chosen: string[];
  /** The run whose label and note are being edited. */
  editing?: string;
} & RunActions) {
  return (
    <table className="grid runs" aria-label="Kept runs">
      <thead>
        <tr>
          <th aria-label="Choose" />
          <th>Run</th>
          <th>Period and scenario</th>
          {HEADLINE.map((k) => (
            <th key={k.key} className="num" title={k.label}>
              {k.heading}
              <div className="hint">simulated / actual</div>
            </th>
          ))}
          <th />
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <RunRow key={r.runId} run={r} chosen={chosen.includes(r.runId)} editing={editing === r.runId} {...actions} />
        ))}
      </tbody>
    </table>
  );
}

/** One kept run: its box, its name linked to it, its period and scenario, its headline KPIs and its actions. */
function RunRow({
  run: r,
  chosen,
  editing,
  onChoose,
  onEdit,
  onRelabel,
  onExport,
  onDelete,
}: { run: KeptRun; chosen: boolean; editing: boolean } & RunActions) {
  return (
    <tr data-run={r.runId}>
      <td>
        <input
          type="checkbox"
          aria-label={`Choose ${r.runId}`}
          checked={chosen}
          onChange={(e) => onChoose(r.runId, e.target.checked)}
        />
      </td>
      <td className="runs__name">
        <a className={r.label ? 'link' : 'link nowrap'} href={routeHash({ screen: 'backtest', runId: r.runId })}>
          {runName(r)}
        </a>
        <div className="hint">
          {r.label ? `${r.runId} · ` : ''}
          {r.createdAt.slice(0, 16).replace('T', ' ')}
          {r.status === 'cancelled' ? ' · cancelled' : ''}
        </div>
        {r.note && (
          <div className="runs__note" data-testid="run-note">
            {r.note}
          </div>
        )}
        {editing && (
          <RunLabelForm run={r} save={(change) => onRelabel(r.runId, change)} cancel={() => onEdit(undefined)} />
        )}
      </td>
      <td>
        <span className="nowrap">
          {r.from} … {r.to}
        </span>
        <div className="hint">{scenarioOf(r)}</div>
      </td>
      {HEADLINE.map((k) => (
        <td key={k.key} className="num nowrap">
          {show(k, r.summary.simulated)} / {show(k, r.summary.actual)}
        </td>
      ))}
      <td>
        <div className="runs__actions">
          <button type="button" onClick={() => onEdit(r.runId)}>
            Label…
          </button>
          <button type="button" onClick={() => onExport(r.runId)}>
            Export
          </button>
          <button type="button" onClick={() => onDelete(r.runId)}>
            Delete
          </button>
        </div>
      </td>
    </tr>
  );
}
