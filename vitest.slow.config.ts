import { defineConfig } from 'vitest/config';

// The slow suites: real servers, hook managers, agent CLIs, fleets and full disks.
// `npm run test:slow` runs them; `.ci/run` runs them after `npm test`.
export default defineConfig({
  test: {
    include: ['test/slow/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
    // Real agent CLIs, servers and fault proxies on a shared machine: one retry, and vitest
    // still reports a test that needed it as flaky.
    retry: 1,
  },
});
