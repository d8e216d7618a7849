import type { Naming } from './ScenarioNaming';

export type SettingsView = 'form' | 'json';

/**
 * The Settings screen's toolbar: the scenario shown, picked among those kept, and what can be done with it. The
 * first kept scenario is the one runs use when none is named: it can be emptied, not renamed or deleted.
 */
export function ScenarioToolbar({
  names,
  name,
  unsaved,
  busy,
  view,
  onPick,
  onSave,
  onNaming,
  onDelete,
  onView,
}: {
  /** The kept scenarios, the one runs use first. */
  names: readonly string[];
  /** The scenario shown, kept or not. */
  name: string;
  /** Whether a scenario has edits not saved yet. */
  unsaved: (name: string) => boolean;
  busy: boolean;
  view: SettingsView;
  onPick: (name: string) => void;
  onSave: () => void;
  /** A name is asked for, starting from this text. */
  onNaming: (naming: Naming) => void;
  onDelete: () => void;
  onView: (view: SettingsView) => void;
}) {
  const kept = names.includes(name);
  const fixed = name === names[0] || !kept;
  return (
    <form
      className="toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <label>
        Scenario{' '}
        <select aria-label="Saved scenarios" value={kept ? name : ''} onChange={(e) => onPick(e.target.value)}>
          {!kept && <option value="">{name} — not saved yet</option>}
          {names.map((n) => (
            <option key={n} value={n}>
              {unsaved(n) ? `${n} — unsaved changes` : n}
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
          disabled={busy || (action === 'rename' && fixed)}
          onClick={() => onNaming({ action, text: action === 'new' ? '' : `${name}-copy` })}
        >
          {{ new: 'New…', duplicate: 'Duplicate…', rename: 'Rename…' }[action]}
        </button>
      ))}
      <button
        type="button"
        disabled={busy || fixed}
        onClick={onDelete}
        title={name === names[0] ? 'What runs use when no scenario is named: it can be emptied, not deleted' : ''}
      >
        Delete
      </button>
      <span className="segmented" role="group" aria-label="View">
        <button type="button" aria-pressed={view === 'form'} onClick={() => onView('form')}>
          Form
        </button>
        <button type="button" aria-pressed={view === 'json'} onClick={() => onView('json')}>
          JSON
        </button>
      </span>
    </form>
  );
}
