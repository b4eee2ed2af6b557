import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CONSOLE_WAIT_MS, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { activity, createWorkflow, rand, WAIT } from '../support/pipeline.ts';

// The console's workflows views in a real browser: the list and its search, a workflow's steps
// and issues, switching it off and on, syncing it to Production, and triggering a test event with
// the payload generated from its payload schema.

const stack = useConsoleTestStack();
const tag = `team-${rand()}`;
let shipped: string; // a workflow with a payload schema
let digest: string; // a workflow whose email subject names a variable no step provides: an issue

const payloadSchema = {
  type: 'object',
  properties: {
    orderId: { type: 'string', examples: ['ord_1001'] },
    total: { type: 'number', default: 42.5 },
    items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, quantity: { type: 'integer', default: 1 } } } },
  },
  required: ['orderId'],
};

beforeAll(async () => {
  const client = stack.org.dev.client;
  shipped = await createWorkflow(
    client,
    [
      {
        name: 'Inbox notice',
        stepId: 'notice',
        type: 'in_app',
        controlValues: { subject: 'Order {{payload.orderId}} shipped', body: 'Total: {{payload.total}}' },
      },
    ],
    { name: 'Order shipped', tags: [tag, 'orders'], payloadSchema, validatePayload: true },
  );
  digest = await createWorkflow(
    client,
    [
      { name: 'Comment in inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'New comment' } },
      { name: 'Collect comments', stepId: 'collect', type: 'digest', controlValues: { amount: 5, unit: 'minutes' } },
      {
        name: 'Comments email',
        stepId: 'summary',
        type: 'email',
        controlValues: { subject: 'Comments on {{post.title}}', body: '<p>{{steps.collect.eventCount}} new comments</p>' },
      },
    ],
    { name: 'Comments digest', tags: [tag] },
  );
  await createWorkflow(client, [{ name: 'Text', stepId: 'text', type: 'sms', controlValues: { body: 'Your code' } }], {
    name: 'Login code',
    tags: ['auth'],
  });
}, 120_000);

/** The bound of every wait on the page: a loaded machine answers slowly, never wrongly. */
const POLL = { timeout: CONSOLE_WAIT_MS };
const workflowsUrl = () => `/console/env/${stack.org.dev.id}/workflows`;
const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });

