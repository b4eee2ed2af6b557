import type { Page } from 'playwright-core';
import { DEMO_WORKFLOW } from '#lib/workflows/demo.ts';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CONSOLE_WAIT_MS, openListedNotification, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { createWorkflow, rand, WAIT } from '../support/pipeline.ts';

// A newcomer's path through the console (issue 39, item 3): the empty Activity page offers the
// console's own test trigger; the demo workflow's test form fills the email its email step needs;
// the timeline speaks one vocabulary (events that happened are not "Pending", a sent in-app
// message beside a waiting digest says so) and human names (ids on hover); the workflow page's
// destructive and cross-environment actions ask first; breadcrumbs draw separators; subscribers
// are found by id; the navigation fits at 1280 px and scrolls in itself at 390 px.

const DIGEST_SECONDS = 8;
const POLL = { timeout: CONSOLE_WAIT_MS + DIGEST_SECONDS * 1000, interval: 250 };
const stack = useConsoleTestStack();
const base = () => `/console/env/${stack.org.dev.id}`;

beforeAll(async () => {
  // The demo workflow as `npm start` seeds it, its digest shortened so the email comes in the test.
  const steps = DEMO_WORKFLOW.steps!.map((step) =>
    step.stepId === 'collect' ? { ...step, controlValues: { amount: DIGEST_SECONDS, unit: 'seconds' } } : step,
  );
  expect((await stack.org.dev.client.post('/v2/workflows', { ...DEMO_WORKFLOW, steps })).status).toBe(201);
}, 120_000);

const jobOf = (page: Page, stepName: string) =>
  page.getByRole('list', { name: 'Jobs' }).getByRole('listitem').filter({ hasText: stepName });
const overflow = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

