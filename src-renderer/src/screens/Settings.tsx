import { Notices } from '../Notices';
import { ScenarioNaming } from './ScenarioNaming';
import { ScenarioToolbar } from './ScenarioToolbar';
import { formPaths, SettingsForm } from './SettingsForm';
import { SettingsJson } from './SettingsJson';
import { useScenario, type ScenarioProps } from './use-scenario';

/**
 * Scenarios: named overrides of the engine's defaults that backtests and runs use, for the whole network, for
 * every category, and per merchandise category. A form read off the settings' schema, or the JSON itself; the
 * workbench validates the whole and names every bad field.
 */
export function Settings(props: ScenarioProps) {
  const { names, pick } = props;
  const s = useScenario(props);
  const { name, context, view, problems, message, drafts } = s;
  const byPath = Object.fromEntries(problems.map((p) => [p.path, p.message]));
  // Each problem is told once: at its field when the form shows it, else in the list.
  const fields = new Set(context && view === 'form' ? formPaths(context, s.category) : []);
  const unlisted = problems.filter((p) => !fields.has(p.path));
  return (
    <section aria-label="Settings">
      <ScenarioToolbar
        names={names}
        name={name}
        unsaved={(n) => drafts[n] !== undefined}
        busy={s.busy}
        view={view}
        onPick={pick}
        onSave={() => void s.save()}
        onNaming={s.setNaming}
        onDelete={() => void s.remove()}
        onView={s.switchView}
      />
      {s.naming && (
        <ScenarioNaming
          naming={s.naming}
          onChange={s.setNaming}
          onCancel={() => s.setNaming(undefined)}
          onSubmit={(naming) => void s.named(naming)}
        />
      )}
      {drafts[name] && (
        <p className="unsaved" role="status" data-testid="unsaved">
          {names.includes(name) ? `Unsaved changes to ${name}` : `${name} is not saved yet`}{' '}
          <button type="button" onClick={s.discard}>
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
          value={s.value}
          onChange={(v) => s.edit(v)}
          problems={byPath}
          category={s.category}
          setCategory={s.setCategory}
        />
      )}
      {context && view === 'json' && (
        <SettingsJson text={s.text} defaults={context.defaults} onChange={(t) => s.edit(s.value, t)} />
      )}
    </section>
  );
}
