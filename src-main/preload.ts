import { contextBridge, ipcRenderer } from 'electron';
import type { IpcChannel } from './ipc-channels';

// One fixed channel: the renderer sends a call to the admin API, never an IPC channel name,
// so a compromised page cannot reach handlers that were not meant for it (main checks the call too).
const INVOKE: IpcChannel = 'workbench:invoke';

contextBridge.exposeInMainWorld('workbench', {
  invoke(request: { method: string; path: string; body?: unknown }): Promise<unknown> {
    return ipcRenderer.invoke(INVOKE, request);
  },
});
