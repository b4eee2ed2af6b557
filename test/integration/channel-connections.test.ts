import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { db } from '#lib/store/client.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { keys } from '#lib/store/keys.ts';
import { createTestOrg, startTestApi, type ApiClient, type TestEnv, type TestOrg } from '../support/api.ts';
import { fakeApiForFile } from '../support/provider-servers.ts';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';

// Channel connections and endpoints (issue 36, items 2-4) through `@novu/api`: a Slack
// workspace's token stored as a connection, a subscriber's Slack channel and user as endpoints,
// and a chat step that posts to each with chat.postMessage and the connection's token, against
// a local stand-in for Slack's Web API (the integration's baseUrl). A revoked token fails the
// step with Slack's reason and marks the connection.

// Triggers run through the local queues; the machine may be loaded.
vi.setConfig({ testTimeout: 180_000 });

const fake = fakeApiForFile();

let api: LocalApi;
let org: TestOrg;
let env: TestEnv;
let client: ApiClient;
let novu: Novu;
const slackIntegration = `slack-${rand()}`;

beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
  env = org.dev;
  client = env.client;
  novu = new Novu({ secretKey: env.apiKey, serverURL: api.url });
  const res = await client.post('/v1/integrations', {
    providerId: 'slack',
    channel: 'chat',
    identifier: slackIntegration,
    active: true,
    credentials: { applicationId: 'A1', clientId: 'client-1', secretKey: 'client-secret', baseUrl: fake.url },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
});
afterAll(() => api.close());

async function subscriber(): Promise<string> {
  const subscriberId = `sub-${rand()}`;
  expect((await client.post('/v2/subscribers', { subscriberId, firstName: 'Ada' })).status).toBe(201);
  return subscriberId;
}

const connect = (subscriberId: string, accessToken = `xoxb-${rand()}-secret`) =>
  novu.channelConnections.create({
    subscriberId,
    integrationIdentifier: slackIntegration,
    workspace: { id: 'T123', name: 'Acme' },
    auth: { accessToken },
  });

