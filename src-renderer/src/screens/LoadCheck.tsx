import { useEffect, useState } from 'react';
import { count, whole } from '../../../common/format';
import type { AdminClient, BatchOutcome, CsvMapping as Mapping, PickedFile, Problem } from '../client';
import { Notices } from '../Notices';
import { Outcomes } from './Outcomes';

/** The check of whole files waits for the mapping to settle this long. */
const CHECK_AFTER_MS = 400;

/**
 * Every batch as the load would meet it, checked on the whole files as they are mapped, again whenever either
 * changes; `checked` is undefined while checking.
 */
export function useLoadCheck(client: AdminClient, files: PickedFile[], mapping: Mapping) {
  const [checked, setChecked] = useState<BatchOutcome[]>();
  const [checkError, setCheckError] = useState<string>();
  useEffect(() => {
    setChecked(undefined);
    setCheckError(undefined);
    if (files.length === 0) return undefined;
    let current = true;
    const timer = setTimeout(() => {
      client.call('POST /load/check', { body: { files, mapping } }).then(
        ({ batches }) => current && setChecked(batches),
        (e: Error) => current && setCheckError(e.message),
      );
    }, CHECK_AFTER_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, files, mapping]);
  return { checked, checkError };
}

/** What the check found before loading: whether every file passes, and each batch's outcome. */
export function LoadCheck({
  checked,
  checkError,
  onlyIfAllPass,
  shownAbove,
  onDownloadErrors,
}: {
  checked?: BatchOutcome[];
  checkError?: string;
  onlyIfAllPass: boolean;
  /** Whether the mapping step shows the problem already. */
  shownAbove: (p: Problem) => boolean;
  onDownloadErrors: (o: BatchOutcome) => void;
}) {
  const failing = checked?.filter((o) => o.error).length ?? 0;
  return (
    <section aria-label="Check">
      <h2>Before loading</h2>
      <Notices error={checkError && `The files could not be checked: ${checkError}`} />
      {!checked && !checkError && <p className="hint">Checking every row as the load will…</p>}
      {checked && (
        <>
          <p className="hint" data-testid="check-summary">
            {failing === 0
              ? `Every file passes: ${count(
                  checked.reduce((n, o) => n + o.records, 0),
                  'record',
                )} to load.`
              : `${whole(failing)} of ${count(checked.length, 'batch')} would be refused, for the problems below` +
                (onlyIfAllPass ? ': fix them, or load each dataset on its own.' : '; the others load.')}
          </p>
          <Outcomes
            label="Files checked"
            outcomes={checked}
            checked
            shownAbove={shownAbove}
            onDownloadErrors={onDownloadErrors}
          />
        </>
      )}
    </section>
  );
}
