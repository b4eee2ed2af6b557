import type { TestProject } from 'vitest/node';
import type { BrowserServer } from 'playwright-core';
import { launchChromiumServer } from './chromium.ts';

// One Chromium for the browser projects: each file connects to it (launchChromium) instead of
// starting a browser of its own, a second or more per file on a loaded machine. Vitest loads this
// setup once per project that names it, each time as a module of its own: the first starts the
// browser, the last to finish closes it (as the run's stack in global-setup.ts).

interface RunChromium {
  users: number;
  started: Promise<BrowserServer>;
}
const RUN_CHROMIUM = Symbol.for('notify.testChromium');
const shared = globalThis as { [RUN_CHROMIUM]?: RunChromium };

export async function setup(project: TestProject) {
  const run = (shared[RUN_CHROMIUM] ??= { users: 0, started: launchChromiumServer() });
  run.users++;
  project.provide('chromiumEndpoint', (await run.started).wsEndpoint());
}

export async function teardown() {
  const run = shared[RUN_CHROMIUM];
  if (!run || --run.users > 0) return;
  delete shared[RUN_CHROMIUM];
  await (await run.started.catch(() => undefined))?.close();
}
