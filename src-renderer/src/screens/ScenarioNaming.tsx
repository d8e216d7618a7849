/** Naming a scenario: a new empty one, a copy of the one shown, or the one shown under a new name. */

/** What a name is asked for, and the name typed so far. */
export type Naming = { action: 'new' | 'duplicate' | 'rename'; text: string };

const NAME = /^[\w.-]{1,80}$/;
const NAME_RULE = 'A scenario name is 1 to 80 letters, digits, ".", "-" or "_".';
const LABELS: Record<Naming['action'], string> = {
  new: 'New scenario',
  duplicate: 'Copy as',
  rename: 'Rename to',
};

/**
 * Why `to` cannot name a scenario, if it cannot. A kept name is never taken over: a new scenario under it would show
 * empty and, saved, wipe the one kept.
 */
export function namingProblem(to: string, kept: readonly string[]): string | undefined {
  if (!NAME.test(to)) return NAME_RULE;
  if (kept.includes(to)) return `"${to}" is kept already.`;
  return undefined;
}

/** The name asked for, typed into a form of its own; OK hands it back, unchecked, Cancel drops it. */
export function ScenarioNaming({
  naming,
  onChange,
  onCancel,
  onSubmit,
}: {
  naming: Naming;
  onChange: (naming: Naming) => void;
  onCancel: () => void;
  onSubmit: (naming: Naming) => void;
}) {
  return (
    <form
      className="toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(naming);
      }}
    >
      <label>
        {LABELS[naming.action]}{' '}
        <input
          name="scenario-name"
          autoFocus
          value={naming.text}
          onChange={(e) => onChange({ ...naming, text: e.target.value })}
          required
        />
      </label>
      <button type="submit">OK</button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
