import { useEffect, useState } from 'react';
import { WorkbenchError, type AdminClient, type FieldProblem, type ScenarioContext } from '../client';
import { useWorkbench } from '../store';
import { namingProblem, type Naming } from './ScenarioNaming';
import type { Values } from './SettingsFields';
import { useOpenedScenario, type ScenarioMessage } from './use-opened-scenario';

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

/** What the settings' form is drawn from (read once), and the category it shows. */
function useScenarioContext(client: AdminClient, say: (message: ScenarioMessage) => void) {
  const [context, setContext] = useState<ScenarioContext>();
  const [category, setCategory] = useState('');
  useEffect(() => {
    void client.call('GET /scenarios').then(
      (c) => {
        setContext(c);
        setCategory(c.categories[0]?.id ?? '');
      },
      (e: Error) => say({ kind: 'error', text: e.message }),
    );
  }, [client, say]);
  return { context, category, setCategory };
}

/** What a change to the kept scenarios works with: the screen's props, the scenario open, and what it tells. */
interface Changing {
  props: ScenarioProps;
  opened: ReturnType<typeof useOpenedScenario>;
  say: (message: ScenarioMessage | undefined) => void;
  setProblems: (problems: FieldProblem[]) => void;
  setBusy: (busy: boolean) => void;
}

/** Settings kept as a scenario: the open one saved, or copied under another name (which then opens). */
function useScenarioSave({ props: { client, saved, pick }, opened, say, setProblems, setBusy }: Changing) {
  const { setSettingsDraft } = useWorkbench();
  /** Keeps `v` as scenario `as`; the problems of a refused one are shown where they were typed. */
  const put = async (as: string, v: Values, done: string) => {
    setProblems([]);
    say(undefined);
    setBusy(true);
    try {
      const kept = (await client.call('PUT /scenarios/:name', { params: { name: as }, body: v })).scenario as Values;
      setSettingsDraft(as, undefined);
      await saved();
      if (as === opened.name) opened.show(kept);
      else {
        await opened.open(as);
        pick(as);
      }
      say({ kind: 'notice', text: done });
    } catch (e) {
      const errors = e instanceof WorkbenchError ? e.errors : [];
      setProblems(errors);
      say({
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
    const v = opened.current();
    if (v) await put(opened.name, v, `Saved scenario ${opened.name}`);
  };
  const duplicate = async (to: string) => {
    const v = opened.current();
    if (v) await put(to, v, `Copied ${opened.name} as ${to}`);
  };
  return { save, duplicate };
}

/** The open scenario renamed (its draft moves with it) or deleted after the user confirms (the first then opens). */
function useScenarioRenameDelete({ props: { client, names, saved, pick }, opened, say, setBusy }: Changing) {
  const { settingsDrafts: drafts, setSettingsDraft } = useWorkbench();
  const { name } = opened;
  const attempt = async (failed: string, work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (e) {
      say({ kind: 'error', text: `${failed}: ${(e as Error).message}` });
    } finally {
      setBusy(false);
    }
  };
  const rename = (to: string) =>
    attempt('Not renamed', async () => {
      await client.call('POST /scenarios/:name/rename', { params: { name }, body: { to } });
      const draft = drafts[name];
      setSettingsDraft(name, undefined);
      if (draft) setSettingsDraft(to, draft);
      await saved();
      opened.renamed(to);
      say({ kind: 'notice', text: `Renamed ${name} to ${to}` });
      pick(to);
    });
  const remove = async () => {
    if (!window.confirm(`Delete scenario ${name}? Runs made with it keep the settings they ran with.`)) return;
    await attempt('Not deleted', async () => {
      await client.call('DELETE /scenarios/:name', { params: { name } });
      setSettingsDraft(name, undefined);
      await saved();
      await opened.open(names[0]);
      pick(names[0]);
      say({ kind: 'notice', text: `Deleted scenario ${name}` });
    });
  };
  return { rename, remove };
}

/**
 * The scenario the Settings screen edits, and what it does with it: opened (from its unsaved draft first), edited
 * in the form or as JSON (each edit kept as its draft, beyond the screen and a reload, until saved or discarded),
 * saved, copied, renamed, deleted. A refused save leaves the problems by path, to show where each was typed.
 */
export function useScenario(props: ScenarioProps) {
  const { client, names, scenario, pick } = props;
  const { settingsDrafts: drafts, setSettingsDraft } = useWorkbench();
  const [naming, setNaming] = useState<Naming>();
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [message, setMessage] = useState<ScenarioMessage>();
  const [busy, setBusy] = useState(false);
  const { context, category, setCategory } = useScenarioContext(client, setMessage);
  const opened = useOpenedScenario(client, scenario, setMessage, setProblems);
  const changing = { props, opened, say: setMessage, setProblems, setBusy };
  const { save, duplicate } = useScenarioSave(changing);
  const { rename, remove } = useScenarioRenameDelete(changing);

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
    if (action === 'duplicate') await duplicate(to);
    else await rename(to);
  };

  const { name, value, text, view, edit, switchView, discard } = opened;
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
