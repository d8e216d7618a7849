/**
 * What every domain service of the workbench works on: the one workspace, whose `exclusive` turns keep their work
 * from interleaving, and the workbench's clock.
 */
import type { Clock } from '../../ingest/clock.js';
import type { Workspace } from '../../store/workspace.js';

export interface ServiceContext {
  readonly workspace: Workspace;
  /** Now, as the workbench's clock tells it (microseconds). */
  readonly clock: Clock;
  /** The clock made strictly increasing: what a write is stamped with, so no two writes share a time. */
  readonly stamp: Clock;
}

/** A domain's own tables, emptied when the workspace is reset (in the caller's transaction). */
export interface ClearsOnReset {
  clear(): Promise<void>;
}

/** Deletes every row of the tables, in order. */
export async function clearTables(ctx: ServiceContext, tables: readonly string[]): Promise<void> {
  for (const t of tables) await ctx.workspace.run(`DELETE FROM ${t}`);
}
