import type { CsvFilePreview } from '../client';
import { ColumnTargets } from './ColumnTargets';
import { fieldsOf, shown, type DerivedField, type Guessed } from './csv-mapping-fields';

/** First cells of a column shown beside its mapping. */
const SAMPLES = 3;

/**
 * A file's columns, each with the fields it loads into and its first values, then the fields its default fills
 * where no column gives them.
 */
export function MappingColumns({
  file,
  guessed,
  derived,
  filled,
  onColumn,
}: {
  file: CsvFilePreview;
  guessed?: Guessed;
  derived: DerivedField[];
  filled: (d: DerivedField) => string;
  onColumn: (header: string, target: string | string[] | null) => void;
}) {
  /** Columns no field takes: told at their row of the table, not again in a list above it. */
  const leftOut = new Set(file.warnings.filter((w) => w.column !== undefined).map((w) => w.column!));
  return (
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
          return (
            <tr key={i} data-column={h} className={leftOut.has(h) ? 'mapping__left-out' : undefined}>
              <td>{h}</td>
              <td>
                <ColumnTargets
                  header={h}
                  fields={fields}
                  targets={file.targets}
                  guessed={guessed?.columns[h] !== undefined && guessed.columns[h] === fields[0]}
                  leftOut={leftOut.has(h)}
                  onColumn={(target) => onColumn(h, target)}
                />
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
  );
}
