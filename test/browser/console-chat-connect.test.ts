import { Novu } from '@novu/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_WAIT_MS, saveScreenshot, useConsoleTestStack } from '../support/console.ts';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { BOT_HOME_TENANT, CUSTOMER_TENANT, microsoftReplies } from '../support/microsoft-stand-in.ts';
import { fakeApiForFile, type RecordedRequest, type Reply } from '../support/provider-servers.ts';

// The Slack connect flow in a real browser (issue 36, items 6 and 7): on a Slack integration's
// console page the user presses "Connect Slack", consents on a local stand-in for Slack's consent
// page, comes back through the API's callback to the console, which shows the outcome and the
// stored connection; a triggered chat message then arrives at the stand-in's chat.postMessage
// with the workspace's token. A token Slack refuses shows the connection as revoked. "Connect
// Teams" runs Microsoft's admin consent the same way (test/support/microsoft-stand-in.ts), and a
// triggered message then reaches the Teams channel through the Bot Framework.

const stack = useConsoleTestStack();
// One stand-in plays Slack or Microsoft, as each case sets its answers.
const fake = fakeApiForFile();
let novu: Novu;
let integrationId: string;
let teamsIntegrationId: string;
const integrationIdentifier = `slack-connect-${rand()}`;
const teamsIdentifier = `teams-connect-${rand()}`;

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
      baseUrl: fake.url,
      redirectUrl: 'https://app.example.com/slack',
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  integrationId = created.body.data._id;
  const teams = await stack.org.dev.client.post('/v1/integrations', {
    providerId: 'msteams',
    channel: 'chat',
    name: 'Team Teams',
    identifier: teamsIdentifier,
    active: true,
    credentials: {
      clientId: 'bot-app-id',
      secretKey: 'bot-client-secret',
      tenantId: BOT_HOME_TENANT,
      baseUrl: fake.url,
      redirectUrl: 'https://app.example.com/teams',
    },
  });
  expect(teams.status, JSON.stringify(teams.body)).toBe(201);
  teamsIntegrationId = teams.body.data._id;
}, 120_000);

const pagePath = (id = integrationId) => `/console/env/${stack.org.dev.id}/integrations/${id}`;

describe('console: connecting a Slack workspace', () => {
  it('Connect Slack → consent → callback → the connection shown → a triggered message arrives; a refused token shows revoked', async () => {
    const subscriberId = `sub-${rand()}`;
    expect((await stack.org.dev.client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    fake.reply = slackReplies();
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
    const post = fake.requests.find((r) => r.path === '/api/chat.postMessage')!;
    expect(post.headers.authorization).toBe('Bearer xoxb-browser-token');
    expect(post.json).toMatchObject({ channel: 'C-ALERTS', text: 'Build green' });

    // Slack refuses the token: the step fails with its reason and the console shows the connection revoked.
    fake.reply = slackReplies({ status: 200, body: { ok: false, error: 'token_revoked' } });
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

describe('console: connecting a Microsoft Teams tenant', () => {
  it('Connect Teams → admin consent → callback → the tenant shown → a triggered message reaches the Teams channel', async () => {
    const subscriberId = `sub-${rand()}`;
    expect((await stack.org.dev.client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    fake.reply = microsoftReplies();
    const here = pagePath(teamsIntegrationId);
    const { page, problems } = await stack.open(stack.org.dev.apiKey, here);
    const section = page.getByRole('region', { name: 'Workspace connections' });
    await expect.poll(() => section.textContent(), { timeout: CONSOLE_WAIT_MS }).toContain('No workspace is connected');
    await section.getByRole('button', { name: 'Return to this page after connecting' }).click();
    await expect.poll(() => section.textContent(), { timeout: CONSOLE_WAIT_MS }).toContain('comes back to this page');

    await page.getByLabel('Subscriber ID').fill(subscriberId);
    await section.getByRole('button', { name: 'Connect Teams' }).click();
    await page.waitForURL((url) => url.pathname === '/organizations/v2.0/adminconsent', { timeout: CONSOLE_WAIT_MS });
    expect(new URL(page.url()).searchParams.get('client_id')).toBe('bot-app-id');
    await page.getByRole('link', { name: 'Accept' }).click();

    await page.waitForURL((url) => url.pathname === here && url.searchParams.get('status') === 'success', { timeout: CONSOLE_WAIT_MS });
    const connectionIdentifier = new URL(page.url()).searchParams.get('connectionIdentifier')!;
    const row = page.getByRole('table', { name: 'Connections' }).getByRole('row', { name: new RegExp(connectionIdentifier) });
    await expect
      .poll(() => row.textContent(), { timeout: CONSOLE_WAIT_MS })
      .toMatch(new RegExp(`${CUSTOMER_TENANT}.*Subscriber ${subscriberId}.*\\*\\*\\*\\*.*Active`));
    // The consent was confirmed at the customer's tenant with the app's own credentials.
    expect(fake.requests.some((r) => r.path === `/${CUSTOMER_TENANT}/oauth2/v2.0/token`)).toBe(true);

    const channelId = '19:alerts@thread.tacv2';
    await novu.channelEndpoints.create({
      subscriberId,
      integrationIdentifier: teamsIdentifier,
      type: 'ms_teams_channel',
      endpoint: { teamId: 'team-7', channelId },
    });
    await page.reload();
    await expect
      .poll(() => page.getByRole('table', { name: 'Endpoints' }).textContent(), { timeout: CONSOLE_WAIT_MS })
      .toMatch(/ms_teams_channel.*19:alerts@thread\.tacv2/);
    const wf = await createWorkflow(stack.org.dev.client, [
      { name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'Release shipped' } },
    ]);
    const sent = await settledOne(stack.org.dev.client, await triggerWith(stack.org.dev.client, { name: wf, to: subscriberId }));
    expect(sent.jobs[0].status).toBe('completed');
    const activity = fake.requests.find((r) => r.path === `/teams/v3/conversations/${encodeURIComponent(channelId)}/activities`)!;
    expect(activity.headers.authorization).toBe('Bearer bot-framework-token');
    expect(activity.json).toMatchObject({ type: 'message', text: 'Release shipped', channelData: { tenant: { id: CUSTOMER_TENANT } } });
    expect(problems.errors).toEqual([]);
  });
});
