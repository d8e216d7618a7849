/**
 * Where the app's workspaces live: a home folder whose sub-folders are workspaces, and the list of those
 * opened lately. A caller names a workspace; it never hands in a path, so no name reaches outside the home
 * folder. A folder elsewhere is reached only once the user chose it in the desktop app's own folder dialog,
 * after which it is on the recent list and can be opened again by its path.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { RequestRejected } from '../model/problems.js';
import { DATABASE_FILE } from '../store/workspace.js';

/** Letters, digits, ".", "-", "_"; not "." or "..": a single folder name, never a path. */
export const WORKSPACE_NAME = /^(?!\.{1,2}$)[\w.-]{1,80}$/;
const RECENT_KEPT = 10;

export interface WorkspaceEntry {
  name: string;
  path: string;
  /** When the app last opened it (ISO), if it did. */
  lastOpened?: string;
}

interface Recent {
  path: string;
  at: string;
}

export class WorkspaceHome {
  readonly dir: string;

  constructor(
    dir: string,
    private readonly recentFile = join(dir, 'recent-workspaces.json'),
  ) {
    // The real path, as a workspace knows its own: a home reached through a symbolic link names each workspace once.
    mkdirSync(dir, { recursive: true });
    this.dir = realpathSync(resolve(dir));
  }

  /** A workspace under the home folder by its name, refused with the rule when the name is not a plain folder name. */
  pathOf(name: unknown): string {
    if (typeof name !== 'string' || !WORKSPACE_NAME.test(name)) {
      throw new RequestRejected(
        `a workspace name is 1 to 80 letters, digits, ".", "-" or "_" ` +
          `(got ${JSON.stringify(typeof name === 'string' ? name.slice(0, 100) : name)})`,
      );
    }
    return join(this.dir, name);
  }

  /**
   * The folder a request names: a workspace in the home folder (by name or path), or one on the recent list
   * by its exact path.
   */
  resolve(request: { name?: unknown; path?: unknown }): string {
    if (request.path !== undefined) {
      // By the real path, as a workspace knows its own: a link to a known folder is that folder.
      const path =
        typeof request.path === 'string' && existsSync(request.path) ? realpathSync(request.path) : undefined;
      if (
        path &&
        (this.recent().some((r) => r.path === path) ||
          (WORKSPACE_NAME.test(basename(path)) && path === join(this.dir, basename(path))))
      )
        return path;
      throw new RequestRejected(
        'only a workspace opened before can be opened by its path; name one in the home folder instead',
      );
    }
    return this.pathOf(request.name);
  }

  /** The workspaces of the home folder and those opened lately elsewhere, the latest first. */
  list(): WorkspaceEntry[] {
    const opened = new Map(this.recent().map((r) => [r.path, r.at]));
    const paths = new Set(opened.keys());
    if (existsSync(this.dir)) {
      for (const e of readdirSync(this.dir, { withFileTypes: true })) {
        if (e.isDirectory() && existsSync(join(this.dir, e.name, DATABASE_FILE))) paths.add(join(this.dir, e.name));
      }
    }
    const real = new Set([...paths].filter((p) => existsSync(join(p, DATABASE_FILE))).map((p) => realpathSync(p)));
    return [...real]
      .map((path) => ({ name: basename(path), path, lastOpened: opened.get(path) }))
      .sort((a, b) => (b.lastOpened ?? '').localeCompare(a.lastOpened ?? '') || a.name.localeCompare(b.name));
  }

  /** Puts a workspace first on the recent list. */
  opened(path: string, at = new Date().toISOString()): void {
    const kept = [{ path, at }, ...this.recent().filter((r) => r.path !== path)].slice(0, RECENT_KEPT);
    mkdirSync(dirname(this.recentFile), { recursive: true });
    writeFileSync(this.recentFile, JSON.stringify(kept, null, 2));
  }

  /** The recent list, the latest first; a missing or unreadable file is an empty list. */
  recent(): Recent[] {
    try {
      const raw = JSON.parse(readFileSync(this.recentFile, 'utf8')) as unknown;
      return Array.isArray(raw)
        ? raw.filter((r): r is Recent => typeof r?.path === 'string' && typeof r?.at === 'string')
        : [];
    } catch {
      return [];
    }
  }
}
