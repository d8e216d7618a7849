import { useEffect, useRef, useState } from 'react';
import { count, duration, perSecond, whole } from '../../../common/format';
import type { BatchOutcome, CsvMapping as Mapping, CsvPreview, PickedFile, AdminClient } from '../client';
import { Outcomes } from './Outcomes';
import { download } from '../csv';
import { errorsCsv } from '../errors-csv';
import { useWorkbench } from '../store';
import { CsvMapping, type Guessed } from './CsvMapping';
import { problemKey } from './ProblemPlace';
import { Notices } from '../Notices';

/** The mapping step reads only the head of a CSV file: its header and first rows. */
const PREVIEW_CHARS = 64 * 1024;
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

const LOAD_MODES: [onlyIfAllPass: boolean, words: string][] = [
  [true, 'only if every file passes'],
  [false, 'each dataset on its own'],
];
/** The check of whole files waits for the mapping to settle this long. */
const CHECK_AFTER_MS = 400;

const isCsv = (name: string) => /\.csv$/i.test(name);
/** Parquet and Arrow IPC files: one level's rows, mapped like CSV, sent as their bytes. */
const isColumnar = (name: string) => /\.(parquet|arrow|feather|ipc)$/i.test(name);
const isTable = (name: string) => isCsv(name) || isColumnar(name);

/** A binary file's bytes as base64, a piece at a time (one call over megabytes would overflow the stack). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The head of a file cut at a line end, so its last row is whole. */
function head(text: string): string {
  if (text.length <= PREVIEW_CHARS) return text;
  const end = text.lastIndexOf('\n', PREVIEW_CHARS);
  return text.slice(0, end > 0 ? end + 1 : PREVIEW_CHARS);
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
  const [mapping, setMapping] = useState<Mapping>({});
  const [preview, setPreview] = useState<CsvPreview>();
  const [previewError, setPreviewError] = useState<string>();
  const [fullLoad, setFullLoad] = useState(false);
  const [onlyIfAllPass, setOnlyIfAllPass] = useState(true);
  /** Every batch as the load would meet it, checked on the whole files; undefined while checking. */
  const [checked, setChecked] = useState<BatchOutcome[]>();
  const [checkError, setCheckError] = useState<string>();
  const [downloadError, setDownloadError] = useState<string>();
  /** What the mapping holds by a guess from the headers, per file, until the user changes it. */
  const [guessed, setGuessed] = useState<Record<string, Guessed>>({});
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
    const chosen = [...(list ?? [])].filter((f) => /\.json$/i.test(f.name) || isTable(f.name));
    const picked = await Promise.all(
      chosen.map(async (f): Promise<PickedFile> => {
        const name = f.webkitRelativePath || f.name;
        if (isColumnar(f.name)) return { name, base64: await base64Of(f) };
        // A file that is not UTF-8 goes as its bytes: read as text here, its odd bytes would become "�" unseen,
        // where the service names them and reads the encoding the mapping declares.
        try {
          return { name, text: new TextDecoder('utf-8', { fatal: true }).decode(await f.arrayBuffer()) };
        } catch {
          return { name, base64: await base64Of(f) };
        }
      }),
    );
    setFiles(picked.sort((a, b) => a.name.localeCompare(b.name)));
    setMapping({});
    setGuessed({});
    // The outcome of the files loaded before does not belong under these.
    clearLoad();
  };

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

  useEffect(() => {
    // A CSV file's head is enough for its first rows; a columnar file is read whole to find them.
    const csv = files
      .filter((f) => isTable(f.name))
      .map((f) => ('text' in f ? { name: f.name, text: head(f.text) } : f));
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

  // What the headers most likely mean goes into the mapping, marked as a guess: the check and the load then meet
  // what the screen shows, and *Save mapping file* writes it. Once per preview, against the mapping as it stands
  // then (the mapping changing does not propose again: the user's choices stand).
  const mappingNow = useRef(mapping);
  mappingNow.current = mapping;
  useEffect(() => {
    const mapping = mappingNow.current;
    const proposals = (preview?.files ?? []).filter(
      (f) => (f.guessedLevel && !mapping[f.name]?.level) || f.guesses.length > 0,
    );
    if (proposals.length === 0) return;
    setGuessed((g) => {
      const next = { ...g };
      for (const f of proposals) {
        const was = next[f.name] ?? { columns: {} };
        next[f.name] = {
          level: f.guessedLevel && !mapping[f.name]?.level ? f.guessedLevel : was.level,
          columns: { ...was.columns, ...Object.fromEntries(f.guesses.map((x) => [x.header, x.target])) },
        };
      }
      return next;
    });
    setMapping((m) => {
      const next = { ...m };
      for (const f of proposals) {
        const own = next[f.name] ?? {};
        next[f.name] = {
          ...own,
          ...(f.guessedLevel && !own.level ? { level: f.guessedLevel } : {}),
          ...(f.guesses.length
            ? { columns: { ...own.columns, ...Object.fromEntries(f.guesses.map((x) => [x.header, x.target])) } }
            : {}),
        };
      }
      return next;
    });
  }, [preview]);
  /** The user's own choice replaces a guess. */
  const unguess = (file: string, header?: string) =>
    setGuessed((g) => {
      const was = g[file];
      if (!was) return g;
      if (header === undefined) return { ...g, [file]: { columns: {} } };
      const { [header]: _, ...columns } = was.columns;
      return { ...g, [file]: { ...was, columns } };
    });
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
      <div className="toolbar">
        <label>
          Files{' '}
          <input
            type="file"
            name="files"
            accept=".json,.csv,.parquet,.arrow,.feather,.ipc,application/json,text/csv"
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
        <span className="hint">or drop files anywhere on this screen</span>
        <span role="radiogroup" aria-label="Load">
          {LOAD_MODES.map(([all, words]) => (
            <label className="check" key={words}>
              <input
                type="radio"
                name="load-mode"
                checked={onlyIfAllPass === all}
                onChange={() => setOnlyIfAllPass(all)}
              />
              {` ${words} `}
            </label>
          ))}
        </span>
        <button
          type="button"
          disabled={loadRunning || files.length === 0 || (onlyIfAllPass && failing > 0)}
          onClick={() => void loadFiles(files, { mapping, fullLoad, onlyIfAllPass })}
        >
          {loadRunning ? 'Loading…' : `Load ${files.length} file${files.length === 1 ? '' : 's'}`}
        </button>
      </div>
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
              // Another level has other fields: the columns map afresh, the file's dates and decimals stay.
              onLevel={(level) => {
                unguess(f.name);
                change(f.name, (m) => ({ ...m, level, columns: undefined }));
              }}
              onColumn={(header, target) => {
                unguess(f.name, header);
                change(f.name, (m) => ({ ...m, columns: { ...m.columns, [header]: target } }));
              }}
              onOptions={(options) => change(f.name, (m) => ({ ...m, ...options }))}
            />
          ))}
        </section>
      )}
      {files.length > 0 && !report && (
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
                shownAbove={(p) => shownAbove.has(problemKey(p))}
                onDownloadErrors={(o) => void downloadErrors(o)}
              />
            </>
          )}
        </section>
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
