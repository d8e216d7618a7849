import type { AdminClient } from '../client';
import { go } from '../route';
import { count } from '../../../common/format';
import { Notices } from '../Notices';
import { RunsTable } from './RunsTable';
import { useKeptRuns } from './use-kept-runs';

/** The backtest runs kept in the workspace: open one, compare two, export or delete. */
export function Runs({ client }: { client: AdminClient }) {
  const kept = useKeptRuns(client);
  const { runs } = kept;
  if (runs && runs.length === 0)
    return (
      <p className="empty">
        No backtest runs kept yet: run one on the{' '}
        <a href="#/backtest" className="link">
          Backtest
        </a>{' '}
        screen.
      </p>
    );
  const pair = kept.pair();
  return (
    <section aria-label="Runs">
      <div className="toolbar">
        <button
          type="button"
          disabled={!pair}
          onClick={() => pair && go({ screen: 'compare', a: pair[0], b: pair[1] })}
        >
          Compare the two chosen
        </button>
        <span className="hint">{runs ? `${count(runs.length, 'run')} kept, newest first` : 'Loading…'}</span>
      </div>
      <Notices error={kept.error} notice={kept.notice} />
      {runs && (
        <RunsTable
          runs={runs}
          chosen={kept.chosen}
          onChoose={kept.choose}
          editing={kept.editing}
          onEdit={kept.setEditing}
          onRelabel={(runId, change) => void kept.relabel(runId, change)}
          onExport={(runId) => void kept.exportRun(runId)}
          onDelete={(runId) => void kept.remove(runId)}
        />
      )}
    </section>
  );
}
