import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONSOLE_WAIT_MS, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { activity, createWorkflow, rand, settled, trigger, WAIT } from '../support/pipeline.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/provider-servers.ts';
import { primarySmtpIntegration } from '../support/smtp-integration.ts';

// The console's activity views in a real browser: the feed with its filters in the URL, a
// notification's timeline refreshing until its jobs are final (an in-app step, a digest and an
// email sent to a fake SMTP server), raw details on demand, and the error and empty states.

const DIGEST_SECONDS = 10;
const POLL = { timeout: CONSOLE_WAIT_MS + DIGEST_SECONDS * 1000, interval: 250 };

const stack = useConsoleTestStack();
let smtp: FakeSmtp;
/** The workflow's name, as the feed's links show it; `workflowId` is its trigger identifier. */
const workflowName = 'New comments';
let workflowId: string;
const subscriberA = `ada-${rand()}`;
const subscriberB = `bob-${rand()}`;
/** Two events of subscriber A (one digest of both) and one of B, all final before the tests. */
const tx: { a1: string; a2: string; b: string } = { a1: '', a2: '', b: '' };

const to = (subscriberId: string) => ({ subscriberId, email: `${subscriberId}@example.com`, firstName: subscriberId.split('-')[0] });

beforeAll(async () => {
  smtp = await startFakeSmtp();
  await primarySmtpIntegration(stack.org.dev.client, smtp);
  workflowId = await createWorkflow(
    stack.org.dev.client,
    [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Comment {{payload.n}}' } },
      { name: 'Collect', stepId: 'collect', type: 'digest', controlValues: { amount: DIGEST_SECONDS, unit: 'seconds' } },
      {
        name: 'Summary',
        stepId: 'summary',
        type: 'email',
        controlValues: { subject: '{{steps.collect.eventCount}} new comments', body: '<p>Your comments</p>' },
      },
    ],
    { name: workflowName },
  );
  tx.a1 = await trigger(stack.org.dev.client, workflowId, to(subscriberA), { n: 1 });
  // A's first event opens the digest window before the second comes, so the first sends the digest.
  await vi.waitFor(async () => expect((await activity(stack.org.dev.client, tx.a1))[0]?.jobs[1].status).toBe('delayed'), WAIT);
  tx.a2 = await trigger(stack.org.dev.client, workflowId, to(subscriberA), { n: 2 });
  tx.b = await trigger(stack.org.dev.client, workflowId, to(subscriberB), { n: 3 });
  await Promise.all([tx.a1, tx.a2, tx.b].map((id) => settled(stack.org.dev.client, id)));
}, 120_000);

afterAll(async () => {
  await smtp?.close();
});

/** How far the page is wider than the window (0 or less: no horizontal scrolling). */
const OVERFLOW = 'document.documentElement.scrollWidth - document.documentElement.clientWidth';
const activityPath = (query = '') => `/console/env/${stack.org.dev.id}/activity${query}`;
const rows = (page: Page) =>
  page
    .getByRole('table')
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: workflowName }) });
const notificationId = async (transactionId: string): Promise<string> => (await activity(stack.org.dev.client, transactionId))[0]._id;

