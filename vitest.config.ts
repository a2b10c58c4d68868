import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Each conformance set is built once per run, here, and shared by every host's tests.
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Tests build real folders and start real servers; two cores are what CI has.
    maxWorkers: 2,
  },
});
