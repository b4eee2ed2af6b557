import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { LOAD_PROJECT, loadSequencer } from './test/support/load-sequencer.ts';

// Seven projects: `unit` (no emulators: seconds, `npm run test:unit`); `integration` and `isolated`
// (integration files that need fresh modules, below); `route-walks` (the two integration files that
// walk every route, below); `browser` and `browser-isolated` (the same split of the browser files,
// which share one Chromium) — all five against the one local stack, DynamoDB Local + fauxqs, that
// the global setup starts for the run; and `load`, whose files start stacks of their own (the
// global setup gives it the log capture and no stack).
//
// Files run four at a time. Each integration file seeds its own organization, so files do not see
// one another's data; most of a file's time is spent waiting on queues and timers, not on the CPU,
// so on two cores four workers keep the machine busy where one left it two-thirds idle.
//
// The load tests (thousands of deliveries through in-process consumers, with faults) measure
// recovery, not speed, but on two cores they starve when the rest of the suite runs beside them:
// their consumers fall behind their own redeliveries. `npm test` (test/run-suite.ts) runs them
// after the rest, in a run of their own, with only the unit files and the route walks (below)
// beside them at a lower priority; a plain `npx vitest run` runs them last too (groupOrder). Two
// at a time, in this order (loadSequencer): test/load/bench.test.ts (`npm run bench` at smoke
// sizes in a process and stack of its own, asserting only that every section completes) beside
// the fault file, then the large audience in the worker that frees first, which is the fault
// file's (it ends two minutes before the smoke run here). The two files with fault stacks (short
// visibility timeouts, consumers on short budgets) starved each other side by side. All three at
// once kept both cores busy from the start and starved the unit files beside them at nice 10: two
// of them timed out (docs/performance.md, "The emulators' compiler").
export const LOAD_TESTS = ['test/load/bench.test.ts', 'test/integration/faults.test.ts', 'test/integration/large-audience.test.ts'];

// The two files that walk every route of the route table (another scope's ids; bad input): about
// 2,000 and 2,000–10,000 requests, each answer checked, none waited for against a clock. Their own
// project (`route-walks`), so that `npm test` can run them beside the load files with the unit
// files, in the CPU those leave while they wait out visibility timeouts (test/run-suite.ts).
export const ROUTE_WALKS = ['test/integration/tenant-isolation.test.ts', 'test/integration/bad-input.property.test.ts'];
export const ROUTE_WALKS_PROJECT = 'route-walks';

/** The files that need no emulators (package.json's `test:unit` names it too). */
export const UNIT_PROJECT = 'unit';

const WORKERS = 4;

// Integration and browser files share their workers' loaded modules (`isolate: false`): the route
// table's handlers, the SDK and the test support are imported once per worker instead of once per
// file (vitest counted 227–272 s of import time summed over a main pass, 172 s with this; the
// browser files alone 70 → 13–19 s). What a file sets in `process.env` is undone after it
// (test/support/worker-env.ts), which is enough for what the service reads at each call; but a
// file that writes `process.env` may be configuring what a module reads once at load (a rate limit,
// the KMS key), and a file that starts a local stack of its own (test/support/own-stack.ts) points
// the worker's SDK clients at its table, queues or emulators. Those files run in fresh workers, as
// every file did before: found from their source, so a new file is placed by what it does.
const WRITES_ENV_OR_STARTS_A_STACK =
  /process\.env(\.\w+|\[[^\]]+\])\s*(=[^=]|\?\?=)|delete process\.env|Object\.assign\(process\.env|startOwnStack|startFaultStack/;
function needFreshWorkers(dir: string): string[] {
  const folder = new URL(`${dir}/`, import.meta.url);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.test.ts') && ![...LOAD_TESTS, ...ROUTE_WALKS].includes(`${dir}/${name}`))
    .filter((name) => WRITES_ENV_OR_STARTS_A_STACK.test(readFileSync(new URL(name, folder), 'utf8')))
    .map((name) => `${dir}/${name}`);
}
export const ISOLATED_TESTS = needFreshWorkers('test/integration');
const ISOLATED_BROWSER_TESTS = needFreshWorkers('test/browser');

/** The projects `npm test` runs beside the load files, at a lower priority (test/run-suite.ts). */
export const BESIDE_LOAD_PROJECTS: readonly string[] = [UNIT_PROJECT, ROUTE_WALKS_PROJECT];
// There a case or hook gets a twentieth of a core or less while the load files want both: still a
// bound on a hang, but one that fits that. Cases of 2–3 s alone (two stacks synthesized, the
// providers' imports) outran 60 and 120 s there in CI, and the route walks' setup hook 60 s on
// this machine.
const BESIDE_LOAD_BOUND = { testTimeout: 600_000, hookTimeout: 600_000 };
const boundedBesideLoad = (project: TestProjectInlineConfiguration): TestProjectInlineConfiguration =>
  typeof project.test?.name === 'string' && BESIDE_LOAD_PROJECTS.includes(project.test.name)
    ? { ...project, test: { ...project.test, ...BESIDE_LOAD_BOUND } }
    : project;

const withStack = {
  pool: 'forks' as const,
  globalSetup: ['test/support/global-setup.ts'],
  setupFiles: ['test/support/worker-env.ts'],
};

const withBrowser = {
  ...withStack,
  globalSetup: [...withStack.globalSetup, 'test/support/chromium-setup.ts'],
  // A page answers a click in milliseconds alone, in seconds beside three other files on two
  // cores: expect.poll waits up to 10 s (vitest's default is 1 s) unless a call says.
  expect: { poll: { timeout: 10_000 } },
};

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    sequence: { sequencer: loadSequencer(LOAD_TESTS) },
    // A bound on a hang, not on speed: on two loaded cores (CI runs four files at once) a
    // request-heavy case can take tens of seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: (
      [
        {
          extends: true,
          // Threads start faster than processes, and no unit file needs a process of its own.
          test: {
            name: UNIT_PROJECT,
            include: ['test/unit/**/*.test.ts'],
            pool: 'threads',
            globalSetup: ['test/support/unit-setup.ts'],
          },
        },
        {
          extends: true,
          test: {
            name: 'integration',
            include: ['test/integration/**/*.test.ts'],
            exclude: [...LOAD_TESTS, ...ISOLATED_TESTS, ...ROUTE_WALKS],
            ...withStack,
            isolate: false,
          },
        },
        {
          extends: true,
          test: { name: ROUTE_WALKS_PROJECT, include: ROUTE_WALKS, ...withStack, isolate: false },
        },
        {
          extends: true,
          test: { name: 'isolated', include: ISOLATED_TESTS, ...withStack },
        },
        {
          extends: true,
          test: {
            name: 'browser',
            include: ['test/browser/**/*.test.ts'],
            exclude: ISOLATED_BROWSER_TESTS,
            ...withBrowser,
            isolate: false,
          },
        },
        {
          extends: true,
          test: { name: 'browser-isolated', include: ISOLATED_BROWSER_TESTS, ...withBrowser },
        },
        {
          extends: true,
          test: {
            name: LOAD_PROJECT,
            include: LOAD_TESTS,
            ...withStack,
            maxWorkers: 2,
            // The fault file's seven cases that keep failing until the last receive, all at once: each
            // refuses only its own transaction's requests but waits for every queue to drain, so in
            // vitest's groups of five the last two waited through a second round of five receives.
            maxConcurrency: 8,
            sequence: { groupOrder: 1 },
          },
        },
      ] satisfies TestProjectInlineConfiguration[]
    ).map(boundedBesideLoad),
  },
});
