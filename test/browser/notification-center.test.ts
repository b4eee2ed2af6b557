import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestOrg, startTestApi, type TestApi, type TestEnv } from '../support/api.ts';
import {
  buildNotificationCenterApp,
  launchChromium,
  newTestPage,
  serveStatic,
  type PageProblems,
  type StaticServer,
} from '../support/browser.ts';
import { createWorkflow, messagesOf, rand, trigger, WAIT } from '../support/pipeline.ts';

// The legacy <PopoverNotificationCenter /> of @novu/notification-center 2.0.0 (React 18, on
// @novu/client 2.6.6 and socket.io) in headless Chromium, in a page of its own origin
// (test/browser/notification-center-app) given only backendUrl and socketUrl, against the local
// stack: the bell's count, a live arrival, opening and closing (marks seen), a click (marks read), and the
// preferences screen. Effects are awaited with Playwright's locators and bounded polls.

const UI_WAIT_MS = 20_000;
const TEST_TIMEOUT_MS = 120_000;

let appDir: string;
let site: StaticServer;
let browser: Browser;
let api: TestApi;
let env: TestEnv;
let workflowId: string;

beforeAll(async () => {
  [appDir, browser, api] = await Promise.all([buildNotificationCenterApp(), launchChromium(), startTestApi()]);
  site = await serveStatic(appDir);
  env = (await createTestOrg(api.url)).dev;
  workflowId = await createWorkflow(
    env.client,
    [{ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: '{{payload.text}}' } }],
    {
      name: 'Comments',
    },
  );
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await api?.close();
  if (appDir) rmSync(appDir, { recursive: true, force: true });
});

async function openWidget(subscriberId: string): Promise<{ page: Page; problems: PageProblems }> {
  const { page, problems } = await newTestPage(browser);
  page.setDefaultTimeout(UI_WAIT_MS);
  const query = new URLSearchParams({
    applicationIdentifier: env.applicationIdentifier,
    subscriberId,
    backendUrl: api.url,
    socketUrl: api.socketUrl,
  });
  await page.goto(`${site.url}/?${query}`);
  // Nothing the widget calls fails.
  page.on('response', (r) => {
    if (r.url().startsWith(api.url) && r.status() >= 400) problems.errors.push(`${r.status()} ${r.url()}`);
  });
  return { page, problems };
}

const bell = (page: Page, n: number) => page.getByRole('button', { name: `${n} unseen`, exact: true }).waitFor();

const stored = async (subscriberId: string, text: string) => (await messagesOf(env.client, subscriberId)).find((m) => m.content === text);

describe('<NotificationCenter /> 2.0.0 in a browser', () => {
  it(
    'shows the unseen count, gets a new notification live, marks seen once looked at and read on a click',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const subscriberId = `nc-${rand()}`;
      const { page, problems } = await openWidget(subscriberId);
      await bell(page, 0);

      // A notification arrives while the page is open: the socket tells the widget, which recounts.
      await trigger(env.client, workflowId, subscriberId, { text: 'Ada commented' });
      await bell(page, 1);

      // Opening the bell lists it; closing it marks what it listed seen (the widget's way).
      await page.getByRole('button', { name: '1 unseen', exact: true }).click();
      await page.getByText('Ada commented', { exact: true }).waitFor();
      await page.getByRole('button', { name: '1 unseen', exact: true }).click();
      await vi.waitFor(async () => expect(await stored(subscriberId, 'Ada commented')).toMatchObject({ seen: true, read: false }), WAIT);
      await bell(page, 0);

      // Clicking it marks it read (and logs the click).
      await page.getByRole('button', { name: '0 unseen', exact: true }).click();
      const usage = page.waitForResponse((r) => r.url() === `${api.url}/v1/widgets/usage/log`);
      await page.getByText('Ada commented', { exact: true }).click();
      expect((await usage).status()).toBe(201);
      await vi.waitFor(async () => expect(await stored(subscriberId, 'Ada commented')).toMatchObject({ seen: true, read: true }), WAIT);
      expect(problems.errors).toEqual([]);
    },
  );

  it('switches a channel of a workflow off in the preferences', { timeout: TEST_TIMEOUT_MS }, async () => {
    const subscriberId = `nc-${rand()}`;
    const { page, problems } = await openWidget(subscriberId);
    await bell(page, 0);
    await page.getByRole('button', { name: '0 unseen', exact: true }).click();
    await page.locator('[data-test-id="user-preference-cog"]').click();
    const row = page.locator('[data-test-id="workflow-list-item"]').filter({ hasText: 'Comments' });
    await row.click();
    const toggle = row.locator('[data-test-id="channel-preference-item-toggle"]').first();
    await expect.poll(() => toggle.isChecked(), { timeout: UI_WAIT_MS }).toBe(true);
    const patched = page.waitForResponse(
      (r) => r.url().startsWith(`${api.url}/v1/widgets/preferences/`) && r.request().method() === 'PATCH',
    );
    // Mantine 5's accordion panel keeps `height: 0` in headless Chromium (its collapse waits for a
    // transition that never ends there), so no pointer can reach the switch: the click is sent to it.
    await toggle.dispatchEvent('click');
    expect((await patched).status()).toBe(200);
    await vi.waitFor(async () => {
      const res = await env.client.get(`/v2/subscribers/${subscriberId}/preferences`);
      const workflow = (res.body.data ?? res.body).workflows.find((w: any) => w.workflow.identifier === workflowId);
      expect(workflow.channels.in_app).toBe(false);
    }, WAIT);
    expect(problems.errors).toEqual([]);
  });
});
