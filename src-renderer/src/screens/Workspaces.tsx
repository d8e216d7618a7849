import { useEffect, useState } from 'react';
import { desktopBridge, openWorkspace, type AdminClient, type WorkspacesView } from '../client';
import { Notices } from '../Notices';

const NAME = /^(?!\.{1,2}$)[\w.-]{1,80}$/;
const when = (iso?: string) => (iso ? iso.replace('T', ' ').slice(0, 16) : '');

/**
 * Which workspace the app works on: the one open now, the others in the home folder or opened lately, and a
 * new one by name. Moving to another reloads the screens onto it.
 */
export function Workspaces({ client }: { client: AdminClient }) {
  const [view, setView] = useState<WorkspacesView>();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const chooseFolder = desktopBridge()?.chooseWorkspace;

  useEffect(() => {
    void client.call('GET /workspaces').then(setView, (e: Error) => setError(e.message));
  }, [client]);

  const move = async (target: { name?: string; path?: string; create?: boolean }, label: string) => {
    setError(undefined);
    setBusy(label);
    try {
      await openWorkspace(client, target);
      // Every screen starts afresh on the workspace it now shows.
      window.location.reload();
    } catch (e) {
      setError(`${label} failed: ${(e as Error).message}`);
      setBusy(undefined);
    }
  };

  const create = (e: React.FormEvent) => {
    e.preventDefault();
    if (!NAME.test(name)) {
      setError('A workspace name is 1 to 80 letters, digits, ".", "-" or "_".');
      return;
    }
    void move({ name, create: true }, `Creating ${name}`);
  };

  return (
    <section aria-label="Workspaces">
      <h2>Workspaces</h2>
      <Notices error={error} notice={busy && `${busy}…`} />
      {view && (
        <>
          <dl className="facts">
            <dt>Open now</dt>
            <dd data-testid="current-workspace">
              <strong>{view.current.name}</strong> <code>{view.current.path}</code>
            </dd>
            <dt>Tenant</dt>
            <dd>
              <code>{view.current.tenant}</code>
            </dd>
            <dt>New ones go to</dt>
            <dd>
              <code>{view.home}</code>
            </dd>
          </dl>
          <table className="grid" aria-label="Workspaces">
            <thead>
              <tr>
                <th>Workspace</th>
                <th>Folder</th>
                <th>Last opened</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {view.workspaces.map((w) => (
                <tr key={w.path} data-workspace={w.name}>
                  <td>{w.name}</td>
                  <td>
                    <code>{w.path}</code>
                  </td>
                  <td>{when(w.lastOpened)}</td>
                  <td>
                    {w.path === view.current.path ? (
                      <span className="hint">open</span>
                    ) : (
                      <button
                        type="button"
                        disabled={busy !== undefined}
                        onClick={() => void move({ path: w.path }, `Opening ${w.name}`)}
                      >
                        Open
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <form className="toolbar" onSubmit={create}>
            <label>
              New workspace{' '}
              <input
                name="workspace-name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="spring-2026"
              />
            </label>
            <button type="submit" disabled={busy !== undefined || name === ''}>
              Create and open
            </button>
            {chooseFolder && (
              <button type="button" disabled={busy !== undefined} onClick={() => void chooseFolder()}>
                Open a folder…
              </button>
            )}
          </form>
        </>
      )}
    </section>
  );
}
