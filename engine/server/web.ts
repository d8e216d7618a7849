/**
 * Browser mode (`workbench web`): the screens and the admin API on one port, over the desk's workspace. A
 * workspace switch serves the next workspace on the same address, and the page's session key stays valid.
 */
import { dirname, resolve } from 'node:path';
import { WorkspaceHome } from '../service/workspace-home.js';
import { Desk } from './desk.js';
import { listen } from './serve.js';

export interface WebOptions {
  workspace: string;
  /** Where workspaces are created and listed (default: the folder holding `workspace`). */
  home?: string;
  port: number;
  host?: string;
  /** The built renderer (out/renderer). */
  uiRoot: string;
}

export interface WebServer {
  desk: Desk;
  /** The address with the session key, to open in a browser. */
  openUrl: string;
  url: string;
  stop(): Promise<void>;
}

export async function startWeb(options: WebOptions): Promise<WebServer> {
  let port = options.port;
  let url = '';
  const desk = await Desk.open(options.workspace, {
    home: new WorkspaceHome(options.home ?? dirname(resolve(options.workspace))),
    front: async (wb, d) => {
      const served = await listen(wb, {
        port,
        host: options.host,
        uiRoot: options.uiRoot,
        desk: d,
        sessionToken: d.sessionToken,
        discoverable: true,
      });
      // The next workspace is served where the page already is.
      port = Number(new URL(served.info.url).port);
      url = served.info.url;
      return { app: served.app, close: served.stop };
    },
  });
  return {
    desk,
    url,
    openUrl: `${url}/#tenant=${encodeURIComponent(desk.tenant)}&token=${desk.sessionToken}`,
    stop: () => desk.close(),
  };
}
