import { join, resolve } from 'node:path';
import { app, BrowserWindow, Menu, dialog, ipcMain } from 'electron';
import type { IpcChannel } from './ipc-channels';
import { openBridge, type Bridge } from './bridge';
import { WorkspaceHome } from '../engine/service/workspace-home';

const PRODUCT_NAME = 'Replenishment Workbench';
const INVOKE: IpcChannel = 'workbench:invoke';
const CHOOSE: IpcChannel = 'workbench:choose-workspace';

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: PRODUCT_NAME,
    webPreferences: {
      // Preload is built as CommonJS (see electron.vite.config.ts) because sandboxed
      // preloads cannot be ES modules.
      preload: join(import.meta.dirname, '../preload/preload.cjs'),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
    },
  });

  // ELECTRON_RENDERER_URL is only set by `electron-vite dev`; a packaged app must
  // never follow it even if the variable leaks into the environment.
  const devUrl = process.env.ELECTRON_RENDERER_URL;
  if (!app.isPackaged && devUrl) {
    void win.loadURL(devUrl);
  } else {
    void win.loadFile(join(import.meta.dirname, '../renderer/index.html'));
  }
  return win;
}

let bridge: Bridge | undefined;
const recentFile = () => join(app.getPath('userData'), 'recent-workspaces.json');
/** Where the Workspaces screen creates workspaces by name. */
const home = () => join(app.getPath('documents'), PRODUCT_NAME);

/** The workspace to open at start: `--workspace DIR`, else the last one used, else "default" in the home folder. */
function initialWorkspace(): string {
  const i = process.argv.indexOf('--workspace');
  if (i > 0 && process.argv[i + 1]) return resolve(process.argv[i + 1]);
  return new WorkspaceHome(home(), recentFile()).list()[0]?.path ?? join(home(), 'default');
}

async function chooseWorkspace(): Promise<string | undefined> {
  const r = await dialog.showOpenDialog({
    title: 'Open or create a workspace',
    properties: ['openDirectory', 'createDirectory'],
  });
  return r.canceled ? undefined : r.filePaths[0];
}

/** Moves the screens to a folder the user chose; the page reloads onto it. */
async function openFolder(dir: string): Promise<boolean> {
  try {
    if (bridge) await bridge.openFolder(dir);
    else bridge = await openBridge(dir, { home: home(), recentFile: recentFile(), opened: showWorkspace });
  } catch (e) {
    dialog.showErrorBox('The workspace could not be opened', `${dir}\n\n${(e as Error).message}`);
    return false;
  }
  BrowserWindow.getAllWindows()[0]?.reload();
  return true;
}

/** Each move to a workspace, from the menu or the Workspaces screen: the title and the recent menu follow. */
function showWorkspace(dir: string): void {
  BrowserWindow.getAllWindows()[0]?.setTitle(`${PRODUCT_NAME} — ${dir}`);
  if (app.isReady()) Menu.setApplicationMenu(buildMenu());
}

function buildMenu(): Menu {
  return Menu.buildFromTemplate([
    {
      label: 'File',
      submenu: [
        {
          label: 'Open workspace…',
          accelerator: 'CmdOrCtrl+O',
          click: () => void chooseWorkspace().then((d) => (d ? openFolder(d) : undefined)),
        },
        {
          label: 'Recent workspaces',
          submenu: new WorkspaceHome(home(), recentFile())
            .list()
            .map((w) => ({ label: w.path, click: () => void openFolder(w.path) })),
        },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { label: 'View', submenu: [{ role: 'reload' }, { role: 'toggleDevTools' }] },
    {
      label: 'Help',
      submenu: [
        {
          label: 'About',
          click: () => {
            void dialog.showMessageBox({
              type: 'info',
              title: `About ${PRODUCT_NAME}`,
              message: PRODUCT_NAME,
              detail: `Version ${app.getVersion()}`,
            });
          },
        },
      ],
    },
  ]);
}

// Registered before any window exists so the renderer never races an unhandled channel.
ipcMain.handle(INVOKE, (_event, request: unknown) =>
  bridge
    ? bridge.invoke(request)
    : { status: 503, body: { detail: 'No workspace is open: choose one with File › Open workspace…' } },
);
ipcMain.handle(CHOOSE, async () => {
  const dir = await chooseWorkspace();
  return dir ? openFolder(dir) : false;
});

void app.whenReady().then(async () => {
  const dir = initialWorkspace();
  try {
    bridge = await openBridge(dir, { home: home(), recentFile: recentFile(), opened: showWorkspace });
  } catch (e) {
    dialog.showErrorBox(
      'The workspace could not be opened',
      `${dir}\n\n${(e as Error).message}\n\nChoose another with File › Open workspace…`,
    );
  }
  Menu.setApplicationMenu(buildMenu());
  createWindow();
  if (bridge) showWorkspace(bridge.workspace);

  // macOS keeps the app alive without windows; re-open one when the dock icon is clicked.
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// The workspace has one owner: release it before the process ends.
app.on('will-quit', (event) => {
  if (!bridge) return;
  event.preventDefault();
  const closing = bridge;
  bridge = undefined;
  void closing.close().finally(() => app.quit());
});
