import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { app, BrowserWindow, Menu, dialog, ipcMain } from 'electron';
import type { IpcChannel } from './ipc-channels';
import { openBridge, type Bridge } from './bridge';

const PRODUCT_NAME = 'Replenishment Workbench';
const INVOKE: IpcChannel = 'workbench:invoke';

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

function recentWorkspaces(): string[] {
  try {
    return (JSON.parse(readFileSync(recentFile(), 'utf8')) as string[]).filter((d) => existsSync(d));
  } catch {
    return [];
  }
}

/** The workspace to open at start: `--workspace DIR`, else the last one used, else the user's choice. */
async function initialWorkspace(): Promise<string | undefined> {
  const i = process.argv.indexOf('--workspace');
  if (i > 0 && process.argv[i + 1]) return resolve(process.argv[i + 1]);
  return recentWorkspaces()[0] ?? chooseWorkspace();
}

async function chooseWorkspace(): Promise<string | undefined> {
  const r = await dialog.showOpenDialog({ title: 'Open or create a workspace', properties: ['openDirectory', 'createDirectory'] });
  return r.canceled ? undefined : r.filePaths[0];
}

/** One workspace open at a time: the old one is closed (and released) before the new one is owned. */
async function openWorkspace(dir: string, win?: BrowserWindow): Promise<void> {
  await bridge?.close();
  bridge = undefined;
  try {
    bridge = await openBridge(dir);
  } catch (e) {
    dialog.showErrorBox('The workspace could not be opened', `${dir}\n\n${(e as Error).message}`);
    return;
  }
  writeFileSync(recentFile(), JSON.stringify([bridge.workspace, ...recentWorkspaces().filter((d) => d !== bridge!.workspace)].slice(0, 10)));
  win?.setTitle(`${PRODUCT_NAME} — ${bridge.workspace}`);
  win?.reload();
  Menu.setApplicationMenu(buildMenu());
}

function buildMenu(): Menu {
  const win = () => BrowserWindow.getAllWindows()[0];
  return Menu.buildFromTemplate([
    {
      label: 'File',
      submenu: [
        { label: 'Open workspace…', accelerator: 'CmdOrCtrl+O', click: () => void chooseWorkspace().then((d) => (d ? openWorkspace(d, win()) : undefined)) },
        { label: 'Recent workspaces', submenu: recentWorkspaces().map((d) => ({ label: d, click: () => void openWorkspace(d, win()) })) },
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
  bridge ? bridge.invoke(request) : { status: 503, body: { detail: 'No workspace is open: choose one with File › Open workspace…' } });

void app.whenReady().then(async () => {
  const dir = await initialWorkspace();
  if (dir) await openWorkspace(dir);
  Menu.setApplicationMenu(buildMenu());
  const win = createWindow();
  if (bridge) win.setTitle(`${PRODUCT_NAME} — ${bridge.workspace}`);

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