describe('console workflows', () => {
  it('lists the workflows with status and issues, and searches with the search in the URL', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, workflowsUrl());
    await expect.poll(() => page.getByRole('row').count(), POLL).toBe(4);
    await expect.poll(() => rowOf(page, 'Comments digest').textContent(), POLL).toContain('Has issues');
    await expect.poll(() => rowOf(page, 'Order shipped').textContent(), POLL).toContain('active');
    await saveScreenshot(page, 'workflows');

    await page.getByLabel('Search workflows').fill(tag);
    await page.getByLabel('Search workflows').press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('query'), POLL).toBe(tag);
    await expect.poll(() => page.getByRole('row').count(), POLL).toBe(3);
    expect(await rowOf(page, 'Login code').count()).toBe(0);

    // The URL alone opens the same rows.
    await page.reload();
    await expect.poll(() => page.getByRole('row').count(), POLL).toBe(3);
    expect(await page.getByLabel('Search workflows').inputValue()).toBe(tag);

    await page.getByRole('link', { name: 'Comments digest' }).click();
    await expect.poll(() => page.url(), POLL).toContain(`/workflows/${digest}`);
    expect(problems.errors).toEqual([]);
  });

  it('shows a workflow’s steps in order with their controls and the issue of the email naming an unknown variable', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${workflowsUrl()}/${digest}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), POLL).toBe('Comments digest');
    const steps = page.getByRole('heading', { level: 3 });
    await expect.poll(() => steps.allTextContents(), POLL).toEqual(['1. Comment in inbox', '2. Collect comments', '3. Comments email']);
    const delay = page.getByRole('article', { name: '2. Collect comments' });
    await expect.poll(() => delay.textContent(), POLL).toContain('5 minutes');
    const email = page.getByRole('article', { name: '3. Comments email' });
    await expect
      .poll(() => email.getByRole('list', { name: 'Issues of Comments email' }).textContent(), POLL)
      .toContain('subject: Variable post.title is not available here');
    await expect.poll(() => email.textContent(), POLL).toContain('{{steps.collect.eventCount}} new comments');
    await saveScreenshot(page, 'workflow');
    expect(problems.errors).toEqual([]);
  });

  it('is readable at a phone’s width: only the table scrolls sideways, not the page', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, workflowsUrl(), { width: 390 });
    await expect.poll(() => page.getByRole('row').count(), POLL).toBe(4);
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(await overflow()).toBe(0);
    await page.getByRole('link', { name: 'Comments digest' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 3 }).count(), POLL).toBe(3);
    expect(await overflow()).toBe(0);
    expect(problems.errors).toEqual([]);
  });

  it('deactivates and activates a workflow, and the list shows it', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${workflowsUrl()}/${shipped}`);
    await page.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Activate', exact: true }).isVisible(), POLL).toBe(true);
    expect((await stack.org.dev.client.get(`/v2/workflows/${shipped}`)).body.active).toBe(false);

    await page.getByRole('link', { name: 'Workflows' }).last().click();
    await expect.poll(() => rowOf(page, 'Order shipped').textContent(), POLL).toContain('inactive');

    await page.getByRole('link', { name: 'Order shipped' }).click();
    await page.getByRole('button', { name: 'Activate', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Deactivate', exact: true }).isVisible(), POLL).toBe(true);
    await page.getByRole('link', { name: 'Workflows' }).last().click();
    await expect.poll(() => rowOf(page, 'Order shipped').textContent(), POLL).not.toContain('inactive');
    expect((await stack.org.dev.client.get(`/v2/workflows/${shipped}`)).body.active).toBe(true);
    expect(problems.errors).toEqual([]);
  });

  it('syncs a workflow to Production with the Development key', async () => {
    expect((await stack.org.prod.client.get(`/v2/workflows/${shipped}`)).status).toBe(404);
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${workflowsUrl()}/${shipped}`);
    await page.getByLabel('Sync to another environment').selectOption({ label: 'Production' });
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sync to Production' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), POLL).toContain('Synced to Production');
    const copy = await stack.org.prod.client.get(`/v2/workflows/${shipped}`);
    expect(copy.status).toBe(200);
    expect(copy.body.name).toBe('Order shipped');
    expect(problems.errors).toEqual([]);
  });

  it('shows the API’s refusal to sync a workflow made through v1', async () => {
    const group = (await stack.org.dev.client.get('/v1/notification-groups')).body.data[0]._id;
    const created = await stack.org.dev.client.post('/v1/notification-templates', {
      name: 'Legacy welcome',
      notificationGroupId: group,
      steps: [{ template: { type: 'in_app', content: 'Hi' } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${workflowsUrl()}/${created.body.data._id}`);
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sync to Production' }).click();
    await expect
      .poll(() => page.getByRole('dialog').getByRole('alert').textContent(), POLL)
      .toContain("Cannot sync workflow: origin 'svc-cloud-v1' is not allowed");
    expect((await stack.org.prod.client.get(`/v2/workflows/${created.body.data._id}`)).status).toBe(404);
    expect(problems.errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
  });

  it('triggers a test event with the payload generated from the schema and links to its activity', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${workflowsUrl()}/${shipped}`);
    await page.getByRole('button', { name: 'Trigger a test event' }).click();
    await expect.poll(() => page.url(), POLL).toContain(`/workflows/${shipped}/trigger`);
    expect(await page.getByLabel('Subscriber ID').inputValue()).toBe('demo-user');
    const subscriberId = `sub-${rand()}`;
    await page.getByLabel('Subscriber ID').fill(subscriberId);
    await expect
      .poll(async () => JSON.parse(await page.getByLabel('Payload').inputValue()), POLL)
      .toEqual({ orderId: 'ord_1001', total: 42.5, items: [{ sku: 'sku', quantity: 1 }] });

    await page.getByRole('button', { name: 'Send test event' }).click();
    const link = page.getByRole('link', { name: 'See it in Activity' });
    await expect.poll(() => link.isVisible(), POLL).toBe(true);
    const href = new URL((await link.getAttribute('href'))!, stack.api.url);
    expect(href.pathname).toBe(`/console/env/${stack.org.dev.id}/activity`);
    const transactionId = href.searchParams.get('transactionId')!;
    expect(await page.getByRole('status').textContent()).toContain(transactionId);
    await saveScreenshot(page, 'workflow-trigger');

    const [notification] = await vi.waitFor(async () => {
      const items = await activity(stack.org.dev.client, transactionId);
      expect(items).toHaveLength(1);
      return items;
    }, WAIT);
    expect(notification.subscriber.subscriberId).toBe(subscriberId);
    expect(notification.payload).toEqual({ orderId: 'ord_1001', total: 42.5, items: [{ sku: 'sku', quantity: 1 }] });
    expect(problems.errors).toEqual([]);
  });

  it('shows invalid JSON next to the payload and sends nothing', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${workflowsUrl()}/${shipped}/trigger`);
    const triggers: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/events/trigger')) triggers.push(request.method());
    });
    await page.getByLabel('Payload').fill('{ "orderId": ');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => page.getByLabel('Payload').getAttribute('aria-invalid'), POLL).toBe('true');
    const described = await page.getByLabel('Payload').getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain('Not valid JSON');
    expect(triggers).toEqual([]);
    expect(await page.getByRole('link', { name: 'See it in Activity' }).count()).toBe(0);

    // A payload the workflow's schema refuses: the API's message, next to the same field.
    await page.getByLabel('Payload').fill('{ "total": 1 }');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => page.locator('#payload-error').textContent(), POLL).toContain('orderId');
    expect(triggers).toEqual(['POST']);
    expect(problems.errors.filter((error) => !error.includes('status of 4'))).toEqual([]);
  });
});
