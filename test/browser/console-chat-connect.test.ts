import { Novu } from '@novu/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_WAIT_MS, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { fakeApiForFile, type RecordedRequest, type Reply } from '../support/provider-servers.ts';

// The Slack connect flow in a real browser (issue 36, items 6 and 7): on a Slack integration's
// console page the user presses "Connect Slack", consents on a local stand-in for Slack's consent
// page, comes back through the API's callback to the console, which shows the outcome and the
// stored connection; a triggered chat message then arrives at the stand-in's chat.postMessage
// with the workspace's token. A token Slack refuses shows the connection as revoked.

const stack = useConsoleTestStack();
const slack = fakeApiForFile();
let novu: Novu;
let integrationId: string;
const integrationIdentifier = `slack-connect-${rand()}`;

/** Slack as the flow meets it: a consent page whose Allow link returns to the callback, the code exchange, the post. */
function slackReplies(post: Reply = { status: 200, body: { ok: true, ts: '1700000000.0001' } }) {
  return (r: RecordedRequest): Reply => {
    if (r.path === '/oauth/v2/authorize') {
      const back = new URL(r.query.get('redirect_uri')!);
      back.searchParams.set('code', `code-${rand()}`);
      back.searchParams.set('state', r.query.get('state')!);
      const html = `<!doctype html><title>Slack consent</title><h1>Acme wants to post to your workspace</h1>
        <p>Scopes: ${r.query.get('scope')}</p><a href="${back.toString().replace(/&/g, '&amp;')}">Allow</a>`;
      return { status: 200, headers: { 'content-type': 'text/html' }, body: html };
    }
    if (r.path === '/api/oauth.v2.access') {
      return {
        status: 200,
        body: { ok: true, access_token: 'xoxb-browser-token', bot_user_id: 'B9', team: { id: 'T9', name: 'Acme HQ' } },
      };
    }
    return post;
  };
}

beforeAll(async () => {
  novu = new Novu({ secretKey: stack.org.dev.apiKey, serverURL: stack.api.url });
  const created = await stack.org.dev.client.post('/v1/integrations', {
    providerId: 'slack',
    channel: 'chat',
    name: 'Team Slack',
    identifier: integrationIdentifier,
    active: true,
    credentials: {
      applicationId: 'A9',
      clientId: 'client-9',
      secretKey: 'secret-9',
      baseUrl: slack.url,
      redirectUrl: 'https://app.example.com/slack',
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  integrationId = created.body.data._id;
}, 120_000);

const pagePath = () => `/console/env/${stack.org.dev.id}/integrations/${integrationId}`;

describe('console: connecting a Slack workspace', () => {
  it('Connect Slack → consent → callback → the connection shown → a triggered message arrives; a refused token shows revoked', async () => {
    const subscriberId = `sub-${rand()}`;
    expect((await stack.org.dev.client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    slack.reply = slackReplies();
    const { page, problems } = await stack.open(stack.org.dev.apiKey, pagePath());
    const section = page.getByRole('region', { name: 'Workspace connections' });
    await expect.poll(() => section.textContent(), { timeout: CONSOLE_WAIT_MS }).toContain('No workspace is connected');
    expect(await section.textContent()).toContain('https://app.example.com/slack');

    // The callback returns to the integration's Redirect URL: the console makes it this page.
    await section.getByRole('button', { name: 'Return to this page after connecting' }).click();
    await expect
      .poll(async () => (await novu.integrations.list()).result.find((i) => i.id === integrationId)?.credentials?.redirectUrl, {
        timeout: CONSOLE_WAIT_MS,
      })
      .toBe(`${stack.api.url}${pagePath()}`);
    await expect.poll(() => section.textContent(), { timeout: CONSOLE_WAIT_MS }).toContain('comes back to this page');

    // By keyboard: the subscriber's id typed, Enter submits, the browser leaves for Slack's consent page.
    await page.getByLabel('Subscriber ID').focus();
    await page.keyboard.type(subscriberId);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/oauth/v2/authorize', { timeout: CONSOLE_WAIT_MS });
    expect(new URL(page.url()).searchParams.get('client_id')).toBe('client-9');
    await page.getByRole('link', { name: 'Allow' }).click();

    // Back on the console page, with the callback's outcome and the stored connection.
    await page.waitForURL((url) => url.pathname === pagePath() && url.searchParams.get('status') === 'success', {
      timeout: CONSOLE_WAIT_MS,
    });
    const connectionIdentifier = new URL(page.url()).searchParams.get('connectionIdentifier')!;
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Workspace connected' }).textContent())
      .toContain(connectionIdentifier);
    const connections = page.getByRole('table', { name: 'Connections' });
    const row = connections.getByRole('row', { name: new RegExp(connectionIdentifier) });
    await expect.poll(() => row.textContent(), { timeout: CONSOLE_WAIT_MS }).toMatch(/Acme HQ \(T9\).*Subscriber .*\*\*\*\*oken.*Active/);
    expect(await connections.textContent()).not.toContain('xoxb-browser-token');
    expect((await novu.channelConnections.retrieve(connectionIdentifier)).result).toMatchObject({ subscriberId, workspace: { id: 'T9' } });
    await saveScreenshot(page, 'integration-slack-connected');

    // An endpoint on the connection; a triggered chat step posts there with the workspace's token.
    await novu.channelEndpoints.create({ subscriberId, integrationIdentifier, type: 'slack_channel', endpoint: { channelId: 'C-ALERTS' } });
    await page.reload();
    await expect
      .poll(() => page.getByRole('table', { name: 'Endpoints' }).textContent(), { timeout: CONSOLE_WAIT_MS })
      .toMatch(/slack_channel.*C-ALERTS/);
    const wf = await createWorkflow(stack.org.dev.client, [
      { name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'Build green' } },
    ]);
    const sent = await settledOne(stack.org.dev.client, await triggerWith(stack.org.dev.client, { name: wf, to: subscriberId }));
    expect(sent.jobs[0].status).toBe('completed');
    const post = slack.requests.find((r) => r.path === '/api/chat.postMessage')!;
    expect(post.headers.authorization).toBe('Bearer xoxb-browser-token');
    expect(post.json).toMatchObject({ channel: 'C-ALERTS', text: 'Build green' });

    // Slack refuses the token: the step fails with its reason and the console shows the connection revoked.
    slack.reply = slackReplies({ status: 200, body: { ok: false, error: 'token_revoked' } });
    await settledOne(stack.org.dev.client, await triggerWith(stack.org.dev.client, { name: wf, to: subscriberId }));
    await page.reload();
    await expect.poll(() => row.textContent(), { timeout: CONSOLE_WAIT_MS }).toMatch(/Revoked.*token_revoked/);
    expect(problems.errors).toEqual([]);
  });

  it('shows a declined consent as an error, and fits a phone’s width', async () => {
    const { page, problems } = await stack.open(stack.org.dev.apiKey, `${pagePath()}?status=error&reason=access_denied`, { width: 390 });
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'not connected' }).textContent(), { timeout: CONSOLE_WAIT_MS })
      .toContain('access_denied');
    await expect.poll(() => page.getByRole('button', { name: 'Connect Slack' }).isVisible(), { timeout: CONSOLE_WAIT_MS }).toBe(true);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(problems.errors).toEqual([]);
  });
});
