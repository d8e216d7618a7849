/**
 * The app's desk: the one workspace its screens work on, switching to another (created or opened by name in
 * the home folder), and the local API it can start and stop for an integrator's client. Browser mode and the
 * desktop app both keep one; what answers the screens (a listening server, or an app answered in process) is
 * theirs to build.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { RequestRejected } from '../model/problems.js';
import { DATABASE_FILE } from '../store/workspace.js';
import { Workbench } from '../service/workbench.js';
import type { WorkspaceEntry, WorkspaceHome } from '../service/workspace-home.js';
import type { DeskControls, ListenerStatus, SwitchRequest, WorkspacesView } from './desk-controls.js';
import { tokenRequestCurl } from './auth.js';
import { DEFAULT_CLIENT_ID, DEFAULT_TENANT, listen, workspaceSecret, type Listening } from './serve.js';

export type { DeskControls, ListenerStatus, WorkspacesView };

/** What answers the screens on one workspace. */
export interface Front {
  app: FastifyInstance;
  close(): Promise<void>;
}

export interface DeskOptions {
  home: WorkspaceHome;
  tenant?: string;
  /** Builds what answers the screens on an open workbench. */
  front(wb: Workbench, desk: Desk): Promise<Front>;
}

const LOOPBACK = '127.0.0.1';

export class Desk implements DeskControls {
  /** The screens' key: it stays valid across workspace switches, so a switch needs no new sign-in. */
  readonly sessionToken = randomBytes(32).toString('base64url');
  readonly tenant: string;
  private wb!: Workbench;
  private frontApp!: Front;
  private api?: Listening;
  private apiTenant: string;
  /** A switch is opening its workspace or waiting to go ahead: another is refused meanwhile. */
  private switchPending = false;
  /** Lets a queued switch go ahead. */
  private pendingGo?: () => void;
  private steps: Promise<unknown> = Promise.resolve();

  private constructor(private readonly options: DeskOptions) {
    this.tenant = options.tenant ?? DEFAULT_TENANT;
    this.apiTenant = this.tenant;
  }

  static async open(dir: string, options: DeskOptions): Promise<Desk> {
    const desk = new Desk(options);
    await desk.mount(await Workbench.open(dir));
    return desk;
  }

  get workbench(): Workbench {
    return this.wb;
  }

  get front(): Front {
    return this.frontApp;
  }

  /** Settles once the switches and listener changes asked for are done (calls made meanwhile wait for them). */
  ready(): Promise<void> {
    return this.steps.then(() => undefined);
  }

  private async mount(wb: Workbench): Promise<void> {
    try {
      this.frontApp = await this.options.front(wb, this);
    } catch (e) {
      await wb.close();
      throw e;
    }
    this.wb = wb;
    this.options.home.opened(wb.dir);
  }

  workspaces(): WorkspacesView {
    const path = this.wb.dir;
    const workspaces = this.options.home.list();
    const current = workspaces.find((w) => w.path === path) ?? { name: basename(path), path };
    return { home: this.options.home.dir, current: { ...current, tenant: this.tenant }, workspaces };
  }

  async prepareSwitch(r: SwitchRequest): Promise<{ entry: WorkspaceEntry; go: () => void }> {
    const create = r.create;
    const path = create ? this.options.home.pathOf(r.name) : this.options.home.resolve(r);
    const exists = existsSync(join(path, DATABASE_FILE));
    if (create && exists)
      throw new RequestRejected(`a workspace named "${basename(path)}" exists already: open it instead`, 409);
    if (!create && !exists)
      throw new RequestRejected(`there is no workspace "${basename(path)}" in ${this.options.home.dir}`, 404);
    const next = await this.openNext(
      path,
      (e) => new RequestRejected(`the workspace "${basename(path)}" could not be opened: ${e.message}`, 409),
    );
    return { entry: { name: basename(next.dir), path: next.dir }, go: this.queueSwitch(next) };
  }

  /** A folder the user chose in the desktop app's own dialog: trusted as a path, and made a workspace when empty. */
  async openFolder(path: string): Promise<void> {
    await this.ready();
    if (realpathOrSelf(path) === this.wb.dir) return;
    this.queueSwitch(await this.openNext(path, (e) => e))();
    await this.ready();
  }

  /** Opens the workspace to move to; one switch at a time, and none to the workspace open now. */
  private async openNext(path: string, failed: (e: Error) => Error): Promise<Workbench> {
    if (realpathOrSelf(path) === this.wb.dir)
      throw new RequestRejected(`"${basename(path)}" is the workspace open now`, 409);
    if (this.switchPending) throw new RequestRejected('another workspace is being opened: wait a moment', 409);
    this.switchPending = true;
    try {
      return await Workbench.open(path);
    } catch (e) {
      this.switchPending = false;
      throw failed(e as Error);
    }
  }

  /**
   * Queues the move to `next`, to go ahead when the returned function is called (once the answer to the request
   * that asked for it is out, or the asker has gone). Calls waiting for `ready()` are answered by `next`.
   */
  private queueSwitch(next: Workbench): () => void {
    let go!: () => void;
    const asked = new Promise<void>((resolve) => (go = resolve));
    this.pendingGo = go;
    void this.step(async () => {
      await asked;
      try {
        // The local API served the old workspace: it stops with it rather than answer for the new one unasked.
        await this.stopApi();
        await this.frontApp.close();
        const left = this.wb.dir;
        await this.wb.close();
        try {
          await this.mount(next);
        } catch (e) {
          // The screens keep a workspace: back to the one they left.
          console.error(`the workspace ${next.dir} could not be served: ${(e as Error).message}`);
          await this.mount(await Workbench.open(left));
        }
      } finally {
        this.switchPending = false;
        this.pendingGo = undefined;
      }
    });
    return go;
  }

  /** Switches and the local API's starts and stops, one at a time in the order asked. */
  private step<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.steps.then(fn);
    this.steps = run.catch(() => undefined);
    return run;
  }

  listener(): ListenerStatus {
    const info = this.api?.info;
    if (!info) return { listening: false, tenant: this.apiTenant, clientId: DEFAULT_CLIENT_ID };
    return {
      listening: true,
      url: info.url,
      tenant: info.tenant,
      clientId: info.clientId,
      clientSecret: info.clientSecret,
      curl: tokenRequestCurl(info.url, info),
    };
  }

  async startListener(request: { port: number; tenant?: string }): Promise<ListenerStatus> {
    const port = request.port;
    const tenant = request.tenant ?? this.tenant;
    // After any switch asked for before it: the API serves the workspace the screens show.
    return this.step(async () => {
      if (this.api)
        throw new RequestRejected(`the local API already listens at ${this.api.info.url}: stop it first`, 409);
      // Loopback only: the app never offers the workspace to the network.
      this.api = await listen(this.wb, {
        port,
        host: LOOPBACK,
        tenant,
        clientId: DEFAULT_CLIENT_ID,
        clientSecret: await workspaceSecret(this.wb),
      });
      this.apiTenant = tenant;
      return this.listener();
    });
  }

  stopListener(): Promise<ListenerStatus> {
    return this.step(async () => {
      await this.stopApi();
      return this.listener();
    });
  }

  private async stopApi(): Promise<void> {
    const api = this.api;
    this.api = undefined;
    await api?.stop();
  }

  /** Stops the local API and closes the workspace (a switch asked for goes ahead first). */
  async close(): Promise<void> {
    this.pendingGo?.();
    await this.ready();
    await this.stopApi();
    await this.frontApp.close();
    await this.wb.close();
  }
}

/** The same folder, however the path reaches it (a workspace's own path is its real path). */
function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
