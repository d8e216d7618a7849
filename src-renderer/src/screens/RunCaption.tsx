import { duration } from '../../../common/format';
import type { BacktestRun } from '../client';
import { routeHash } from '../route';
import { runName, scenarioOf } from '../runs';

/** Which run is shown: its name, period and scenario, the sweep it is a point of, and how long it took. */
export function RunCaption({ run }: { run: BacktestRun }) {
  return (
    <p className="hint">
      Run {runName(run)}
      {run.label ? ` (${run.runId})` : ''}, {run.from} … {run.to}, scenario {scenarioOf(run)}
      {run.sweep && (
        <>
          {' '}
          (point {run.sweep.point} of{' '}
          <a className="link" href={routeHash({ screen: 'sweep', sweepId: run.sweep.sweepId })}>
            sweep {run.sweep.sweepId}
          </a>
          )
        </>
      )}
      , {duration(run.durationMs)}
    </p>
  );
}
