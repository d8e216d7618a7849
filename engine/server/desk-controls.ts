/** What the admin API's routes may ask of the desk, and what it answers: the types both sides share. */
import type { WorkspaceEntry } from '../service/workspace-home.js';

export interface WorkspacesView {
  home: string;
  current: WorkspaceEntry & { tenant: string };
  workspaces: WorkspaceEntry[];
}

export interface ListenerStatus {
  listening: boolean;
  /** Where clients reach it, while it listens. */
  url?: string;
  tenant: string;
  clientId: string;
  /** The workspace's client secret, while it listens. */
  clientSecret?: string;
  curl?: string;
}

/** A workspace to move to: a new one by name, or a known one by name or by the path it was opened at. */
export interface SwitchRequest {
  name?: string;
  path?: string;
  create: boolean;
}

/** What the admin API's routes may ask of the desk. */
export interface DeskControls {
  workspaces(): WorkspacesView;
  /**
   * Checks and opens the named workspace; the screens move to it when `go` is called: once the answer to this
   * request is out (or its asker has gone), since the server answering it is the old workspace's.
   */
  prepareSwitch(request: SwitchRequest): Promise<{ entry: WorkspaceEntry; go: () => void }>;
  listener(): ListenerStatus;
  startListener(request: { port: number; tenant?: string }): Promise<ListenerStatus>;
  stopListener(): Promise<ListenerStatus>;
}
