import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENV } from '#lib/config.ts';
import { createTestOrg, startTestApi, type TestApi, type TestEnv } from '../support/api.ts';
import { launchChromium, newTestPage } from '../support/browser.ts';
import { CONSOLE_WAIT_MS, openConsole } from '../support/console.ts';
import { createWorkflow, messagesOf, rand, settledOne, trigger, WAIT } from '../support/pipeline.ts';
import { startFakeApi, type FakeApi } from '../support/provider-servers.ts';

// Link and open tracking as a recipient meets it (docs/engagement.md): the email the demo
// provider put in the local outbox is opened in headless Chromium, which loads the open pixel;
// its link is clicked and the browser lands on exactly the page the customer linked to. The
// message shows `opened` and `clicked`, and the customer's endpoint receives `message.opened` and
// `message.link_clicked`, verified with `standardwebhooks` and stamped with the open's and
// click's own time; the day's counters of the workflow's emails count the open and the click,
// and the console's timeline of the notification shows them with the link's original URL.

vi.setConfig({ testTimeout: 120_000 });

let browser: Browser;
let api: TestApi;
let env: TestEnv;
/** The customer's site: the page the email links to, and its webhook receiver. */
let site: FakeApi;

beforeAll(async () => {
  [browser, api, site] = await Promise.all([launchChromium(), startTestApi(), startFakeApi()]);
  site.reply = (request) =>
    request.path === '/welcome'
      ? { status: 200, headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>Welcome</title><h1>Welcome back</h1>' }
      : { status: 200, body: {} };
  env = (await createTestOrg(api.url)).dev;
  const res = await env.client.put(`/v1/environments/${env.id}`, { tracking: { opens: { email: true } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await api?.close();
});

describe('an email opened and its link clicked in a browser', () => {
  it('records the open and the click, lands on the original page, sends both webhooks, counts them, shows them', async () => {
    const hookPath = `/hook-${rand()}`;
    const created = await env.client.post('/v2/webhooks/endpoints', {
      url: `${site.url}${hookPath}`,
      eventTypes: ['message.opened', 'message.link_clicked'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const hook = new Webhook(created.body.secret as string);

    const landing = `${site.url}/welcome?ref=email&step=1`;
    const workflowId = await createWorkflow(env.client, [
      {
        name: 'Mail',
        stepId: 'mail',
        type: 'email',
        controlValues: { subject: 'Welcome', body: `<p>Hello!</p><p><a href="${landing.replace(/&/g, '&amp;')}">Get started</a></p>` },
      },
    ]);
    const subscriberId = `sub-${rand()}`;
    const email = `${subscriberId}@example.test`;
    const transactionId = await trigger(env.client, workflowId, { subscriberId, email });
    const notification = await settledOne(env.client, transactionId);

    // The mail as the recipient's client gets it: the local outbox of the demo provider.
    const content = await vi.waitFor(async () => {
      const lines = (await readFile(join(process.env[ENV.deliverySinkDir]!, 'email.jsonl'), 'utf8')).trim().split('\n');
      const mine = lines.map((l) => JSON.parse(l)).filter((r) => r.to === email);
      expect(mine).toHaveLength(1);
      return mine[0].content as string;
    }, WAIT);
    expect(content).not.toContain('/welcome');

    const { page } = await newTestPage(browser);
    await page.setContent(content, { waitUntil: 'load' });
    const [message] = await messagesOf(env.client, subscriberId, 'email');
    const opened = await vi.waitFor(async () => {
      const [m] = await messagesOf(env.client, subscriberId, 'email');
      expect(m.opened).toEqual(expect.any(String));
      return m.opened as string;
    }, WAIT);

    await page.getByRole('link', { name: 'Get started' }).click();
    await page.waitForURL(landing);
    expect(page.url()).toBe(landing);
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome back' }).isVisible()).toBe(true);

    const clicked = await vi.waitFor(async () => {
      const [m] = await messagesOf(env.client, subscriberId, 'email');
      expect(m).toMatchObject({ _id: message._id, opened, clickCount: 1, links: [landing] });
      return m.clicked as string;
    }, WAIT);

    const events = await vi.waitFor(() => {
      const got = site.requests
        .filter((r) => r.path === hookPath)
        .map(
          (r) =>
            hook.verify(r.text, {
              'webhook-id': String(r.headers['svix-id']),
              'webhook-timestamp': String(r.headers['svix-timestamp']),
              'webhook-signature': String(r.headers['svix-signature']),
            }) as any,
        );
      expect(got.map((e) => e.type).sort()).toEqual(['message.link_clicked', 'message.opened']);
      return got;
    }, WAIT);
    const byType = Object.fromEntries(events.map((e) => [e.type, e]));
    expect(byType['message.opened']).toMatchObject({ timestamp: opened, data: { object: { _id: message._id, opened } } });
    expect(byType['message.link_clicked']).toMatchObject({
      timestamp: clicked,
      data: { object: { _id: message._id, clicked, clickCount: 1 }, link: { url: landing } },
    });

    // The counter: today's emails of the workflow, one sent, opened and clicked.
    const stats = await vi.waitFor(async () => {
      const res = await env.client.get(`/v1/engagement/stats?workflowId=${workflowId}`);
      expect(res.status).toBe(200);
      expect(res.body.workflows[0]?.channels.email).toMatchObject({ sent: 1, opened: 1, clicked: 1 });
      return res.body;
    }, WAIT);
    expect(stats.workflows[0]).toMatchObject({ workflowId, triggered: 1 });
    // Counted on the day of the click itself (the day's row of the workflow).
    const clickDay = stats.days.find((d: { date: string }) => d.date === clicked.slice(0, 10));
    expect(clickDay?.channels.email.clicked).toBe(1);

    // The console's timeline: the open, the click and the link's original URL beside the message.
    const { page: consolePage, problems } = await openConsole(
      browser,
      api.url,
      env.apiKey,
      `/console/env/${env.id}/activity/${notification._id}`,
    );
    const engagement = consolePage.getByLabel('Engagement');
    await expect.poll(() => engagement.textContent(), { timeout: CONSOLE_WAIT_MS }).toContain('1 click');
    expect(await engagement.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')))).toEqual([opened, clicked]);
    await engagement.getByText('Tracked links (1)').click();
    expect(await engagement.getByRole('link').getAttribute('href')).toBe(landing);
    expect(await engagement.getByRole('link').textContent()).toBe(landing);
    expect(problems.errors).toEqual([]);
  });
});
