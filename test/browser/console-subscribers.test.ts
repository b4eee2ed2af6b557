import type { Page } from 'playwright-core';
import { connectionsOf } from '#lib/live/connections.ts';
import { describe, expect, it, vi } from 'vitest';
import { type TestEnv } from '../support/api.ts';
import { CONSOLE_WAIT_MS, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { createWorkflow, messagesOf, rand, trigger, WAIT } from '../support/pipeline.ts';

// The console's subscribers views in a real browser: search (filters in the URL), the profile
// form (saved through PATCH, the API's 422 shown at the field), preferences switches, topics,
// and the subscriber's live inbox (the reference's <Inbox />, lazily loaded, HMAC-signed).

const stack = useConsoleTestStack();

async function createSubscriber(env: TestEnv, profile: Record<string, unknown> = {}): Promise<string> {
  const subscriberId = `sub-${rand()}`;
  const res = await env.client.post('/v2/subscribers', { subscriberId, ...profile });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return subscriberId;
}

const subscriberPath = (env: TestEnv, subscriberId: string, tab?: string) =>
  `/console/env/${env.id}/subscribers/${encodeURIComponent(subscriberId)}${tab ? `?tab=${tab}` : ''}`;

const storedSubscriber = async (env: TestEnv, subscriberId: string) => (await env.client.get(`/v2/subscribers/${subscriberId}`)).body;

/** Whether the page has downloaded the inbox's chunk (the lazily loaded @novu/react). */
const inboxChunkLoaded = (page: Page): Promise<boolean> =>
  page.evaluate(() => performance.getEntriesByType('resource').some((entry) => /\/assets\/SubscriberInbox-[^/]+\.js$/.test(entry.name)));

describe('console: subscribers', { timeout: 90_000 }, () => {
  it('searches by email with the filter in the URL, and a row opens the profile', async () => {
    const tag = rand();
    const ada = await createSubscriber(stack.org.dev, { firstName: 'Ada', lastName: `Lovelace ${tag}`, email: `ada-${tag}@example.com` });
    await createSubscriber(stack.org.dev, { firstName: 'Bob', lastName: `Builder ${tag}`, email: `bob-${tag}@example.com` });
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `/console/env/${stack.org.dev.id}/subscribers`);
    const table = page.getByRole('table');
    await table.getByRole('link', { name: ada }).waitFor();
    await saveScreenshot(page, 'subscribers');

    const search = page.getByRole('form', { name: 'Search subscribers' });
    await search.getByLabel('Email').fill(`ada-${tag}@example.com`);
    await search.getByLabel('Email').press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('email')).toBe(`ada-${tag}@example.com`);
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.getByRole('row').nth(1).textContent()).toContain(`Ada Lovelace ${tag}`);

    // The URL alone opens the same search (a new tab signing in on the way).
    const shared = await stack.open(stack.org.dev.apiKey, new URL(page.url()).pathname + new URL(page.url()).search);
    await shared.page.getByRole('table').getByRole('link', { name: ada }).waitFor();
    expect(await shared.page.getByRole('form', { name: 'Search subscribers' }).getByLabel('Email').inputValue()).toBe(
      `ada-${tag}@example.com`,
    );

    // A name filter matches a part of the name, case aside.
    await search.getByLabel('Email').fill('');
    await search.getByLabel('Name').fill(`builder ${tag}`);
    await search.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('name')).toBe(`builder ${tag}`);
    await table.getByRole('cell', { name: `Bob Builder ${tag}` }).waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);

    await search.getByRole('button', { name: 'Clear' }).click();
    await table.getByRole('link', { name: ada }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(subscriberPath(stack.org.dev, ada));
    await page.getByRole('heading', { level: 1, name: `Ada Lovelace ${tag}` }).waitFor();
    // The inbox library is downloaded by the inbox tab only.
    expect(await inboxChunkLoaded(page)).toBe(false);
    expect(problems.errors).toEqual([]);
    expect(shared.problems.errors).toEqual([]);
  });

  it('pages through the results with cursors kept in the URL, beside the filter', async () => {
    const tag = rand();
    const first = await createSubscriber(stack.org.dev, { lastName: `Pager ${tag}` });
    await Promise.all(Array.from({ length: 20 }, () => createSubscriber(stack.org.dev, { lastName: `Pager ${tag}` })));
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `/console/env/${stack.org.dev.id}/subscribers?name=pager+${tag}`);
    const rows = page.getByRole('table').getByRole('row');
    await expect.poll(() => rows.count()).toBe(21); // the header and a page of 20, newest first

    await page.getByRole('link', { name: 'Next page →' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('after')).toBeTruthy();
    expect(new URL(page.url()).searchParams.get('name')).toBe(`pager ${tag}`);
    await page.getByRole('table').getByRole('link', { name: first }).waitFor();
    await expect.poll(() => rows.count()).toBe(2);

    await page.getByRole('link', { name: '← Previous page' }).click();
    await expect.poll(() => rows.count()).toBe(21);
    expect(await page.getByRole('table').getByRole('link', { name: first }).count()).toBe(0);
    expect(problems.errors).toEqual([]);
  });

  it('an unknown subscriber and an empty search say so', async () => {
    const nobody = `nobody-${rand()}`;
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `/console/env/${stack.org.dev.id}/subscribers`);
    await page.getByLabel('Open by subscriber ID').fill(nobody);
    await page.getByLabel('Open by subscriber ID').press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe(subscriberPath(stack.org.dev, nobody));
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('404');
    await page.goto(`${stack.api.url}/console/env/${stack.org.dev.id}/subscribers?email=nobody-${rand()}%40example.com`);
    await page.getByText('No subscriber matches these filters', { exact: false }).waitFor();
    // The 404 is the page's own fetch failing, which Chromium logs; nothing else may be.
    expect(problems.errors.filter((e) => !e.includes('404'))).toEqual([]);
  });

  it('is readable at a phone’s width: nothing wider than the screen but the tables, which scroll', async () => {
    const subscriberId = await createSubscriber(stack.org.dev, { firstName: 'Narrow', email: `narrow-${rand()}@example.com` });
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `/console/env/${stack.org.dev.id}/subscribers`, { width: 390 });
    await page.getByRole('table').getByRole('link', { name: subscriberId }).waitFor();
    const pageWidth = () => page.locator('html').evaluate((html) => html.scrollWidth);
    expect(await pageWidth()).toBeLessThanOrEqual(390);
    const shown = {
      profile: page.getByRole('form', { name: 'Profile' }),
      preferences: page.getByRole('table'),
      inbox: page.getByText('Quiet for now. Check back later.'),
    };
    for (const [tab, content] of Object.entries(shown)) {
      await page.goto(`${stack.api.url}${subscriberPath(stack.org.dev, subscriberId, tab)}`);
      await page.getByRole('heading', { level: 1, name: 'Narrow' }).waitFor();
      await content.waitFor();
      expect(await pageWidth(), tab).toBeLessThanOrEqual(390);
    }
    expect(problems.errors).toEqual([]);
  });

  it('saves the profile through PATCH, and shows the API’s error at a bad email', async () => {
    const subscriberId = await createSubscriber(stack.org.dev, { firstName: 'Old', email: 'old@example.com' });
    const { page, problems } = await stack.open(stack.org.dev.apiKey, subscriberPath(stack.org.dev, subscriberId));
    const form = page.getByRole('form', { name: 'Profile' });
    await expect.poll(() => form.getByLabel('First name').inputValue()).toBe('Old');

    await form.getByLabel('First name').fill('Grace');
    await form.getByLabel('Last name').fill('Hopper');
    await form.getByLabel('Time zone').fill('Europe/Berlin');
    await form.getByLabel('Data (JSON object)').fill('{"plan": "pro"}');
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByRole('status').getByText('Saved.').waitFor();
    expect(await storedSubscriber(stack.org.dev, subscriberId)).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      timezone: 'Europe/Berlin',
      data: { plan: 'pro' },
      email: 'old@example.com',
    });
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();

    const email = form.getByLabel('Email');
    await email.fill('not-an-email');
    await email.press('Enter');
    await form.getByText('email must be an email address').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.getAttribute('aria-describedby')).toBeTruthy();
    expect((await storedSubscriber(stack.org.dev, subscriberId)).email).toBe('old@example.com');
    // The refused PATCH (422) is logged by Chromium as a failed resource; nothing else may be.
    expect(problems.errors.filter((e) => !e.includes('422'))).toEqual([]);
  });

  it('switching a channel off stores the preference, for one workflow and globally', async () => {
    const name = `Digest ${rand()}`;
    const workflowId = await createWorkflow(
      stack.org.dev.client,
      [
        { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hi' } },
        { name: 'Email', stepId: 'email', type: 'email', controlValues: { subject: 'Hi', body: 'Hi' } },
      ],
      { name },
    );
    const subscriberId = await createSubscriber(stack.org.dev);
    const { page, problems } = await stack.open(stack.org.dev.apiKey, subscriberPath(stack.org.dev, subscriberId, 'preferences'));
    const stored = async () => (await stack.org.dev.client.get(`/v2/subscribers/${subscriberId}/preferences`)).body;

    const email = page.getByRole('switch', { name: `${name}: Email` });
    await expect.poll(() => email.isChecked()).toBe(true);
    await email.click();
    await expect.poll(() => email.isChecked()).toBe(false);
    await vi.waitFor(
      async () =>
        expect((await stored()).workflows.find((w: any) => w.workflow.identifier === workflowId)).toMatchObject({
          channels: { email: false, in_app: true },
        }),
      WAIT,
    );

    // The global row has the channels the environment's workflows use.
    const globalEmail = page.getByRole('switch', { name: 'All workflows (global): Email' });
    await globalEmail.click();
    await vi.waitFor(async () => expect((await stored()).global.channels.email).toBe(false), WAIT);
    await expect.poll(() => globalEmail.isChecked()).toBe(false);
    expect(await page.getByRole('switch', { name: 'All workflows (global): SMS' }).count()).toBe(0);

    // Read back from the server on a new load.
    await page.reload();
    await expect.poll(() => page.getByRole('switch', { name: `${name}: Email` }).isChecked()).toBe(false);
    expect(await page.getByRole('switch', { name: 'All workflows (global): Email' }).isChecked()).toBe(false);
    expect(await page.getByRole('switch', { name: `${name}: In-App` }).isChecked()).toBe(true);
    expect(problems.errors).toEqual([]);
  });

  it('lists the subscriber’s topics', async () => {
    const subscriberId = await createSubscriber(stack.org.dev);
    const key = `team-${rand()}`;
    expect((await stack.org.dev.client.post('/v2/topics', { key, name: 'The team' })).status).toBeLessThan(300);
    expect((await stack.org.dev.client.post(`/v2/topics/${key}/subscriptions`, { subscriberIds: [subscriberId] })).status).toBeLessThan(
      300,
    );
    const lonely = await createSubscriber(stack.org.dev);

    const { page, problems } = await stack.open(stack.org.dev.apiKey, subscriberPath(stack.org.dev, subscriberId, 'topics'));
    const row = page.getByRole('row').filter({ hasText: key });
    await row.getByRole('cell', { name: 'The team' }).waitFor();

    await page.goto(`${stack.api.url}${subscriberPath(stack.org.dev, lonely, 'topics')}`);
    await page.getByText('Not subscribed to any topic', { exact: false }).waitFor();
    expect(problems.errors).toEqual([]);
  });

  it('the inbox: a notification arrives live, and is marked read with the inbox’s own button (HMAC on)', async () => {
    // Production, with HMAC required: the inbox opens only with the hash the console computes.
    const env = stack.org.prod;
    const integrations = (await env.client.get('/v1/integrations')).body as { _id: string; channel: string; _environmentId: string }[];
    const inApp = integrations.find((i) => i.channel === 'in_app' && i._environmentId === env.id)!;
    expect((await env.client.put(`/v1/integrations/${inApp._id}`, { credentials: { hmac: true } })).status).toBe(200);
    const workflowId = await createWorkflow(env.client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { subject: '{{payload.subject}}', body: '{{payload.body}}' } },
    ]);
    const subscriberId = await createSubscriber(env, { firstName: 'Lin', lastName: 'Live' });

    const { page, problems } = await stack.open(env.apiKey, subscriberPath(env, subscriberId, 'inbox'));
    const inbox = page.getByRole('region', { name: 'Inbox' });
    await inbox.getByText('Quiet for now. Check back later.').waitFor();
    await vi.waitFor(async () => expect(await connectionsOf(env.scope, subscriberId, new Date())).toHaveLength(1), WAIT);

    await trigger(env.client, workflowId, subscriberId, { subject: 'Build finished', body: 'All 42 checks passed' });
    const item = inbox.locator('.nv-notification').filter({ has: page.getByText('Build finished', { exact: true }) });
    await item.waitFor({ timeout: CONSOLE_WAIT_MS });
    await inbox.getByText('All 42 checks passed').waitFor();
    await saveScreenshot(page, 'subscriber');

    await item.hover();
    const read = item.locator('.nv-notificationRead__button');
    await read.hover();
    await page.getByText('Mark as read', { exact: true }).waitFor();
    await read.click();
    await item.locator('.nv-notificationUnread__button').waitFor({ state: 'attached' });
    await vi.waitFor(
      async () =>
        expect((await messagesOf(env.client, subscriberId)).find((m) => m.subject === 'Build finished')).toMatchObject({ read: true }),
      WAIT,
    );

    expect(await inboxChunkLoaded(page)).toBe(true);
    // The signed session the console opened left the profile as it was.
    expect(await storedSubscriber(env, subscriberId)).toMatchObject({ firstName: 'Lin', lastName: 'Live' });
    // No CSP violation (Chromium logs each as a console error) nor any other error.
    expect(problems.errors).toEqual([]);
  });
});
