import { rmSync } from 'node:fs';
import type { Browser, Locator, Page, Response } from 'playwright-core';
import { connectionsOf } from '#lib/live/connections.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestOrg, startTestApi, type TestApi, type TestEnv } from '../support/api.ts';
import { buildInboxApp, launchChromium, newTestPage, serveStatic, type PageProblems, type StaticServer } from '../support/browser.ts';
import { createWorkflow, messagesOf, rand, trigger, WAIT } from '../support/pipeline.ts';

// The "Done when", in a real browser: the reference's <Inbox /> (@novu/react 3.19) in a
// page of its own origin (test/browser/inbox-app), given only the URLs and socketType, against
// the local stack. Each test is what a person does: look at the bell, open it, click. Effects are
// awaited with Playwright's auto-waiting locators and bounded polls, never fixed sleeps.

// Long enough for a delivery through the queues and a socket push on a loaded machine; short
// enough that a missing effect fails here, with a screenshot, before the test's own timeout.
const UI_WAIT_MS = 20_000;
const TEST_TIMEOUT_MS = 90_000;

let appDir: string;
let site: StaticServer;
let browser: Browser;
let api: TestApi;
let env: TestEnv;
let comments: string;

beforeAll(async () => {
  // The page is built once for the file; the browser, API and static server start meanwhile.
  [appDir, browser, api] = await Promise.all([buildInboxApp(), launchChromium(), startTestApi()]);
  site = await serveStatic(appDir);
  env = (await createTestOrg(api.url)).dev;
  comments = await createWorkflow(
    env.client,
    [
      {
        name: 'Inbox',
        stepId: 'inbox',
        type: 'in_app',
        controlValues: { subject: '{{payload.subject}}', body: '{{payload.body}}', primaryAction: { label: 'Open' } },
      },
    ],
    { name: 'Comments' },
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await api?.close();
  if (appDir) rmSync(appDir, { recursive: true, force: true });
});

const newSubscriber = () => `sub-${rand()}`;

/** Triggers one notification to `subscriberId` per subject, and waits until all are in the inbox. */
async function notify(subscriberId: string, ...notifications: (string | { subject: string; body: string })[]): Promise<void> {
  const before = (await messagesOf(env.client, subscriberId)).length;
  for (const n of notifications) {
    const { subject, body } = typeof n === 'string' ? { subject: n, body: `Body of ${n}` } : n;
    await trigger(env.client, comments, subscriberId, { subject, body });
  }
  await vi.waitFor(async () => expect(await messagesOf(env.client, subscriberId)).toHaveLength(before + notifications.length), WAIT);
}

async function storedMessage(subscriberId: string, subject: string): Promise<any> {
  const found = (await messagesOf(env.client, subscriberId)).find((m) => m.subject === subject);
  if (!found) throw new Error(`No stored message "${subject}" for ${subscriberId}`);
  return found;
}

/** Waits until the stored message (API-key route) matches: the UI updates before the server answers. */
const storedBecomes = (subscriberId: string, subject: string, expected: Record<string, unknown>) =>
  vi.waitFor(async () => expect(await storedMessage(subscriberId, subject)).toMatchObject(expected), WAIT);

interface InboxPage {
  page: Page;
  problems: PageProblems;
  /** The bell (the popover's trigger); in count mode its accessible name is "<n> unread". */
  bell: Locator;
  /** The answer to the session the page opened (POST /v1/inbox/session). */
  session: Response;
}

/** Opens the test app for `subscriberId`, as a product's page with only the settings changed. */
async function openApp(
  subscriberId: string,
  { bell = 'count', tabs = [] }: { bell?: 'count' | 'default'; tabs?: string[] } = {},
): Promise<InboxPage> {
  const { page, problems } = await newTestPage(browser);
  page.setDefaultTimeout(UI_WAIT_MS);
  const query = new URLSearchParams({
    applicationIdentifier: env.applicationIdentifier,
    subscriber: subscriberId,
    backendUrl: api.url,
    socketUrl: api.socketUrl,
    bell,
    tabs: tabs.join(','),
  });
  const [session] = await Promise.all([
    page.waitForResponse((r) => r.url() === `${api.url}/v1/inbox/session` && r.request().method() === 'POST'),
    page.goto(`${site.url}/?${query}`),
  ]);
  return { page, problems, bell: page.locator('.nv-popoverTrigger'), session };
}

/** Waits until the count bell reads `n` (its accessible name). */
const unread = (app: InboxPage, n: number) => app.page.getByRole('button', { name: `${n} unread`, exact: true }).waitFor();

/** A notification in the open list, by its subject. */
const item = (page: Page, subject: string) => page.locator('.nv-notification').filter({ has: page.getByText(subject, { exact: true }) });

/**
 * Clicks one of an item's own icon buttons (read, archive, snooze: no accessible name, the
 * reference's class names), first checking the tooltip a person reads when pointing at it.
 */
async function itemButton(
  page: Page,
  subject: string,
  button:
    | 'notificationRead'
    | 'notificationUnread'
    | 'notificationArchive'
    | 'notificationUnarchive'
    | 'notificationSnooze'
    | 'notificationUnsnooze',
  tooltip: string,
): Promise<void> {
  const row = item(page, subject);
  await row.hover();
  const target = row.locator(`.nv-${button}__button`);
  await target.hover();
  await page.getByText(tooltip, { exact: true }).waitFor();
  await target.click();
}

/** Switches the list's view with the header's dropdown ("Inbox", "Archived", ...). */
async function showView(page: Page, from: string, to: string): Promise<void> {
  await page.getByRole('button', { name: from, exact: true }).click();
  await page.getByRole('button', { name: to, exact: true }).click();
}

const noPageErrors = (app: InboxPage) => expect(app.problems.errors).toEqual([]);

describe('<Inbox /> of @novu/react 3.19 in Chromium, against the local stack', { timeout: TEST_TIMEOUT_MS }, () => {
  it('shows the unread count on the bell and, opened, lists the notifications newest first as triggered, across origins', async () => {
    const subscriberId = newSubscriber();
    // One after the other, so that their order is known.
    await notify(subscriberId, { subject: 'Ada commented', body: 'On your post: nice work' });
    await notify(subscriberId, { subject: 'Bob replied', body: 'Thanks!' });

    const app = await openApp(subscriberId);
    const { page, session } = app;
    // Another origin than the page's, with the client's own headers (so preflighted): the
    // browser let the answer through.
    expect(new URL(session.url()).origin).not.toBe(new URL(site.url).origin);
    expect(session.status()).toBe(201);
    expect(session.headers()['access-control-allow-origin']).toBe('*');

    await unread(app, 2);
    await app.bell.click();
    await item(page, 'Bob replied').waitFor();
    expect(await page.locator('.nv-notificationSubject').allTextContents()).toEqual(['Bob replied', 'Ada commented']);
    expect(await page.locator('.nv-notificationBody').allTextContents()).toEqual(['Thanks!', 'On your post: nice work']);
    await item(page, 'Ada commented').getByRole('button', { name: 'Open' }).waitFor();
    // Shown for a second, the client marks them seen by itself (POST …/notifications/seen); seen
    // is not read, so the count stays.
    await storedBecomes(subscriberId, 'Ada commented', { seen: true, read: false });
    await storedBecomes(subscriberId, 'Bob replied', { seen: true, read: false });
    await unread(app, 2);
    noPageErrors(app);
  });

  it('the plain bell: a dot while anything is unread, gone after "Mark all as read"', async () => {
    const subscriberId = newSubscriber();
    await notify(subscriberId, 'First', 'Second');
    const app = await openApp(subscriberId, { bell: 'default' });
    const dot = app.bell.locator('.nv-bellDot');
    await dot.waitFor();
    await app.bell.click();
    await item(app.page, 'Second').waitFor();
    await app.page.locator('.nv-moreActions__dropdownTrigger').click();
    await app.page.getByRole('button', { name: 'Mark all as read' }).click();
    await dot.waitFor({ state: 'detached' });
    await vi.waitFor(async () => expect((await messagesOf(env.client, subscriberId)).map((m) => m.read)).toEqual([true, true]), WAIT);
    noPageErrors(app);
  });

  it('marks one read with its button and completes another’s action, each lowering the count', async () => {
    const subscriberId = newSubscriber();
    await notify(subscriberId, 'Read me', 'Act on me');
    const app = await openApp(subscriberId);
    await unread(app, 2);
    await app.bell.click();

    await itemButton(app.page, 'Read me', 'notificationRead', 'Mark as read');
    await unread(app, 1);
    // Read now: its button turns into "Mark as unread".
    await item(app.page, 'Read me').locator('.nv-notificationUnread__button').waitFor({ state: 'attached' });
    await storedBecomes(subscriberId, 'Read me', { read: true, seen: true });

    await item(app.page, 'Act on me').getByRole('button', { name: 'Open' }).click();
    await unread(app, 0);
    await storedBecomes(subscriberId, 'Act on me', { read: true, cta: { action: { status: 'done', result: { type: 'primary' } } } });

    // Back to unread through the same button: the count follows.
    await itemButton(app.page, 'Read me', 'notificationUnread', 'Mark as unread');
    await unread(app, 1);
    noPageErrors(app);
  });

  it('archives a notification: it leaves the inbox for the Archived view', async () => {
    const subscriberId = newSubscriber();
    await notify(subscriberId, 'Keep me', 'Archive me');
    const app = await openApp(subscriberId);
    await unread(app, 2);
    await app.bell.click();

    await itemButton(app.page, 'Archive me', 'notificationArchive', 'Archive');
    await item(app.page, 'Archive me').waitFor({ state: 'detached' });
    await unread(app, 1);
    await item(app.page, 'Keep me').waitFor();
    await storedBecomes(subscriberId, 'Archive me', { archived: true, read: true });

    await showView(app.page, 'Inbox', 'Archived');
    await item(app.page, 'Archive me').waitFor();
    expect(await app.page.locator('.nv-notificationSubject').allTextContents()).toEqual(['Archive me']);

    // And back: out of the archive, into the inbox again (still read).
    await itemButton(app.page, 'Archive me', 'notificationUnarchive', 'Unarchive');
    await item(app.page, 'Archive me').waitFor({ state: 'detached' });
    await storedBecomes(subscriberId, 'Archive me', { archived: false, read: true });
    await showView(app.page, 'Archived', 'Unread & read');
    await item(app.page, 'Archive me').waitFor();
    await unread(app, 1);
    noPageErrors(app);
  });

  it('live: with the popover open, new notifications and the bell count arrive without a reload', async () => {
    const subscriberId = newSubscriber();
    const app = await openApp(subscriberId);
    await unread(app, 0);
    await app.bell.click();
    await app.page.getByText('Quiet for now. Check back later.').waitFor();
    // Triggered before the page's socket is connected, a notification would show only on the next
    // fetch: wait until the socket API holds the page's connection.
    await vi.waitFor(async () => expect(await connectionsOf(env.scope, subscriberId, new Date())).toHaveLength(1), WAIT);

    // Into an empty list the client puts it at once...
    await notify(subscriberId, { subject: 'Live one', body: 'Arrived while you looked' });
    await item(app.page, 'Live one').waitFor();
    await app.page.getByText('Arrived while you looked').waitFor();
    await unread(app, 1);

    // ...into a list with items it offers a "new notifications" notice, which shows them.
    await notify(subscriberId, 'Live two');
    await unread(app, 2);
    await app.page.getByRole('button', { name: '1 new notification' }).click();
    await item(app.page, 'Live two').waitFor();
    expect(await app.page.locator('.nv-notificationSubject').allTextContents()).toEqual(['Live two', 'Live one']);

    // Read elsewhere (the product's server, with the API key): the bell follows.
    const { _id } = await storedMessage(subscriberId, 'Live one');
    const marked = await env.client.post(`/v1/subscribers/${subscriberId}/messages/mark-as`, { messageId: _id, markAs: 'read' });
    expect(marked.status, JSON.stringify(marked.body)).toBe(201);
    await unread(app, 1);
    noPageErrors(app);
  });

  it('snoozes a notification from its menu: it leaves the inbox for the Snoozed view until then', async () => {
    const subscriberId = newSubscriber();
    await notify(subscriberId, 'Later', 'Now');
    const app = await openApp(subscriberId);
    await unread(app, 2);
    await app.bell.click();

    await itemButton(app.page, 'Later', 'notificationSnooze', 'Snooze');
    const before = Date.now();
    await app.page.getByRole('button', { name: /^An hour from now/ }).click();
    await item(app.page, 'Later').waitFor({ state: 'detached' });
    await unread(app, 1);
    const until = await vi.waitFor(async () => {
      const { snoozedUntil } = await storedMessage(subscriberId, 'Later');
      expect(snoozedUntil).toEqual(expect.any(String));
      return Date.parse(snoozedUntil);
    }, WAIT);
    expect(until).toBeGreaterThan(before + 59 * 60_000);
    expect(until).toBeLessThan(Date.now() + 61 * 60_000);

    await showView(app.page, 'Inbox', 'Snoozed');
    await item(app.page, 'Later').waitFor();
    expect(await app.page.locator('.nv-notificationSubject').allTextContents()).toEqual(['Later']);

    // Woken by hand: back in the inbox, unread again.
    await itemButton(app.page, 'Later', 'notificationUnsnooze', 'Unsnooze');
    await item(app.page, 'Later').waitFor({ state: 'detached' });
    await unread(app, 2);
    await vi.waitFor(async () => expect((await storedMessage(subscriberId, 'Later')).snoozedUntil ?? null).toBeNull(), WAIT);
    await showView(app.page, 'Snoozed', 'Unread & read');
    await item(app.page, 'Later').waitFor();
    noPageErrors(app);
  });

  it('tabs filtered by tag: each with its own unread badge, listing only its workflows', async () => {
    const billing = await createWorkflow(
      env.client,
      [{ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { subject: '{{payload.subject}}', body: 'Billing news' } }],
      { name: 'Billing', tags: ['billing'] },
    );
    const subscriberId = newSubscriber();
    await notify(subscriberId, 'Comment');
    await trigger(env.client, billing, subscriberId, { subject: 'Invoice' });
    await trigger(env.client, billing, subscriberId, { subject: 'Receipt' });
    await vi.waitFor(async () => expect(await messagesOf(env.client, subscriberId)).toHaveLength(3), WAIT);

    const app = await openApp(subscriberId, { tabs: ['billing'] });
    const { page } = app;
    const tab = (name: string) => page.getByRole('tab', { name, exact: true });
    await unread(app, 3);
    await app.bell.click();
    // Each tab's badge is the count of its own filter (GET /v1/inbox/notifications/count).
    await tab('All 3').waitFor();
    await tab('billing 2').waitFor();
    await item(page, 'Comment').waitFor();

    await tab('billing 2').click();
    await item(page, 'Invoice').waitFor();
    expect(await page.locator('.nv-notificationSubject').allTextContents()).toEqual(['Receipt', 'Invoice']);

    await itemButton(page, 'Invoice', 'notificationRead', 'Mark as read');
    await tab('billing 1').waitFor();
    await tab('All 2').waitFor();
    await unread(app, 2);
    await storedBecomes(subscriberId, 'Invoice', { read: true });
    noPageErrors(app);
  });

  it('lists the workflow in the preferences, and a channel switched off there stays off', async () => {
    const updates = await createWorkflow(
      env.client,
      [
        { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Update' } },
        { name: 'Email', stepId: 'email', type: 'email', controlValues: { subject: 'Update', body: 'Update' } },
      ],
      { name: 'Product updates' },
    );
    const subscriberId = newSubscriber();
    const app = await openApp(subscriberId);
    await unread(app, 0);
    await app.bell.click();
    await app.page.locator('.nv-preferences__button').click();
    await app.page.getByText('Global Preferences').waitFor();

    const row = app.page.locator('.nv-workflowContainer').filter({ hasText: 'Product updates' });
    await row.getByText('Product updates', { exact: true }).click();
    const email = row.getByRole('checkbox', { name: 'Email' });
    await email.waitFor();
    expect(await email.isChecked()).toBe(true);
    expect(await row.getByRole('checkbox', { name: 'In-App' }).isChecked()).toBe(true);
    // The checkbox itself is visually hidden: a person clicks the switch drawn over it.
    await email.locator('..').click();
    await expect.poll(() => email.isChecked()).toBe(false);

    const stored = async () => {
      const res = await env.client.get(`/v2/subscribers/${subscriberId}/preferences`);
      expect(res.status).toBe(200);
      return res.body.workflows.find((w: any) => w.workflow.identifier === updates);
    };
    await vi.waitFor(async () => expect(await stored()).toMatchObject({ enabled: true, channels: { email: false, in_app: true } }), WAIT);

    // A new page load reads it back from the server.
    await app.page.reload();
    await unread(app, 0);
    await app.bell.click();
    await app.page.locator('.nv-preferences__button').click();
    await row.getByText('Product updates', { exact: true }).click();
    await email.waitFor();
    expect(await email.isChecked()).toBe(false);
    noPageErrors(app);
  });
});
