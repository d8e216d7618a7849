import { useState } from 'react';
import type { AdminClient, BatchOutcome, CsvMapping, PickedFile } from '../client';
import { download } from '../csv';
import { errorsCsv } from '../errors-csv';

/**
 * A refused batch's every problem as CSV. An outcome lists the first 1,000; past them, the check is asked for all
 * of them, and it meets what the load met (the same assembly and record rules, nothing loaded).
 */
export function useErrorsDownload(client: AdminClient, files: PickedFile[], mapping: CsvMapping) {
  const [downloadError, setDownloadError] = useState<string>();
  const downloadErrors = async (o: BatchOutcome) => {
    setDownloadError(undefined);
    try {
      let whole = o;
      if ((o.problemCount ?? 0) > (o.problems?.length ?? 0)) {
        const { batches } = await client.call('POST /load/check', { body: { files, mapping, allProblems: true } });
        whole = batches.find((b) => b.error && b.files.join() === o.files.join()) ?? o;
      }
      const base = o.files[0]
        .split('/')
        .pop()!
        .replace(/\.[^.]*$/, '');
      download(`${base}-errors.csv`, errorsCsv(whole));
    } catch (e) {
      setDownloadError((e as Error).message);
    }
  };
  return { downloadError, downloadErrors };
}
