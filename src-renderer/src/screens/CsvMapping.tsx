import type { CsvFilePreview, CsvTarget } from '../client';
import { ProblemPlace } from './ProblemPlace';

/** First cells of a column shown beside its mapping. */
const SAMPLES = 3;

function shown(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/** The fields a column can go into, grouped by the record they belong to (the file's own rows first). */
function groups(targets: CsvTarget[]): [string, CsvTarget[]][] {
  const out = new Map<string, CsvTarget[]>();
  for (const t of targets) out.set(t.of, [...(out.get(t.of) ?? []), t]);
  return [...out];
}

/**
 * One CSV file in the mapping step: what it holds, which field each column loads into (a select per column), what
 * keeps it from loading, and its first rows as they will be loaded.
 */
export function CsvMapping({
  file,
  levels,
  onLevel,
  onColumn,
}: {
  file: CsvFilePreview;
  levels: { id: string; label: string }[];
  onLevel: (level: string) => void;
  onColumn: (header: string, target: string | null) => void;
}) {
  const mapped = file.columns.flatMap((id, i) => {
    const target = file.targets.find((t) => t.id === id);
    return target ? [{ target, header: file.headers[i] }] : [];
  });
  const bad = new Set(file.problems.filter((p) => p.row !== undefined).map((p) => `${p.row}\u0000${p.column}`));
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
            {!file.level && <option value="">— choose —</option>}
            {levels.map((l) => (
              <option key={l.id} value={l.id}>
                {l.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {file.problems.length > 0 && (
        <ul className="log__errors mapping__problems" aria-label={`Problems of ${file.name}`}>
          {file.problems.map((p, i) => (
            <li key={i}>
              <ProblemPlace problem={p} />
              {p.message}
            </li>
          ))}
        </ul>
      )}
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
              {file.headers.map((h, i) => (
                <tr key={i} data-column={h}>
                  <td>{h}</td>
                  <td>
                    <select
                      aria-label={`Column ${h} loads into`}
                      value={file.columns[i] ?? ''}
                      onChange={(e) => onColumn(h, e.target.value || null)}
                    >
                      <option value="">— not loaded —</option>
                      {groups(file.targets).map(([of, targets]) => (
                        <optgroup key={of} label={of}>
                          {targets.map((t) => (
                            <option key={t.id} value={t.id}>
                              {t.field} ({t.kind}
                              {t.required ? ', required' : ''})
                            </option>
                          ))}
                        </optgroup>
                      ))}
                    </select>
                  </td>
                  <td className="hint">
                    {file.rows
                      .slice(0, SAMPLES)
                      .map((r) => shown(r.cells[i]))
                      .filter((c) => c !== '')
                      .join(' · ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="mapping__rows">
            <table className="grid" aria-label={`First rows of ${file.name} as they will be loaded`}>
              <thead>
                <tr>
                  <th className="num">Row</th>
                  {mapped.map(({ target }) => (
                    <th key={target.id} title={`${target.of}: ${target.kind}`}>
                      {target.field}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {file.rows.map((r) => (
                  <tr key={r.row} data-row={r.row}>
                    <td className="num">{r.row}</td>
                    {mapped.map(({ target, header }) => (
                      <td key={target.id} className={bad.has(`${r.row}\u0000${header}`) ? 'cell--bad' : undefined}>
                        {shown(r.values[target.id])}
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
