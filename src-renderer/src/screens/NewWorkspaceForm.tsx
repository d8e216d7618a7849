import { useState } from 'react';

const NAME = /^(?!\.{1,2}$)[\w.-]{1,80}$/;
export const NAME_RULE = 'A workspace name is 1 to 80 letters, digits, ".", "-" or "_".';

/**
 * A new workspace by name, created and opened (a name the home folder cannot hold is refused with the rule), or,
 * on the desktop, a folder chosen to open.
 */
export function NewWorkspaceForm({
  busy,
  onCreate,
  onRefused,
  chooseFolder,
}: {
  /** A move is under way: nothing else is started meanwhile. */
  busy: boolean;
  onCreate: (name: string) => void;
  onRefused: (why: string) => void;
  chooseFolder?: () => unknown;
}) {
  const [name, setName] = useState('');
  return (
    <form
      className="toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        if (NAME.test(name)) onCreate(name);
        else onRefused(NAME_RULE);
      }}
    >
      <label>
        New workspace{' '}
        <input name="workspace-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="spring-2026" />
      </label>
      <button type="submit" disabled={busy || name === ''}>
        Create and open
      </button>
      {chooseFolder && (
        <button type="button" disabled={busy} onClick={() => void chooseFolder()}>
          Open a folder…
        </button>
      )}
    </form>
  );
}
