import type { TestProject } from 'vitest/node';
import type { BrowserServer } from 'playwright-core';
import { launchChromiumServer } from './chromium.ts';

// One Chromium for the browser project: each file connects to it (launchChromium) instead of
// starting a browser of its own, a second or more per file on a loaded machine.
let server: BrowserServer | undefined;

export async function setup(project: TestProject) {
  server = await launchChromiumServer();
  project.provide('chromiumEndpoint', server.wsEndpoint());
}

export async function teardown() {
  await server?.close();
}
