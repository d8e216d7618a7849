import type { CsvTarget } from '../client';
import { asColumn } from './csv-mapping-fields';
import { TargetOptions } from './TargetOptions';

/**
 * Which fields one column loads into: its first field chosen (or none), more fields from the same column added or
 * taken away one by one; a first field guessed from the header marked as such, and a column no field takes said.
 */
export function ColumnTargets({
  header,
  fields,
  targets,
  guessed,
  leftOut,
  onColumn,
}: {
  header: string;
  /** The fields the column loads into now, the first one first. */
  fields: string[];
  targets: CsvTarget[];
  /** Whether the first field is the screen's guess from the header. */
  guessed: boolean;
  /** Whether the load will leave the column out: no field of the file's level takes it. */
  leftOut: boolean;
  onColumn: (target: string | string[] | null) => void;
}) {
  const h = header;
  const fieldName = (id: string) => targets.find((t) => t.id === id)?.field ?? id;
  return (
    <>
      <select
        aria-label={`Column ${h} loads into`}
        value={fields[0] ?? ''}
        onChange={(e) => onColumn(e.target.value ? asColumn([e.target.value, ...fields.slice(1)]) : null)}
      >
        <option value="">— not loaded —</option>
        <TargetOptions targets={targets} except={fields.slice(1)} />
      </select>
      {fields.slice(1).map((id) => (
        <span key={id} className="mapping__also">
          {' '}
          and {fieldName(id)}{' '}
          <button
            type="button"
            aria-label={`Column ${h} stops loading into ${id}`}
            onClick={() => onColumn(asColumn(fields.filter((f) => f !== id)))}
          >
            ×
          </button>
        </span>
      ))}
      {guessed && (
        <span className="guess" title={`A guess from the header "${h}": keep it, or choose another`}>
          guessed
        </span>
      )}
      {leftOut && <span className="hint"> not loaded: no field takes it</span>}
      {fields.length > 0 && (
        <select
          aria-label={`Column ${h} also loads into`}
          value=""
          onChange={(e) => e.target.value && onColumn(asColumn([...fields, e.target.value]))}
        >
          <option value="">+ also into…</option>
          <TargetOptions targets={targets} except={fields} />
        </select>
      )}
    </>
  );
}
