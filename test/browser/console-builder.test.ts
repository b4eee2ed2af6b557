import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { CONSOLE_WAIT_MS, openListedNotification, saveNewWorkflow, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { createWorkflow, messagesOf, rand, settled, trigger, WAIT } from '../support/pipeline.ts';

// The workflow editor (issue 39, items 1, 2 and 4) in a real browser: a product person builds an
// in-app + digest + email workflow from nothing, with variables completed as they type, sees
// each channel step's preview, sends a test to a subscriber and sees it delivered; then edits a
// control and the next delivery carries it; the API's refusals and issues show at their fields;
// steps move and go; leaving with unsaved changes asks first; a save that switches the workflow
// off asks first; steps of every other kind are added, previewed and read back; it works at a
// phone's width. The test sent is followed to delivery in Activity.

const stack = useConsoleTestStack();
const POLL = { timeout: CONSOLE_WAIT_MS, interval: 250 };
const base = () => `/console/env/${stack.org.dev.id}`;
const stepCard = (page: Page, position: number) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${position}\\. `) }) });
/** How many lines an element's text takes, as drawn. */
const linesOf = (element: Locator) =>
  element.evaluate((node) => {
    const range = node.ownerDocument.createRange();
    range.selectNodeContents(node);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });
const apiWorkflow = async (workflowId: string) => (await stack.org.dev.client.get(`/v2/workflows/${workflowId}`)).body;

const workflowId = `order-updates-${rand()}`;

describe('console: building a workflow', { timeout: 150_000 }, () => {
  it('builds in-app + digest + email from nothing, previews each, sends a test and sees it delivered', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows`);
    await page.getByRole('button', { name: 'New workflow' }).click();
    await page.getByRole('heading', { level: 1, name: 'New workflow' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Order updates');
    await page.getByLabel('Identifier').fill(workflowId);
    await page.getByLabel('Tags').fill('orders, builder');
    await page
      .getByLabel('Payload schema (JSON Schema)')
      .fill(JSON.stringify({ type: 'object', properties: { orderId: { type: 'string', default: 'A-1' } }, required: ['orderId'] }));

    // In-app: the subject typed with the variable completed from the payload schema, by keyboard.
    await page.getByLabel('Kind of step').selectOption({ label: 'In-app' });
    await page.getByRole('button', { name: 'Add step' }).click();
    const inApp = stepCard(page, 1);
    const subject = inApp.getByRole('combobox', { name: /^Subject/ });
    await subject.click();
    await subject.pressSequentially('Order {{pay');
    await expect.poll(() => inApp.getByRole('option').allTextContents(), POLL).toContain('payload.orderId');
    await page.keyboard.press('Enter');
    expect(await subject.inputValue()).toBe('Order {{payload.orderId}}');
    await inApp.getByRole('combobox', { name: /^Body/ }).fill('Shipped');

    await page.getByLabel('Kind of step').selectOption({ label: 'Digest' });
    await page.getByRole('button', { name: 'Add step' }).click();
    const digest = stepCard(page, 2);
    await digest.getByLabel('Amount').fill('3');
    await digest.getByLabel('Unit').selectOption('seconds');

    await page.getByLabel('Kind of step').selectOption({ label: 'Email' });
    await page.getByRole('button', { name: 'Add step' }).click();
    const email = stepCard(page, 3);
    await email.getByRole('combobox', { name: /^Subject/ }).fill('Your order {{payload.orderId}}');
    await email.getByRole('combobox', { name: 'Body (HTML)' }).fill('<p>Order {{payload.orderId}} is on its way</p>');

    await saveNewWorkflow(page, `${base()}/workflows/${workflowId}/edit`);
    const saved = await apiWorkflow(workflowId);
    expect(saved).toMatchObject({ name: 'Order updates', tags: ['orders', 'builder'] });
    expect(saved.steps.map((step: { type: string }) => step.type)).toEqual(['in_app', 'digest', 'email']);
    expect(saved.steps[1].controls.values).toMatchObject({ amount: 3, unit: 'seconds' });

    // Previews with the payload example: the in-app item, the email's HTML in a sandboxed frame.
    await expect
      .poll(
        () =>
          stepCard(page, 1)
            .getByRole('region', { name: /^Preview of/ })
            .textContent(),
        POLL,
      )
      .toContain('Order A-1');
    const frame = stepCard(page, 3).locator('iframe');
    expect(await frame.getAttribute('sandbox')).toBe('');
    await expect
      .poll(() => page.frameLocator('iframe[title^="Email preview"]').locator('body').textContent(), POLL)
      .toContain('Order A-1 is on its way');
    await saveScreenshot(page, 'workflow-editor');

    // Send a test to a chosen subscriber, and follow it to delivery.
    await page.getByRole('button', { name: 'Send a test' }).click();
    const subscriberId = `buyer-${rand()}`;
    await page.getByLabel('Subscriber ID').fill(subscriberId);
    await expect.poll(() => page.getByLabel('Email').inputValue(), POLL).toBe(`${subscriberId}@example.com`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('link', { name: 'See it in Activity' }).click();
    // Followed in Activity, completed once its digest ends.
    await openListedNotification(page, 'Order updates', POLL);
    await expect.poll(() => page.getByLabel('Notification status').textContent(), POLL).toBe('completed');
    const job = (name: string) => page.getByRole('list', { name: 'Jobs' }).getByRole('listitem').filter({ hasText: name });
    expect(await job('In-app message').textContent()).toMatch(/completed/);
    await expect.poll(() => job('Email').textContent(), POLL).toContain(`to ${subscriberId}@example.com`);
    const [inbox] = await vi.waitFor(async () => {
      const messages = await messagesOf(stack.org.dev.client, subscriberId);
      expect(messages).toHaveLength(1);
      return messages;
    }, WAIT);
    expect(inbox.subject).toBe('Order A-1');
    const [sent] = await vi.waitFor(async () => {
      const messages = await messagesOf(stack.org.dev.client, subscriberId, 'email');
      expect(messages).toHaveLength(1);
      return messages;
    }, WAIT);
    expect(sent.subject).toBe('Your order A-1');
    expect(problems.errors).toEqual([]);
  });

  it('edits a control with a live preview, and the next delivery carries it', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows/${workflowId}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const body = stepCard(page, 1).getByRole('combobox', { name: /^Body/ });
    await body.fill('Shipped today for {{subscriber.firstName}}');
    await expect
      .poll(
        () =>
          stepCard(page, 1)
            .getByRole('region', { name: /^Preview of/ })
            .textContent(),
        POLL,
      )
      .toContain('Shipped today');
    expect(await page.getByText('Unsaved changes').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const stepIds = (await apiWorkflow(workflowId)).steps.map((step: { _id: string }) => step._id);

    const subscriberId = `again-${rand()}`;
    await trigger(stack.org.dev.client, workflowId, { subscriberId, firstName: 'Grace' }, { orderId: 'B-2' });
    const [message] = await vi.waitFor(async () => {
      const messages = await messagesOf(stack.org.dev.client, subscriberId);
      expect(messages).toHaveLength(1);
      return messages;
    }, WAIT);
    expect(message.content).toBe('Shipped today for Grace');
    // Saved in place: the steps keep their ids.
    expect(stepIds).toHaveLength(3);
    expect(problems.errors).toEqual([]);
  });

  it('sets a step’s condition with the form, and a trigger that fails it skips the step', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows/${workflowId}/edit`);
    const conditions = stepCard(page, 1).getByRole('group', { name: 'Conditions: send only when' });
    await conditions.getByRole('button', { name: 'Add condition' }).click();
    await conditions.getByLabel('Variable').fill('payload.orderId');
    await conditions.getByLabel('Operator').selectOption({ label: 'does not equal' });
    await conditions.getByLabel('Value').fill('HOLD');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await apiWorkflow(workflowId)).steps[0].controls.values.skip).toEqual({ '!=': [{ var: 'payload.orderId' }, 'HOLD'] });

    const held = `held-${rand()}`;
    const sent = `sent-${rand()}`;
    const txHeld = await trigger(
      stack.org.dev.client,
      workflowId,
      { subscriberId: held, email: `${held}@example.com` },
      { orderId: 'HOLD' },
    );
    await trigger(stack.org.dev.client, workflowId, { subscriberId: sent, email: `${sent}@example.com` }, { orderId: 'C-3' });
    await vi.waitFor(async () => expect(await messagesOf(stack.org.dev.client, sent)).toHaveLength(1), WAIT);
    await settled(stack.org.dev.client, txHeld);
    expect(await messagesOf(stack.org.dev.client, held)).toEqual([]);

    // Read back as rows, and removed: the step always runs again.
    await page.reload();
    await expect.poll(() => conditions.getByLabel('Value').inputValue(), POLL).toBe('HOLD');
    await conditions.getByRole('button', { name: 'Remove condition 1' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await apiWorkflow(workflowId)).steps[0].controls.values.skip).toBeUndefined();
    expect(problems.errors).toEqual([]);
  });

  it('shows the API’s refusal and a saved step’s issue at the field concerned', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows/${workflowId}/edit`);
    // An issue the API reports of the saved workflow: a variable the payload schema lacks.
    await stepCard(page, 3)
      .getByRole('combobox', { name: /^Subject/ })
      .fill('About {{payload.nowhere}}');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const subject = stepCard(page, 3).getByRole('combobox', { name: /^Subject/ });
    await expect.poll(() => subject.getAttribute('aria-invalid'), POLL).toBe('true');
    const described = await subject.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain('payload.nowhere');

    // A value the API refuses (422): shown at the digest's amount, nothing saved.
    await stepCard(page, 2).getByLabel('Amount').fill('0');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => stepCard(page, 2).getByLabel('Amount').getAttribute('aria-invalid'), POLL).toBe('true');
    expect((await apiWorkflow(workflowId)).steps[1].controls.values.amount).toBe(3);
    expect(problems.errors.filter((error) => !error.includes('status of 422'))).toEqual([]);
  });

  it('reorders and removes steps, and asks before leaving unsaved changes', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows/${workflowId}/edit`);
    await stepCard(page, 3)
      .getByRole('button', { name: /^Move .* up$/ })
      .click();
    await expect
      .poll(() => page.getByRole('heading', { level: 3 }).allTextContents(), POLL)
      .toEqual(['1. In-app message', '2. Email', '3. Digest']);
    await stepCard(page, 3)
      .getByRole('button', { name: /^Remove / })
      .click();
    await expect.poll(() => page.getByRole('heading', { level: 3 }).count(), POLL).toBe(2);

    // Leaving asks: Stay keeps the changes on the page, Leave drops them.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Workflows' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Stay and keep editing' }).click();
    expect(new URL(page.url()).pathname).toBe(`${base()}/workflows/${workflowId}/edit`);
    expect(await page.getByRole('heading', { level: 3 }).count()).toBe(2);

    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await apiWorkflow(workflowId)).steps.map((step: { type: string }) => step.type)).toEqual(['in_app', 'email']);

    await page.getByLabel('Description').fill('Not kept');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Workflows' }).click();
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(`${base()}/workflows`);
    expect((await apiWorkflow(workflowId)).description ?? '').toBe('');
    expect(problems.errors).toEqual([]);
  });

  it('asks before a save switches the workflow off: Cancel keeps it active, confirming deactivates it', async () => {
    const switchedOff = await createWorkflow(stack.org.dev.client, [{ name: 'Note', type: 'in_app', controlValues: { body: 'Hi' } }]);
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows/${switchedOff}/edit`);
    const active = page.getByRole('switch', { name: /^Active/ });
    await active.uncheck();
    await page.getByLabel('Description').fill('Paused for the holidays');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const dialog = page.getByRole('dialog', { name: `Deactivate ${switchedOff}?` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible(), POLL).toBe(false);
    // Nothing saved; the form keeps what was typed.
    const unchanged = await apiWorkflow(switchedOff);
    expect([unchanged.active, unchanged.description ?? '']).toEqual([true, '']);
    expect(await page.getByText('Unsaved changes').isVisible()).toBe(true);
    expect(await active.isChecked()).toBe(false);

    // Asked again, confirmed by keyboard: the dialog opens on Cancel, Tab reaches the confirmation.
    await page.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    expect(
      await dialog.getByRole('button', { name: 'Save and deactivate' }).evaluate((button) => button === button.ownerDocument.activeElement),
    ).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await apiWorkflow(switchedOff)).toMatchObject({ active: false, description: 'Paused for the holidays' });

    // Switching on again is not asked.
    await active.check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await dialog.isVisible()).toBe(false);
    expect((await apiWorkflow(switchedOff)).active).toBe(true);
    expect(problems.errors).toEqual([]);
  });

  it('adds delay, throttle, chat, push and custom steps, previews chat and push as text, and reads them back', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows/new`);
    const kinds = `every-kind-${rand()}`;
    await page.getByLabel('Name', { exact: true }).fill('Every kind');
    await page.getByLabel('Identifier').fill(kinds);
    await page
      .getByLabel('Payload schema (JSON Schema)')
      .fill(JSON.stringify({ type: 'object', properties: { orderId: { type: 'string', default: 'A-1' } } }));
    const add = async (kind: string) => {
      await page.getByLabel('Kind of step').selectOption({ label: kind });
      await page.getByRole('button', { name: 'Add step' }).click();
    };
    await add('Delay');
    await stepCard(page, 1).getByLabel('Amount').fill('2');
    await stepCard(page, 1).getByLabel('Unit').selectOption('hours');
    await add('Throttle');
    await stepCard(page, 2).getByLabel('Threshold (messages per window)').fill('3');
    await add('Chat');
    await stepCard(page, 3).getByRole('combobox', { name: /^Body/ }).fill('Order {{payload.orderId}} is packed');
    await add('Push');
    await stepCard(page, 4)
      .getByRole('combobox', { name: /^Subject/ })
      .fill('Order {{payload.orderId}}');
    await stepCard(page, 4).getByRole('combobox', { name: /^Body/ }).fill('On its way to {{subscriber.firstName}}');
    await add('Custom');
    await stepCard(page, 5).locator('summary', { hasText: 'Custom values' }).click();
    await stepCard(page, 5).getByLabel('Custom values').fill('{ "team": "shipping" }');

    // Chat and push previewed as text, with the payload example.
    const preview = (position: number) => stepCard(page, position).getByRole('region', { name: /^Preview of/ });
    await expect.poll(() => preview(3).locator('.preview-body').textContent(), POLL).toBe('Order A-1 is packed');
    await expect.poll(() => preview(4).locator('.preview-subject').textContent(), POLL).toBe('Order A-1');
    expect(await preview(4).locator('.preview-body').textContent()).toMatch(/^On its way to /);
    expect(
      await stepCard(page, 1)
        .getByRole('region', { name: /^Preview of/ })
        .count(),
    ).toBe(0);

    await saveNewWorkflow(page, `${base()}/workflows/${kinds}/edit`);
    const saved = await apiWorkflow(kinds);
    expect(saved.steps.map((step: { type: string }) => step.type)).toEqual(['delay', 'throttle', 'chat', 'push', 'custom']);
    expect(saved.steps[0].controls.values).toMatchObject({ type: 'regular', amount: 2, unit: 'hours' });
    expect(saved.steps[1].controls.values).toMatchObject({ threshold: 3 });
    expect(saved.steps[4].controls.values).toMatchObject({ custom: { team: 'shipping' } });

    // Read back after a reload, and the channels no integration serves say so at their step.
    await page.reload();
    await expect
      .poll(() => page.getByRole('heading', { level: 3 }).allTextContents(), POLL)
      .toEqual(['1. Delay', '2. Throttle', '3. Chat message', '4. Push notification', '5. Custom step']);
    expect(await stepCard(page, 1).getByLabel('Unit').inputValue()).toBe('hours');
    expect(await stepCard(page, 2).getByLabel('Threshold (messages per window)').inputValue()).toBe('3');
    expect(await stepCard(page, 3).getByRole('combobox', { name: /^Body/ }).inputValue()).toBe('Order {{payload.orderId}} is packed');
    expect(JSON.parse(await stepCard(page, 5).getByLabel('Custom values').inputValue())).toEqual({ team: 'shipping' });
    const chatIssues = stepCard(page, 3).getByRole('list', { name: 'Delivery issues of Chat message' });
    expect(await chatIssues.textContent()).toContain('No active chat integration');
    expect(await chatIssues.getByRole('link', { name: 'set one up in Integrations' }).getAttribute('href')).toBe(`${base()}/integrations`);
    await expect.poll(() => preview(4).locator('.preview-subject').textContent(), POLL).toBe('Order A-1');
    expect(problems.errors).toEqual([]);
  });

  it('is usable at a phone’s width: nothing wider than the screen', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${base()}/workflows/${workflowId}/edit`, { width: 390 });
    await page.getByRole('heading', { level: 3 }).first().waitFor();
    await expect
      .poll(
        () =>
          stepCard(page, 1)
            .getByRole('region', { name: /^Preview of/ })
            .count(),
        POLL,
      )
      .toBe(1);
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(await stepCard(page, 1).getByRole('group', { name: 'Primary action' }).isVisible()).toBe(true);
    expect(await overflow()).toBe(0);
    expect(await linesOf(page.getByRole('button', { name: 'Add step' }))).toBe(1);

    // The deactivation's question fits too, and Escape answers it as Cancel.
    await page.getByRole('switch', { name: /^Active/ }).uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const dialog = page.getByRole('dialog', { name: /^Deactivate / });
    await dialog.waitFor();
    expect(await overflow()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible(), POLL).toBe(false);
    expect((await apiWorkflow(workflowId)).active).toBe(true);
    expect(problems.errors).toEqual([]);
  });
});
