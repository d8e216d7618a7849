// The only channels the preload may forward. Keeping the list here lets main and
// preload share one source of truth, so the renderer can never name a raw channel.
export const IPC_CHANNELS = ['workbench:invoke', 'workbench:choose-workspace'] as const;

export type IpcChannel = (typeof IPC_CHANNELS)[number];
