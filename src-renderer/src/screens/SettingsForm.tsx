import type { ScenarioContext } from '../client';
import { Fulfilment } from './Fulfilment';
import { fieldPaths, pointerToken, SchemaFields, withValue, type FieldSchema, type Values } from './SettingsFields';

/** Settings the form shows in sections of their own, or leaves to the JSON view. */
const OWN_SECTIONS = ['defaults', 'categories', 'locationKinds', 'fulfilledFrom'];

/** The settings the form shows a field for, with `category` the one category open. */
export function formPaths(context: ScenarioContext, category: string): string[] {
  const schema = context.schema as FieldSchema;
  const categorySchema = Object.values(schema.properties?.categories?.patternProperties ?? {})[0];
  return [
    ...fieldPaths(schema, '', OWN_SECTIONS),
    ...fieldPaths(schema.properties!.defaults, '/defaults'),
    ...(category && categorySchema ? fieldPaths(categorySchema, categoryPointer(category)) : []),
  ];
}

const categoryPointer = (id: string) => `/categories/${pointerToken(id)}`;

/**
 * A scenario as a form read off the settings' schema: the whole network, every merchandise category, one category
 * (its fields over what the data and every category give it), and the online shops served from a warehouse.
 *
 * Over 80 lines only for the markup of its one form.
 */
export function SettingsForm({
  context,
  value,
  onChange,
  problems,
  category,
  setCategory,
}: {
  context: ScenarioContext;
  value: Values;
  onChange: (v: Values) => void;
  problems: Record<string, string>;
  category: string;
  setCategory: (id: string) => void;
}) {
  const schema = context.schema as FieldSchema;
  const engine = context.defaults as unknown as Values;
  const scenarioDefaults = (value.defaults as Values) ?? {};
  const categories = (value.categories as Record<string, Values>) ?? {};
  const everyCategory = { ...(engine.defaults as Values), ...scenarioDefaults };
  const categorySchema = Object.values(schema.properties?.categories?.patternProperties ?? {})[0];
  const label = (c: ScenarioContext['categories'][number]) =>
    `${c.code ?? c.id}${c.description ? ` — ${c.description}` : ''}` +
    `${categories[c.id] ? ' (changed here)' : context.fromWorkspace[c.id] ? ' (set in the data)' : ''}`;
  return (
    <div className="settings-form">
      <fieldset className="fields__group">
        <legend>Whole network</legend>
        <SchemaFields
          schema={schema}
          values={value}
          inherited={engine}
          path=""
          problems={problems}
          skip={OWN_SECTIONS}
          onChange={onChange}
        />
      </fieldset>
      <fieldset className="fields__group">
        <legend>Every merchandise category</legend>
        <p className="hint">Unless a category says otherwise. Empty fields keep the engine's default, shown greyed.</p>
        <SchemaFields
          schema={schema.properties!.defaults}
          values={scenarioDefaults}
          inherited={engine.defaults as Values}
          path="/defaults"
          problems={problems}
          onChange={(v) => onChange(withValue(value, 'defaults', v))}
        />
      </fieldset>
      <fieldset className="fields__group">
        <legend>One merchandise category</legend>
        {context.categories.length === 0 ? (
          <p className="hint">
            The workspace holds no merchandise categories yet; the JSON view takes settings for any category id.
          </p>
        ) : (
          <>
            <label className="toolbar">
              Category{' '}
              <select aria-label="Merchandise category" value={category} onChange={(e) => setCategory(e.target.value)}>
                {context.categories.map((c) => (
                  <option key={c.id} value={c.id}>
                    {label(c)}
                  </option>
                ))}
              </select>
            </label>
            <p className="hint">
              Empty fields keep what the category has otherwise: the data's MerchandiseCategorySettings, else the values
              for every category.
            </p>
            {category && categorySchema && (
              <SchemaFields
                key={category}
                schema={categorySchema}
                values={categories[category] ?? {}}
                inherited={{ ...everyCategory, ...context.fromWorkspace[category] }}
                path={categoryPointer(category)}
                problems={problems}
                onChange={(v) => onChange(withValue(value, 'categories', withValue(categories, category, v)))}
              />
            )}
          </>
        )}
      </fieldset>
      <Fulfilment
        locations={context.locations}
        pairs={(value.fulfilledFrom as Record<string, string>) ?? {}}
        problems={problems}
        onChange={(v) => onChange(withValue(value, 'fulfilledFrom', v))}
      />
      <p className="hint">Location kinds (warehouse, store, online) are set per location in the JSON view.</p>
    </div>
  );
}
