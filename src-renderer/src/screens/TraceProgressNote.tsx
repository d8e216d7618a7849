import type { TraceProgress } from '../client';

/** How far the replay that traces a style's location × SKUs got, while they are awaited. */
export function TraceProgressNote({ progress }: { progress?: TraceProgress }) {
  return (
    <div className="progress">
      {progress?.status === 'replaying' && (
        <progress max={progress.days} value={progress.daysDone} aria-label="Days replayed to trace the style" />
      )}
      <span className="hint" data-testid="trace-progress">
        {progress?.status === 'replaying'
          ? 'Replaying the run to follow each location × SKU of the style: ' +
            `${progress.daysDone} of ${progress.days} days`
          : "Reading the run's days to replay them and follow each location × SKU of the style…"}
      </span>
    </div>
  );
}
