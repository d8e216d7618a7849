// A partition worker's entry: tsx compiles the TypeScript worker on the fly, as bin/workbench.mjs does.
import { register } from 'tsx/esm/api';

register();
await import('./partition-worker.ts');
