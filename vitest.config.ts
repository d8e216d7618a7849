import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A poll waits for a state, not a time: on a busy machine the state can take longer than the default second.
    expect: { poll: { timeout: 30_000 } },
    // DuckDB work is native and multi-threaded: two workers keep a 2-core machine responsive.
    maxWorkers: 2,
  },
});