describe('console: a newcomer finds their way', { timeout: 120_000 }, () => {
  it('goes from the empty Activity page to a delivered demo workflow without naming an API call', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/activity`);
    await page.getByText('No notifications yet', { exact: false }).waitFor();
    expect(await page.locator('main').textContent()).not.toContain('POST /v1/events/trigger');
    await saveScreenshot(page, 'activity-empty');
    await page.getByRole('button', { name: 'Trigger a test event' }).click();
    await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(`${base()}/workflows/${DEMO_WORKFLOW.workflowId}/trigger`);

    // demo-user does not exist yet: the email the last step needs is filled in, and says why.
    await expect.poll(() => page.getByLabel('Email').inputValue(), POLL).toBe('demo-user@example.com');
    expect(await page.locator('#email-help').textContent()).toContain('Comments email');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('link', { name: 'See it in Activity' }).click();
    await openListedNotification(page, DEMO_WORKFLOW.name, POLL);

    // While the digest collects, the in-app message is already sent, and the status says both.
    await expect.poll(() => page.getByLabel('Notification status').textContent(), POLL).toBe('In-app sent, digest waiting');
    const inbox = jobOf(page, 'Comment in inbox');
    await expect.poll(() => inbox.textContent(), POLL).toMatch(/completed/);
    // Events that happened read "done", the API's word on hover; no "Pending" in a finished job.
    expect(await inbox.locator('.timeline-detail .badge').allTextContents()).not.toContain('Pending');
    expect(await inbox.locator('.timeline-detail .badge').first().getAttribute('title')).toBe('Pending');
    expect(await inbox.locator('.timeline-detail .badge').first().textContent()).toBe('done');
    // Human names, ids on hover.
    expect(await inbox.locator('.timeline-type [title="in_app"]').textContent()).toBe('In-app');
    expect(await inbox.locator('[title="svc"]').first().textContent()).toBe('Inbox');

    await expect.poll(() => page.getByLabel('Notification status').textContent(), POLL).toBe('completed');
    const email = jobOf(page, 'Comments email');
    await expect.poll(() => email.textContent(), POLL).toContain('to demo-user@example.com');
    expect(await email.locator('[title="svc-email"]').first().textContent()).toBe('Demo Email');
    await saveScreenshot(page, 'activity-timeline-demo');

    // The feed lists the channels it delivered on, not its digest.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Activity' }).click();
    const row = page.getByRole('row').filter({ hasText: DEMO_WORKFLOW.name }).first();
    await expect.poll(() => row.locator('td').nth(2).textContent(), POLL).toBe('In-app, Email');
    expect(problems.errors).toEqual([]);
  });

  it('says what the recipient is missing before sending, and sends nothing', async () => {
    const workflowId = await createWorkflow(stack.org.dev.client, [
      { name: 'Receipt', stepId: 'receipt', type: 'email', controlValues: { subject: 'Receipt', body: '<p>Thanks</p>' } },
      { name: 'Code', stepId: 'code', type: 'sms', controlValues: { body: 'Your code' } },
    ]);
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows/${workflowId}/trigger`);
    const triggers: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/events/trigger')) triggers.push(request.method());
    });
    const subscriberId = `new-${rand()}`;
    await page.getByLabel('Subscriber ID').fill(subscriberId);
    // Filled in for the new subscriber; a person clears it on purpose.
    await expect.poll(() => page.getByLabel('Email').inputValue(), POLL).toBe(`${subscriberId}@example.com`);
    await page.getByLabel('Email').fill('');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => page.locator('#email-help').textContent(), POLL).toContain('The step “Receipt” sends to an email address');
    expect(await page.locator('#phone-help').textContent()).toContain('The step “Code” sends to a phone number');
    expect(await page.getByLabel('Phone').getAttribute('aria-invalid')).toBe('true');
    expect(triggers).toEqual([]);
    expect(problems.errors).toEqual([]);
  });

  it('asks before deactivating, syncing to Production and deleting; the everyday action is the filled one', async () => {
    const workflowId = await createWorkflow(
      stack.org.dev.client,
      [{ name: 'Hello', stepId: 'hello', type: 'in_app', controlValues: { body: 'Hi' } }],
      {
        name: `Careful ${rand()}`,
      },
    );
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows/${workflowId}`);
    const trigger = page.getByRole('button', { name: 'Trigger a test event' });
    await trigger.waitFor();
    expect(await trigger.getAttribute('class')).toBeNull();
    for (const name of ['Deactivate', 'Delete', 'Sync']) {
      expect(await page.getByRole('button', { name, exact: true }).getAttribute('class')).toContain('outline');
    }

    // Deactivate: Cancel changes nothing, Escape too; confirming deactivates.
    await page.getByRole('button', { name: 'Deactivate', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible(), POLL).toBe(false);
    await page.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible(), POLL).toBe(false);
    expect((await stack.org.dev.client.get(`/v2/workflows/${workflowId}`)).body.active).toBe(true);
    await page.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('button', { name: 'Activate', exact: true }).waitFor();
    expect((await stack.org.dev.client.get(`/v2/workflows/${workflowId}`)).body.active).toBe(false);

    // Sync: nothing reaches Production until confirmed.
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await stack.org.prod.client.get(`/v2/workflows/${workflowId}`)).status).toBe(404);
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await dialog.getByRole('button', { name: 'Sync to Production' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), POLL).toContain('Synced to Production');
    expect((await stack.org.prod.client.get(`/v2/workflows/${workflowId}`)).status).toBe(200);

    // Delete, by keyboard: focus the button, Enter, Tab to the confirmation, Enter.
    await page.getByRole('button', { name: 'Delete', exact: true }).focus();
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Delete the workflow' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(`${base()}/workflows`);
    await vi.waitFor(async () => expect((await stack.org.dev.client.get(`/v2/workflows/${workflowId}`)).status).toBe(404), WAIT);
    expect(problems.errors).toEqual([]);
  });

  it('draws breadcrumb separators and finds a subscriber by id', async () => {
    const subscriberId = `find-me-${rand()}`;
    expect((await stack.org.dev.client.post('/v2/subscribers', { subscriberId, firstName: 'Findable' })).status).toBe(201);
    expect((await stack.org.dev.client.post('/v2/subscribers', { subscriberId: `${subscriberId}-2` })).status).toBe(201);
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows/${DEMO_WORKFLOW.workflowId}`);
    const crumb = page.getByRole('navigation', { name: 'breadcrumb' });
    await expect.poll(() => crumb.getByRole('listitem').count(), POLL).toBe(2);
    // The test's own tsconfig has no DOM types: the browser's function, typed where it is used.
    type Styles = { getComputedStyle(element: unknown, pseudo: string): { content: string } };
    const separator = await crumb
      .getByRole('listitem')
      .first()
      .evaluate((li) => (globalThis as unknown as Styles).getComputedStyle(li, '::after').content);
    expect(separator).toBe('">"');

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Subscribers' }).click();
    const search = page.getByRole('form', { name: 'Search subscribers' });
    await search.getByLabel('Subscriber ID').fill(subscriberId);
    await search.getByLabel('Subscriber ID').press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('subscriberId'), POLL).toBe(subscriberId);
    const rows = page.getByRole('table').getByRole('row');
    await expect.poll(() => rows.count(), POLL).toBe(2);
    expect(await rows.nth(1).textContent()).toContain('Findable');
    expect(problems.errors).toEqual([]);
  });

  it('fits the navigation on one line at 1280 px, and scrolls it in itself at 390 px', async () => {
    const wide = await stack.open(stack.org.dev.apiKey, `${base()}/workflows`);
    const nav = wide.page.getByRole('navigation', { name: 'Console' });
    // One line: every item's middle within a few pixels of the others'.
    const middles = () =>
      nav.getByRole('listitem').evaluateAll((items) =>
        items.map((item) => {
          const box = item.getBoundingClientRect();
          return box.top + box.height / 2;
        }),
      );
    const spread = async () => {
      const all = await middles();
      return Math.max(...all) - Math.min(...all);
    };
    await expect.poll(spread, POLL).toBeLessThan(8);
    await saveScreenshot(wide.page, 'navigation-1280');

    const narrow = await stack.open(stack.org.dev.apiKey, `${base()}/workflows`, { width: 390 });
    await narrow.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).waitFor();
    expect(await overflow(narrow.page)).toBe(0);
    // The last section is reachable: scrolled into view and opened by keyboard.
    await narrow.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).focus();
    await narrow.page.keyboard.press('Enter');
    await expect.poll(() => new URL(narrow.page.url()).pathname, POLL).toBe(`${base()}/webhooks`);
    expect(await overflow(narrow.page)).toBe(0);
    await saveScreenshot(narrow.page, 'navigation-390');
    expect(wide.problems.errors).toEqual([]);
    expect(narrow.problems.errors).toEqual([]);
  });
});
