// A partition process's entry where the engine runs from its TypeScript (the tests, the benchmarks): tsx compiles
// it on the fly. The built command (out-cli/) has a built entry under this name instead.
import { register } from 'tsx/esm/api';

register();
await import('./partition-child.ts');
