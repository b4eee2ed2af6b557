import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type ApiClient, type TestEnv } from '../support/api.ts';
import { fakeApiForFile } from '../support/provider-servers.ts';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';

// Linking a subscriber's own Slack user (issue 36: generateLinkUserOAuthUrl, linkChannelEndpoint,
// autoLinkUser) through `@novu/api`, against a local stand-in for Slack (the integration's
// baseUrl): "Sign in with Slack" on a workspace's connection makes the user the subscriber's
// slack_user endpoint, and a chat step then posts to them with the workspace's token.

vi.setConfig({ testTimeout: 180_000 });

const fake = fakeApiForFile();

let api: LocalApi;
let env: TestEnv;
let client: ApiClient;
let novu: Novu;
const integrationIdentifier = `slack-link-${rand()}`;

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
  client = env.client;
  novu = new Novu({ secretKey: env.apiKey, serverURL: api.url });
  await novu.integrations.create({
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
});
afterAll(() => api.close());

/** Slack's consent or sign-in page: the user allows, Slack redirects back with a code. */
function allow(pageUrl: string): string {
  const url = new URL(pageUrl);
  const back = new URL(url.searchParams.get('redirect_uri')!);
  back.searchParams.set('code', `code-${rand()}`);
  back.searchParams.set('state', url.searchParams.get('state')!);
  return back.toString();
}

const follow = async (url: string) => new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);

/** oauth.v2.access: an install gives the bot token and names the installer; a sign-in only the user. */
function slackAnswers(user = 'U42', team = 'T77') {
  fake.reply = (r) => {
    if (r.path !== '/api/oauth.v2.access') return { status: 200, body: { ok: true, ts: `ts-${rand()}` } };
    return {
      status: 200,
      body: r.form.get('code')
        ? {
            ok: true,
            access_token: 'xoxb-workspace-token',
            bot_user_id: 'B1',
            team: { id: team },
            authed_user: { id: user, access_token: 'xoxp-u' },
          }
        : { ok: false, error: 'invalid_code' },
    };
  };
}

describe('linking a subscriber’s Slack user', () => {
  it('links the installer on connect (autoLinkUser), then by sign-in; a chat step posts to the user with the workspace token', async () => {
    const subscriberId = `sub-${rand()}`;
    expect((await client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    slackAnswers('U-installer');
    // generateConnectOAuthUrl links the subscriber who connects by default.
    const { url } = (await novu.integrations.generateConnectOAuthUrl({ integrationIdentifier, subscriberId })).result;
    const done = await follow(allow(url));
    expect(done.searchParams.get('status')).toBe('success');
    const connectionIdentifier = done.searchParams.get('connectionIdentifier')!;
    const linked = (await novu.channelEndpoints.list({ subscriberId })).result.data;
    expect(linked.map((e) => [e.type, e.endpoint, e.connectionIdentifier])).toEqual([
      ['slack_user', { userId: 'U-installer' }, connectionIdentifier],
    ]);

    // A sign-in page with user scopes only, on the subscriber's connection.
    slackAnswers('U-other');
    const signIn = new URL((await novu.integrations.generateLinkUserOAuthUrl({ integrationIdentifier, subscriberId })).result.url);
    expect(signIn.pathname).toBe('/oauth/v2/authorize');
    expect(signIn.searchParams.get('user_scope')).toBe('identity.basic');
    expect(signIn.searchParams.get('scope')).toBeNull();
    const back = await follow(allow(signIn.toString()));
    expect(back.searchParams.get('status')).toBe('success');
    const endpointIdentifier = back.searchParams.get('endpointIdentifier')!;
    expect((await novu.channelEndpoints.retrieve(endpointIdentifier)).result).toMatchObject({
      type: 'slack_user',
      subscriberId,
      connectionIdentifier,
      endpoint: { userId: 'U-other' },
    });

    // A user of another workspace is not linked to this one's connection.
    slackAnswers('U-stranger', 'T-elsewhere');
    const link = (await novu.integrations.linkChannelEndpoint({ integrationIdentifier, subscriberId })).result;
    const refused = await follow(allow(link.url));
    expect(refused.searchParams.get('status')).toBe('error');
    expect(refused.searchParams.get('reason')).toContain('T-elsewhere');
    expect((await novu.channelEndpoints.list({ subscriberId })).result.totalCount).toBe(2);

    fake.reset();
    fake.reply = () => ({ status: 200, body: { ok: true, ts: `ts-${rand()}` } });
    const wf = await createWorkflow(client, [{ name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'Hi' } }]);
    const sent = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(sent.jobs[0].status).toBe('completed');
    const posts = fake.requests.filter((r) => r.path === '/api/chat.postMessage');
    expect(posts.map((r) => r.json.channel).sort()).toEqual(['U-installer', 'U-other']);
    for (const post of posts) expect(post.headers.authorization).toBe('Bearer xoxb-workspace-token');
  });

  it('refuses bad input: no connection yet, a missing subscriber, mode link_user without a subscriber', async () => {
    const subscriberId = `sub-${rand()}`;
    expect((await client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    const unconnected = await client.post('/v1/integrations/channel-endpoints/link', { integrationIdentifier, subscriberId });
    expect(unconnected.status).toBe(422);
    expect(unconnected.body.errors.connectionIdentifier).toBeDefined();
    const nobody = await client.post('/v1/integrations/channel-endpoints/oauth', {
      integrationIdentifier,
      subscriberId: `nobody-${rand()}`,
    });
    expect(nobody.status).toBe(404);
    const noSubscriber = await client.post('/v1/integrations/chat/oauth', {
      integrationIdentifier,
      mode: 'link_user',
      connectionMode: 'shared',
      context: { team: 'x' },
    });
    expect(noSubscriber.status).toBe(422);
    expect(Object.keys(noSubscriber.body.errors)).toEqual(['subscriberId']);
    const badBody = await client.post('/v1/integrations/channel-endpoints/link', { integrationIdentifier: 42, subscriberId: [] });
    expect(badBody.status).toBe(422);
    expect(Object.keys(badBody.body.errors).sort()).toEqual(['integrationIdentifier', 'subscriberId']);
  });
});
