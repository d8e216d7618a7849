import type { CsvFilePreview, CsvTarget, FileMapping } from '../client';
import { CsvFileOptions, type FileOptions } from './CsvFileOptions';
import { ProblemList } from './ProblemPlace';

/** First cells of a column shown beside its mapping. */
const SAMPLES = 3;

/** What a file's mapping holds by a guess from its headers: its level, and per column header its field. */
export interface Guessed {
  level?: string;
  columns: Record<string, string>;
}

function shown(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/** The fields a column can go into, grouped by the record they belong to (the file's own rows first). */
function TargetOptions({ targets, except = [] }: { targets: CsvTarget[]; except?: string[] }) {
  const out = new Map<string, CsvTarget[]>();
  for (const t of targets) if (!except.includes(t.id)) out.set(t.of, [...(out.get(t.of) ?? []), t]);
  return (
    <>
      {[...out].map(([of, group]) => (
        <optgroup key={of} label={of}>
          {group.map((t) => (
            <option key={t.id} value={t.id}>
              {t.field} ({t.kind}
              {t.required ? ', required' : ''})
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}

/** A column's fields as a list, whether the mapping names one, several or none. */
const fieldsOf = (column: string | string[] | null): string[] =>
  column === null ? [] : Array.isArray(column) ? column : [column];
/** Fields back as a mapping's column value: one field alone, several as a list. */
const asColumn = (fields: string[]): string | string[] | null =>
  fields.length === 0 ? null : fields.length === 1 ? fields[0] : fields;

/**
 * One CSV file in the mapping step: what it holds, how it writes dates and decimals, which fields each column loads
 * into (a select per column, and more fields from the same column), the fields its default fills where no column
 * gives them, what keeps it from loading and what its load will say, and its first rows as they will be loaded.
 */
export function CsvMapping({
  file,
  levels,
  mapping,
  guessed,
  onLevel,
  onColumn,
  onOptions,
}: {
  file: CsvFilePreview;
  levels: { id: string; label: string }[];
  mapping: FileMapping;
  /** What the screen put in the mapping by a guess, marked until the user changes it. */
  guessed?: Guessed;
  onLevel: (level: string) => void;
  onColumn: (header: string, target: string | string[] | null) => void;
  onOptions: (options: FileOptions) => void;
}) {
  const target = (id: string) => file.targets.find((t) => t.id === id);
  const mapped = file.columns.flatMap((column, i) =>
    fieldsOf(column).flatMap((id) => (target(id) ? [{ target: target(id)!, header: file.headers[i] }] : [])),
  );
  const derived = file.derived.flatMap((d) => (target(d.field) ? [{ ...d, target: target(d.field)! }] : []));
  const filled = (d: (typeof derived)[number]) =>
    d.from === undefined ? `set to ${d.value}` : `filled from ${target(d.from)?.field ?? d.from}`;
  const bad = new Set(file.problems.filter((p) => p.row !== undefined).map((p) => `${p.row}\u0000${p.column}`));
  // Until the file's level is known, what it holds is the one question: its columns' problems wait for the answer.
  const problems = file.level ? file.problems : file.problems.filter((p) => p.row !== undefined);
  /** Columns no field takes: told at their row of the table, not again in a list above it. */
  const leftOut = new Set(file.warnings.filter((w) => w.column !== undefined).map((w) => w.column!));
  const warnings = file.warnings.filter((w) => w.column === undefined && !/^no column gives /.test(w.message));
  const levelGuessed = guessed?.level !== undefined && guessed.level === file.level;
  return (
    <div className="mapping" data-file={file.name}>
      <div className="toolbar">
        <h3 className="mapping__name">{file.name}</h3>
        <label>
          Holds
          <select
            name="level"
            aria-label={`What ${file.name} holds`}
            value={file.level ?? ''}
            onChange={(e) => onLevel(e.target.value)}
          >
            {!file.level && <option value="">— choose what it holds —</option>}
            {levels.map((l) => (
              <option key={l.id} value={l.id}>
                {l.label}
              </option>
            ))}
          </select>
        </label>
        {levelGuessed && (
          <span className="guess" data-testid="level-guess">
            guessed from its columns
          </span>
        )}
      </div>
      {!file.level && (
        <p className="hint" data-testid="choose-level">
          Neither its name nor its columns tell what {file.name} holds: choose it above, and its columns map to its
          fields.
        </p>
      )}
      {file.level && <CsvFileOptions file={file} mapping={mapping} onOptions={onOptions} />}
      <ProblemList problems={problems} className="log__errors mapping__problems" label={`Problems of ${file.name}`} />
      <ProblemList problems={warnings} className="mapping__warnings" label={`Warnings of ${file.name}`} />
      {file.level && (
        <div className="mapping__tables">
          <table className="grid" aria-label={`Columns of ${file.name}`}>
            <thead>
              <tr>
                <th>Column in the file</th>
                <th>Loads into</th>
                <th>First values</th>
              </tr>
            </thead>
            <tbody>
              {file.headers.map((h, i) => {
                const fields = fieldsOf(file.columns[i]);
                const guess = guessed?.columns[h] !== undefined && guessed.columns[h] === fields[0];
                return (
                  <tr key={i} data-column={h} className={leftOut.has(h) ? 'mapping__left-out' : undefined}>
                    <td>{h}</td>
                    <td>
                      <select
                        aria-label={`Column ${h} loads into`}
                        value={fields[0] ?? ''}
                        onChange={(e) =>
                          onColumn(h, e.target.value ? asColumn([e.target.value, ...fields.slice(1)]) : null)
                        }
                      >
                        <option value="">— not loaded —</option>
                        <TargetOptions targets={file.targets} except={fields.slice(1)} />
                      </select>
                      {fields.slice(1).map((id) => (
                        <span key={id} className="mapping__also">
                          {' '}
                          and {target(id)?.field ?? id}{' '}
                          <button
                            type="button"
                            aria-label={`Column ${h} stops loading into ${id}`}
                            onClick={() => onColumn(h, asColumn(fields.filter((f) => f !== id)))}
                          >
                            ×
                          </button>
                        </span>
                      ))}
                      {guess && (
                        <span className="guess" title={`A guess from the header "${h}": keep it, or choose another`}>
                          guessed
                        </span>
                      )}
                      {leftOut.has(h) && <span className="hint"> not loaded: no field takes it</span>}
                      {fields.length > 0 && (
                        <select
                          aria-label={`Column ${h} also loads into`}
                          value=""
                          onChange={(e) => e.target.value && onColumn(h, asColumn([...fields, e.target.value]))}
                        >
                          <option value="">+ also into…</option>
                          <TargetOptions targets={file.targets} except={fields} />
                        </select>
                      )}
                    </td>
                    <td className="hint">
                      {file.rows
                        .slice(0, SAMPLES)
                        .map((r) => shown(r.cells[i]))
                        .filter((c) => c !== '')
                        .join(' · ')}
                    </td>
                  </tr>
                );
              })}
              {derived.map((d) => (
                <tr key={d.field} data-derived={d.field} className="mapping__derived">
                  <td className="hint">no column</td>
                  <td>
                    {d.target.field}: {filled(d)}
                  </td>
                  <td className="hint">the specification's default</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="mapping__rows">
            <table className="grid" aria-label={`First rows of ${file.name} as they will be loaded`}>
              <thead>
                <tr>
                  <th className="num">Row</th>
                  {mapped.map(({ target: t }) => (
                    <th key={t.id} title={`${t.of}: ${t.kind}`}>
                      {t.field}
                    </th>
                  ))}
                  {derived.map((d) => (
                    <th key={d.field} title={`${d.target.of}: ${filled(d)}`} className="mapping__derived">
                      {d.target.field}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {file.rows.map((r) => (
                  <tr key={r.row} data-row={r.row}>
                    <td className="num">{r.row}</td>
                    {mapped.map(({ target: t, header }) => (
                      <td key={t.id} className={bad.has(`${r.row}\u0000${header}`) ? 'cell--bad' : undefined}>
                        {shown(r.values[t.id])}
                      </td>
                    ))}
                    {derived.map((d) => (
                      <td key={d.field} className="mapping__derived">
                        {shown(r.values[d.field])}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </div>
  );
}
