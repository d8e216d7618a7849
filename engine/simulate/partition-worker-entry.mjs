// A part's worker thread where the engine runs from its TypeScript (the tests, the benchmarks): tsx compiles it
// on the fly. The built command (out-cli/) and the app (out/main) have a built entry under this name instead.
import { register } from 'tsx/esm/api';

register();
await import('./partition-worker.ts');
