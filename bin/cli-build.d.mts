// Types of cli-build.mjs, which is plain JavaScript: it runs before anything could compile TypeScript.
export declare const CLI_DIR: string;
export declare const CLI_BIN: string;
export declare const CLI_ENTRIES: Record<string, string>;
export declare function bundleOptions(
  entryPoints: Record<string, string>,
  outdir: string,
): import('esbuild').BuildOptions;
export declare function writeBundle(outputFiles: { path: string; contents: Uint8Array }[], outdir: string): void;
export declare function cliIsCurrent(): boolean;
export declare function buildCli(): Promise<void>;
export declare function currentCli(): Promise<string>;
