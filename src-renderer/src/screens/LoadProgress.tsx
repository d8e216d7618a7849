import { count, duration, perSecond, whole } from '../../../common/format';
import type { LoadJob } from '../client';

/** How far a load has come: files, records and its pace, and how many records it rejected once done. */
export function LoadProgress({ job }: { job: LoadJob }) {
  const { progress: p, report } = job;
  return (
    <div className="progress">
      <progress max={Math.max(p.bytes, 1)} value={report ? p.bytes : p.bytesDone} aria-label="Files loaded" />
      <span className="hint" data-testid="load-progress">
        {whole(p.filesDone)} of {count(p.files, 'file')} · {count(p.records, 'record')} ·{' '}
        {/* A rate over less than a second is mostly the wait for the first answer: the time says more. */}
        {p.seconds < 1 ? duration(p.seconds * 1000) : perSecond(p.records, p.seconds, 'records')}
        {report && report.rejected > 0 && ` · ${report.rejected} rejected`}
      </span>
    </div>
  );
}
