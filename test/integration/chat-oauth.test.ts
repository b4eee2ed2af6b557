import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type ApiClient, type TestEnv, type TestOrg } from '../support/api.ts';
import { fakeApiForFile } from '../support/provider-servers.ts';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';

// The Slack OAuth connect flow (issue 36, item 1) through `@novu/api`, against a local stand-in
// for Slack (authorize page and oauth.v2.access, the integration's baseUrl): the consent URL, the
// provider's redirect to our callback, the code exchanged, the connection stored, the browser sent
// to the integration's Redirect URL, and a chat message then posted with the workspace's token.
// A forged, replayed or other environment's state is refused.

vi.setConfig({ testTimeout: 180_000 });

const fake = fakeApiForFile();

let api: LocalApi;
let org: TestOrg;
let env: TestEnv;
let client: ApiClient;
let novu: Novu;
const integrationIdentifier = `slack-oauth-${rand()}`;

beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
  env = org.dev;
  client = env.client;
  novu = new Novu({ secretKey: env.apiKey, serverURL: api.url });
  const res = await client.post('/v1/integrations', {
    providerId: 'slack',
    channel: 'chat',
    identifier: integrationIdentifier,
    active: true,
    credentials: {
      applicationId: 'A1',
      clientId: 'client-1',
      secretKey: 'client-secret',
      redirectUrl: `${fake.url}/done`,
      baseUrl: fake.url,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
});
afterAll(() => api.close());

/** What the browser does on Slack's consent page: the user allows, Slack redirects back with a code. */
function consent(authorizeUrl: string): string {
  const url = new URL(authorizeUrl);
  const back = new URL(url.searchParams.get('redirect_uri')!);
  back.searchParams.set('code', `code-${rand()}`);
  back.searchParams.set('state', url.searchParams.get('state')!);
  return back.toString();
}

const callback = (url: string) => fetch(url, { redirect: 'manual' });

describe('Slack OAuth connect flow', () => {
  it('consent → callback → connection stored → a triggered chat message arrives with the workspace token', async () => {
    const subscriberId = `sub-${rand()}`;
    expect((await client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    const { url } = (await novu.integrations.generateChatOAuthUrl({ integrationIdentifier, subscriberId })).result;
    const authorize = new URL(url);
    expect(authorize.origin + authorize.pathname).toBe(`${fake.url}/oauth/v2/authorize`);
    expect(authorize.searchParams.get('client_id')).toBe('client-1');
    expect(authorize.searchParams.get('scope')).toContain('chat:write');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${api.url}/v1/integrations/chat/oauth/callback`);

    fake.reply = (r) =>
      r.path === '/api/oauth.v2.access'
        ? { status: 200, body: { ok: true, access_token: 'xoxb-installed-token', bot_user_id: 'B1', team: { id: 'T77', name: 'Acme' } } }
        : { status: 200, body: { ok: true, ts: '1.1' } };
    const back = consent(url);
    const answer = await callback(back);
    expect(answer.status).toBe(302);
    const done = new URL(answer.headers.get('location')!);
    expect(done.origin + done.pathname).toBe(`${fake.url}/done`);
    expect(done.searchParams.get('status')).toBe('success');
    const connectionIdentifier = done.searchParams.get('connectionIdentifier')!;
    const exchange = fake.requests.find((r) => r.path === '/api/oauth.v2.access')!;
    expect(Object.fromEntries(exchange.form)).toMatchObject({
      client_id: 'client-1',
      client_secret: 'client-secret',
      redirect_uri: `${api.url}/v1/integrations/chat/oauth/callback`,
    });

    const connection = (await novu.channelConnections.retrieve(connectionIdentifier)).result;
    expect(connection).toMatchObject({
      subscriberId,
      workspace: { id: 'T77', name: 'Acme', botUserId: 'B1' },
      auth: { accessToken: '****oken' },
    });

    // A replayed state is refused, and stores nothing more.
    const replay = await callback(back);
    expect(replay.status).toBe(400);
    expect((await novu.channelConnections.list({ subscriberId })).result.totalCount).toBe(1);

    await novu.channelEndpoints.create({ subscriberId, integrationIdentifier, type: 'slack_channel', endpoint: { channelId: 'C55' } });
    fake.reset();
    fake.reply = () => ({ status: 200, body: { ok: true, ts: '2.2' } });
    const wf = await createWorkflow(client, [{ name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'Deployed' } }]);
    const sent = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(sent.jobs[0].status).toBe('completed');
    const post = fake.requests.find((r) => r.path === '/api/chat.postMessage')!;
    expect(post.headers.authorization).toBe('Bearer xoxb-installed-token');
    expect(post.json).toMatchObject({ channel: 'C55', text: 'Deployed' });
  });

  it('a shared install for a context: the connection belongs to the context, and a trigger with it posts through it', async () => {
    const team = `acme-${rand()}`;
    const { url } = (await novu.integrations.generateChatOAuthUrl({ integrationIdentifier, connectionMode: 'shared', context: { team } }))
      .result;
    fake.reply = (r) =>
      r.path === '/api/oauth.v2.access'
        ? { status: 200, body: { ok: true, access_token: 'xoxb-shared-install', bot_user_id: 'B2', team: { id: 'T88', name: 'Shared' } } }
        : { status: 200, body: { ok: true, ts: '3.3' } };
    const answer = await callback(consent(url));
    expect(answer.status).toBe(302);
    const done = new URL(answer.headers.get('location')!);
    expect(done.searchParams.get('status')).toBe('success');
    const connectionIdentifier = done.searchParams.get('connectionIdentifier')!;
    const connection = (await novu.channelConnections.retrieve(connectionIdentifier)).result;
    expect(connection).toMatchObject({
      subscriberId: null,
      contextKeys: [`team:${team}`],
      workspace: { id: 'T88', name: 'Shared' },
      auth: { accessToken: '****tall' },
    });

    // A subscriber's endpoint in that context goes through the shared connection; a trigger
    // naming the context reaches it with the workspace's token.
    const subscriberId = `sub-${rand()}`;
    const endpoint = (
      await novu.channelEndpoints.create({
        subscriberId,
        createSubscriberIfMissing: true,
        context: { team },
        integrationIdentifier,
        type: 'slack_channel',
        endpoint: { channelId: 'C88' },
      })
    ).result;
    expect(endpoint.connectionIdentifier).toBe(connectionIdentifier);
    fake.reset();
    fake.reply = () => ({ status: 200, body: { ok: true, ts: '4.4' } });
    const wf = await createWorkflow(client, [{ name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'For the team' } }]);
    const sent = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId, context: { team } }));
    expect(sent.jobs[0].status).toBe('completed');
    const posts = fake.requests.filter((r) => r.path === '/api/chat.postMessage');
    expect(posts.map((r) => [r.headers.authorization, r.json.channel, r.json.text])).toEqual([
      ['Bearer xoxb-shared-install', 'C88', 'For the team'],
    ]);
  });

  it('refuses forged and other environments’ states, and reports a denied consent to the Redirect URL', async () => {
    const subscriberId = `sub-${rand()}`;
    expect((await client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    const { url } = (await novu.integrations.generateConnectOAuthUrl({ integrationIdentifier, subscriberId })).result;
    const state = new URL(url).searchParams.get('state')!;
    const callbackUrl = `${api.url}/v1/integrations/chat/oauth/callback`;

    // Forged: the payload changed to name the organization's other environment, the signature kept.
    const [header, payload, signature] = state.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, environmentId: org.prod.id })).toString('base64url');
    const forged = await callback(`${callbackUrl}?code=c&state=${header}.${forgedPayload}.${signature}`);
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { message: string }).message).toBe('The OAuth state is invalid');
    expect((await callback(`${callbackUrl}?code=c&state=not-a-state`)).status).toBe(400);
    expect((await callback(`${callbackUrl}?code=c`)).status).toBe(400);

    // The user declined on Slack's page: the browser goes back with the reason, nothing stored.
    const denied = await callback(`${callbackUrl}?error=access_denied&state=${state}`);
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toEqual({ status: 'error', reason: 'access_denied' });
    expect((await novu.channelConnections.list({ subscriberId })).result.data).toEqual([]);

    // The same organization's production environment cannot start a flow on the development
    // environment's integration.
    const prod = org.prod;
    const other = await prod.client.post('/v1/integrations/chat/oauth', { integrationIdentifier, subscriberId });
    expect(other.status).toBe(404);
  });

  it('refuses bad input: no subscriber, an integration without a Redirect URL', async () => {
    const none = await client.post('/v1/integrations/channel-connections/oauth', { integrationIdentifier });
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.errors)).toEqual(['subscriberId']);
    const bare = `slack-bare-${rand()}`;
    expect(
      (
        await client.post('/v1/integrations', {
          providerId: 'slack',
          channel: 'chat',
          identifier: bare,
          active: true,
          credentials: { applicationId: 'A1', clientId: 'c', secretKey: 's' },
        })
      ).status,
    ).toBe(201);
    const shared = await client.post('/v1/integrations/chat/oauth', {
      integrationIdentifier: bare,
      connectionMode: 'shared',
      context: { team: 'x' },
    });
    expect(shared.status).toBe(422);
    expect(shared.body.errors.integrationIdentifier.messages[0]).toContain('Redirect URL');
  });
});
