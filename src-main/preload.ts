import { contextBridge, ipcRenderer } from 'electron';
import type { IpcChannel } from './ipc-channels';

// One fixed channel: the renderer sends a call to the admin API, never an IPC channel name,
// so a compromised page cannot reach handlers that were not meant for it (main checks the call too).
const INVOKE: IpcChannel = 'workbench:invoke';
const CHOOSE: IpcChannel = 'workbench:choose-workspace';

contextBridge.exposeInMainWorld('workbench', {
  invoke(request: { method: string; path: string; body?: unknown; accept?: 'arrow' }): Promise<unknown> {
    return ipcRenderer.invoke(INVOKE, request);
  },
  /** The app's folder dialog; the page reloads onto the chosen workspace. */
  chooseWorkspace(): Promise<boolean> {
    return ipcRenderer.invoke(CHOOSE);
  },
});
