import { defineConfig } from 'vitest/config';

// One local stack (DynamoDB Local + fauxqs) for the whole run, started and stopped by the global
// setup; every test file seeds its own organization, so files run in parallel safely.
//
// The load tests (thousands of deliveries through in-process consumers, with faults) measure
// recovery, not speed, but on two cores they starve when other files run beside them: their
// consumers fall behind their own redeliveries. `npm test` runs them after the rest, one file at
// a time (vitest.load.config.ts), each run with its own emulators.
export const LOAD_TESTS = ['test/integration/large-audience.test.ts', 'test/integration/faults.test.ts'];

export const shared = {
  pool: 'forks' as const,
  globalSetup: ['test/support/global-setup.ts'],
  setupFiles: ['test/support/worker-env.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: { ...shared, include: ['test/**/*.test.ts'], exclude: ['**/node_modules/**', ...LOAD_TESTS] },
});
