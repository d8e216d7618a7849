import type { WorkspacesView } from '../client';

const when = (iso?: string) => (iso ? iso.replace('T', ' ').slice(0, 16) : '');

/** The workspace open now with its tenant and home folder, and every workspace known, each but it to open. */
export function WorkspaceList({
  view,
  busy,
  onOpen,
}: {
  view: WorkspacesView;
  /** A move is under way: no other is started meanwhile. */
  busy: boolean;
  onOpen: (workspace: WorkspacesView['workspaces'][number]) => void;
}) {
  return (
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
                  <button type="button" disabled={busy} onClick={() => onOpen(w)}>
                    Open
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
