import { useEffect, useState } from 'react';
import { WorkbenchError, type FieldProblem, type Settings as EngineSettings, type WorkbenchClient } from '../client';

const NAME = /^[\w.-]{1,80}$/;

/**
 * Scenarios: named overrides of the engine's defaults that backtests and runs use. Edited as JSON, since the
 * settings nest (per category, per location); the workbench validates the whole and names every bad field.
 */
export function Settings({ client, names, saved }: { client: WorkbenchClient; names: string[]; saved: (name: string) => void }) {
  // Shown once the names are read (App), so the first is the scenario runs use when none is named.
  const [name, setName] = useState(names[0]);
  const [text, setText] = useState('');
  const [defaults, setDefaults] = useState<EngineSettings>();
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [message, setMessage] = useState<{ kind: 'error' | 'notice'; text: string }>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void client.scenarios().then((s) => setDefaults(s.defaults), (e: Error) => setMessage({ kind: 'error', text: e.message }));
  }, [client]);

  const open = async (next: string) => {
    setName(next);
    setProblems([]);
    setMessage(undefined);
    try {
      setText(JSON.stringify(await client.scenario(next), null, 2));
    } catch (e) {
      // A name not yet saved starts empty: it overrides nothing.
      if (e instanceof WorkbenchError && e.status === 404) setText('{}');
      else setMessage({ kind: 'error', text: (e as Error).message });
    }
  };
  useEffect(() => {
    void open(name);
    // Once per connection; later opens are the user's picks.
  }, [client]);

  const save = async () => {
    setProblems([]);
    setMessage(undefined);
    if (!NAME.test(name)) {
      setMessage({ kind: 'error', text: 'A scenario name is 1 to 80 letters, digits, ".", "-" or "_".' });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      setMessage({ kind: 'error', text: `Not JSON: ${(e as Error).message}` });
      return;
    }
    setBusy(true);
    try {
      setText(JSON.stringify(await client.saveScenario(name, value), null, 2));
      setMessage({ kind: 'notice', text: `Saved scenario ${name}` });
      saved(name);
    } catch (e) {
      setMessage({ kind: 'error', text: `Not saved: ${(e as Error).message}` });
      if (e instanceof WorkbenchError) setProblems(e.errors);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label="Settings">
      <form className="toolbar" onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <label>Scenario{' '}
          <select aria-label="Saved scenarios" value={names.includes(name) ? name : ''} onChange={(e) => void open(e.target.value)}>
            {!names.includes(name) && <option value="">(new)</option>}
            {names.map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </label>
        <label>Name <input name="scenario" value={name} onChange={(e) => setName(e.target.value)} required /></label>
        <button type="submit" disabled={busy}>{busy ? 'Saving…' : 'Save'}</button>
      </form>
      {message && <p className={message.kind} role={message.kind === 'error' ? 'alert' : 'status'}>{message.text}</p>}
      {problems.length > 0 && (
        <ul className="log__errors" aria-label="Settings problems">
          {problems.map((p, i) => <li key={i}><code>{p.path || '/'}</code>: {p.message}</li>)}
        </ul>
      )}
      <div className="settings">
        <label className="settings__edit">Overrides (JSON)
          <textarea aria-label="Scenario settings" spellCheck={false} rows={24} value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <details className="settings__defaults" open>
          <summary>Engine defaults</summary>
          <pre>{defaults ? JSON.stringify(defaults, null, 2) : 'Loading…'}</pre>
        </details>
      </div>
    </section>
  );
}
