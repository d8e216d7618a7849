#!/usr/bin/env node
// The command runs as built JavaScript (out-cli/), built here first when missing or older than its sources
// (bin/cli-build.mjs), so no build step stands between `npm ci` and use and no start compiles TypeScript.
import { pathToFileURL } from 'node:url';
import { currentCli } from './cli-build.mjs';

await import(pathToFileURL(await currentCli()).href);
