import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newTestPage, type PageProblems } from './browser.ts';

// What the console's browser tests share: a signed-in page of the console the local API serves
// (at its own origin, as `npm start` serves it), and the screenshots the README shows.

const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/console');

/** Long enough for a delivery through the queues on a loaded machine. */
export const CONSOLE_WAIT_MS = 20_000;

export interface ConsolePage {
  page: Page;
  problems: PageProblems;
}

/** Opens the console at `path` (below the API's origin) and signs in with `apiKey` on the way. */
export async function openConsole(browser: Browser, apiUrl: string, apiKey: string, path = '/', { width = 1280 } = {}): Promise<ConsolePage> {
  const { page, problems } = await newTestPage(browser);
  await page.setViewportSize({ width, height: 900 });
  page.setDefaultTimeout(CONSOLE_WAIT_MS);
  await page.goto(`${apiUrl}${path}`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.getByRole('navigation', { name: 'Console' }).isVisible(), { timeout: CONSOLE_WAIT_MS }).toBe(true);
  return { page, problems };
}

/** A full-page screenshot of the view into docs/console/<name>.png, for the README and docs. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
