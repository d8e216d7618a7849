import { useEffect } from 'react';
import type { BacktestJob, BacktestResult, AdminClient } from '../client';
import type { DatasetSummary } from '../../../common/api-types';
import type { Route } from '../route';
import { useWorkbench } from '../store';
import { BacktestRunView } from './BacktestRunView';
import { BacktestToolbar } from './BacktestToolbar';
import { useBacktestForm } from './use-backtest-form';

/** Run a backtest over a period and see how the engine would have done against what happened. */
export function Backtest({
  route,
  summary,
  client,
  run,
  cancel,
  job,
  result: kept,
  running,
  scenarios,
}: {
  route: Extract<Route, { screen: 'backtest' }>;
  summary?: DatasetSummary[];
  client: AdminClient;
  run: (from: string, to: string, scenario: string) => void;
  cancel: () => void;
  job?: BacktestJob;
  result?: BacktestResult;
  running: boolean;
  scenarios: string[];
}) {
  const openRun = useWorkbench((s) => s.openRun);
  const { runId, styleId, cell } = route;
  useEffect(() => {
    if (runId) void openRun(runId);
  }, [runId, openRun]);
  // The run the address names, once it is read; the form stays whatever it holds meanwhile.
  const result = runId && kept?.run.runId === runId ? kept : undefined;
  const { edit, ...form } = useBacktestForm(summary, scenarios);
  return (
    <section aria-label="Backtest">
      <BacktestToolbar
        form={form}
        scenarios={scenarios}
        running={running}
        onEdit={edit}
        onRun={run}
        onCancel={cancel}
      />
      {job && (
        <div className="progress">
          <progress max={job.days} value={job.daysDone} aria-label="Days replayed" />
          <span className="hint" data-testid="backtest-progress">
            {job.daysDone} of {job.days} days
          </span>
        </div>
      )}
      {result && <BacktestRunView client={client} result={result} styleId={styleId} cell={cell} />}
    </section>
  );
}
