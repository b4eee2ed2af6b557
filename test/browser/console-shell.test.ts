import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, startTestApi, type TestApi, type TestOrg } from '../support/api.ts';
import { launchChromium, newTestPage } from '../support/browser.ts';
import { CONSOLE_WAIT_MS, openConsole } from '../support/console.ts';

// The console's frame in a real browser: served by the API at `/`, signed in with an API key
// kept in the tab, an environment switcher asking for the other environment's key.

let browser: Browser;
let api: TestApi;
let org: TestOrg;

beforeAll(async () => {
  [browser, api] = await Promise.all([launchChromium(), startTestApi()]);
  org = await createTestOrg(api.url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

describe('console frame', () => {
  it('signs in with an API key and opens the environment’s activity', async () => {
    const { page, problems } = await openConsole(browser, api.url, org.dev.apiKey);
    await expect.poll(() => page.url()).toContain(`/console/env/${org.dev.id}/activity`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toContain('Activity');
    expect(problems.errors).toEqual([]);
  });

  it('refuses a wrong key with the API’s message and stays on sign-in', async () => {
    const { page } = await newTestPage(browser);
    page.setDefaultTimeout(CONSOLE_WAIT_MS);
    await page.goto(`${api.url}/`);
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('401');
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
  });

  it('switching environment asks for that environment’s key, then shows it', async () => {
    const { page } = await openConsole(browser, api.url, org.dev.apiKey);
    await page.getByLabel('Environment').selectOption({ label: 'Production' });
    await expect.poll(() => page.url()).toContain(`/console/env/${org.prod.id}/activity`);
    await page.getByLabel('API key of Production').fill(org.prod.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toContain('Activity');
  });
});
