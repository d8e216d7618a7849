import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // out/ built from the sources as they are, for the tests that use it.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for a state; its bound is for a state that never comes, not for a slow machine.
    expect: { poll: { timeout: 60_000 } },
    // DuckDB work is native and multi-threaded: two workers keep a 2-core machine responsive.
    maxWorkers: 2,
  },
});
