import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/slow/**', '**/node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default is one worker per core less one: a single worker on a 2-core machine.
    // The e2e tests mostly wait on git and CLI children, so three workers use both cores.
    maxWorkers: 3,
  },
});
