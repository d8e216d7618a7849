import { useState } from 'react';
import type { PickedFile, AdminClient } from '../client';
import { Outcomes } from './Outcomes';
import { useWorkbench } from '../store';
import { LoadHints } from './LoadHints';
import { LoadMapping } from './LoadMapping';
import { LoadProgress } from './LoadProgress';
import { problemKey } from './ProblemPlace';
import { Notices } from '../Notices';
import { LoadCheck, useLoadCheck } from './LoadCheck';
import { LoadToolbar } from './LoadToolbar';
import { isTable, readPicked } from './picked-files';
import { useCsvMapping } from './use-csv-mapping';
import { useErrorsDownload } from './use-errors-download';

/**
 * Files or a folder: API-shaped JSON (one endpoint's body per file) or CSV (one file per level: items, SKUs,
 * barcodes; one row per sales line or order line), CSV through a mapping step with a preview; each dataset's
 * files are applied whole or not at all, and every rejected record is named with its reason.
 */
export function Load({ client }: { client: AdminClient }) {
  const { loadJob, loadRunning, loadFiles, clearLoad, summary } = useWorkbench();
  const [files, setFiles] = useState<PickedFile[]>([]);
  const csv = useCsvMapping(client, files);
  const { mapping, preview, previewError } = csv;
  const [fullLoad, setFullLoad] = useState(false);
  const [onlyIfAllPass, setOnlyIfAllPass] = useState(true);
  const { checked, checkError } = useLoadCheck(client, files, mapping);
  const { downloadError, downloadErrors } = useErrorsDownload(client, files, mapping);
  /** Files are being dragged over the screen. */
  const [dragging, setDragging] = useState(false);

  const pick = async (list: FileList | readonly File[] | null) => {
    setFiles(await readPicked(list));
    csv.reset();
    // The outcome of the files loaded before does not belong under these.
    clearLoad();
  };

  /** What the mapping step already shows for a file: the check below lists only what it adds. */
  const shownAbove = new Set(
    (preview?.files ?? []).flatMap((f) =>
      [...f.problems, ...f.warnings].map((p) => problemKey({ file: f.name, ...p })),
    ),
  );
  const report = loadJob?.report;
  const json = files.filter((f) => !isTable(f.name));
  const failing = checked?.filter((o) => o.error).length ?? 0;
  return (
    <section
      aria-label="Load"
      data-testid="drop-zone"
      className={dragging ? 'load load--dragging' : 'load'}
      onDragOver={(e) => {
        if (![...e.dataTransfer.types].includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => e.currentTarget === e.target && setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        if (e.dataTransfer.files.length) void pick([...e.dataTransfer.files]);
      }}
    >
      {dragging && <p className="load__drop">Drop the files to check them</p>}
      <LoadToolbar
        files={files.length}
        failing={failing}
        running={loadRunning}
        fullLoad={fullLoad}
        onFullLoad={setFullLoad}
        onlyIfAllPass={onlyIfAllPass}
        onOnlyIfAllPass={setOnlyIfAllPass}
        onPick={(list) => void pick(list)}
        onLoad={() => void loadFiles(files, { mapping, fullLoad, onlyIfAllPass })}
      />
      <LoadHints summary={summary} json={json} />
      <Notices error={previewError && `The CSV files could not be read: ${previewError}`} />
      {preview && preview.files.length > 0 && <LoadMapping csv={csv} preview={preview} />}
      {files.length > 0 && !report && (
        <LoadCheck
          checked={checked}
          checkError={checkError}
          onlyIfAllPass={onlyIfAllPass}
          shownAbove={(p) => shownAbove.has(problemKey(p))}
          onDownloadErrors={(o) => void downloadErrors(o)}
        />
      )}
      {loadJob && <LoadProgress job={loadJob} />}
      <Notices error={downloadError && `The errors could not be downloaded: ${downloadError}`} />
      {report && report.batches.length > 0 && (
        <Outcomes label="Loaded files" outcomes={report.batches} onDownloadErrors={(o) => void downloadErrors(o)} />
      )}
    </section>
  );
}
