/** The tenant and client id a server takes unless told: in a module of their own, read by the command's help. */
export const DEFAULT_TENANT = 'DEMO';
export const DEFAULT_CLIENT_ID = 'workbench';
