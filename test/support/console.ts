import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createTestOrg, startTestApi, type TestApi, type TestOrg } from './api.ts';
import { launchChromium, newTestPage, type PageProblems } from './browser.ts';

// What the console's browser tests share: a signed-in page of the console the local API serves
// (at its own origin, as `npm start` serves it), and the screenshots the README shows.

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// Screenshots are taken only when asked (docs/console.md): CONSOLE_SCREENSHOTS=docs writes the
// committed ones in docs/console, any other value the ignored .local/console-screenshots. A plain
// test run takes none, so it changes no tracked file and spends no time encoding full pages.
const SCREENSHOTS_ASKED = process.env.CONSOLE_SCREENSHOTS;
const SCREENSHOTS = join(REPO, SCREENSHOTS_ASKED === 'docs' ? 'docs/console' : '.local/console-screenshots');

/** Long enough for a delivery through the queues on a loaded machine. */
export const CONSOLE_WAIT_MS = 20_000;

export interface ConsolePage {
  page: Page;
  problems: PageProblems;
}

/** Opens the console at `path` (below the API's origin) and signs in with `apiKey` on the way. */
export async function openConsole(
  browser: Browser,
  apiUrl: string,
  apiKey: string,
  path = '/',
  { width = 1280 } = {},
): Promise<ConsolePage> {
  const { page, problems } = await newTestPage(browser);
  await page.setViewportSize({ width, height: 900 });
  page.setDefaultTimeout(CONSOLE_WAIT_MS);
  await page.goto(`${apiUrl}${path}`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.getByRole('navigation', { name: 'Console' }).isVisible(), { timeout: CONSOLE_WAIT_MS }).toBe(true);
  return { page, problems };
}

/**
 * On the Activity page: opens the notification of the workflow named `workflowName`. It is made
 * just after its trigger is accepted, so the page is refreshed until it is listed.
 */
export async function openListedNotification(
  page: Page,
  workflowName: string,
  poll: { timeout: number; interval?: number },
): Promise<void> {
  const listed = page.getByRole('table').getByRole('link', { name: workflowName });
  await expect
    .poll(async () => {
      if ((await listed.count()) === 0) await page.getByRole('button', { name: 'Refresh' }).click();
      return listed.count();
    }, poll)
    .toBe(1);
  await listed.click();
}

/**
 * Clicks "Create workflow" on the new-workflow form and waits for the saved workflow's editor at
 * `editPath`. The address changes before the edit form replaces the new one (the router renders
 * in a transition), so a field filled in between would go to the form about to be replaced.
 */
export async function saveNewWorkflow(page: Page, editPath: string): Promise<void> {
  await page.getByRole('button', { name: 'Create workflow' }).click();
  await expect.poll(() => new URL(page.url()).pathname, { timeout: CONSOLE_WAIT_MS }).toBe(editPath);
  await page.getByRole('button', { name: 'Save changes' }).waitFor();
}

/** A full-page screenshot of the view into <SCREENSHOTS>/<name>.png, for the README and docs, when asked. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS_ASKED) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export interface ConsoleTestStack {
  readonly browser: Browser;
  readonly api: TestApi;
  readonly org: TestOrg;
  /** `openConsole` against this stack's API: a page signed in with `apiKey`, at `path`. */
  open(apiKey: string, path?: string, options?: { width?: number }): Promise<ConsolePage>;
}

/**
 * What every console browser test starts with: Chromium, the local API and an organization,
 * started before the file's tests (and before the file's own `beforeAll`, registered after this
 * call) and closed after them. Read them through the getters, set once `beforeAll` has run.
 */
export function useConsoleTestStack(): ConsoleTestStack {
  let browser: Browser | undefined;
  let api: TestApi | undefined;
  let org: TestOrg | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The console test stack is used before its beforeAll ran');
    return value;
  };
  beforeAll(async () => {
    [browser, api] = await Promise.all([launchChromium(), startTestApi()]);
    org = await createTestOrg(api.url);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([browser?.close(), api?.close()]);
  });
  return {
    get browser() {
      return started(browser);
    },
    get api() {
      return started(api);
    },
    get org() {
      return started(org);
    },
    open: (apiKey, path, options) => openConsole(started(browser), started(api).url, apiKey, path, options),
  };
}
