import type { BatchOutcome } from '../client';
import { ProblemPlace } from './ProblemPlace';

function outcomeText(o: BatchOutcome, checked: boolean): string {
  if (o.error)
    return o.problems?.length
      ? checked
        ? 'Would be refused, nothing of it applied'
        : 'Rejected, nothing of it applied'
      : `${checked ? 'Would be refused' : 'Rejected, nothing of it applied'}: ${o.error}`;
  if (checked) return 'passes';
  if (o.result?.staged) return 'kept for the full load, applied with its last file';
  const n = o.result?.warnings.length ?? 0;
  return n ? `${n} warning${n === 1 ? '' : 's'}` : 'loaded';
}

/**
 * Each batch of a load (a file, or a dataset's CSV files) with its records and outcome, and every problem with its
 * file, row and column: as checked before loading (`checked`), or as loaded.
 */
export function Outcomes({
  label,
  outcomes,
  checked = false,
}: {
  label: string;
  outcomes: BatchOutcome[];
  checked?: boolean;
}) {
  return (
    <table className="grid compare" aria-label={label}>
      <thead>
        <tr>
          <th>Files</th>
          <th>Endpoint</th>
          <th className="num">Records</th>
          {!checked && (
            <>
              <th className="num">Created</th>
              <th className="num">Updated</th>
              <th className="num">Deleted</th>
            </>
          )}
          <th>Outcome</th>
        </tr>
      </thead>
      <tbody>
        {outcomes.map((o) => (
          <tr key={o.files.join()} data-file={o.files.join(', ')} className={o.error ? 'row--bad' : undefined}>
            <td>{o.files.join(', ')}</td>
            <td>{o.dataset ?? '–'}</td>
            <td className="num">{o.error && !o.records ? '–' : o.records.toLocaleString('en')}</td>
            {!checked && (
              <>
                <td className="num">{o.result?.created.toLocaleString('en') ?? '–'}</td>
                <td className="num">{o.result?.updated.toLocaleString('en') ?? '–'}</td>
                <td className="num">{o.result ? (o.result.deleted + o.result.zeroed).toLocaleString('en') : '–'}</td>
              </>
            )}
            <td>
              {outcomeText(o, checked)}
              {o.problems && o.problems.length > 0 && (
                <ul className="log__errors load__problems">
                  {o.problems.map((pr, i) => (
                    <li key={i}>
                      <ProblemPlace problem={pr} />
                      {pr.message}
                    </li>
                  ))}
                  {(o.problemCount ?? 0) > o.problems.length && (
                    <li>
                      … and {(o.problemCount ?? 0) - o.problems.length}
                      {o.problemCountIsAtLeast ? ' or' : ''} more
                    </li>
                  )}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
