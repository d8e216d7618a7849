// A partition process's entry: tsx compiles the TypeScript on the fly, as bin/workbench.mjs does.
import { register } from 'tsx/esm/api';

register();
await import('./partition-child.ts');
