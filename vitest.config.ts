import { defineConfig } from 'vitest/config';

// One local stack (DynamoDB Local + fauxqs) for the whole run, started and stopped by the global
// setup; every test file seeds its own organization, so files run in parallel safely.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/worker-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
