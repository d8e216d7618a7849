import type { CsvMapping as Mapping, CsvPreview } from '../client';
import { download } from '../csv';
import { CsvMapping } from './CsvMapping';
import type { useCsvMapping } from './use-csv-mapping';

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

/** The CSV files' mapping step: each file's level and columns, with the mapping saved as a file for the CLI. */
export function LoadMapping({ csv, preview }: { csv: ReturnType<typeof useCsvMapping>; preview: CsvPreview }) {
  const { mapping, guessed } = csv;
  return (
    <section aria-label="Column mapping">
      <h2>CSV columns</h2>
      <p className="hint">
        Check what each file holds and which field each column loads into; the first rows show the values as they will
        be loaded.{' '}
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
  );
}
