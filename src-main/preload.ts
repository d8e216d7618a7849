import { contextBridge, ipcRenderer } from 'electron';
import type { IpcChannel } from './ipc-channels';

// One fixed channel: the renderer picks a method name, never an IPC channel,
// so a compromised page cannot reach handlers that were not meant for it.
const INVOKE: IpcChannel = 'workbench:invoke';

contextBridge.exposeInMainWorld('workbench', {
  invoke(method: string, ...args: unknown[]): Promise<unknown> {
    return ipcRenderer.invoke(INVOKE, method, ...args);
  },
});