describe('console activity', () => {
  it('lists the notifications and filters them through the form, the filter kept in the URL', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, activityPath());
    await expect.poll(() => rows(page).count(), POLL).toBe(3);
    await expect.poll(() => rows(page).filter({ hasText: tx.b }).textContent(), POLL).toContain(subscriberB);
    await expect.poll(() => rows(page).filter({ hasText: tx.b }).textContent(), POLL).toContain('completed');
    await saveScreenshot(page, 'activity');

    await page.getByLabel('Subscriber IDs').fill(subscriberB);
    await page.getByLabel('Subscriber IDs').press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('subscriberIds'), POLL).toBe(subscriberB);
    await expect.poll(() => rows(page).count(), POLL).toBe(1);
    await page.reload();
    await expect.poll(() => page.getByLabel('Subscriber IDs').inputValue(), POLL).toBe(subscriberB);
    await expect.poll(() => rows(page).count(), POLL).toBe(1);
    expect(await rows(page).textContent()).toContain(tx.b);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => rows(page).count(), POLL).toBe(3);
    await page.getByLabel('Transaction ID').fill(tx.a2);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('transactionId'), POLL).toBe(tx.a2);
    await expect.poll(() => rows(page).count(), POLL).toBe(1);
    // Back returns to the unfiltered feed.
    await page.goBack();
    await expect.poll(() => rows(page).count(), POLL).toBe(3);
    await page.goForward();
    await expect.poll(() => rows(page).count(), POLL).toBe(1);
    await expect.poll(() => page.getByLabel('Transaction ID').inputValue(), POLL).toBe(tx.a2);

    // The second event of A went into the first one's digest.
    await rows(page).getByRole('link', { name: workflowName }).click();
    await expect.poll(() => page.url(), POLL).toContain(activityPath(`/${await notificationId(tx.a2)}`));
    await expect.poll(() => page.getByLabel('Notification status').textContent(), POLL).toBe('merged');
    await expect
      .poll(() => page.getByRole('list', { name: 'Jobs' }).getByRole('listitem').filter({ hasText: 'Collect' }).textContent(), POLL)
      .toContain('Merged into the digest of another notification');
    expect(problems.errors).toEqual([]);
  }, 120_000);

  it('pages through the feed, the page and its size in the URL', async () => {
    const query = `?subscriberIds=${subscriberA}&subscriberIds=${subscriberB}&limit=2`;
    const { page, problems } = await stack.open(stack.org.dev.apiKey, activityPath(query));
    await expect.poll(() => rows(page).count(), POLL).toBe(2);
    expect(await page.getByLabel('Subscriber IDs').inputValue()).toBe(`${subscriberA}, ${subscriberB}`);
    expect(await page.getByLabel('Per page').inputValue()).toBe('2');
    const pages = page.getByRole('navigation', { name: 'Pages' });
    expect(await pages.getByRole('link', { name: 'Newer' }).count()).toBe(0);
    await pages.getByRole('link', { name: 'Older' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('page'), POLL).toBe('1');
    await expect.poll(() => rows(page).count(), POLL).toBe(1);
    // The oldest of the three: A's first event.
    expect(await rows(page).textContent()).toContain(tx.a1);
    expect(await pages.getByRole('link', { name: 'Older' }).count()).toBe(0);
    await pages.getByRole('link', { name: 'Newer' }).click();
    await expect.poll(() => rows(page).count(), POLL).toBe(2);
    expect(problems.errors).toEqual([]);
  }, 60_000);

  it('opens a notification that is still running and follows it to its final state without a reload', async () => {
    const subscriberC = `cy-${rand()}`;
    const { page, problems } = await stack.open(stack.org.dev.apiKey, activityPath());
    await expect.poll(() => rows(page).count(), POLL).toBeGreaterThan(0);
    // Triggered once the console is open, so the digest's window is still open when the timeline shows.
    const live = await trigger(stack.org.dev.client, workflowId, to(subscriberC), { n: 4 });
    await page.getByLabel('Transaction ID').fill(live);
    await page.getByLabel('Transaction ID').press('Enter');
    // The notification is made just after the trigger is accepted: Refresh until it is listed.
    await expect
      .poll(async () => {
        if ((await rows(page).count()) === 0) await page.getByRole('button', { name: 'Refresh' }).click();
        return rows(page).count();
      }, POLL)
      .toBe(1);
    await rows(page).getByRole('link', { name: workflowName }).click();
    // Marks this document: a reload would lose the mark.
    await page.evaluate('window.sameDocument = true');

    const jobs = page.getByRole('list', { name: 'Jobs' }).getByRole('listitem');
    await expect.poll(() => jobs.count(), POLL).toBe(3);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Updating…' }).isVisible(), POLL).toBe(true);
    await expect
      .poll(() => page.getByLabel('Notification status').textContent(), POLL)
      .toMatch(/^(delayed|pending|queued|running|In-app sent, digest waiting)$/);

    await expect.poll(() => page.getByLabel('Notification status').textContent(), POLL).toBe('completed');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Updating…' }).count(), POLL).toBe(0);
    expect(await page.evaluate('window.sameDocument')).toBe(true);
    const texts = await jobs.allTextContents();
    expect(texts[0]).toContain('Inbox');
    expect(texts[0]).toContain('completed');
    expect(texts[1]).toContain('Collect');
    expect(texts[1]).toContain('1 event digested');
    expect(texts[2]).toContain('Summary');
    expect(texts[2]).toContain('completed');
    // The message the email step made, read from the messages of the transaction.
    await expect.poll(() => jobs.nth(2).textContent(), POLL).toContain(`to ${subscriberC}@example.com`);
    expect(problems.errors).toEqual([]);
  }, 120_000);

  it('shows a finished digest with its events and the raw data of an execution detail on demand', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, activityPath(`/${await notificationId(tx.a1)}`));
    const jobs = page.getByRole('list', { name: 'Jobs' });
    const digest = jobs.getByRole('listitem').filter({ hasText: 'Collect' });
    await expect.poll(() => digest.textContent(), POLL).toContain('2 events digested');
    await expect.poll(() => page.getByLabel('Notification status').textContent(), POLL).toBe('completed');
    await digest.getByText('Digested events (2)').click();
    await expect.poll(() => digest.locator('pre').first().textContent(), POLL).toContain('"n": 2');

    const email = jobs.getByRole('listitem').filter({ hasText: 'Summary' });
    await email.getByText('Raw data').first().click();
    await expect.poll(() => email.locator('details[open] pre').first().isVisible(), POLL).toBe(true);
    await expect
      .poll(() => page.getByRole('link', { name: new RegExp(subscriberA) }).getAttribute('href'), POLL)
      .toBe(`/console/env/${stack.org.dev.id}/subscribers/${subscriberA}`);
    await expect
      .poll(() => page.getByRole('link', { name: workflowName }).first().getAttribute('href'), POLL)
      .toBe(`/console/env/${stack.org.dev.id}/workflows/${workflowId}`);
    await saveScreenshot(page, 'activity-timeline');
    expect(problems.errors).toEqual([]);
  }, 60_000);

  it('shows the API’s 404 message for an unknown notification and says when no notification matches', async () => {
    const unknown = '0000000000000000deadbeef';
    const { page } = await stack.open(stack.org.dev.apiKey, activityPath(`/${unknown}`));
    await expect.poll(() => page.getByRole('alert').textContent(), POLL).toContain(`Notification with id ${unknown} not found`);
    await expect.poll(() => page.getByRole('alert').textContent(), POLL).toContain('404');

    await page.goto(`${stack.api.url}${activityPath(`?transactionId=no-such-${rand()}`)}`);
    await expect.poll(() => page.getByText('No notification matches these filters').isVisible(), POLL).toBe(true);

    // Through the form: no notification of this workflow went by SMS.
    await page.goto(`${stack.api.url}${activityPath()}`);
    await expect.poll(() => rows(page).count(), POLL).toBeGreaterThan(0);
    await page.getByText('More filters').click();
    await page.getByLabel('SMS').check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.getAll('channels'), POLL).toEqual(['sms']);
    await expect.poll(() => page.getByText('No notification matches these filters').isVisible(), POLL).toBe(true);
    // The filter's section stays open while it filters.
    expect(await page.getByLabel('SMS').isChecked()).toBe(true);
  }, 60_000);

  it('fits the timeline and the feed in a phone’s width', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, activityPath(`/${await notificationId(tx.a1)}`), { width: 390 });
    await expect
      .poll(() => page.getByRole('list', { name: 'Jobs' }).getByRole('listitem').filter({ hasText: 'Summary' }).count(), POLL)
      .toBe(1);
    await page.getByText('Payload', { exact: true }).click();
    expect(await page.evaluate<number>(OVERFLOW)).toBeLessThanOrEqual(0);
    // The feed too: its table scrolls inside its own box, the page does not.
    await page.getByRole('link', { name: '← Activity' }).click();
    await expect.poll(() => rows(page).count(), POLL).toBeGreaterThan(0);
    expect(await page.evaluate<number>(OVERFLOW)).toBeLessThanOrEqual(0);
    expect(problems.errors).toEqual([]);
  }, 60_000);
});
