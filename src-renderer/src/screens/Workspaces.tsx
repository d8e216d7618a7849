import { desktopBridge, type AdminClient } from '../client';
import { Notices } from '../Notices';
import { NewWorkspaceForm } from './NewWorkspaceForm';
import { WorkspaceList } from './WorkspaceList';
import { useWorkspaces } from './use-workspaces';

/**
 * Which workspace the app works on: the one open now, the others in the home folder or opened lately, and a
 * new one by name. Moving to another reloads the screens onto it.
 */
export function Workspaces({ client }: { client: AdminClient }) {
  const { view, busy, error, setError, move } = useWorkspaces(client);
  const chooseFolder = desktopBridge()?.chooseWorkspace;
  return (
    <section aria-label="Workspaces">
      <h2>Workspaces</h2>
      <Notices error={error} notice={busy && `${busy}…`} />
      {view && (
        <>
          <WorkspaceList
            view={view}
            busy={busy !== undefined}
            onOpen={(w) => void move({ path: w.path }, `Opening ${w.name}`)}
          />
          <NewWorkspaceForm
            busy={busy !== undefined}
            onCreate={(name) => void move({ name, create: true }, `Creating ${name}`)}
            onRefused={setError}
            chooseFolder={chooseFolder}
          />
        </>
      )}
    </section>
  );
}
