// Optional: the preload only exists inside Electron, and the renderer will also be
// served to a plain browser, where callers must feature-check before invoking.
interface Window {
  workbench?: {
    invoke(method: string, ...args: unknown[]): Promise<unknown>;
  };
}
