import { useEffect, useState } from 'react';
import type { BatchOutcome, CsvMapping as Mapping, CsvPreview, PickedFile, AdminClient } from '../client';
import { useWorkbench } from '../store';
import { CsvMapping } from './CsvMapping';
import { ProblemPlace } from './ProblemPlace';

/** The mapping step reads only the head of a CSV file: its header and first rows. */
const PREVIEW_CHARS = 64 * 1024;

const isCsv = (name: string) => /\.csv$/i.test(name);

/** The head of a file cut at a line end, so its last row is whole. */
function head(text: string): string {
  if (text.length <= PREVIEW_CHARS) return text;
  const end = text.lastIndexOf('\n', PREVIEW_CHARS);
  return text.slice(0, end > 0 ? end + 1 : PREVIEW_CHARS);
}

const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
const listed = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : items.join('');

function outcomeText(o: BatchOutcome): string {
  if (o.error)
    return o.problems?.length ? 'Rejected, nothing of it applied' : `Rejected, nothing of it applied: ${o.error}`;
  if (o.result?.staged) return 'kept for the full load, applied with its last file';
  return o.result?.warnings.length ? `${o.result.warnings.length} warnings` : 'loaded';
}

/**
 * Files or a folder: API-shaped JSON (one endpoint's body per file) or CSV (one file per level: items, SKUs,
 * barcodes; one row per sales line or order line), CSV through a mapping step with a preview; each dataset's
 * files are applied whole or not at all, and every rejected record is named with its reason.
 */
export function Load({ client }: { client: AdminClient }) {
  const { loadJob, loadRunning, loadFiles, summary } = useWorkbench();
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [mapping, setMapping] = useState<Mapping>({});
  const [preview, setPreview] = useState<CsvPreview>();
  const [previewError, setPreviewError] = useState<string>();
  const [fullLoad, setFullLoad] = useState(false);

  const pick = async (list: FileList | null) => {
    const chosen = [...(list ?? [])].filter((f) => /\.(json|csv)$/i.test(f.name));
    const picked = await Promise.all(
      chosen.map(async (f) => ({ name: f.webkitRelativePath || f.name, text: await f.text() })),
    );
    setFiles(picked.sort((a, b) => a.name.localeCompare(b.name)));
    setMapping({});
  };

  useEffect(() => {
    const csv = files.filter((f) => isCsv(f.name)).map((f) => ({ name: f.name, text: head(f.text) }));
    setPreviewError(undefined);
    if (csv.length === 0) {
      setPreview(undefined);
      return;
    }
    let current = true;
    client.call('POST /load/preview', { body: { files: csv, mapping } }).then(
      (p) => current && setPreview(p),
      (e: Error) => current && setPreviewError(e.message),
    );
    return () => {
      current = false;
    };
  }, [client, files, mapping]);

  const change = (file: string, next: (m: Mapping[string]) => Mapping[string]) =>
    setMapping((m) => ({ ...m, [file]: next(m[file] ?? {}) }));
  const fullLoadable = summary?.filter((s) => s.fullLoad).map((s) => words(s.dataset)) ?? [];
  const p = loadJob?.progress;
  const report = loadJob?.report;
  const json = files.filter((f) => !isCsv(f.name));
  return (
    <section aria-label="Load">
      <div className="toolbar">
        <label>
          Files{' '}
          <input
            type="file"
            name="files"
            accept=".json,.csv,application/json,text/csv"
            multiple
            onChange={(e) => void pick(e.target.files)}
          />
        </label>
        <label>
          Folder{' '}
          <input
            type="file"
            name="folder"
            multiple
            onChange={(e) => void pick(e.target.files)}
            {...{ webkitdirectory: '' }}
          />
        </label>
        {/* prettier-ignore */}
        <label className="check">
          <input type="checkbox" name="fullLoad" checked={fullLoad} onChange={(e) => setFullLoad(e.target.checked)} />
          {' '}Full load
        </label>
        <button
          type="button"
          disabled={loadRunning || files.length === 0}
          onClick={() => void loadFiles(files, { mapping, fullLoad })}
        >
          {loadRunning ? 'Loading…' : `Load ${files.length} file${files.length === 1 ? '' : 's'}`}
        </button>
      </div>
      <p className="hint">
        JSON: one endpoint's request body per file (e.g. <code>{'{"sales": [...]}'}</code>), named after the endpoint (
        <code>Sales-0001.json</code>) or holding one array named after it. CSV: one file per kind of row, named after it
        (<code>items.csv</code>, <code>skus.csv</code>, <code>barcodes.csv</code>; <code>Sales.csv</code> with one row
        per sales line; <code>PurchaseOrders.csv</code> with one row per order line), with a header row. Each dataset's
        files are applied whole or not at all.
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
      {previewError && (
        <p className="error" role="alert">
          The CSV files could not be read: {previewError}
        </p>
      )}
      {preview && preview.files.length > 0 && (
        <section aria-label="Column mapping">
          <h2>CSV columns</h2>
          <p className="hint">
            Check what each file holds and which field each column loads into; the first rows show the values as they
            will be loaded.
          </p>
          {preview.files.map((f) => (
            <CsvMapping
              key={f.name}
              file={f}
              levels={preview.levels}
              onLevel={(level) => change(f.name, () => ({ level }))}
              onColumn={(header, target) =>
                change(f.name, (m) => ({ ...m, columns: { ...m.columns, [header]: target } }))
              }
            />
          ))}
        </section>
      )}
      {p && (
        <div className="progress">
          <progress max={Math.max(p.bytes, 1)} value={report ? p.bytes : p.bytesDone} aria-label="Files loaded" />
          <span className="hint" data-testid="load-progress">
            {p.filesDone} of {p.files} files · {p.records.toLocaleString('en')} records ·{' '}
            {Math.round(p.records / Math.max(p.seconds, 1e-3)).toLocaleString('en')} records/s
            {report && report.rejected > 0 && ` · ${report.rejected} rejected`}
          </span>
        </div>
      )}
      {report && report.batches.length > 0 && (
        <table className="grid compare" aria-label="Loaded files">
          <thead>
            <tr>
              <th>Files</th>
              <th>Endpoint</th>
              <th className="num">Records</th>
              <th className="num">Created</th>
              <th className="num">Updated</th>
              <th className="num">Deleted</th>
              <th>Outcome</th>
            </tr>
          </thead>
          <tbody>
            {report.batches.map((o) => (
              <tr key={o.files.join()} data-file={o.files.join(', ')} className={o.error ? 'row--bad' : undefined}>
                <td>{o.files.join(', ')}</td>
                <td>{o.dataset ?? '–'}</td>
                <td className="num">{o.error && !o.records ? '–' : o.records.toLocaleString('en')}</td>
                <td className="num">{o.result?.created.toLocaleString('en') ?? '–'}</td>
                <td className="num">{o.result?.updated.toLocaleString('en') ?? '–'}</td>
                <td className="num">{o.result ? (o.result.deleted + o.result.zeroed).toLocaleString('en') : '–'}</td>
                <td>
                  {outcomeText(o)}
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
      )}
    </section>
  );
}
