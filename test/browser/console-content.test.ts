import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { downloadedText, type PageProblems } from '../support/browser.ts';
import { CONSOLE_WAIT_MS, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { createWorkflow, rand, trigger } from '../support/pipeline.ts';
import { startFakeApi, type FakeApi } from '../support/provider-servers.ts';

// The console's layouts, translations and webhooks views in a real browser, each along the path a
// person takes: create a layout and see it rendered, edit a locale's JSON, register a webhook
// endpoint and watch its deliveries. What the page did is checked through the API as well.

// Webhook deliveries go through the table's stream and two queues: more than the default 30 s.
vi.setConfig({ testTimeout: 120_000 });
const POLL = { timeout: CONSOLE_WAIT_MS * 2, interval: 250 };

const stack = useConsoleTestStack();
let receiver: FakeApi;

beforeAll(async () => {
  receiver = await startFakeApi();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
});

/** The page's errors, less Chromium's own line for an API answer the test asked for (a refusal it then reads on the page). */
function unexpectedErrors(problems: PageProblems, expectedStatuses: number[] = []): string[] {
  return problems.errors.filter(
    (error) =>
      !expectedStatuses.some((status) => error.includes(`Failed to load resource: the server responded with a status of ${status}`)),
  );
}

/** Whether the view fits a phone's width (390 px) without the page scrolling sideways; wide tables scroll in their own box. */
async function fitsPhoneWidth(page: Page): Promise<boolean> {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    return await page.evaluate(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth <= 390,
    );
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}

const envPath = (area: string) => `/console/env/${stack.org.dev.id}/${area}`;
const heading = (page: Page) => page.getByRole('heading', { level: 1 });

describe('console: layouts', () => {
  it('creates a layout from a form and shows its preview in a sandboxed frame; a layout in use is not deleted', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, envPath('layouts'));
    await expect.poll(() => page.getByRole('link', { name: 'Default layout' }).isVisible(), POLL).toBe(true);

    const id = `brand-${rand()}`;
    await page.getByText('New layout').click();
    await page.getByLabel('Name', { exact: true }).fill(`Brand ${id}`);
    await page.getByLabel('Identifier (layoutId)').fill(id);
    await page
      .getByLabel('HTML (optional)')
      .fill(
        '<html><body><h1 style="color:#4338ca">Acme news</h1><div>{{content}}</div>' +
          '<footer>Sent to {{subscriber.firstName}}</footer><script>parent.hacked = 1</script></body></html>',
      );
    await page.getByRole('button', { name: 'Create layout' }).click();

    await expect.poll(() => page.url(), POLL).toContain(`/layouts/${id}`);
    await expect.poll(() => heading(page).textContent(), POLL).toContain(`Brand ${id}`);
    const frame = page.locator(`iframe[title="Preview of Brand ${id}"]`);
    expect(await frame.getAttribute('sandbox')).toBe('');
    await expect.poll(() => frame.contentFrame().getByRole('heading', { name: 'Acme news' }).isVisible(), POLL).toBe(true);
    expect(await page.evaluate(() => (globalThis as { hacked?: number }).hacked)).toBeUndefined();
    const stored = await stack.org.dev.client.get(`/v2/layouts/${id}`);
    expect(stored.body.controls.values.email).toMatchObject({ editorType: 'html', body: expect.stringContaining('Acme news') });
    await expect.poll(() => page.getByText("No workflow's email step names this layout.").isVisible(), POLL).toBe(true);
    await saveScreenshot(page, 'layouts');
    expect(await fitsPhoneWidth(page)).toBe(true);

    // Edited: stored through PUT, and the preview rendered again.
    await page.getByText('Edit', { exact: true }).click();
    await page.getByLabel('Content').fill('<html><body><h1>Acme weekly</h1>{{content}}</body></html>');
    await page.getByRole('button', { name: 'Save layout' }).click();
    await expect.poll(() => frame.contentFrame().getByRole('heading', { name: 'Acme weekly' }).isVisible(), POLL).toBe(true);
    expect((await stack.org.dev.client.get(`/v2/layouts/${id}`)).body.controls.values.email.body).toContain('Acme weekly');

    // Named by a workflow's email step: listed under "Used by", and the delete is refused with the API's reason.
    const workflowId = await createWorkflow(stack.org.dev.client, [
      { name: 'Mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hi</p>', layoutId: id } },
    ]);
    await page.reload();
    await expect.poll(() => page.getByRole('link', { name: workflowId }).isVisible(), POLL).toBe(true);
    await page.getByRole('button', { name: 'Delete layout' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete Brand ${id}?` });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect
      .poll(() => dialog.getByRole('alert').textContent(), POLL)
      .toContain(`Layout with id ${id} is used by a workflow, it can not be deleted`);
    expect((await stack.org.dev.client.get(`/v2/layouts/${id}`)).status).toBe(200);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A duplicate is not in use: it is deleted, and the list no longer has it.
    await page.getByText('Duplicate', { exact: true }).click();
    await page.getByLabel('Identifier of the copy').fill(`${id}-copy`);
    await page.getByRole('button', { name: 'Duplicate layout' }).click();
    await expect.poll(() => page.url(), POLL).toContain(`/layouts/${id}-copy`);
    await page.getByRole('button', { name: 'Delete layout' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(envPath('layouts'));
    expect((await stack.org.dev.client.get(`/v2/layouts/${id}-copy`)).status).toBe(404);

    // The search is in the URL: a copied link opens the same list.
    await page.getByRole('searchbox').fill(id);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.url(), POLL).toContain(`query=${id}`);
    await expect.poll(() => page.getByRole('row').count(), POLL).toBe(2);
    expect(unexpectedErrors(problems, [409])).toEqual([]);
  });
});

describe('console: translations', () => {
  it(
    'edits a locale’s JSON and stores it, refuses invalid JSON in ' + 'the page, adds and deletes a locale, downloads the master JSON',
    async () => {
      const workflowId = await createWorkflow(
        stack.org.dev.client,
        [{ name: 'Inbox', type: 'in_app', controlValues: { body: '{{t.greeting}}' } }],
        { isTranslationEnabled: true },
      );
      const put = await stack.org.dev.client.post('/v2/translations', {
        resourceType: 'workflow',
        resourceId: workflowId,
        locale: 'en_US',
        content: { greeting: 'Hello' },
      });
      expect(put.status).toBe(200);
      const stored = async (locale: string) =>
        (await stack.org.dev.client.get(`/v2/translations/workflow/${workflowId}/${locale}`)).body.data?.content;

      const { page, problems } = await stack.open(stack.org.dev.apiKey, envPath('translations'));
      await page.getByRole('link', { name: workflowId }).click();
      await expect.poll(() => page.getByRole('link', { name: 'en_US' }).getAttribute('aria-current'), POLL).toBe('page');
      const editor = page.getByLabel('Texts of en_US (JSON)');
      await expect.poll(async () => JSON.parse(await editor.inputValue()), POLL).toEqual({ greeting: 'Hello' });

      // Invalid JSON is refused in the page: the field says why and nothing is sent.
      await editor.fill('{"greeting": "Hallo",');
      await page.getByRole('button', { name: 'Save en_US' }).click();
      await expect.poll(() => editor.getAttribute('aria-invalid'), POLL).toBe('true');
      expect(await page.getByText('Not valid JSON').isVisible()).toBe(true);
      await editor.fill('["not", "an object"]');
      await page.getByRole('button', { name: 'Save en_US' }).click();
      await expect.poll(() => page.getByText('The content must be a JSON object').isVisible(), POLL).toBe(true);
      expect(await stored('en_US')).toEqual({ greeting: 'Hello' });

      await editor.fill('{"greeting": "Hello {{subscriber.firstName}}", "email": {"subject": "Your order"}}');
      await page.getByRole('button', { name: 'Save en_US' }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).isVisible(), POLL).toBe(true);
      expect(await editor.getAttribute('aria-invalid')).toBeNull();
      expect(await stored('en_US')).toEqual({ greeting: 'Hello {{subscriber.firstName}}', email: { subject: 'Your order' } });
      await saveScreenshot(page, 'translations');
      expect(await fitsPhoneWidth(page)).toBe(true);

      // A locale the API does not know: its 422 is shown with the API's message.
      await page.getByLabel('Locale to open').fill('xx_XX');
      await page.getByRole('button', { name: 'Open locale' }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), POLL).toContain('422');

      // A new locale: opened empty, saved, listed; then deleted.
      await page.getByLabel('Locale to open').fill('de_DE');
      await page.getByRole('button', { name: 'Open locale' }).click();
      await expect.poll(() => page.url(), POLL).toContain('locale=de_DE');
      await expect.poll(() => page.getByText('Not saved yet').isVisible(), POLL).toBe(true);
      await page.getByLabel('Texts of de_DE (JSON)').fill('{"greeting": "Hallo"}');
      await page.getByRole('button', { name: 'Save de_DE' }).click();
      await expect
        .poll(() => page.getByRole('navigation', { name: 'Locales' }).getByRole('link', { name: 'de_DE' }).isVisible(), POLL)
        .toBe(true);
      expect(await stored('de_DE')).toEqual({ greeting: 'Hallo' });
      await page.getByRole('button', { name: 'Delete de_DE' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await expect
        .poll(() => page.getByRole('navigation', { name: 'Locales' }).getByRole('link').allTextContents(), POLL)
        .toEqual(['en_US']);
      expect((await stack.org.dev.client.get(`/v2/translations/workflow/${workflowId}/de_DE`)).status).toBe(404);

      // The master JSON comes as a file named for its locale.
      await page.getByRole('link', { name: 'Translations' }).first().click();
      await page.getByRole('article').filter({ hasText: 'Master JSON' }).getByLabel('Locale').fill('en_US');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download master JSON' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('en_US.json');
      const master = JSON.parse(await downloadedText(download));
      expect(master.workflows[workflowId]).toEqual({ greeting: 'Hello {{subscriber.firstName}}', email: { subject: 'Your order' } });
      expect(unexpectedErrors(problems, [404, 422])).toEqual([]);
    },
  );
});

describe('console: webhooks', () => {
  it(
    'creates an endpoint to a local receiver, lists a successful attempt ' +
      'after a trigger, rotates the secret, edits, disables and deletes it',
    async () => {
      const path = `/hook-${rand()}`;
      const deliveries = () => receiver.requests.filter((request) => request.path === path);
      const { page, problems } = await stack.open(stack.org.dev.apiKey, envPath('webhooks'));
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.api.url });

      await page.getByText('New endpoint').click();
      await page.getByLabel('URL').fill(`${receiver.url}${path}`);
      await page.getByLabel('Description').fill('Order updates');
      await page.getByRole('checkbox', { name: 'message.sent' }).check();
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      const secretField = page.getByRole('article', { name: 'Signing secret' }).getByLabel('Secret');
      await expect.poll(() => secretField.inputValue(), POLL).toMatch(/^whsec_/);
      const secret = await secretField.inputValue();
      await page.getByRole('button', { name: 'Copy secret' }).click();
      await expect.poll(() => page.getByText('Copied to the clipboard.').isVisible(), POLL).toBe(true);
      expect(
        await page.evaluate(() =>
          (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
        ),
      ).toBe(secret);
      await expect.poll(() => page.getByRole('row').filter({ hasText: 'Order updates' }).textContent(), POLL).toContain('message.sent');

      await page
        .getByRole('status')
        .getByRole('link', { name: `${receiver.url}${path}` })
        .click();
      await expect.poll(() => heading(page).textContent(), POLL).toBe('Order updates');
      const endpointId = new URL(page.url()).pathname.split('/').pop()!;
      await expect.poll(() => page.getByText('No attempts yet').isVisible(), POLL).toBe(true);

      // A trigger's in-app message is sent: the delivery is listed (the page refreshes by itself), signed with the secret shown.
      const workflowId = await createWorkflow(stack.org.dev.client, [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello' } }]);
      await trigger(stack.org.dev.client, workflowId, { subscriberId: `sub-${rand()}` });
      const row = page.getByRole('row').filter({ hasText: 'message.sent' });
      await expect.poll(() => row.first().textContent(), POLL).toContain('200');
      expect(await row.first().textContent()).toContain('success');
      const [delivery] = deliveries();
      const headers = {
        'webhook-id': String(delivery!.headers['svix-id']),
        'webhook-timestamp': String(delivery!.headers['svix-timestamp']),
        'webhook-signature': String(delivery!.headers['svix-signature']),
      };
      expect(new Webhook(secret).verify(delivery!.text, headers)).toMatchObject({ type: 'message.sent' });
      await saveScreenshot(page, 'webhooks');
      expect(await fitsPhoneWidth(page)).toBe(true);
      await row.first().getByText('Raw').click();
      await expect.poll(() => row.first().locator('pre').textContent(), POLL).toContain(String(delivery!.headers['svix-id']));

      // Rotation: the new secret is shown once, and the next delivery is signed with it.
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate' }).click();
      await expect.poll(() => secretField.inputValue(), POLL).toMatch(/^whsec_/);
      const rotated = await secretField.inputValue();
      expect(rotated).not.toBe(secret);
      await trigger(stack.org.dev.client, workflowId, { subscriberId: `sub-${rand()}` });
      await expect.poll(() => deliveries().length, POLL).toBe(2);
      const second = deliveries()[1]!;
      const secondHeaders = {
        'webhook-id': String(second.headers['svix-id']),
        'webhook-timestamp': String(second.headers['svix-timestamp']),
        'webhook-signature': String(second.headers['svix-signature']),
      };
      expect(new Webhook(rotated).verify(second.text, secondHeaders)).toMatchObject({ type: 'message.sent' });
      await page.getByRole('button', { name: 'Done' }).click();

      // Edit (a tab in the URL), disable, and the dead letters tab's empty state.
      await page.getByRole('link', { name: 'Edit' }).click();
      await expect.poll(() => page.url(), POLL).toContain('tab=edit');
      await page.getByLabel('Description').fill('Orders and more');
      await page.getByRole('checkbox', { name: 'message.read' }).check();
      await page.getByRole('button', { name: 'Save endpoint' }).click();
      await expect.poll(() => heading(page).textContent(), POLL).toBe('Orders and more');
      await page.getByRole('button', { name: 'Disable' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Enable' }).isVisible(), POLL).toBe(true);
      expect((await stack.org.dev.client.get(`/v2/webhooks/endpoints/${endpointId}`)).body).toMatchObject({
        description: 'Orders and more',
        enabled: false,
        eventTypes: ['message.sent', 'message.read'],
      });
      await page.getByRole('link', { name: 'Dead letters' }).click();
      await expect.poll(() => page.getByText('No dead letters').isVisible(), POLL).toBe(true);

      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('dialog', { name: 'Delete this endpoint?' }).getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(envPath('webhooks'));
      expect((await stack.org.dev.client.get(`/v2/webhooks/endpoints/${endpointId}`)).status).toBe(404);
      expect(unexpectedErrors(problems)).toEqual([]);
    },
  );

  it('lists an endpoint created while the list was still loading', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, envPath('layouts'));
    const isList = (url: URL) => url.pathname.endsWith('/v2/webhooks/endpoints');
    const created = page.waitForResponse((response) => response.request().method() === 'POST' && isList(new URL(response.url())));
    // The list's first answer is read before the create and arrives after it, as on a slow
    // network: the page has to read the list again rather than keep that answer.
    let held = false;
    await page.route(isList, async (route) => {
      if (route.request().method() !== 'GET' || held) return route.fallback();
      held = true;
      const early = await route.fetch();
      await created;
      // The page may have dropped the request by now; then there is nothing to answer.
      await route.fulfill({ response: early }).catch(() => undefined);
    });
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => held, POLL).toBe(true);

    const description = `Created during the first load ${rand()}`;
    await page.getByText('New endpoint').click();
    await page.getByLabel('URL').fill(`${receiver.url}/hook-${rand()}`);
    await page.getByLabel('Description').fill(description);
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const endpoint = (await (await created).json()) as { _id: string };
    await expect.poll(() => page.getByRole('row').filter({ hasText: description }).count(), POLL).toBe(1);

    expect((await stack.org.dev.client.delete(`/v2/webhooks/endpoints/${endpoint._id}`)).status).toBe(204);
    expect(unexpectedErrors(problems)).toEqual([]);
  });

  it('shows the API’s validation message next to the URL field and creates nothing', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, envPath('webhooks'));
    const before = (await stack.org.dev.client.get('/v2/webhooks/endpoints?limit=100')).body.data.length;
    await page.getByText('New endpoint').click();
    // The browser's own check takes any scheme; the API takes http(s) only.
    await page.getByLabel('URL').fill('ftp://example.com/hook');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await expect.poll(() => page.getByLabel('URL').getAttribute('aria-invalid'), POLL).toBe('true');
    expect(await page.getByText('url must be an http or https URL').isVisible()).toBe(true);
    expect((await stack.org.dev.client.get('/v2/webhooks/endpoints?limit=100')).body.data.length).toBe(before);
    expect(unexpectedErrors(problems, [422])).toEqual([]);
  });
});
