/** samples/demo in a workspace, as `workbench load` leaves it: a copy of the one the suite's global setup loaded. */
import { cpSync } from 'node:fs';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A workspace holding samples/demo, loaded once for the run by the global setup: copied, never used in place. */
    demoWorkspace: string;
  }
}

/** Copies the loaded demo to `workspace` (a folder that does not exist yet) and answers it. */
export function demoWorkspace(workspace: string): string {
  cpSync(inject('demoWorkspace'), workspace, { recursive: true });
  return workspace;
}
