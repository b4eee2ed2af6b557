import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ENV } from '#lib/config.ts';
import { buildInboxApp, newTestPage } from '../support/browser.ts';
import { CONSOLE_WAIT_MS, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { createWorkflow, rand, trigger } from '../support/pipeline.ts';

// The console's frame in a real browser: served by the API at `/`, signed in with an API key
// kept in the tab, an environment switcher asking for the other environment's key.

const stack = useConsoleTestStack();

let inboxApp: string | undefined;

afterAll(() => {
  if (inboxApp) rmSync(inboxApp, { recursive: true, force: true });
});

/** Every CSP violation the page reports, as `directive blocked-uri`. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
  await page.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(e.violatedDirective + ' ' + e.blockedURI));",
  });
  return violations;
}

describe('console frame', () => {
  it('signs in with an API key and opens the environment’s activity', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey);
    await expect.poll(() => page.url()).toContain(`/console/env/${stack.org.dev.id}/activity`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toContain('Activity');
    expect(problems.errors).toEqual([]);
  });

  it('shows the sign-in page (screenshot sign-in.png)', async () => {
    const { page, problems } = await newTestPage(stack.browser);
    const violations = await watchViolations(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    page.setDefaultTimeout(CONSOLE_WAIT_MS);
    await page.goto(`${stack.api.url}/`);
    await page.getByLabel('API key').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await saveScreenshot(page, 'sign-in');
    expect(problems.errors).toEqual([]);
    expect(violations).toEqual([]);
  });

  it('fits a phone’s width: the navigation wraps and nothing overflows sideways', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, '/', { width: 390 });
    await expect.poll(() => page.url()).toContain(`/console/env/${stack.org.dev.id}/activity`);
    const nav = page.getByRole('navigation', { name: 'Console' });
    for (const name of ['Activity', 'Workflows', 'Subscribers', 'Integrations'])
      await expect.poll(() => nav.getByRole('link', { name }).isVisible()).toBe(true);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
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

  it('its security headers let the real <Inbox /> run live on the console’s origin: no CSP violation', async () => {
    // The inbox test app (test/browser/inbox-app: @novu/react's <Inbox />) served by the console's
    // own function in place of the console's files, so with exactly its headers, on its origin,
    // as the subscribers view embeds the inbox. (page.route would serve it from no address, which
    // Chromium's local-network checks then stop from reaching the loopback socket.)
    inboxApp = await buildInboxApp();
    const workflow = await createWorkflow(
      stack.org.dev.client,
      [{ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { subject: '{{payload.subject}}', body: 'Body' } }],
      { name: `Probe ${rand()}` },
    );
    const subscriberId = `csp-${rand()}`;
    const { page, problems } = await newTestPage(stack.browser);
    const violations = await watchViolations(page);
    page.setDefaultTimeout(CONSOLE_WAIT_MS);
    const consoleDir = process.env[ENV.consoleDir];
    process.env[ENV.consoleDir] = inboxApp;
    try {
      const query = new URLSearchParams({
        applicationIdentifier: stack.org.dev.applicationIdentifier,
        subscriber: subscriberId,
        backendUrl: stack.api.url,
        socketUrl: stack.api.socketUrl,
        bell: 'count',
      });
      const answer = await page.goto(`${stack.api.url}/console/inbox-probe?${query}`);
      expect(answer?.headers()['content-security-policy']).toContain(`connect-src 'self' ${new URL(stack.api.socketUrl).origin};`);
      await page.getByRole('button', { name: '0 unread', exact: true }).waitFor();
    } finally {
      if (consoleDir === undefined) delete process.env[ENV.consoleDir];
      else process.env[ENV.consoleDir] = consoleDir;
    }
    // Delivered while the page is open: it arrives over the socket.
    await trigger(stack.org.dev.client, workflow, subscriberId, { subject: 'Through the CSP' });
    await page.getByRole('button', { name: '1 unread', exact: true }).click();
    await page.getByText('Through the CSP', { exact: true }).waitFor();
    expect(violations).toEqual([]);
    expect(problems.errors).toEqual([]);
  }, 120_000);
});
