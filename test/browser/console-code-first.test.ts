import type { Locator, Page } from 'playwright-core';
import { z } from 'zod/v3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBridgeApp, workflow, type BridgeApp } from '../support/bridge-app.ts';
import { CONSOLE_WAIT_MS, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { messagesOf, rand, settledOne, WAIT } from '../support/pipeline.ts';

// The console's view of a code-first workflow in a real browser: an @novu/framework app (strict
// authentication) synced into the environment, its mark in the list, its steps, payload schema
// and each step's control schema on its page, control values edited there (with the pointer and
// with the keyboard alone) and the next delivery carrying what they changed.

const stack = useConsoleTestStack();
let bridge: BridgeApp;

const releaseNotes = workflow(
  'release-notes',
  async ({ step, payload }) => {
    await step.inApp('announce', async (controls) => ({ subject: controls.subject, body: `Version ${payload.version} is ready` }), {
      controlSchema: z.object({ subject: z.string().default('Version {{payload.version}} is out') }),
    });
    await step.email(
      'mail',
      async (controls) => ({ subject: `Release ${payload.version}`, body: `<p>${controls.greeting}, ${payload.version} shipped.</p>` }),
      { controlSchema: z.object({ greeting: z.string().default('Hello'), signature: z.string().optional() }) },
    );
  },
  { name: 'Release notes', payloadSchema: z.object({ version: z.string().default('2.0.0') }) },
);

/** The bound of every wait on the page: a loaded machine answers slowly, never wrongly. */
const POLL = { timeout: CONSOLE_WAIT_MS };
const workflowsUrl = () => `/console/env/${stack.org.dev.id}/workflows`;
const stepCard = (page: Page, heading: string) => page.getByRole('article', { name: heading });

async function tabTo(page: Page, target: Locator, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((element) => element === element.ownerDocument.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** A subscriber with an email address, so the email step has somewhere to send. */
async function newSubscriber(): Promise<string> {
  const subscriberId = `cf-console-${rand()}`;
  const res = await stack.org.dev.client.post('/v1/subscribers', { subscriberId, email: `${subscriberId}@example.com` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return subscriberId;
}

beforeAll(async () => {
  bridge = await startBridgeApp(stack.org.dev.apiKey, [releaseNotes]);
  // What `npx novu sync --bridge-url <bridge>` sends (test/integration/code-first.test.ts runs the CLI itself).
  const synced = await stack.org.dev.client.post('/v1/bridge/sync?source=cli', { bridgeUrl: bridge.url });
  expect(synced.status, JSON.stringify(synced.body)).toBe(201);
}, 60_000);
afterAll(async () => {
  await bridge?.close();
});

describe('console: code-first workflows', () => {
  it('marks it, shows its steps, payload schema and control schemas, and edited control values reach the next delivery', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, workflowsUrl());
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Release notes', exact: true }) });
    await expect.poll(() => row.textContent(), POLL).toContain('code-first');
    await row.getByRole('link', { name: 'Release notes' }).click();

    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), POLL).toBe('Release notes');
    await expect.poll(() => page.locator('.code-first-note').textContent(), POLL).toContain('synced with npx novu sync');
    await expect.poll(() => page.getByRole('heading', { level: 3 }).allTextContents(), POLL).toEqual(['1. announce', '2. mail']);
    const announce = stepCard(page, '1. announce');
    // The kind by its human name, the API's id on hover.
    expect(await announce.locator('header [title="in_app"]').textContent()).toBe('In-app');
    const announceControls = announce.getByRole('definition').first();
    expect(await announceControls.textContent()).toContain('Version {{payload.version}} is out');
    const mailControls = page.getByLabel('Controls of mail');
    expect(await mailControls.textContent()).toMatch(/greeting.*string.*default.*Hello/s);
    expect(await mailControls.textContent()).toMatch(/signature.*string.*no default/s);
    const schema = page.locator('.workflow-schema');
    expect(JSON.parse((await schema.textContent())!)).toMatchObject({ properties: { version: { type: 'string', default: '2.0.0' } } });
    expect(await page.getByText('your app checks each payload against it').count()).toBe(1);
    await saveScreenshot(page, 'workflow-code-first');

    // A value the code's schema refuses: the API's 422 next to the editor, nothing stored.
    const mail = stepCard(page, '2. mail');
    const editor = mail.getByLabel('Control values (JSON)');
    await editor.fill('{ "greeting": 5 }');
    await mail.getByRole('button', { name: 'Save control values' }).click();
    await expect.poll(() => editor.getAttribute('aria-invalid'), POLL).toBe('true');
    const described = await editor.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toMatch(/^greeting: .*string/);
    expect((await stack.org.dev.client.get('/v2/workflows/release-notes/steps/mail')).body.controls.values).toEqual({});

    await editor.fill('{ "greeting": "Ahoy" }');
    await mail.getByRole('button', { name: 'Save control values' }).click();
    await expect.poll(() => mail.getByRole('status').textContent(), POLL).toContain('Saved');
    expect((await stack.org.dev.client.get('/v2/workflows/release-notes/steps/mail')).body.controls.values).toEqual({
      greeting: 'Ahoy',
    });

    // A test trigger from the console, as for any workflow: the payload comes from the code's schema.
    const subscriberId = await newSubscriber();
    await page.getByRole('button', { name: 'Trigger a test event' }).click();
    await page.getByLabel('Subscriber ID').fill(subscriberId);
    await expect.poll(async () => JSON.parse(await page.getByLabel('Payload').inputValue()), POLL).toEqual({ version: '2.0.0' });
    await page.getByRole('button', { name: 'Send test event' }).click();
    const link = page.getByRole('link', { name: 'See it in Activity' });
    await expect.poll(() => link.isVisible(), POLL).toBe(true);
    const transactionId = new URL((await link.getAttribute('href'))!, stack.api.url).searchParams.get('transactionId')!;

    const notification = await settledOne(stack.org.dev.client, transactionId);
    expect(notification.jobs.map((j: any) => [j.step.name, j.status])).toEqual([
      ['announce', 'completed'],
      ['mail', 'completed'],
    ]);
    const [email] = await messagesOf(stack.org.dev.client, subscriberId, 'email');
    expect(email.subject).toBe('Release 2.0.0');
    expect(email.content).toContain('<p>Ahoy, 2.0.0 shipped.</p>');
    const [inApp] = await messagesOf(stack.org.dev.client, subscriberId);
    expect(inApp.subject).toBe('Version 2.0.0 is out');
    expect(problems.errors.filter((error) => !error.includes('status of 422'))).toEqual([]);
  }, 90_000);

  it('edits a control value with the keyboard alone, and the next in-app message carries it', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${workflowsUrl()}/release-notes`);
    const announce = stepCard(page, '1. announce');
    const editor = announce.getByLabel('Control values (JSON)');
    await expect.poll(() => editor.isVisible(), POLL).toBe(true);
    await tabTo(page, editor);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('{ "subject": "Typed: {{payload.version}}" }');
    await tabTo(page, announce.getByRole('button', { name: 'Save control values' }));
    await page.keyboard.press('Enter');
    await expect.poll(() => announce.getByRole('status').textContent(), POLL).toContain('Saved');

    const subscriberId = await newSubscriber();
    const res = await stack.org.dev.client.post('/v1/events/trigger', {
      name: 'release-notes',
      to: subscriberId,
      payload: { version: '3.1' },
    });
    expect(res.status).toBe(201);
    const [inApp] = await vi.waitFor(async () => {
      const found = await messagesOf(stack.org.dev.client, subscriberId);
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    expect(inApp.subject).toBe('Typed: 3.1');
    expect(problems.errors).toEqual([]);
  }, 60_000);

  it('is readable at a phone’s width: the code-first page does not scroll sideways', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${workflowsUrl()}/release-notes`, { width: 390 });
    await expect.poll(() => page.getByRole('heading', { level: 3 }).count(), POLL).toBe(2);
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(await overflow()).toBe(0);
    await page.getByText('Control schema (JSON)').first().click();
    expect(await overflow()).toBe(0);
    await saveScreenshot(page, 'workflow-code-first-phone');
    expect(problems.errors).toEqual([]);
  });
});
