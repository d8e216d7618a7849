import { useEffect, useState } from 'react';
import { openWorkspace, type AdminClient, type WorkspacesView } from '../client';

/**
 * The workspaces the app knows, and the move to another (or to a new one): what is being done while it is, and why
 * it failed. A move that succeeds reloads every screen onto the workspace it now shows.
 */
export function useWorkspaces(client: AdminClient) {
  const [view, setView] = useState<WorkspacesView>();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();

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
  return { view, busy, error, setError, move };
}
