import { useState } from 'react';
import { count, duration, perSecond, whole } from '../../../common/format';
import type { BatchOutcome, CsvMapping as Mapping, CsvPreview, PickedFile, AdminClient } from '../client';
import { Outcomes } from './Outcomes';
import { download } from '../csv';
import { errorsCsv } from '../errors-csv';
import { useWorkbench } from '../store';
import { CsvMapping } from './CsvMapping';
import { problemKey } from './ProblemPlace';
import { Notices } from '../Notices';
import { LoadCheck, useLoadCheck } from './LoadCheck';
import { LoadToolbar } from './LoadToolbar';
import { isTable, readPicked } from './picked-files';
import { useCsvMapping } from './use-csv-mapping';

/**
 * The mapping as shown, as a file `workbench load --map` takes: per file, its level and every column's field (null:
 * left out), so the next load of files like these maps the same way without the screen.
 */
function saveMapping(preview: CsvPreview, mapping: Mapping): void {
  const file = Object.fromEntries(
    preview.files
      .filter((f) => f.level)
      .map((f) => [
        f.name.split('/').pop(),
        {
          ...mapping[f.name],
          level: f.level,
          columns: Object.fromEntries(f.headers.map((h, i) => [h, f.columns[i]])),
        },
      ]),
  );
  download('mapping.json', `${JSON.stringify(file, null, 2)}\n`, 'application/json');
}

const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
const listed = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : items.join('');

/**
 * Files or a folder: API-shaped JSON (one endpoint's body per file) or CSV (one file per level: items, SKUs,
 * barcodes; one row per sales line or order line), CSV through a mapping step with a preview; each dataset's
 * files are applied whole or not at all, and every rejected record is named with its reason.
 */
export function Load({ client }: { client: AdminClient }) {
  const { loadJob, loadRunning, loadFiles, clearLoad, summary } = useWorkbench();
  const [files, setFiles] = useState<PickedFile[]>([]);
  const csv = useCsvMapping(client, files);
  const { mapping, preview, previewError, guessed } = csv;
  const [fullLoad, setFullLoad] = useState(false);
  const [onlyIfAllPass, setOnlyIfAllPass] = useState(true);
  const { checked, checkError } = useLoadCheck(client, files, mapping);
  const [downloadError, setDownloadError] = useState<string>();
  /** Files are being dragged over the screen. */
  const [dragging, setDragging] = useState(false);

  /**
   * A refused batch's every problem as CSV. An outcome lists the first 1,000; past them, the check is asked for all
   * of them, and it meets what the load met (the same assembly and record rules, nothing loaded).
   */
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
  const fullLoadable = summary?.filter((s) => s.fullLoad).map((s) => words(s.dataset)) ?? [];
  const p = loadJob?.progress;
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
      <p className="hint">
        JSON: one endpoint's request body per file (e.g. <code>{'{"sales": [...]}'}</code>), named after the endpoint (
        <code>Sales-0001.json</code>) or holding one array named after it. CSV: one file per kind of row, named after it
        (<code>items.csv</code>, <code>skus.csv</code>, <code>barcodes.csv</code>; <code>Sales.csv</code> with one row
        per sales line; <code>PurchaseOrders.csv</code> with one row per order line), with a header row. Parquet and
        Arrow (<code>.parquet</code>, <code>.arrow</code>, <code>.feather</code>) files are read the same way, their
        columns mapped like a CSV file's. Each dataset's files are applied whole or not at all.
      </p>
      {/* prettier-ignore */}
      <p className="hint" data-testid="full-load-hint">
        Full load: {fullLoadable.length ? listed(fullLoadable) : 'the data that allows it'} that these files do
        not hold{' '}
        {fullLoadable.length === 1 ? 'is' : 'are'} deleted (stock is set to 0); other data is added or updated as usual.
        A rejected file cancels its dataset's full load, which then deletes nothing.
      </p>
      {json.length > 0 && (
        <p className="hint">
          JSON file{json.length === 1 ? '' : 's'} to load: {json.map((f) => f.name).join(', ')}.
        </p>
      )}
      <Notices error={previewError && `The CSV files could not be read: ${previewError}`} />
      {preview && preview.files.length > 0 && (
        <section aria-label="Column mapping">
          <h2>CSV columns</h2>
          <p className="hint">
            Check what each file holds and which field each column loads into; the first rows show the values as they
            will be loaded.{' '}
            <button type="button" onClick={() => saveMapping(preview, mapping)}>
              Save mapping file
            </button>{' '}
            (for <code>workbench load --map</code>)
          </p>
          {preview.files.map((f) => (
            <CsvMapping
              key={f.name}
              file={f}
              levels={preview.levels}
              mapping={mapping[f.name] ?? {}}
              guessed={guessed[f.name]}
              onLevel={(level) => csv.setLevel(f.name, level)}
              onColumn={(header, target) => csv.setColumn(f.name, header, target)}
              onOptions={(options) => csv.setOptions(f.name, options)}
            />
          ))}
        </section>
      )}
      {files.length > 0 && !report && (
        <LoadCheck
          checked={checked}
          checkError={checkError}
          onlyIfAllPass={onlyIfAllPass}
          shownAbove={(p) => shownAbove.has(problemKey(p))}
          onDownloadErrors={(o) => void downloadErrors(o)}
        />
      )}
      {p && (
        <div className="progress">
          <progress max={Math.max(p.bytes, 1)} value={report ? p.bytes : p.bytesDone} aria-label="Files loaded" />
          <span className="hint" data-testid="load-progress">
            {whole(p.filesDone)} of {count(p.files, 'file')} · {count(p.records, 'record')} ·{' '}
            {/* A rate over less than a second is mostly the wait for the first answer: the time says more. */}
            {p.seconds < 1 ? duration(p.seconds * 1000) : perSecond(p.records, p.seconds, 'records')}
            {report && report.rejected > 0 && ` · ${report.rejected} rejected`}
          </span>
        </div>
      )}
      <Notices error={downloadError && `The errors could not be downloaded: ${downloadError}`} />
      {report && report.batches.length > 0 && (
        <Outcomes label="Loaded files" outcomes={report.batches} onDownloadErrors={(o) => void downloadErrors(o)} />
      )}
    </section>
  );
}
