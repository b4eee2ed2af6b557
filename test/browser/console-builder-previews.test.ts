import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { CONSOLE_WAIT_MS, saveNewWorkflow, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { messagesOf, rand, trigger, WAIT } from '../support/pipeline.ts';

// The workflow editor's previews and its block email form (issue 39, items 1, 2 and 4) in a real
// browser: a workflow not saved yet previews each channel step (through the draft step preview,
// POST /v2/workflows/steps/preview), the in-app one drawn by @novu/react's own <Inbox /> item with
// the payload example, without the inbox client asking the API anything; an email body is built
// as blocks by form (added by keyboard, moved, removed), previewed, saved as the block editor's
// document and delivered; a payload field added after a step is offered in its text and condition
// at once, and a saved step is previewed with the schema being edited; an in-app step's actions
// and an email's layout are set by form; and both fit a phone's width.

const stack = useConsoleTestStack();
const POLL = { timeout: CONSOLE_WAIT_MS, interval: 250 };
const base = () => `/console/env/${stack.org.dev.id}`;
const stepCard = (page: Page, position: number) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${position}\\. `) }) });
const preview = (card: Locator) => card.getByRole('region', { name: /^Preview of/ });
/** The variables the open completion list offers (hidden lists are no listbox to the page). */
const suggested = (card: Locator) => card.getByRole('listbox', { name: 'Variables' }).getByRole('option').allTextContents();
const PAYLOAD_SCHEMA = { type: 'object', properties: { orderId: { type: 'string', default: 'A-1' } }, required: ['orderId'] };

/** A new workflow's form with its payload schema, and the requests the page makes from now on. */
async function newWorkflow(page: Page, name: string) {
  await page.goto(`${stack.api.url}${base()}/workflows/new`);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Payload schema (JSON Schema)').fill(JSON.stringify(PAYLOAD_SCHEMA));
  const requests: string[] = [];
  page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
  return requests;
}

async function addStep(page: Page, kind: string) {
  await page.getByLabel('Kind of step').selectOption({ label: kind });
  await page.getByRole('button', { name: 'Add step' }).click();
}

const workflowIds = async () =>
  ((await stack.org.dev.client.get('/v2/workflows?limit=100')).body.workflows as { workflowId: string }[]).map((w) => w.workflowId);

describe('console: previews and the block email form', { timeout: 150_000 }, () => {
  it('previews a workflow not saved yet, the in-app step as the <Inbox /> item with the payload example', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows`);
    const before = await workflowIds();
    const requests = await newWorkflow(page, 'Draft previews');

    await addStep(page, 'In-app');
    const inApp = stepCard(page, 1);
    // Typed by keyboard, the preview follows.
    const subject = inApp.getByRole('combobox', { name: /^Subject/ });
    await subject.click();
    await subject.pressSequentially('Order {{payload.orderId}}');
    await inApp.getByRole('combobox', { name: /^Body/ }).fill('Shipped to {{subscriber.firstName}}');
    // An avatar the page may load (same origin, as the console's policy allows): the console's icon.
    const avatar = `${stack.api.url}/console/favicon.svg`;
    await inApp.getByRole('combobox', { name: /^Avatar URL/ }).fill(avatar);
    const primary = inApp.getByRole('group', { name: 'Primary action' });
    await primary.getByRole('combobox', { name: 'Button label' }).fill('Track it');
    await primary.getByRole('combobox', { name: 'URL' }).fill('/orders');

    // The real inbox item (@novu/react's classes), drawn from the preview's subject, body, avatar, action.
    const item = preview(inApp).locator('.nv-notification');
    await expect.poll(() => item.locator('.nv-notificationSubject').textContent(), POLL).toBe('Order A-1');
    // The subject may be drawn from a preview made before the action was filled: the rest is polled.
    await expect.poll(() => item.locator('.nv-notificationBody').textContent(), POLL).toMatch(/^Shipped to /);
    await expect.poll(() => item.getByRole('button', { name: 'Track it' }).isVisible(), POLL).toBe(true);
    await expect.poll(() => item.locator('img').first().getAttribute('src'), POLL).toBe(avatar);

    await addStep(page, 'SMS');
    await stepCard(page, 2).getByRole('combobox', { name: /^Body/ }).fill('Order {{payload.orderId}} shipped');
    await expect.poll(() => preview(stepCard(page, 2)).textContent(), POLL).toContain('Order A-1 shipped');
    await saveScreenshot(page, 'workflow-editor-draft');

    // Nothing was saved, and the inbox client asked the API nothing (no session, no feed).
    expect(new URL(page.url()).pathname).toBe(`${base()}/workflows/new`);
    expect(await workflowIds()).toEqual(before);
    expect(requests.filter((r) => r.includes('/v1/inbox') || r.includes('/v1/widgets'))).toEqual([]);
    expect(requests).toContain('POST /v2/workflows/steps/preview');
    expect(problems.errors).toEqual([]);
  });

  it('builds an email of blocks by form, previews and saves it, and the email sent carries it', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows`);
    const workflowId = `block-mail-${rand()}`;
    await newWorkflow(page, 'Block mail');
    await page.getByLabel('Identifier').fill(workflowId);
    await addStep(page, 'Email');
    const email = stepCard(page, 1);
    await email.getByRole('combobox', { name: /^Subject/ }).fill('Your order');
    await email.getByLabel('Editor').selectOption('block');
    const body = email.getByRole('group', { name: 'Body (blocks)' });
    const block = (n: number) => body.getByRole('group', { name: new RegExp(`^Block ${n}: `) });

    // A heading, added by keyboard alone: focus the kind, choose, Tab to Add block, Enter.
    await body.getByLabel('Kind of block').focus();
    await body.getByLabel('Kind of block').selectOption({ label: 'Heading' });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await block(1).getByLabel('Text').fill('Order {{payload.orderId}}');
    await block(1).getByLabel('Level').selectOption('1');

    for (const kind of ['Paragraph', 'Button', 'Divider', 'Spacer']) {
      await body.getByLabel('Kind of block').selectOption({ label: kind });
      await body.getByRole('button', { name: 'Add block' }).click();
    }
    await block(2).getByLabel('Text').fill('Thanks {{subscriber.firstName}}');
    await block(3).getByLabel('Label').fill('Track');
    await block(3).getByLabel('Link').fill('https://example.com/track');
    // The divider goes above the button (by keyboard), the spacer goes.
    await block(4).getByRole('button', { name: 'Move block 4 up' }).focus();
    await page.keyboard.press('Enter');
    await block(5).getByRole('button', { name: 'Remove block 5' }).click();
    await expect
      .poll(() => body.getByRole('group', { name: /^Block \d: / }).evaluateAll((groups) => groups.map((g) => g.getAttribute('aria-label'))))
      .toEqual(['Block 1: Heading', 'Block 2: Paragraph', 'Block 3: Divider', 'Block 4: Button']);

    // Previewed before the first save: the rendered email in its sandboxed frame.
    const frame = page.frameLocator('iframe[title^="Email preview"]');
    await expect.poll(() => frame.locator('h1').textContent(), POLL).toBe('Order A-1');
    expect(await frame.getByRole('link', { name: 'Track' }).getAttribute('href')).toBe('https://example.com/track');

    // The document's JSON, one switch away.
    await body.getByRole('switch', { name: 'Edit the document as JSON' }).check();
    const json = JSON.parse(await body.getByRole('combobox', { name: 'Body (block document, JSON)' }).inputValue());
    expect(json.content.map((node: { type: string }) => node.type)).toEqual(['heading', 'paragraph', 'horizontalRule', 'button']);
    await body.getByRole('switch', { name: 'Edit the document as JSON' }).uncheck();
    await saveScreenshot(page, 'workflow-editor-blocks');

    await saveNewWorkflow(page, `${base()}/workflows/${workflowId}/edit`);
    const saved = (await stack.org.dev.client.get(`/v2/workflows/${workflowId}`)).body;
    expect(saved.steps[0].controls.values.editorType).toBe('block');
    expect(JSON.parse(saved.steps[0].controls.values.body)).toEqual(json);
    // Read back as the same blocks.
    expect(await block(1).getByLabel('Text').inputValue()).toBe('Order {{payload.orderId}}');

    const subscriberId = `blocks-${rand()}`;
    await trigger(
      stack.org.dev.client,
      workflowId,
      { subscriberId, email: `${subscriberId}@example.com`, firstName: 'Ada' },
      { orderId: 'B-2' },
    );
    const [sent] = await vi.waitFor(async () => {
      const messages = await messagesOf(stack.org.dev.client, subscriberId, 'email');
      expect(messages).toHaveLength(1);
      return messages;
    }, WAIT);
    expect(sent.subject).toBe('Your order');
    expect(sent.content).toContain('Order B-2');
    expect(sent.content).toContain('Thanks Ada');
    expect(sent.content).toContain('href="https://example.com/track"');
    expect(problems.errors).toEqual([]);
  });

  it('offers a payload field added after the step, in its text and its condition, and previews with the schema being edited', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows`);
    const workflowId = `late-field-${rand()}`;
    await page.goto(`${stack.api.url}${base()}/workflows/new`);
    await page.getByLabel('Name', { exact: true }).fill('Late field');
    await page.getByLabel('Identifier').fill(workflowId);
    // The step first, the payload field after it.
    await addStep(page, 'In-app');
    const inApp = stepCard(page, 1);
    await page
      .getByLabel('Payload schema (JSON Schema)')
      .fill(JSON.stringify({ type: 'object', properties: { coupon: { type: 'string', default: 'SAVE10' } } }));
    const subject = inApp.getByRole('combobox', { name: /^Subject/ });
    await subject.click();
    await subject.pressSequentially('Use {{payload.c');
    await expect.poll(() => suggested(inApp), POLL).toEqual(['payload.coupon']);
    await page.keyboard.press('Enter');
    expect(await subject.inputValue()).toBe('Use {{payload.coupon}}');
    await inApp.getByRole('combobox', { name: /^Body/ }).fill('Today only');
    const conditions = inApp.getByRole('group', { name: 'Conditions: send only when' });
    await conditions.getByRole('button', { name: 'Add condition' }).click();
    const offered = () => conditions.locator('datalist option').evaluateAll((options) => options.map((o) => o.getAttribute('value')));
    await expect.poll(offered, POLL).toContain('payload.coupon');
    await conditions.getByLabel('Variable').fill('payload.coupon');
    await conditions.getByLabel('Operator').selectOption({ label: 'is set' });
    await expect.poll(() => preview(inApp).locator('.nv-notificationSubject').textContent(), POLL).toBe('Use SAVE10');

    await saveNewWorkflow(page, `${base()}/workflows/${workflowId}/edit`);
    const saved = (await stack.org.dev.client.get(`/v2/workflows/${workflowId}`)).body;
    expect(saved.steps[0].controls.values.skip).toEqual({ '!!': [{ var: 'payload.coupon' }] });

    // A saved step, its schema changed and not saved: the new field is offered, the preview uses the new example.
    const requests: { path: string; body: unknown }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') requests.push({ path: new URL(request.url()).pathname, body: request.postDataJSON() });
    });
    await page
      .getByLabel('Payload schema (JSON Schema)')
      .fill(JSON.stringify({ type: 'object', properties: { coupon: { type: 'string', default: 'SAVE20' }, shop: { type: 'string' } } }));
    await expect.poll(() => preview(stepCard(page, 1)).locator('.nv-notificationSubject').textContent(), POLL).toBe('Use SAVE20');
    const stepPreview = requests.filter((r) => r.path.endsWith(`/step/${saved.steps[0].stepId}/preview`)).at(-1);
    expect(stepPreview?.body).toMatchObject({ previewPayload: { payload: { coupon: 'SAVE20' } } });
    const body = stepCard(page, 1).getByRole('combobox', { name: /^Body/ });
    await body.fill('');
    await body.pressSequentially('At {{payload.s');
    await expect.poll(() => suggested(stepCard(page, 1)), POLL).toEqual(['payload.shop']);
    await page.keyboard.press('Escape');
    await expect.poll(offered, POLL).toContain('payload.shop');
    expect(problems.errors).toEqual([]);
  });

  it('sets an in-app step’s actions and an email’s layout by form, saved and shown in the preview', async () => {
    const layoutId = `brand-${rand()}`;
    const created = await stack.org.dev.client.post('/v2/layouts', { layoutId, name: 'Brand frame' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows`);
    const workflowId = `actions-${rand()}`;
    await newWorkflow(page, 'Actions and layout');
    await page.getByLabel('Identifier').fill(workflowId);
    await addStep(page, 'In-app');
    const inApp = stepCard(page, 1);
    await inApp.getByRole('combobox', { name: /^Body/ }).fill('Order {{payload.orderId}} shipped');
    // The primary action by keyboard: its label, Tab to its URL, Tab to where it opens.
    const primary = inApp.getByRole('group', { name: 'Primary action' });
    await primary.getByRole('combobox', { name: 'Button label' }).focus();
    await page.keyboard.type('Track it');
    await page.keyboard.press('Tab');
    await page.keyboard.type('/orders/{{payload.orderId}}');
    await page.keyboard.press('Tab');
    expect(await primary.getByLabel('Opens in').evaluate((select) => select === select.ownerDocument.activeElement)).toBe(true);
    await primary.getByLabel('Opens in').selectOption({ label: 'a new tab' });
    await inApp.getByRole('group', { name: 'Redirect' }).getByRole('combobox', { name: 'URL' }).fill('/inbox');
    await expect.poll(() => preview(inApp).getByRole('button', { name: 'Track it' }).isVisible(), POLL).toBe(true);

    await addStep(page, 'Email');
    const email = stepCard(page, 2);
    await email.getByRole('combobox', { name: /^Subject/ }).fill('Shipped');
    await email.getByRole('combobox', { name: 'Body (HTML)' }).fill('<p>Order {{payload.orderId}}</p>');
    await expect.poll(() => email.getByLabel('Layout').locator('option').allTextContents(), POLL).toContain('Brand frame');
    await email.getByLabel('Layout').selectOption({ label: 'Brand frame' });

    await saveNewWorkflow(page, `${base()}/workflows/${workflowId}/edit`);
    const saved = (await stack.org.dev.client.get(`/v2/workflows/${workflowId}`)).body;
    expect(saved.steps[0].controls.values).toMatchObject({
      primaryAction: { label: 'Track it', redirect: { url: '/orders/{{payload.orderId}}', target: '_blank' } },
      redirect: { url: '/inbox' },
    });
    expect(saved.steps[0].controls.values.secondaryAction).toBeUndefined();
    expect(saved.steps[1].controls.values.layoutId).toBe(layoutId);

    // Read back after a reload, the saved step's preview drawing the action.
    await page.reload();
    const reloaded = stepCard(page, 1).getByRole('group', { name: 'Primary action' });
    await expect.poll(() => reloaded.getByRole('combobox', { name: 'URL' }).inputValue(), POLL).toBe('/orders/{{payload.orderId}}');
    expect(await reloaded.getByLabel('Opens in').inputValue()).toBe('_blank');
    await expect.poll(() => preview(stepCard(page, 1)).getByRole('button', { name: 'Track it' }).isVisible(), POLL).toBe(true);
    await expect.poll(() => stepCard(page, 2).getByLabel('Layout').inputValue(), POLL).toBe(layoutId);

    // No layout: stored as null, the body sent alone.
    await stepCard(page, 2).getByLabel('Layout').selectOption({ label: 'No layout' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await stack.org.dev.client.get(`/v2/workflows/${workflowId}`)).body.steps[1].controls.values.layoutId).toBeNull();
    expect(problems.errors).toEqual([]);
  });

  it('fits a phone’s width: the inbox item and the block form', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows`, { width: 390 });
    await newWorkflow(page, 'Narrow');
    await addStep(page, 'In-app');
    await stepCard(page, 1)
      .getByRole('combobox', { name: /^Body/ })
      .fill('Order {{payload.orderId}} is on its way to you, with a long line to wrap');
    await expect.poll(() => preview(stepCard(page, 1)).locator('.nv-notificationBody').textContent(), POLL).toContain('Order A-1');
    await addStep(page, 'Email');
    await stepCard(page, 2).getByLabel('Editor').selectOption('block');
    await stepCard(page, 2).getByRole('button', { name: 'Add block' }).click();
    await stepCard(page, 2).getByRole('group', { name: 'Block 1: Paragraph' }).waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
    expect(problems.errors).toEqual([]);
  });
});
