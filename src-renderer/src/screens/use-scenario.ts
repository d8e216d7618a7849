import { useCallback, useEffect, useRef, useState } from 'react';
import { WorkbenchError, type AdminClient, type FieldProblem, type ScenarioContext } from '../client';
import { useWorkbench } from '../store';
import { namingProblem, type Naming } from './ScenarioNaming';
import type { SettingsView } from './ScenarioToolbar';
import type { Values } from './SettingsFields';

/** What the Settings screen is given, and its scenario editing works from. */
export interface ScenarioProps {
  client: AdminClient;
  /** The kept scenarios, the one runs use first. */
  names: string[];
  /** The scenario the address names (the first of `names`, the one runs use, when it names none). */
  scenario: string;
  /** Shows another scenario: a new address. */
  pick: (name: string) => void;
  /** The kept scenarios changed: their names are read again (settled before the change is announced). */
  saved: () => Promise<void>;
}

/** A text as the settings it holds, or why it holds none: the settings are one JSON object. */
function parseSettings(text: string): { value: Values } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { error: `Not JSON: ${(e as Error).message}` };
  }
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? { value: parsed as Values }
    : { error: 'The settings are one JSON object: { … }' };
}

/**
 * The scenario the Settings screen edits, and what it does with it: opened (from its unsaved draft first), edited
 * in the form or as JSON (each edit kept as its draft, beyond the screen and a reload, until saved or discarded),
 * saved, copied, renamed, deleted. A refused save leaves the problems by path, to show where each was typed.
 */
export function useScenario({ client, names, scenario, pick, saved }: ScenarioProps) {
  const [name, setName] = useState(scenario);
  /** The scenario whose settings the form holds. */
  const shown = useRef<string>(undefined);
  const { settingsDrafts: drafts, setSettingsDraft } = useWorkbench();
  const [naming, setNaming] = useState<Naming>();
  const [value, setValue] = useState<Values>({});
  const [context, setContext] = useState<ScenarioContext>();
  const [view, setView] = useState<SettingsView>('form');
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

  /** An edit of the scenario shown: on screen, and kept as its draft. */
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
        const parsed = parseSettings(draft.text);
        setValue('value' in parsed ? parsed.value : draft.value);
        setText(draft.text);
        if (!('value' in parsed)) setView('json');
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
    const parsed = parseSettings(text);
    if ('value' in parsed) return parsed.value;
    setMessage({ kind: 'error', text: parsed.error });
    return undefined;
  };

  const switchView = (next: SettingsView) => {
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
    const problem = namingProblem(to, names);
    if (problem) return setMessage({ kind: 'error', text: problem });
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

  return {
    name,
    context,
    value,
    text,
    view,
    category,
    setCategory,
    problems,
    message,
    busy,
    drafts,
    naming,
    setNaming,
    edit,
    switchView,
    save,
    named,
    remove,
    discard,
  };
}
