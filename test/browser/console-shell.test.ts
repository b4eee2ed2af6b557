import { describe, expect, it } from 'vitest';
import { newTestPage } from '../support/browser.ts';
import { CONSOLE_WAIT_MS, useConsoleTestStack } from '../support/console.ts';

// The console's frame in a real browser: served by the API at `/`, signed in with an API key
// kept in the tab, an environment switcher asking for the other environment's key.

const stack = useConsoleTestStack();



describe('console frame', () => {
  it('signs in with an API key and opens the environment’s activity', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey);
    await expect.poll(() => page.url()).toContain(`/console/env/${stack.org.dev.id}/activity`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toContain('Activity');
    expect(problems.errors).toEqual([]);
  });

  it('refuses a wrong key with the API’s message and stays on sign-in', async () => {
    const { page } = await newTestPage(stack.browser);
    page.setDefaultTimeout(CONSOLE_WAIT_MS);
    await page.goto(`${stack.api.url}/`);
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('401');
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
  });

  it('switching environment asks for that environment’s key, then shows it', async () => {
    const { page } = await stack.open(stack.org.dev.apiKey);
    await page.getByLabel('Environment').selectOption({ label: 'Production' });
    await expect.poll(() => page.url()).toContain(`/console/env/${stack.org.prod.id}/activity`);
    await page.getByLabel('API key of Production').fill(stack.org.prod.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toContain('Activity');
  });
});
