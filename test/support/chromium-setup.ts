import type { TestProject } from 'vitest/node';
import { launchChromiumServer } from './chromium.ts';
import { runResource } from './run-resource.ts';

// One Chromium for the browser projects: each file connects to it (launchChromium) instead of
// starting a browser of its own, a second or more per file on a loaded machine.
const runChromium = runResource('testChromium', launchChromiumServer);

export async function setup(project: TestProject) {
  project.provide('chromiumEndpoint', (await runChromium.acquire()).wsEndpoint());
}

export async function teardown() {
  const server = await runChromium.release()?.catch(() => undefined);
  await server?.close();
}
