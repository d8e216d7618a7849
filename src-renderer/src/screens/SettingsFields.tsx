import { useState } from 'react';

/**
 * A form read off the settings' JSON Schema (the one the workbench validates with): one input per setting, its
 * description as the label, the value it would have otherwise as the placeholder. An empty input overrides
 * nothing.
 */
export interface FieldSchema {
  type?: 'object' | 'number' | 'integer' | 'boolean' | 'string';
  description?: string;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, FieldSchema>;
  patternProperties?: Record<string, FieldSchema>;
}

export type Values = Record<string, unknown>;

/** Words for a setting's name: `serviceLevel` → "Service level". */
export function labelOf(name: string): string {
  const words = name.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The value without `key`, or with it set; objects left empty disappear, so "nothing overridden" stays `{}`. */
export function withValue(values: Values, key: string, value: unknown): Values {
  const next = { ...values };
  if (value === undefined || (typeof value === 'object' && value !== null && Object.keys(value).length === 0))
    delete next[key];
  else next[key] = value;
  return next;
}

interface Props {
  schema: FieldSchema;
  values: Values;
  /** The values in force when this level overrides nothing. */
  inherited: Values;
  onChange: (values: Values) => void;
  /** JSON pointer of this level, e.g. `/categories/MC-DRS`: fields are named by it, and problems found by it. */
  path: string;
  problems: Record<string, string>;
  /** Names not to show here (shown elsewhere, or only in JSON). */
  skip?: string[];
}

/** An id as a JSON pointer's token (RFC 6901): how a field named by it is found. */
export const pointerToken = (id: string) => id.replace(/~/g, '~0').replace(/\//g, '~1');

/** The settings the fields of `schema` show, by JSON pointer, as `SchemaFields` lays them out. */
export function fieldPaths(schema: FieldSchema, path: string, skip: string[] = []): string[] {
  return Object.entries(schema.properties ?? {})
    .filter(([name, s]) => !skip.includes(name) && !s.patternProperties)
    .flatMap(([name, s]) =>
      s.type === 'object' || s.properties ? fieldPaths(s, `${path}/${name}`) : [`${path}/${name}`],
    );
}

export function SchemaFields({ schema, values, inherited, onChange, path, problems, skip = [] }: Props) {
  const entries = Object.entries(schema.properties ?? {}).filter(
    ([name, s]) => !skip.includes(name) && !s.patternProperties,
  );
  return (
    <div className="fields">
      {entries.map(([name, s]) => {
        const at = `${path}/${name}`;
        if (s.type === 'object' || s.properties) {
          return (
            <fieldset key={name} className="fields__group">
              <legend>{labelOf(name)}</legend>
              <SchemaFields
                schema={s}
                values={(values[name] as Values) ?? {}}
                inherited={(inherited[name] as Values) ?? {}}
                path={at}
                problems={problems}
                onChange={(v) => onChange(withValue(values, name, v))}
              />
            </fieldset>
          );
        }
        return (
          <Field
            key={name}
            name={name}
            schema={s}
            at={at}
            value={values[name]}
            inherited={inherited[name]}
            problem={problems[at]}
            onChange={(v) => onChange(withValue(values, name, v))}
          />
        );
      })}
    </div>
  );
}

function Field({
  name,
  schema,
  at,
  value,
  inherited,
  problem,
  onChange,
}: {
  name: string;
  schema: FieldSchema;
  at: string;
  value: unknown;
  inherited: unknown;
  problem?: string;
  onChange: (v: unknown) => void;
}) {
  const label = labelOf(name);
  const shown = inherited === undefined ? 'no limit' : String(inherited);
  /** The text while the field has focus. */
  const [draft, setDraft] = useState<string>();
  if (schema.type === 'boolean') {
    return (
      <label className={value === undefined ? 'field' : 'field field--set'} title={schema.description}>
        <span>{label}</span>
        <select
          name={at}
          value={value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value === 'true')}
        >
          <option value="">{`as inherited (${inherited ? 'yes' : 'no'})`}</option>
          <option value="true">yes</option>
          <option value="false">no</option>
        </select>
        {schema.description && <small>{schema.description}</small>}
      </label>
    );
  }
  return (
    <label
      className={['field', value === undefined ? '' : 'field--set', problem ? 'field--bad' : ''].join(' ').trim()}
      title={schema.description}
    >
      <span>{label}</span>
      <input
        name={at}
        inputMode="decimal"
        value={draft ?? (value === undefined ? '' : String(value))}
        placeholder={shown}
        aria-invalid={problem ? true : undefined}
        onFocus={() => setDraft(value === undefined ? '' : String(value))}
        onBlur={() => setDraft(undefined)}
        onChange={(e) => {
          // What is typed stays as typed ("0." on the way to "0.95"); the setting takes the number it reads as, and
          // text that is no number stays text, for the workbench to name when saving.
          const text = e.target.value;
          setDraft(text);
          onChange(text.trim() === '' ? undefined : Number.isFinite(Number(text)) ? Number(text) : text);
        }}
      />
      {problem ? (
        <small className="field__problem">{problem}</small>
      ) : (
        schema.description && <small>{schema.description}</small>
      )}
    </label>
  );
}
