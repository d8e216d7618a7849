import { useEffect, useRef, useState } from 'react';
import { WorkbenchError, type FieldProblem, type ScenarioContext, type AdminClient } from '../client';
import { SchemaFields, withValue, type FieldSchema, type Values } from './SettingsFields';

const NAME = /^[\w.-]{1,80}$/;
/** Settings the form shows in sections of their own, or leaves to the JSON view. */
const OWN_SECTIONS = ['defaults', 'categories', 'locationKinds'];

/**
 * Scenarios: named overrides of the engine's defaults that backtests and runs use, for the whole network, for
 * every category, and per merchandise category. A form read off the settings' schema, or the JSON itself; the
 * workbench validates the whole and names every bad field.
 */
export function Settings({
  client,
  names,
  scenario,
  pick,
  saved,
}: {
  client: AdminClient;
  names: string[];
  /** The scenario the address names (the first of `names`, the one runs use, when it names none). */
  scenario: string;
  /** Shows another scenario: a new address. */
  pick: (name: string) => void;
  saved: (name: string) => void;
}) {
  const [name, setName] = useState(scenario);
  /** The scenario whose settings the form holds. */
  const shown = useRef<string>(undefined);
  const [value, setValue] = useState<Values>({});
  const [context, setContext] = useState<ScenarioContext>();
  const [view, setView] = useState<'form' | 'json'>('form');
  const [text, setText] = useState('{}');
  const [category, setCategory] = useState('');
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [message, setMessage] = useState<{ kind: 'error' | 'notice'; text: string }>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void client.call('GET /scenarios').then(
      (c) => {
        setContext(c);
        setCategory(c.categories[0]?.id ?? '');
      },
      (e: Error) => setMessage({ kind: 'error', text: e.message }),
    );
  }, [client]);

  const show = (v: Values) => {
    setValue(v);
    setText(JSON.stringify(v, null, 2));
  };

  const open = async (next: string) => {
    shown.current = next;
    setName(next);
    setProblems([]);
    setMessage(undefined);
    try {
      show((await client.call('GET /scenarios/:name', { params: { name: next } })).scenario as Values);
    } catch (e) {
      // A name not yet saved starts empty: it overrides nothing.
      if (e instanceof WorkbenchError && e.status === 404) show({});
      else setMessage({ kind: 'error', text: (e as Error).message });
    }
  };
  useEffect(() => {
    if (scenario !== shown.current) void open(scenario);
  }, [client, scenario]);

  /** The scenario as the view in front shows it; the JSON view may hold text that is not JSON. */
  const current = (): Values | undefined => {
    if (view === 'form') return value;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Values;
      setMessage({ kind: 'error', text: 'The settings are one JSON object: { … }' });
    } catch (e) {
      setMessage({ kind: 'error', text: `Not JSON: ${(e as Error).message}` });
    }
    return undefined;
  };

  const switchView = (next: 'form' | 'json') => {
    setMessage(undefined);
    const v = current();
    if (!v) return;
    show(v);
    setView(next);
  };

  const save = async () => {
    setProblems([]);
    setMessage(undefined);
    if (!NAME.test(name)) {
      setMessage({ kind: 'error', text: 'A scenario name is 1 to 80 letters, digits, ".", "-" or "_".' });
      return;
    }
    const v = current();
    if (!v) return;
    setBusy(true);
    try {
      show((await client.call('PUT /scenarios/:name', { params: { name }, body: v })).scenario as Values);
      setMessage({ kind: 'notice', text: `Saved scenario ${name}` });
      shown.current = name;
      saved(name);
      pick(name);
    } catch (e) {
      setMessage({ kind: 'error', text: `Not saved: ${(e as Error).message}` });
      if (e instanceof WorkbenchError) setProblems(e.errors);
    } finally {
      setBusy(false);
    }
  };

  const byPath = Object.fromEntries(problems.map((p) => [p.path, p.message]));
  return (
    <section aria-label="Settings">
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label>
          Scenario{' '}
          <select
            aria-label="Saved scenarios"
            value={names.includes(name) ? name : ''}
            onChange={(e) => pick(e.target.value)}
          >
            {!names.includes(name) && <option value="">(new)</option>}
            {names.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          Name <input name="scenario" value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <span className="segmented" role="group" aria-label="View">
          <button type="button" aria-pressed={view === 'form'} onClick={() => switchView('form')}>
            Form
          </button>
          <button type="button" aria-pressed={view === 'json'} onClick={() => switchView('json')}>
            JSON
          </button>
        </span>
      </form>
      {message && (
        <p className={message.kind} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      {problems.length > 0 && (
        <ul className="log__errors" aria-label="Settings problems">
          {problems.map((p, i) => (
            <li key={i}>
              <code>{p.path || '/'}</code>: {p.message}
            </li>
          ))}
        </ul>
      )}
      {!context && <p className="hint">Loading…</p>}
      {context && view === 'form' && (
        <SettingsForm
          context={context}
          value={value}
          onChange={show}
          problems={byPath}
          category={category}
          setCategory={setCategory}
        />
      )}
      {context && view === 'json' && (
        <div className="settings">
          <label className="settings__edit">
            Overrides (JSON)
            <textarea
              aria-label="Scenario settings"
              spellCheck={false}
              rows={24}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          <details className="settings__defaults" open>
            <summary>Engine defaults</summary>
            <pre>{JSON.stringify(context.defaults, null, 2)}</pre>
          </details>
        </div>
      )}
    </section>
  );
}

function SettingsForm({
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
                path={`/categories/${category.replace(/~/g, '~0').replace(/\//g, '~1')}`}
                problems={problems}
                onChange={(v) => onChange(withValue(value, 'categories', withValue(categories, category, v)))}
              />
            )}
          </>
        )}
      </fieldset>
      <p className="hint">Location kinds (warehouse, store, online) are set per location in the JSON view.</p>
    </div>
  );
}
