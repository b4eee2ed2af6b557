import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { consumeChanges } from '#lib/engagement/consume.ts';
import { newId } from '#lib/ids.ts';
import { keys, MESSAGE_ITEM_TYPE } from '#lib/store/keys.ts';
import { CONSOLE_WAIT_MS, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { inboxClient } from '../support/api.ts';
import { createWorkflow, messagesOf, rand, settledOne, trigger, WAIT } from '../support/pipeline.ts';

// The console's Stats view in a real browser: volume per day drawn as bars (today's from
// messages delivered and read through the API and the inbox; earlier days' email opens and
// clicks as the table's stream would count them, one day of clicks alone), delivery and
// engagement rates per workflow and channel by their names, one channel picked (emails apart
// from in-app messages), the range, the workflow and the channel kept in the URL.

const POLL = { timeout: CONSOLE_WAIT_MS, interval: 250 };
const stack = useConsoleTestStack();
let workflowId: string;
const today = new Date().toISOString().slice(0, 10);
const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
const WORKFLOW_NAME = 'Order updates';

beforeAll(async () => {
  const client = stack.org.dev.client;
  workflowId = await createWorkflow(
    client,
    [{ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Order shipped' } }],
    {
      name: WORKFLOW_NAME,
    },
  );
  const subscribers = [`ada-${rand()}`, `bob-${rand()}`, `cy-${rand()}`, `dee-${rand()}`];
  for (const subscriberId of subscribers) await settledOne(client, await trigger(client, workflowId, subscriberId));
  const [message] = await messagesOf(client, subscribers[0]!);
  const session = await inboxClient(stack.api.url, stack.org.dev, subscribers[0]!);
  expect((await session.patch(`/v1/inbox/notifications/${message._id}/read`)).status).toBe(200);
  // An email workflow's days, as the stream consumer counts them: three days ago 2 sent, both
  // delivered, one opened; two days ago that one clicked, and nothing else that day.
  const scope = stack.org.dev.scope;
  const at = `${threeDaysAgo}T09:00:00.000Z`;
  const email = (id: string, extra: Record<string, unknown> = {}) => ({
    type: MESSAGE_ITEM_TYPE,
    _id: id,
    channel: 'email',
    templateIdentifier: 'weekly-digest',
    status: 'sent',
    read: false,
    seen: false,
    createdAt: at,
    updatedAt: at,
    deliveryStatus: 'delivered',
    deliveryStatusAt: at,
    ...extra,
  });
  const [m1, m2] = [newId(), newId()];
  await consumeChanges([
    {
      pk: keys.message(scope, 'x', m1).pk,
      sk: `MSG#${m1}`,
      after: email(m1, { opened: at, clicked: `${twoDaysAgo}T10:00:00.000Z`, clickCount: 1 }),
      expired: false,
    },
    { pk: keys.message(scope, 'y', m2).pk, sk: `MSG#${m2}`, after: email(m2), expired: false },
  ]);
  await vi.waitFor(async () => {
    const res = await client.get(`/v1/engagement/stats?workflowId=${workflowId}`);
    expect(res.body.workflows[0]?.channels.in_app).toMatchObject({ sent: 4, read: 1 });
  }, WAIT);
}, 120_000);

const statsPath = (query = '') => `/console/env/${stack.org.dev.id}/stats${query}`;
const bar = (page: Page, date: string, series: string) => page.locator(`g[data-date="${date}"] rect[data-series="${series}"]`);
const rateRow = (page: Page, workflow: string, channel: string) =>
  page.locator(`tr[data-workflow="${workflow}"][data-channel="${channel}"]`);
const OVERFLOW = 'document.documentElement.scrollWidth - document.documentElement.clientWidth';

describe('console stats', () => {
  it('draws the last 30 days per day and the rates per workflow and channel', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, statsPath());
    await expect.poll(() => page.getByRole('heading', { name: 'Volume per day' }).isVisible(), POLL).toBe(true);
    // 30 days, today last.
    expect(await page.locator('g[data-date]').count()).toBe(30);
    expect(await page.locator('g[data-date]').last().getAttribute('data-date')).toBe(today);
    expect(await bar(page, today, 'sent').getAttribute('data-value')).toBe('4');
    expect(await bar(page, today, 'delivered').getAttribute('data-value')).toBe('4');
    expect(await bar(page, today, 'engaged').getAttribute('data-value')).toBe('1');
    expect(await bar(page, threeDaysAgo, 'sent').getAttribute('data-value')).toBe('2');
    expect(await bar(page, threeDaysAgo, 'engaged').getAttribute('data-value')).toBe('1');
    expect(await bar(page, threeDaysAgo, 'clicked').getAttribute('data-value')).toBe('0');
    // The day of clicks alone has its bar.
    expect(await bar(page, twoDaysAgo, 'clicked').getAttribute('data-value')).toBe('1');
    expect(await bar(page, twoDaysAgo, 'sent').getAttribute('data-value')).toBe('0');
    expect(Number(await bar(page, twoDaysAgo, 'clicked').getAttribute('height'))).toBeGreaterThan(0);
    await expect.poll(() => page.locator('figcaption').textContent()).toContain('Clicked');
    // Bars are drawn to scale: today's 4 sent are twice as tall as the 2 three days ago.
    const height = async (date: string) => Number(await bar(page, date, 'sent').getAttribute('height'));
    expect((await height(today)) / (await height(threeDaysAgo))).toBeCloseTo(2, 5);
    expect(await page.getByRole('img', { name: /Messages per day/ }).getAttribute('aria-label')).toContain('6 sent, 1 clicked');

    const inApp = rateRow(page, workflowId, 'in_app');
    // The workflow and the channel by their names, their ids on hover (the names come with the workflows' list).
    await expect.poll(() => inApp.getByTitle(workflowId).textContent(), POLL).toBe(WORKFLOW_NAME);
    expect(await inApp.getByTitle('in_app').textContent()).toBe('In-app');
    expect(await inApp.textContent()).not.toContain('in_app');
    expect(await inApp.textContent()).toContain('100%');
    expect(await inApp.textContent()).toContain('25%');
    const email = rateRow(page, 'weekly-digest', 'email');
    expect(await email.locator('[data-rate]').evaluateAll((els) => els.map((e) => e.getAttribute('data-rate')))).toEqual([
      '1',
      '0.5',
      '0.5',
      '0',
    ]);
    // A workflow the console has no name for (none was made for it) shows its id.
    expect(await email.getByTitle('weekly-digest').textContent()).toBe('weekly-digest');
    expect(await email.getByTitle('email').textContent()).toBe('Email');
    await saveScreenshot(page, 'stats');

    // The numbers by day, behind a disclosure.
    await page.getByText('Numbers by day').click();
    const todayRow = page.getByRole('row').filter({ hasText: today });
    expect((await todayRow.getByRole('cell').allTextContents()).slice(1)).toEqual(['4', '4', '4', '0', '0', '0', '1']);
    const clicksOnly = page.getByRole('row').filter({ hasText: twoDaysAgo });
    expect((await clicksOnly.getByRole('cell').allTextContents()).slice(1)).toEqual(['0', '0', '0', '0', '0', '1', '0']);
    expect(problems.errors).toEqual([]);
  }, 120_000);

  it('shows one channel alone: the emails opened and clicked per day, apart from in-app messages', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, statsPath());
    await expect.poll(() => page.getByRole('heading', { name: 'Volume per day' }).isVisible(), POLL).toBe(true);
    await page.getByLabel('Channel').selectOption({ label: 'Email' });
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('channel'), POLL).toBe('email');
    await expect.poll(() => page.getByText('Email only').isVisible(), POLL).toBe(true);
    // Today's in-app messages are not emails.
    expect(await bar(page, today, 'sent').getAttribute('data-value')).toBe('0');
    expect(await bar(page, today, 'engaged').getAttribute('data-value')).toBe('0');
    expect(await bar(page, threeDaysAgo, 'sent').getAttribute('data-value')).toBe('2');
    expect(await bar(page, threeDaysAgo, 'engaged').getAttribute('data-value')).toBe('1');
    expect(await bar(page, twoDaysAgo, 'clicked').getAttribute('data-value')).toBe('1');
    expect(await rateRow(page, workflowId, 'in_app').count()).toBe(0);
    expect(await rateRow(page, 'weekly-digest', 'email').count()).toBe(1);
    // The table by day: the email days only; triggers are counted per workflow, not per channel.
    await page.getByText('Numbers by day').click();
    const byDayTable = page.locator('details', { hasText: 'Numbers by day' });
    expect(await byDayTable.getByRole('columnheader').allTextContents()).toEqual([
      'Day',
      'Sent',
      'Delivered',
      'Failed',
      'Opened',
      'Clicked',
      'Read',
    ]);
    expect(await page.getByRole('row').filter({ hasText: today }).count()).toBe(0);
    const byDay = async (date: string) =>
      (await page.getByRole('row').filter({ hasText: date }).getByRole('cell').allTextContents()).slice(1);
    expect(await byDay(threeDaysAgo)).toEqual(['2', '2', '0', '1', '0', '0']);
    expect(await byDay(twoDaysAgo)).toEqual(['0', '0', '0', '0', '1', '0']);
    // The choice is in the URL: a reload keeps it.
    await page.reload();
    await expect.poll(() => page.getByText('Email only').isVisible(), POLL).toBe(true);
    expect(await page.getByLabel('Channel').inputValue()).toBe('email');
    expect(await bar(page, today, 'sent').getAttribute('data-value')).toBe('0');
    expect(problems.errors).toEqual([]);
  }, 60_000);

  it('keeps the range and the workflow in the URL', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, statsPath());
    await expect.poll(() => page.getByRole('heading', { name: 'Volume per day' }).isVisible(), POLL).toBe(true);
    await page.getByLabel('From', { exact: true }).fill(threeDaysAgo);
    await page.getByLabel('To', { exact: true }).fill(today);
    await page.getByLabel('Workflow ID').fill('weekly-digest');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('workflowId'), POLL).toBe('weekly-digest');
    await expect.poll(() => page.locator('g[data-date]').count(), POLL).toBe(4);
    expect(await rateRow(page, workflowId, 'in_app').count()).toBe(0);
    expect(await rateRow(page, 'weekly-digest', 'email').count()).toBe(1);
    await page.reload();
    await expect.poll(() => page.locator('g[data-date]').count(), POLL).toBe(4);
    expect(await page.getByLabel('Workflow ID').inputValue()).toBe('weekly-digest');
    expect(new URL(page.url()).searchParams.get('from')).toBe(threeDaysAgo);
    expect(problems.errors).toEqual([]);
  }, 60_000);

  it('says what is wrong with a range the API refuses, and fits a phone', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, statsPath('?from=2026-02-01&to=2026-01-01'), { width: 390 });
    await expect.poll(() => page.getByRole('alert').textContent(), POLL).toContain('422');
    // The reason is under the field it is about.
    expect(await page.getByText('from must not be after to').isVisible()).toBe(true);
    expect(await page.getByLabel('From', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.goto(`${stack.api.url}${statsPath()}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Volume per day' }).isVisible(), POLL).toBe(true);
    expect(await page.evaluate(OVERFLOW)).toBeLessThanOrEqual(0);
    // The refused request is the one error the page saw.
    expect(problems.errors.filter((e) => !e.includes('422'))).toEqual([]);
  }, 60_000);
});
