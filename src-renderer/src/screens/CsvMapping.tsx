import type { CsvFilePreview, FileMapping } from '../client';
import { CsvFileOptions, type FileOptions } from './CsvFileOptions';
import { mappingFields, type Guessed } from './csv-mapping-fields';
import { MappingColumns } from './MappingColumns';
import { MappingRows } from './MappingRows';
import { ProblemList } from './ProblemPlace';

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
  const fields = mappingFields(file);
  // Until the file's level is known, what it holds is the one question: its columns' problems wait for the answer.
  const problems = file.level ? file.problems : file.problems.filter((p) => p.row !== undefined);
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
          <MappingColumns
            file={file}
            guessed={guessed}
            derived={fields.derived}
            filled={fields.filled}
            onColumn={onColumn}
          />
          <MappingRows file={file} fields={fields} />
        </div>
      )}
    </div>
  );
}
