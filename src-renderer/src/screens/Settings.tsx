import { useCallback, useEffect, useRef, useState } from 'react';
import { WorkbenchError, type FieldProblem, type ScenarioContext, type AdminClient } from '../client';
import { useWorkbench } from '../store';
import { fieldPaths, SchemaFields, withValue, type FieldSchema, type Values } from './SettingsFields';
import { Notices } from '../Notices';

const NAME = /^[\w.-]{1,80}$/;
const NAME_RULE = 'A scenario name is 1 to 80 letters, digits, ".", "-" or "_".';
/** What a name is asked for: a new empty scenario, a copy of the one shown, or its new name. */
type Naming = { action: 'new' | 'duplicate' | 'rename'; text: string };
const NAMING_LABELS: Record<Naming['action'], string> = {
  new: 'New scenario',
  duplicate: 'Copy as',
  rename: 'Rename to',
};
/** Settings the form shows in sections of their own, or leaves to the JSON view. */
const OWN_SECTIONS = ['defaults', 'categories', 'locationKinds', 'fulfilledFrom'];

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
  /** The kept scenarios changed: their names are read again (settled before the change is announced). */
  saved: () => Promise<void>;
}) {
  const [name, setName] = useState(scenario);
  /** The scenario whose settings the form holds. */
  const shown = useRef<string>(undefined);
  // Edits not saved yet, per scenario, kept beyond this screen (and a reload) until saved or discarded.
  const { settingsDrafts: drafts, setSettingsDraft } = useWorkbench();
  const [naming, setNaming] = useState<Naming>();
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

  const show = useCallback((v: Values) => {
    setValue(v);
    setText(JSON.stringify(v, null, 2));
  }, []);

  /** The form's edit of the scenario shown: on screen, and kept as its draft. */
  const edit = (v: Values, asText = JSON.stringify(v, null, 2)) => {
    setValue(v);
    setText(asText);
    setSettingsDraft(name, { value: v, text: asText });
  };

  const open = useCallback(
    async (next: string) => {
      shown.current = next;
      setName(next);
      setProblems([]);
      setMessage(undefined);
      const draft = useWorkbench.getState().settingsDrafts[next];
      if (draft) {
        // The text is the edit when it was made in the JSON view; text that is no JSON yet reopens there.
        const parsed = objectOf(draft.text);
        setValue(parsed ?? draft.value);
        setText(draft.text);
        if (!parsed) setView('json');
        return;
      }
      try {
        show((await client.call('GET /scenarios/:name', { params: { name: next } })).scenario as Values);
      } catch (e) {
        // A name not yet saved starts empty: it overrides nothing.
        if (e instanceof WorkbenchError && e.status === 404) show({});
        else setMessage({ kind: 'error', text: (e as Error).message });
      }
    },
    [client, show],
  );
  useEffect(() => {
    if (scenario !== shown.current) void open(scenario);
  }, [client, scenario, open]);

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

  /** Keeps `v` as scenario `as`; the problems of a refused one are shown where they were typed. */
  const put = async (as: string, v: Values, done: string) => {
    setProblems([]);
    setMessage(undefined);
    setBusy(true);
    try {
      const kept = (await client.call('PUT /scenarios/:name', { params: { name: as }, body: v })).scenario as Values;
      setSettingsDraft(as, undefined);
      await saved();
      if (as === name) show(kept);
      else {
        await open(as);
        pick(as);
      }
      setMessage({ kind: 'notice', text: done });
    } catch (e) {
      const errors = e instanceof WorkbenchError ? e.errors : [];
      setProblems(errors);
      setMessage({
        kind: 'error',
        text: errors.length
          ? `Not saved: ${errors.length === 1 ? 'one value was' : `${errors.length} values were`} refused.`
          : `Not saved: ${(e as Error).message}`,
      });
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    const v = current();
    if (v) await put(name, v, `Saved scenario ${name}`);
  };

  /** New, duplicate or rename, once a name is given. */
  const named = async ({ action, text: to }: Naming) => {
    if (!NAME.test(to)) return setMessage({ kind: 'error', text: NAME_RULE });
    // A kept name is never taken over: a new scenario under it would show empty and, saved, wipe the one kept.
    if (names.includes(to)) return setMessage({ kind: 'error', text: `"${to}" is kept already.` });
    setNaming(undefined);
    if (action === 'new') {
      // Unsaved until saved: it overrides nothing yet.
      setSettingsDraft(to, { value: {}, text: '{}' });
      return pick(to);
    }
    if (action === 'duplicate') {
      const v = current();
      if (v) await put(to, v, `Copied ${name} as ${to}`);
      return;
    }
    setBusy(true);
    try {
      await client.call('POST /scenarios/:name/rename', { params: { name }, body: { to } });
      const draft = drafts[name];
      setSettingsDraft(name, undefined);
      if (draft) setSettingsDraft(to, draft);
      await saved();
      shown.current = to;
      setName(to);
      setMessage({ kind: 'notice', text: `Renamed ${name} to ${to}` });
      pick(to);
    } catch (e) {
      setMessage({ kind: 'error', text: `Not renamed: ${(e as Error).message}` });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!window.confirm(`Delete scenario ${name}? Runs made with it keep the settings they ran with.`)) return;
    setBusy(true);
    try {
      await client.call('DELETE /scenarios/:name', { params: { name } });
      setSettingsDraft(name, undefined);
      await saved();
      await open(names[0]);
      pick(names[0]);
      setMessage({ kind: 'notice', text: `Deleted scenario ${name}` });
    } catch (e) {
      setMessage({ kind: 'error', text: `Not deleted: ${(e as Error).message}` });
    } finally {
      setBusy(false);
    }
  };

  const discard = () => {
    setSettingsDraft(name, undefined);
    void open(name);
  };

  const byPath = Object.fromEntries(problems.map((p) => [p.path, p.message]));
  // Each problem is told once: at its field when the form shows it, else in the list.
  const fields = new Set(context && view === 'form' ? formPaths(context, category) : []);
  const unlisted = problems.filter((p) => !fields.has(p.path));
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
            {!names.includes(name) && <option value="">{name} — not saved yet</option>}
            {names.map((n) => (
              <option key={n} value={n}>
                {drafts[n] ? `${n} — unsaved changes` : n}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        {(['new', 'duplicate', 'rename'] as const).map((action) => (
          <button
            key={action}
            type="button"
            disabled={busy || (action === 'rename' && (name === names[0] || !names.includes(name)))}
            onClick={() => setNaming({ action, text: action === 'new' ? '' : `${name}-copy` })}
          >
            {{ new: 'New…', duplicate: 'Duplicate…', rename: 'Rename…' }[action]}
          </button>
        ))}
        <button
          type="button"
          disabled={busy || name === names[0] || !names.includes(name)}
          onClick={() => void remove()}
          title={name === names[0] ? 'What runs use when no scenario is named: it can be emptied, not deleted' : ''}
        >
          Delete
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
      {naming && (
        <form
          className="toolbar"
          onSubmit={(e) => {
            e.preventDefault();
            void named(naming);
          }}
        >
          <label>
            {NAMING_LABELS[naming.action]}{' '}
            <input
              name="scenario-name"
              autoFocus
              value={naming.text}
              onChange={(e) => setNaming({ ...naming, text: e.target.value })}
              required
            />
          </label>
          <button type="submit">OK</button>
          <button type="button" onClick={() => setNaming(undefined)}>
            Cancel
          </button>
        </form>
      )}
      {drafts[name] && (
        <p className="unsaved" role="status" data-testid="unsaved">
          {names.includes(name) ? `Unsaved changes to ${name}` : `${name} is not saved yet`}{' '}
          <button type="button" onClick={discard}>
            {names.includes(name) ? 'Discard changes' : 'Discard it'}
          </button>
        </p>
      )}
      <Notices
        error={
          message?.kind === 'error' &&
          `${message.text}${problems.length > unlisted.length ? ' Each is marked where it was typed.' : ''}`
        }
        notice={message?.kind === 'notice' && message.text}
      />
      {unlisted.length > 0 && (
        <ul className="log__errors" aria-label="Settings problems">
          {unlisted.map((p, i) => (
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
          onChange={(v) => edit(v)}
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
              onChange={(e) => edit(value, e.target.value)}
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

/** The JSON object a text holds, if it holds one. */
function objectOf(text: string): Values | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Values) : undefined;
  } catch {
    return undefined;
  }
}

/** The settings the form shows a field for, with `category` the one category open. */
function formPaths(context: ScenarioContext, category: string): string[] {
  const schema = context.schema as FieldSchema;
  const categorySchema = Object.values(schema.properties?.categories?.patternProperties ?? {})[0];
  return [
    ...fieldPaths(schema, '', OWN_SECTIONS),
    ...fieldPaths(schema.properties!.defaults, '/defaults'),
    ...(category && categorySchema ? fieldPaths(categorySchema, categoryPointer(category)) : []),
  ];
}

/** An id as a JSON pointer's token (RFC 6901). */
const token = (id: string) => id.replace(/~/g, '~0').replace(/\//g, '~1');
const categoryPointer = (id: string) => `/categories/${token(id)}`;

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

/**
 * Online shops that ship from a warehouse's stock (`fulfilledFrom`): a row per shop, its warehouse picked from the
 * workspace's locations, each labelled with the kind its sales give it. Any may be picked (a scenario's
 * `locationKinds` may make a location a warehouse); a run refuses a warehouse that is none.
 */
function Fulfilment({
  locations,
  pairs,
  problems,
  onChange,
}: {
  locations: ScenarioContext['locations'];
  pairs: Record<string, string>;
  problems: Record<string, string>;
  onChange: (pairs: Record<string, string>) => void;
}) {
  const rows = Object.entries(pairs);
  const free = locations.filter((l) => !(l.id in pairs));
  const label = (l: ScenarioContext['locations'][number]) => `${l.id} — ${l.name} (${l.kind})`;
  const options = (ids: ScenarioContext['locations']) =>
    ids.map((l) => (
      <option key={l.id} value={l.id}>
        {label(l)}
      </option>
    ));
  /** The pairs with the row at `at` replaced (or removed), in the order shown. */
  const withRow = (at: number, row?: [string, string]) =>
    Object.fromEntries(rows.flatMap((r, i) => (i !== at ? [r] : row ? [row] : [])));
  return (
    <fieldset className="fields__group">
      <legend>Online shops that ship from a warehouse</legend>
      <p className="hint">
        An online location that keeps no stock of its own sells from its warehouse&apos;s: a backtest serves its
        customers from there and counts its stock there, and the engine sends it nothing.
      </p>
      {rows.map(([online, warehouse], i) => {
        const problem = problems[`/fulfilledFrom/${token(online)}`];
        return (
          <div key={online} className={`toolbar${problem ? ' field--bad' : ''}`}>
            <select
              aria-label="Online location"
              value={online}
              onChange={(e) => onChange(withRow(i, [e.target.value, warehouse]))}
            >
              {options(locations.filter((l) => l.id === online || !(l.id in pairs)))}
            </select>{' '}
            sells from{' '}
            <select
              aria-label={`Warehouse of ${online}`}
              value={warehouse}
              onChange={(e) => onChange(withRow(i, [online, e.target.value]))}
            >
              {options(locations.filter((l) => l.id !== online))}
            </select>{' '}
            <button type="button" onClick={() => onChange(withRow(i))}>
              Remove
            </button>
            {problem && <span className="field__problem">{problem}</span>}
          </div>
        );
      })}
      {free.length > 0 && locations.length > 1 && (
        <button
          type="button"
          onClick={() => {
            // What the data's sales make online and a warehouse first: the likeliest pick.
            const online = (free.find((l) => l.kind === 'online') ?? free[0]).id;
            const others = locations.filter((l) => l.id !== online);
            onChange({ ...pairs, [online]: (others.find((l) => l.kind === 'warehouse') ?? others[0]).id });
          }}
        >
          Add an online shop
        </button>
      )}
    </fieldset>
  );
}
