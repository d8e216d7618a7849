// A part's worker thread: tsx compiles the TypeScript on the fly, as bin/workbench.mjs does.
import { register } from 'tsx/esm/api';

register();
await import('./partition-worker.ts');
