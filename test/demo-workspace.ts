/** samples/demo in a workspace, as `workbench load` leaves it: a copy of the one the suite's global setup loaded. */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';

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

/**
 * A copy of the demo for the tests of one file, at `ws` in a temporary folder `dir` (which holds their other files
 * too): copied before the file's tests start, removed with the folder after they end.
 */
export function demoForFile(prefix: string): { dir: string; ws: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const ws = join(dir, 'ws');
  beforeAll(() => {
    demoWorkspace(ws);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, ws };
}
