import { whole } from '../../../common/format';
import type { DatasetSummary } from '../../../common/api-types';
import type { AdminClient } from '../client';
import { Notices } from '../Notices';
import { KeptSweeps } from './KeptSweeps';
import { SweepResult } from './SweepResult';
import { SweepSetup } from './SweepSetup';
import { useSweep } from './use-sweep';

/**
 * Tuning offline: a grid of settings run as backtests over one period, and the trade-off they draw between lost
 * sales and store stock. A constraint picks a point, which is kept as a scenario in one click.
 */
export function Sweep({
  client,
  sweepId,
  summary,
  scenarios,
  saved,
}: {
  client: AdminClient;
  sweepId?: string;
  summary: DatasetSummary[] | undefined;
  scenarios: string[];
  /** The scenario names changed: a point was kept as one. */
  saved: () => void;
}) {
  const sweep = useSweep(client, sweepId, saved);
  const { job } = sweep;
  return (
    <section aria-label="Sweep">
      <SweepSetup
        settings={sweep.settings}
        maxPoints={sweep.maxPoints}
        scenarios={scenarios}
        summary={summary}
        running={!!job}
        onStart={(request) => void sweep.start(request)}
      />
      {job && (
        <div className="progress" data-testid="sweep-progress">
          <progress max={job.days} value={job.daysDone} /> day {whole(job.daysDone)} of {whole(job.days)} over every
          point{' '}
          <button type="button" onClick={() => sweep.cancel(job.jobId)}>
            Cancel
          </button>
        </div>
      )}
      <Notices error={sweep.error} notice={sweep.notice} />
      <SweepResult
        report={sweep.report}
        constraint={sweep.constraint}
        onConstraint={sweep.setConstraint}
        picked={sweep.picked}
        name={sweep.name}
        onName={sweep.setName}
        onSave={() => void sweep.save()}
      />
      <h2>Kept sweeps</h2>
      <KeptSweeps kept={sweep.kept} remove={(id) => void sweep.remove(id)} />
    </section>
  );
}
