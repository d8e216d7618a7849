import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { sourcesHash, STAMP } from './build-stamp';

// Paths are anchored to this file so the build does not depend on the caller's cwd.
const here = import.meta.dirname;

/** What this build reads, taken as it starts; left in out/ once the last part (the renderer) is written. */
const sources = sourcesHash();
const stamp: Plugin = {
  name: 'sources-stamp',
  apply: 'build',
  closeBundle: () => writeFileSync(STAMP, sources),
};

export default defineConfig({
  main: {
    build: {
      // package.json dependencies are already external by default; listing the DuckDB
      // binding keeps its native .node file out of the bundle even if it ever moves
      // to devDependencies.
      externalizeDeps: { include: ['@duckdb/node-api'] },
      rolldownOptions: {
        input: {
          index: resolve(here, 'src-main/index.ts'),
          // Also its own entry, so the tests can drive the built app's service path in plain Node.
          bridge: resolve(here, 'src-main/bridge.ts'),
          // The backtest's worker threads, built beside index.js under the names the engine asks for
          // (`new URL('./worker-entry.mjs', import.meta.url)`); in the sources they are tsx entries.
          'worker-entry': resolve(here, 'engine/simulate/worker.ts'),
          'partition-worker-entry': resolve(here, 'engine/simulate/partition-worker.ts'),
        },
        output: { entryFileNames: (chunk) => (chunk.name === 'index' ? '[name].js' : '[name].mjs') },
      },
    },
  },
  preload: {
    build: {
      rolldownOptions: {
        input: { preload: resolve(here, 'src-main/preload.ts') },
        // Sandboxed preloads cannot be ES modules, so this one stays CommonJS
        // even though package.json says "type": "module" (emitted as preload.cjs).
        output: { format: 'cjs' },
      },
    },
  },
  renderer: {
    root: resolve(here, 'src-renderer'),
    plugins: [react(), stamp],
    build: {
      // Minified: the first screen's download is React and the screen itself, not the libraries' comments.
      minify: true,
      rolldownOptions: {
        input: resolve(here, 'src-renderer/index.html'),
      },
    },
  },
});
