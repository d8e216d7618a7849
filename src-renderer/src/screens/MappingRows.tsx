import type { CsvFilePreview } from '../client';
import { shown, type mappingFields } from './csv-mapping-fields';

/**
 * A file's first rows as they will be loaded: a column per field a column gives, then those its default fills; a
 * cell the load would refuse marked.
 */
export function MappingRows({
  file,
  fields: { mapped, derived, filled },
}: {
  file: CsvFilePreview;
  fields: Pick<ReturnType<typeof mappingFields>, 'mapped' | 'derived' | 'filled'>;
}) {
  const bad = new Set(file.problems.filter((p) => p.row !== undefined).map((p) => `${p.row}\u0000${p.column}`));
  return (
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
  );
}
