import type { BatchOutcome, Problem } from '../client';
import { count, whole } from '../../../common/format';
import { ProblemList } from './ProblemPlace';

function outcomeText(o: BatchOutcome, checked: boolean, shownAbove?: (p: Problem) => boolean): string {
  if (o.error && !o.problems?.length && shownAbove?.({ path: '', file: o.files[0], message: o.error }))
    return 'Would be refused, for what its columns above say';
  if (o.error)
    return o.problems?.length
      ? checked
        ? 'Would be refused, nothing of it applied'
        : 'Rejected, nothing of it applied'
      : `${checked ? 'Would be refused' : 'Rejected, nothing of it applied'}: ${o.error}`;
  if (checked) return 'passes';
  if (o.result?.staged) return 'kept for the full load, applied with its last file';
  const n = o.result?.warnings.length ?? 0;
  return n ? count(n, 'warning') : 'loaded';
}

/**
 * Each batch of a load (a file, or a dataset's CSV files) with its records and outcome, every problem with its
 * file, row and column, and what its load warns of: as checked before loading (`checked`), or as loaded. A refused
 * batch's problems download as CSV (`onDownloadErrors`).
 *
 * Over 80 lines only for the markup of its one table.
 */
export function Outcomes({
  label,
  outcomes,
  checked = false,
  onDownloadErrors,
  shownAbove,
}: {
  label: string;
  outcomes: BatchOutcome[];
  checked?: boolean;
  onDownloadErrors?: (outcome: BatchOutcome) => void;
  /** What the screen already shows elsewhere (a CSV file's mapping step): counted here, not told again. */
  shownAbove?: (p: Problem) => boolean;
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
        {outcomes.map((o) => {
          const problems = (o.problems ?? []).filter((p) => !shownAbove?.(p));
          const told = (o.problems?.length ?? 0) - problems.length;
          const warnings = (o.result?.warnings ?? o.warnings ?? []).filter((w) => !shownAbove?.(w));
          return (
            <tr key={o.files.join()} data-file={o.files.join(', ')} className={o.error ? 'row--bad' : undefined}>
              <td>{o.files.join(', ')}</td>
              <td>{o.dataset ?? '–'}</td>
              <td className="num">{o.error && !o.records ? '–' : whole(o.records)}</td>
              {!checked && (
                <>
                  <td className="num">{o.result ? whole(o.result.created) : '–'}</td>
                  <td className="num">{o.result ? whole(o.result.updated) : '–'}</td>
                  <td className="num">{o.result ? whole(o.result.deleted + o.result.zeroed) : '–'}</td>
                </>
              )}
              <td>
                {outcomeText(o, checked, shownAbove)}
                {(problems.length > 0 || told > 0) && (
                  <ProblemList problems={problems} className="log__errors load__problems">
                    {told > 0 && (
                      <li className="load__told" data-testid="told-above">
                        {count(told, 'problem')} shown with its columns above
                      </li>
                    )}
                    {(o.problemCount ?? 0) > (o.problems?.length ?? 0) && (
                      <li>
                        … and {whole((o.problemCount ?? 0) - (o.problems?.length ?? 0))}
                        {o.problemCountIsAtLeast ? ' or' : ''} more
                      </li>
                    )}
                  </ProblemList>
                )}
                <ProblemList
                  problems={warnings}
                  className="load__warnings"
                  label={`Warnings of ${o.files.join(', ')}`}
                />
                {o.error && onDownloadErrors && (
                  <button type="button" onClick={() => onDownloadErrors(o)}>
                    Download errors (CSV)
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
