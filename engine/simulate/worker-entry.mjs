// The worker's entry: tsx compiles the TypeScript worker on the fly, as bin/workbench.mjs does for the CLI.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
