import { Novu } from '@novu/api';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_WAIT_MS, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { rand } from '../support/pipeline.ts';

// The console's integrations views in a real browser: the environment's integrations by
// channel, a new one made through the provider's credential form (refused first, at the field,
// then created), made primary, deactivated and deleted; what the API holds is read through
// @novu/api after each step.

const stack = useConsoleTestStack();
let novu: Novu;

beforeAll(async () => {
  novu = new Novu({ secretKey: stack.org.dev.apiKey, serverURL: stack.api.url });
}, 120_000);

const listPath = () => `/console/env/${stack.org.dev.id}/integrations`;

/** The development environment's integrations as the API lists them. */
async function devIntegrations() {
  const { result } = await novu.integrations.list();
  return result.filter((integration) => integration.environmentId === stack.org.dev.id);
}

const byIdentifier = async (identifier: string) => (await devIntegrations()).find((i) => i.identifier === identifier);

/** The table of one channel on the list page. */
const channelTable = (page: Page, channel: string) => page.getByRole('table', { name: channel, exact: true });

/** Presses Tab until `target` has the focus (at most `limit` times). */
async function tabTo(page: Page, target: Locator, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((element) => element === element.ownerDocument.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** Page errors, without the console's note of the 422 the test asked for on purpose. */
const unexpected = (errors: string[]) => errors.filter((error) => !/status of 422/.test(error));

describe('console integrations', () => {
  it('lists the environment’s default integrations by channel, one channel when the URL says so', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, listPath());
    await expect.poll(() => channelTable(page, 'Email').getByRole('row').count(), { timeout: CONSOLE_WAIT_MS }).toBe(2);
    const emailRow = channelTable(page, 'Email').getByRole('row', { name: /Demo Email/ });
    expect(await emailRow.textContent()).toMatch(/Demo Email.*Active.*Primary/);
    expect(
      await channelTable(page, 'SMS')
        .getByRole('row', { name: /Demo SMS/ })
        .textContent(),
    ).toMatch(/Active.*Primary/);
    expect(await channelTable(page, 'In-app').getByRole('row', { name: /Inbox/ }).textContent()).toContain('Active');
    // Channels without an integration say how to add one; other environments' integrations stay out.
    expect(await page.getByRole('region', { name: 'Push' }).textContent()).toContain('No Push integration');
    const ids = new Set((await devIntegrations()).map((i) => i.id));
    const links = await page
      .getByRole('table')
      .getByRole('link')
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
    expect(links.map((href) => decodeURIComponent(href!.split('/').pop()!)).sort()).toEqual([...ids].sort());

    await page.getByLabel('Channel').selectOption({ label: 'SMS' });
    await expect.poll(() => new URL(page.url()).search).toBe('?channel=sms');
    await expect.poll(() => page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['SMS']);
    // The filtered URL, opened afresh, shows the same view.
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['SMS']);
    expect(problems.errors).toEqual([]);
  });

  it('creates SendGrid through its form (refused at the field first), sets it primary, deactivates, edits and deletes it', async () => {
    const identifier = `sendgrid-${rand()}`;
    const { page, problems } = await stack.open(stack.org.dev.apiKey, listPath());
    await page.getByRole('link', { name: 'New integration' }).click();
    await page.getByRole('list', { name: 'Channels' }).getByRole('link', { name: 'Email' }).click();
    await page.getByRole('list', { name: 'Providers' }).getByRole('link', { name: 'SendGrid' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?channel=email&providerId=sendgrid');

    // The catalogue's fields: display names as labels, secrets hidden, required ones marked.
    const apiKey = page.getByLabel('API Key');
    expect(await apiKey.getAttribute('type')).toBe('password');
    expect(await page.locator('label[for="credential-apiKey"]').textContent()).toContain('(required)');
    expect(await page.locator('label[for="credential-region"]').textContent()).not.toContain('(required)');
    await page.getByLabel('Name', { exact: true }).fill('Marketing mail');
    await page.getByLabel('Identifier').fill(identifier);
    await page.getByLabel('From email address').fill('news@example.com');
    await page.getByLabel('Sender name').fill('Example News');
    await saveScreenshot(page, 'integration-new');

    // No API key on an active integration: the API's message at the field, nothing created.
    await page.getByRole('button', { name: 'Create integration' }).click();
    await expect
      .poll(() => page.locator('#credential-apiKey-error').textContent(), { timeout: CONSOLE_WAIT_MS })
      .toContain('apiKey is required by SendGrid');
    expect(await apiKey.getAttribute('aria-invalid')).toBe('true');
    expect(await byIdentifier(identifier)).toBeUndefined();

    await apiKey.fill('SG.secret-key');
    await page.getByRole('button', { name: 'Create integration' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: CONSOLE_WAIT_MS }).toBe('Marketing mail');
    const created = await byIdentifier(identifier);
    expect(created).toMatchObject({
      providerId: 'sendgrid',
      channel: 'email',
      name: 'Marketing mail',
      active: true,
      primary: false,
      credentials: { apiKey: 'SG.secret-key', from: 'news@example.com', senderName: 'Example News' },
    });
    expect(new URL(page.url()).pathname).toBe(`${listPath()}/${created!.id}`);
    // The secret the API returns is shown only in a password field.
    expect(await page.getByLabel('API Key').inputValue()).toBe('SG.secret-key');
    expect(await page.getByLabel('API Key').getAttribute('type')).toBe('password');

    await page.getByRole('button', { name: 'Set as primary' }).click();
    await expect.poll(async () => (await byIdentifier(identifier))?.primary, { timeout: CONSOLE_WAIT_MS }).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Set as primary' }).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Integrations' }).click();
    const row = channelTable(page, 'Email').getByRole('row', { name: /Marketing mail/ });
    await expect.poll(() => row.textContent(), { timeout: CONSOLE_WAIT_MS }).toMatch(/SendGrid.*Active.*Primary/);
    expect(
      await channelTable(page, 'Email')
        .getByRole('row', { name: /Demo Email/ })
        .textContent(),
    ).not.toContain('Primary');
    await saveScreenshot(page, 'integrations');

    await row.getByRole('link', { name: 'Marketing mail' }).click();
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Activate', exact: true }).count(), { timeout: CONSOLE_WAIT_MS }).toBe(1);
    expect(await byIdentifier(identifier)).toMatchObject({ active: false, primary: false });
    expect(await page.locator('dl.facts').textContent()).toContain('Inactive');

    // The edit form starts from what is stored; a save keeps the credentials it did not touch.
    await page.getByLabel('Name', { exact: true }).fill('Newsletter');
    await page.getByLabel('IP Pool Name').fill('pool-a');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: CONSOLE_WAIT_MS }).toBe('Newsletter');
    expect(await byIdentifier(identifier)).toMatchObject({
      name: 'Newsletter',
      active: false,
      credentials: { apiKey: 'SG.secret-key', from: 'news@example.com', senderName: 'Example News', ipPoolName: 'pool-a' },
    });

    // Delete asks first: cancelling keeps it, confirming removes it and returns to the list.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Newsletter?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await byIdentifier(identifier)).toBeDefined();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete integration' }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: CONSOLE_WAIT_MS }).toBe(listPath());
    expect(await byIdentifier(identifier)).toBeUndefined();
    await expect
      .poll(() =>
        channelTable(page, 'Email')
          .getByRole('row', { name: /Newsletter/ })
          .count(),
      )
      .toBe(0);
    expect(unexpected(problems.errors)).toEqual([]);
  }, 90_000);

  it('the create flow works with Tab and Enter only', async () => {
    const identifier = `postmark-${rand()}`;
    const { page, problems } = await stack.open(stack.org.dev.apiKey, listPath());
    await expect.poll(() => channelTable(page, 'Email').isVisible(), { timeout: CONSOLE_WAIT_MS }).toBe(true);
    await tabTo(page, page.getByRole('link', { name: 'New integration' }));
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByRole('list', { name: 'Channels' }).getByRole('link', { name: 'Email' }));
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByRole('list', { name: 'Providers' }).getByRole('link', { name: 'Postmark' }));
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByLabel('Identifier'));
    await page.keyboard.type(identifier);
    await tabTo(page, page.getByLabel('API Key'));
    await page.keyboard.type('pm-token');
    await tabTo(page, page.getByLabel('From email address'));
    await page.keyboard.type('hello@example.com');
    await tabTo(page, page.getByLabel('Sender name'));
    await page.keyboard.type('Hello');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: CONSOLE_WAIT_MS }).toBe('Postmark');
    expect(await byIdentifier(identifier)).toMatchObject({
      providerId: 'postmark',
      active: true,
      credentials: { apiKey: 'pm-token', from: 'hello@example.com', senderName: 'Hello' },
    });
    expect(problems.errors).toEqual([]);
  }, 90_000);

  it('says when a connection test was asked for a provider the API cannot test, and why activating it is refused', async () => {
    const identifier = `mailgun-${rand()}`;
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${listPath()}/new?channel=email&providerId=mailgun`);
    await page.getByLabel('Identifier').fill(identifier);
    // Inactive, so its credentials may wait; the API still answers the connection test.
    await page.getByLabel('Active').uncheck();
    await page.getByLabel('Test the connection before saving').check();
    await page.getByRole('button', { name: 'Create integration' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent(), { timeout: CONSOLE_WAIT_MS })
      .toBe('mailgun has no call that tests credentials without sending anything: they were not checked');
    expect(await byIdentifier(identifier)).toMatchObject({ providerId: 'mailgun', active: false });

    // Activating it without its credentials: the API's refusal, naming what is missing.
    await page.getByRole('button', { name: 'Activate', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: CONSOLE_WAIT_MS }).toContain('The action failed (422)');
    expect(await page.locator('ul.field-error').textContent()).toContain(
      'credentials.apiKey: apiKey is required by Mailgun when the integration is active',
    );
    expect(await byIdentifier(identifier)).toMatchObject({ active: false });
    expect(unexpected(problems.errors)).toEqual([]);
  });

  it('shows an integration’s conditions as sentences, no primary action off email and SMS, and an unknown id as not found', async () => {
    const identifier = `discord-${rand()}`;
    const made = await stack.org.dev.client.post('/v1/integrations', {
      providerId: 'discord',
      channel: 'chat',
      identifier,
      active: true,
      conditions: [
        {
          isNegated: false,
          type: 'GROUP',
          value: 'AND',
          children: [
            { on: 'tenant', field: 'identifier', operator: 'EQUAL', value: 'acme' },
            { on: 'payload', field: 'plan', operator: 'NOT_EQUAL', value: 'free' },
          ],
        },
      ],
    });
    expect(made.status).toBe(201);
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${listPath()}/${made.body.data._id}`);
    const conditions = page.locator('ol.conditions');
    await expect
      .poll(() => conditions.textContent(), { timeout: CONSOLE_WAIT_MS })
      .toBe('tenant.identifier is "acme" AND payload.plan is not "free"');
    expect(await page.getByRole('button', { name: 'Set as primary' }).count()).toBe(0);
    expect(await page.getByText('Discord needs no credentials.').isVisible()).toBe(true);

    await page.goto(`${stack.api.url}${listPath()}?channel=chat`);
    await expect
      .poll(
        () =>
          channelTable(page, 'Chat')
            .getByRole('row', { name: new RegExp(identifier) })
            .textContent(),
        { timeout: CONSOLE_WAIT_MS },
      )
      .toMatch(/Discord.*Active.*1$/);

    await page.goto(`${stack.api.url}${listPath()}/no-such-integration`);
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: CONSOLE_WAIT_MS }).toContain('Integration not found');
    expect(problems.errors).toEqual([]);
  });

  it('stays readable at a phone’s width: the page does not scroll sideways', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, listPath(), { width: 390 });
    await expect.poll(() => channelTable(page, 'Email').isVisible(), { timeout: CONSOLE_WAIT_MS }).toBe(true);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.goto(`${stack.api.url}${listPath()}/new?channel=email&providerId=sendgrid`);
    await expect.poll(() => page.getByLabel('API Key').isVisible(), { timeout: CONSOLE_WAIT_MS }).toBe(true);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(problems.errors).toEqual([]);
  });
});
