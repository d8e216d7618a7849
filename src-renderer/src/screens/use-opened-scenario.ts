import { useCallback, useEffect, useRef, useState } from 'react';
import { WorkbenchError, type AdminClient, type FieldProblem } from '../client';
import { useWorkbench } from '../store';
import type { SettingsView } from './ScenarioToolbar';
import type { Values } from './SettingsFields';
import { parseSettings } from './settings-text';

export type ScenarioMessage = { kind: 'error' | 'notice'; text: string };

/** The settings shown, as the form's value and the JSON view's text; an edit is kept as the scenario's draft. */
function useSettingsShown(name: string) {
  const { setSettingsDraft } = useWorkbench();
  const [value, setValue] = useState<Values>({});
  const [text, setText] = useState('{}');
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
  return { value, setValue, text, setText, show, edit };
}

/**
 * The scenario the Settings screen has open and its settings as the form and the JSON view hold them: opened (from
 * its unsaved draft first) whenever the address names another, each edit kept as its draft until saved or
 * discarded.
 */
export function useOpenedScenario(
  client: AdminClient,
  scenario: string,
  say: (message: ScenarioMessage | undefined) => void,
  setProblems: (problems: FieldProblem[]) => void,
) {
  const [name, setName] = useState(scenario);
  /** The scenario whose settings the form holds. */
  const shown = useRef<string>(undefined);
  const { setSettingsDraft } = useWorkbench();
  const [view, setView] = useState<SettingsView>('form');
  const { value, setValue, text, setText, show, edit } = useSettingsShown(name);

  const open = useCallback(
    async (next: string) => {
      shown.current = next;
      setName(next);
      setProblems([]);
      say(undefined);
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
        else say({ kind: 'error', text: (e as Error).message });
      }
    },
    [client, show, say, setProblems, setText, setValue],
  );
  useEffect(() => {
    if (scenario !== shown.current) void open(scenario);
  }, [client, scenario, open]);

  /** The scenario as the view in front shows it; the JSON view may hold text that is not JSON. */
  const current = (): Values | undefined => {
    if (view === 'form') return value;
    const parsed = parseSettings(text);
    if ('value' in parsed) return parsed.value;
    say({ kind: 'error', text: parsed.error });
    return undefined;
  };

  const switchView = (next: SettingsView) => {
    say(undefined);
    const v = current();
    if (!v) return;
    show(v);
    setView(next);
  };

  /** The scenario now goes by another name: it stays open. */
  const renamed = (to: string) => {
    shown.current = to;
    setName(to);
  };

  const discard = () => {
    setSettingsDraft(name, undefined);
    void open(name);
  };

  return { name, value, text, view, show, edit, open, current, switchView, renamed, discard };
}