describe('channel connections', () => {
  it('stores a connection whose token is never returned in clear, and lists, updates and deletes it', async () => {
    const subscriberId = await subscriber();
    const token = `xoxb-${rand()}-very-secret`;
    const created = (await connect(subscriberId, token)).result;
    expect(created).toMatchObject({
      channel: 'chat',
      providerId: 'slack',
      integrationIdentifier: slackIntegration,
      subscriberId,
      contextKeys: [],
      workspace: { id: 'T123', name: 'Acme' },
    });
    expect(created.auth.accessToken).toBe(`****${token.slice(-4)}`);

    // Stored encrypted: the item holds no clear token.
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.channelConnection(env.scope, created.identifier) }),
    );
    expect(JSON.stringify(Item)).not.toContain(token);

    const got = (await novu.channelConnections.retrieve(created.identifier)).result;
    expect(got.auth.accessToken).not.toContain(token);
    const listed = (await novu.channelConnections.list({ subscriberId })).result;
    expect(listed.data.map((c) => c.identifier)).toEqual([created.identifier]);
    expect(listed).toMatchObject({ totalCount: 1, totalCountCapped: false, next: null });
    expect((await novu.channelConnections.list({ subscriberId, connectionMode: 'shared' })).result.data).toEqual([]);

    // One connection per subscriber and integration (the SDK retries a 409: asked plainly).
    const twice = await client.post('/v1/channel-connections', {
      subscriberId,
      integrationIdentifier: slackIntegration,
      workspace: { id: 'T123' },
      auth: { accessToken: 'xoxb-other' },
    });
    expect(twice.status).toBe(409);

    const updated = (
      await novu.channelConnections.update(
        { workspace: { id: 'T123', name: 'Acme 2' }, auth: { accessToken: 'xoxb-new-token-1234' } },
        created.identifier,
      )
    ).result;
    expect(updated.workspace.name).toBe('Acme 2');
    expect(updated.auth.accessToken).toBe('****1234');

    await novu.channelConnections.delete(created.identifier);
    await expect(novu.channelConnections.retrieve(created.identifier)).rejects.toMatchObject({ statusCode: 404 });
    // The claim went with it: the subscriber can connect again.
    expect((await connect(subscriberId)).result.subscriberId).toBe(subscriberId);
  });

  it('shares a connection per context, and refuses bad input', async () => {
    const context = { team: `t-${rand()}` };
    const shared = (
      await novu.channelConnections.create({
        connectionMode: 'shared',
        context,
        integrationIdentifier: slackIntegration,
        workspace: { id: 'T9' },
        auth: { accessToken: 'xoxb-shared-0000' },
      })
    ).result;
    expect(shared).toMatchObject({ subscriberId: null, contextKeys: [`team:${context.team}`] });
    const byContext = (await novu.channelConnections.list({ contextKeys: [`team:${context.team}`] })).result;
    expect(byContext.data.map((c) => c.identifier)).toEqual([shared.identifier]);

    const bad = await client.post('/v1/channel-connections', { integrationIdentifier: slackIntegration, workspace: { id: 'T' }, auth: {} });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['auth.accessToken']);
    const noSubscriber = await client.post('/v1/channel-connections', {
      integrationIdentifier: slackIntegration,
      workspace: { id: 'T' },
      auth: { accessToken: 'x' },
    });
    expect(noSubscriber.status).toBe(422);
    expect(Object.keys(noSubscriber.body.errors)).toEqual(['subscriberId']);
    const unknown = await client.post('/v1/channel-connections', {
      subscriberId: 'nobody',
      integrationIdentifier: 'no-such-integration',
      workspace: { id: 'T' },
      auth: { accessToken: 'x' },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('channel endpoints and delivery through a connection', () => {
  it('creates endpoints (creating the subscriber if asked), and a chat step posts to each with the connection token', async () => {
    const subscriberId = `sub-${rand()}`;
    // The subscriber does not exist yet: the connection needs it, the endpoint may create it.
    await expect(connect(subscriberId)).rejects.toMatchObject({ statusCode: 404 });
    const placeholder = await novu.channelEndpoints.create({
      subscriberId,
      createSubscriberIfMissing: true,
      integrationIdentifier: slackIntegration,
      type: 'webhook',
      endpoint: { url: `${fake.url}/hooks/${subscriberId}` },
    });
    expect(placeholder.result).toMatchObject({ type: 'webhook', subscriberId, connectionIdentifier: null });
    await novu.channelEndpoints.delete(placeholder.result.identifier);

    const token = `xoxb-${rand()}-token`;
    const connection = (await connect(subscriberId, token)).result;
    const channel = (
      await novu.channelEndpoints.create({
        subscriberId,
        integrationIdentifier: slackIntegration,
        type: 'slack_channel',
        endpoint: { channelId: 'C0123' },
      })
    ).result;
    expect(channel).toMatchObject({ connectionIdentifier: connection.identifier, providerId: 'slack', endpoint: { channelId: 'C0123' } });
    const user = (
      await novu.channelEndpoints.create({
        subscriberId,
        integrationIdentifier: slackIntegration,
        connectionIdentifier: connection.identifier,
        type: 'slack_user',
        endpoint: { userId: 'U0456' },
      })
    ).result;
    const listed = (await novu.channelEndpoints.list({ subscriberId })).result;
    expect(listed.data.map((e) => e.identifier).sort()).toEqual([channel.identifier, user.identifier].sort());
    expect(listed.totalCount).toBe(2);

    // The endpoint data must fit its type.
    const wrongShape = await client.patch(`/v1/channel-endpoints/${channel.identifier}`, { endpoint: { url: 'https://x.example' } });
    expect(wrongShape.status).toBe(422);
    const moved = (await novu.channelEndpoints.update({ endpoint: { channelId: 'C0999' } }, channel.identifier)).result;
    expect(moved.endpoint).toEqual({ channelId: 'C0999' });

    fake.reply = (r) => ({ status: 200, body: { ok: true, ts: `ts-${r.json?.channel}`, channel: r.json?.channel } });
    const wf = await createWorkflow(client, [
      { name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'Hi {{subscriber.firstName}}' } },
    ]);
    const done = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(done.jobs[0].status).toBe('completed');
    const posts = fake.requests.filter((r) => r.path === '/api/chat.postMessage');
    expect(posts.map((r) => r.json.channel).sort()).toEqual(['C0999', 'U0456']);
    for (const post of posts) {
      expect(post.headers.authorization).toBe(`Bearer ${token}`);
      expect(post.json.text).toBe('Hi ');
    }
    const sent = done.jobs[0].executionDetails.filter((d: any) => d.detail === 'Message sent');
    expect(sent).toHaveLength(2);
  });

  it('a revoked token fails the step with Slack’s reason and marks the connection; webhook subscribers keep working', async () => {
    const subscriberId = await subscriber();
    const connection = (await connect(subscriberId)).result;
    await novu.channelEndpoints.create({
      subscriberId,
      integrationIdentifier: slackIntegration,
      type: 'slack_channel',
      endpoint: { channelId: 'C1' },
    });

    fake.reply = () => ({ status: 200, body: { ok: false, error: 'token_revoked' } });
    const wf = await createWorkflow(client, [{ name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'Hello' } }]);
    const failed = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(failed.jobs[0].status).toBe('failed');
    const details = failed.jobs[0].executionDetails.map((d: any) => d.detail);
    expect(details).toContain('The provider refused the channel connection token; the connection is marked revoked');
    const messages = await client.get(`/v1/messages?subscriberId=${subscriberId}&channel=chat`);
    expect(messages.body.data[0]).toMatchObject({ status: 'error', errorText: 'Slack did not post the message: token_revoked' });
    const marked = (await novu.channelConnections.retrieve(connection.identifier)).result as unknown as Record<string, unknown>;
    // `status` is ours (the SDK's model leaves it out): read it from the plain answer.
    const plain = await client.get(`/v1/channel-connections/${connection.identifier}`);
    expect(plain.body).toMatchObject({ status: 'revoked', revokedReason: 'token_revoked' });
    expect(marked.identifier).toBe(connection.identifier);

    // A revoked connection's endpoints are skipped (nothing posted) until it is reconnected.
    fake.reset();
    const skipped = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(skipped.jobs[0].status).toBe('canceled');
    expect(fake.requests).toHaveLength(0);
    await novu.channelConnections.update({ workspace: { id: 'T123' }, auth: { accessToken: 'xoxb-fresh-5678' } }, connection.identifier);
    fake.reply = () => ({ status: 200, body: { ok: true, ts: '1.2' } });
    const again = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(again.jobs[0].status).toBe('completed');
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer xoxb-fresh-5678');

    // A subscriber with an incoming-webhook URL is delivered to as before.
    const hooked = await subscriber();
    const put = await client.put(`/v1/subscribers/${hooked}/credentials`, {
      providerId: 'slack',
      credentials: { webhookUrl: `${fake.url}/slack/${hooked}` },
    });
    expect(put.status).toBe(200);
    fake.reset();
    fake.reply = () => ({ status: 200, body: 'ok' });
    const viaWebhook = await settledOne(client, await triggerWith(client, { name: wf, to: hooked }));
    expect(viaWebhook.jobs[0].status).toBe('completed');
    expect(fake.requests.map((r) => r.path)).toEqual([`/slack/${hooked}`]);
  });

  it('a trigger reaches the endpoints of its own context only, and a context-free trigger the context-free ones', async () => {
    const subscriberId = await subscriber();
    const team = `team:a-${rand()}`;
    const context = { team: team.slice('team:'.length) };
    const plainToken = `xoxb-${rand()}-plain`;
    const teamToken = `xoxb-${rand()}-team`;
    // The subscriber's own connection without context, and one for context A (one per resource).
    await connect(subscriberId, plainToken);
    const teamConnection = (
      await novu.channelConnections.create({
        subscriberId,
        context,
        integrationIdentifier: slackIntegration,
        workspace: { id: 'T123' },
        auth: { accessToken: teamToken },
      })
    ).result;
    expect(teamConnection.contextKeys).toEqual([team]);
    const endpoint = (channelId: string, extra: Record<string, unknown> = {}) =>
      novu.channelEndpoints.create({
        subscriberId,
        integrationIdentifier: slackIntegration,
        type: 'slack_channel',
        endpoint: { channelId },
        ...extra,
      });
    expect((await endpoint('CPLAIN')).result.contextKeys).toEqual([]);
    const ofTeam = (await endpoint('CTEAM', { context })).result;
    expect(ofTeam).toMatchObject({ contextKeys: [team], connectionIdentifier: teamConnection.identifier });

    fake.reply = (r) => ({ status: 200, body: { ok: true, ts: `ts-${r.json?.channel}` } });
    const wf = await createWorkflow(client, [{ name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'Hello' } }]);
    const posted = () =>
      fake.requests.filter((r) => r.path === '/api/chat.postMessage').map((r) => [r.json.channel, r.headers.authorization]);

    const withContext = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId, context }));
    expect(withContext.jobs[0].status).toBe('completed');
    expect(posted()).toEqual([['CTEAM', `Bearer ${teamToken}`]]);

    fake.reset();
    fake.reply = (r) => ({ status: 200, body: { ok: true, ts: `ts-${r.json?.channel}` } });
    const without = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(without.jobs[0].status).toBe('completed');
    expect(posted()).toEqual([['CPLAIN', `Bearer ${plainToken}`]]);

    // Another context has no endpoint of its own: nothing is posted.
    fake.reset();
    const other = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId, context: { team: `b-${rand()}` } }));
    expect(other.jobs[0].status).toBe('canceled');
    expect(fake.requests).toHaveLength(0);
  });

  /** A chat integration of `providerId` and a new subscriber with a webhook endpoint on it. */
  async function webhookEndpointOn(providerId: string, credentials: Record<string, string>, path: string, channel: string) {
    const identifier = `${providerId}-${rand()}`;
    const created = await client.post('/v1/integrations', { providerId, channel: 'chat', identifier, active: true, credentials });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const subscriberId = await subscriber();
    await novu.channelEndpoints.create({
      subscriberId,
      integrationIdentifier: identifier,
      type: 'webhook',
      endpoint: { url: `${fake.url}${path}/${subscriberId}`, channel },
    });
    return subscriberId;
  }

  const chatDone = async (subscriberId: string) => {
    const wf = await createWorkflow(client, [{ name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'Deploy done' } }]);
    const done = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(done.jobs[0].status).toBe('completed');
  };

  it('a webhook endpoint’s channel is sent with the message', async () => {
    const subscriberId = await webhookEndpointOn('mattermost', {}, '/mattermost', 'town-square');
    await chatDone(subscriberId);
    expect(fake.requests.map((r) => [r.path, r.json])).toEqual([
      [`/mattermost/${subscriberId}`, { text: 'Deploy done', channel: 'town-square' }],
    ]);
  });

  it('a Slack webhook endpoint posts to its URL even when the integration holds a bot token', async () => {
    const credentials = {
      applicationId: 'A2',
      clientId: 'client-2',
      secretKey: 'client-secret',
      apiToken: `xoxb-${rand()}`,
      baseUrl: fake.url,
    };
    const subscriberId = await webhookEndpointOn('slack', credentials, '/hooks', 'C-ELSEWHERE');
    fake.reset();
    fake.reply = () => ({ status: 200, body: 'ok' });
    await chatDone(subscriberId);
    expect(fake.requests.map((r) => r.path)).toEqual([`/hooks/${subscriberId}`]);
  });

  it('refuses endpoints without a connection, of an unsupported type, or of another environment', async () => {
    const subscriberId = await subscriber();
    const none = await client.post('/v1/channel-endpoints', {
      subscriberId,
      integrationIdentifier: slackIntegration,
      type: 'slack_channel',
      endpoint: { channelId: 'C1' },
    });
    expect(none.status).toBe(422);
    expect(none.body.errors.connectionIdentifier).toBeDefined();
    const phone = await client.post('/v1/channel-endpoints', {
      subscriberId,
      integrationIdentifier: slackIntegration,
      type: 'phone',
      endpoint: { phoneNumber: '+15550001' },
    });
    expect(phone.status).toBe(422);

    // The same organization's production environment does not see the development one's
    // integration or connections.
    const prod = org.prod;
    const prodNovu = new Novu({ secretKey: prod.apiKey, serverURL: api.url });
    expect((await prodNovu.channelConnections.list({})).result.data).toEqual([]);
    const foreign = await prod.client.post('/v1/channel-connections', {
      subscriberId,
      integrationIdentifier: slackIntegration,
      workspace: { id: 'T' },
      auth: { accessToken: 'x' },
    });
    expect(foreign.status).toBe(404);
  });
});
