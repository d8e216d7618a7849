#!/usr/bin/env node
// The CLI is written in TypeScript; tsx compiles it on the fly so no build step stands between `npm ci` and use.
import { register } from 'tsx/esm/api';

register();
await import('../engine/cli.ts');
