import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/longest-first.js';

export default defineConfig({
  test: {
    // Component tests (.tsx) name the DOM they run in at their top (`// @vitest-environment happy-dom`): every other
    // file runs in Node, without a DOM to set up.
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // out/ built from the sources as they are, the workbench command bundled, samples/demo loaded: once per run.
    globalSetup: ['test/global-setup.ts'],
    // Bounds for a test or hook that hangs, sized for a 2-core machine busy with other work as well: a test waits
    // for states, never for a time, so a bound only ends one that would never finish.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // expect.poll waits for a state; its bound is for a state that never comes, not for a slow machine.
    expect: { poll: { timeout: 60_000 } },
    // DuckDB work is native and multi-threaded: two workers keep a 2-core machine responsive.
    maxWorkers: 2,
    // The longest files first, so that the two workers end together.
    sequence: { sequencer: LongestFirst },
  },
});
