import { useState } from 'react';
import { WorkbenchError, type FieldProblem, type IngestResult, type WorkbenchClient } from '../client';

interface Outcome {
  file: string;
  records?: number;
  result?: IngestResult;
  error?: string;
  problems?: FieldProblem[];
}

/** Problems listed per rejected file; the count says how many more there are. */
const LISTED = 20;

/**
 * Files or a folder of API-shaped JSON, one endpoint's body per file, each loaded whole or not at all; the
 * outcome of every file, with each rejected record's reason.
 */
export function Load({ client, loaded }: { client: WorkbenchClient; loaded: () => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [progress, setProgress] = useState<{ done: number; records: number; seconds: number }>();
  const [busy, setBusy] = useState(false);

  const pick = (list: FileList | null) => {
    setFiles([...(list ?? [])].filter((f) => f.name.toLowerCase().endsWith('.json')).sort((a, b) => a.name.localeCompare(b.name)));
    setOutcomes([]);
    setProgress(undefined);
  };

  const load = async () => {
    setBusy(true);
    const started = performance.now();
    const done: Outcome[] = [];
    let records = 0;
    for (const f of files) {
      const outcome: Outcome = { file: f.webkitRelativePath || f.name };
      try {
        let body: unknown;
        try {
          body = JSON.parse(await f.text());
        } catch (e) {
          throw new Error(`not JSON: ${(e as Error).message}`);
        }
        outcome.result = await client.loadFile(f.name, body);
        outcome.records = outcome.result.received;
        records += outcome.result.received;
      } catch (e) {
        outcome.error = (e as Error).message;
        if (e instanceof WorkbenchError) outcome.problems = e.errors;
      }
      done.push(outcome);
      setOutcomes([...done]);
      setProgress({ done: done.length, records, seconds: (performance.now() - started) / 1000 });
    }
    setBusy(false);
    loaded();
  };

  const rejected = outcomes.filter((o) => o.error).length;
  return (
    <section aria-label="Load">
      <div className="toolbar">
        <label>Files <input type="file" name="files" accept=".json,application/json" multiple onChange={(e) => pick(e.target.files)} /></label>
        <label>Folder <input type="file" name="folder" multiple onChange={(e) => pick(e.target.files)} {...{ webkitdirectory: '' }} /></label>
        <button type="button" disabled={busy || files.length === 0} onClick={() => void load()}>
          {busy ? 'Loading…' : `Load ${files.length} file${files.length === 1 ? '' : 's'}`}
        </button>
      </div>
      <p className="hint">One endpoint's request body per file (e.g. <code>{'{"sales": [...]}'}</code>), named after the endpoint (<code>Sales-0001.json</code>) or holding one array named after it. Each file is applied whole or not at all.</p>
      {progress && (
        <div className="progress">
          <progress max={files.length} value={progress.done} aria-label="Files loaded" />
          <span className="hint" data-testid="load-progress">
            {progress.done} of {files.length} files · {progress.records.toLocaleString('en')} records · {Math.round(progress.records / Math.max(progress.seconds, 1e-3)).toLocaleString('en')} records/s
            {rejected > 0 && ` · ${rejected} rejected`}
          </span>
        </div>
      )}
      {outcomes.length > 0 && (
        <table className="grid compare" aria-label="Loaded files">
          <thead>
            <tr><th>File</th><th>Endpoint</th><th className="num">Records</th><th className="num">Created</th><th className="num">Updated</th><th>Outcome</th></tr>
          </thead>
          <tbody>
            {outcomes.map((o) => (
              <tr key={o.file} data-file={o.file} className={o.error ? 'row--bad' : undefined}>
                <td>{o.file}</td>
                <td>{o.result?.dataset ?? '–'}</td>
                <td className="num">{o.records?.toLocaleString('en') ?? '–'}</td>
                <td className="num">{o.result?.created.toLocaleString('en') ?? '–'}</td>
                <td className="num">{o.result?.updated.toLocaleString('en') ?? '–'}</td>
                <td>
                  {o.error ? <>Rejected, nothing of it applied{o.problems?.length ? '' : `: ${o.error}`}</> : o.result?.warnings.length ? `${o.result.warnings.length} warnings` : 'loaded'}
                  {o.problems && o.problems.length > 0 && (
                    <ul className="log__errors">
                      {o.problems.slice(0, LISTED).map((p, i) => <li key={i}><code>{p.path}</code>{p.recordId ? ` [${p.recordId}]` : ''}: {p.message}</li>)}
                      {o.problems.length > LISTED && <li>… and {o.problems.length - LISTED} more</li>}
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
