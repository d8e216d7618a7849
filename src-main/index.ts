import { join } from 'node:path';
import { app, BrowserWindow, Menu, dialog, ipcMain } from 'electron';
import type { InvokeResult, IpcChannel } from './ipc-channels';

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

function buildMenu(): Menu {
  return Menu.buildFromTemplate([
    { label: 'File', submenu: [{ role: 'quit' }] },
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
// The workbench services are wired in later; until then every call fails softly.
ipcMain.handle(INVOKE, (): InvokeResult => ({ ok: false, error: 'not available yet' }));

void app.whenReady().then(() => {
  Menu.setApplicationMenu(buildMenu());
  createWindow();

  // macOS keeps the app alive without windows; re-open one when the dock icon is clicked.
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
