import { Novu } from '@novu/api';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import { contextHashValid } from '#lib/inbox/hmac.ts';
import { createTestOrg, startTestApi, type ApiClient, type TestEnv, type TestOrg } from '../support/api.ts';
import { fakeApiForFile } from '../support/provider-servers.ts';
import {
  adminConsentReturn,
  BOT_HOME_TENANT,
  CUSTOMER_TENANT,
  microsoftReplies,
  type MicrosoftOptions,
} from '../support/microsoft-stand-in.ts';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';

// Microsoft Teams connected by admin consent (issue 36) through `@novu/api`, against a local
// stand-in for Microsoft's login (admin consent, token endpoint, user sign-in) and the Bot
// Framework (the integration's baseUrl): a tenant's consent stored as a connection (no token
// kept), channel and user endpoints on it, a chat step posting through the Bot Framework with the
// bot's own token, a subscriber's own Teams user linked by sign-in, a 401 marking the connection,
// and forged, replayed or other environments' states refused.

vi.setConfig({ testTimeout: 180_000 });

const fake = fakeApiForFile();

let api: LocalApi;
let org: TestOrg;
let env: TestEnv;
let client: ApiClient;
let novu: Novu;
const integrationIdentifier = `teams-${rand()}`;
const callbackPath = '/v1/integrations/chat/oauth/callback';

beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
  env = org.dev;
  client = env.client;
  novu = new Novu({ secretKey: env.apiKey, serverURL: api.url });
  const res = await novu.integrations.create({
    providerId: 'msteams',
    channel: 'chat',
    identifier: integrationIdentifier,
    active: true,
    credentials: {
      clientId: 'bot-app-id',
      secretKey: 'bot-client-secret',
      tenantId: BOT_HOME_TENANT,
      redirectUrl: `${fake.url}/done`,
      baseUrl: fake.url,
    },
  });
  expect(res.result.identifier).toBe(integrationIdentifier);
});
afterAll(() => api.close());

/** Microsoft as the stand-in plays it (test/support/microsoft-stand-in.ts). */
function microsoft(options: MicrosoftOptions = {}) {
  fake.reply = microsoftReplies(options);
}

/** The tenant administrator consents on Microsoft's page: the browser comes back with the tenant. */
function adminConsents(consentUrl: string, tenant = CUSTOMER_TENANT): string {
  const url = new URL(consentUrl);
  return adminConsentReturn(url.searchParams.get('redirect_uri')!, url.searchParams.get('state')!, tenant);
}

/** A user signs in on Microsoft's page: the browser comes back with a code. */
function userSignsIn(signInUrl: string): string {
  const url = new URL(signInUrl);
  const back = new URL(url.searchParams.get('redirect_uri')!);
  back.searchParams.set('code', `code-${rand()}`);
  back.searchParams.set('state', url.searchParams.get('state')!);
  return back.toString();
}

const follow = async (url: string) => {
  const answer = await fetch(url, { redirect: 'manual' });
  return { status: answer.status, location: answer.headers.get('location') ? new URL(answer.headers.get('location')!) : undefined, answer };
};

async function subscriber(): Promise<string> {
  const subscriberId = `sub-${rand()}`;
  expect((await client.post('/v2/subscribers', { subscriberId, firstName: 'Grace' })).status).toBe(201);
  return subscriberId;
}

/** A subscriber's tenant connected through the consent flow; its connection identifier. */
async function connectTenant(subscriberId: string): Promise<string> {
  microsoft();
  const { url } = (await novu.integrations.generateConnectOAuthUrl({ integrationIdentifier, subscriberId, autoLinkUser: false })).result;
  const done = await follow(adminConsents(url));
  expect(done.location?.searchParams.get('status'), done.location?.toString()).toBe('success');
  return done.location!.searchParams.get('connectionIdentifier')!;
}

describe('Microsoft Teams admin consent flow', () => {
  it('consent → callback → tenant connection stored → a triggered chat message arrives in the Teams channel and user chat', async () => {
    const subscriberId = await subscriber();
    microsoft();
    const { url } = (await novu.integrations.generateChatOAuthUrl({ integrationIdentifier, subscriberId })).result;
    const consent = new URL(url);
    expect(consent.origin + consent.pathname).toBe(`${fake.url}/organizations/v2.0/adminconsent`);
    expect(consent.searchParams.get('client_id')).toBe('bot-app-id');
    expect(consent.searchParams.get('scope')).toBe('https://graph.microsoft.com/.default');
    expect(consent.searchParams.get('redirect_uri')).toBe(`${api.url}${callbackPath}`);

    const back = adminConsents(url);
    const done = await follow(back);
    expect(done.status).toBe(302);
    expect(done.location!.origin + done.location!.pathname).toBe(`${fake.url}/done`);
    expect(done.location!.searchParams.get('status')).toBe('success');
    const connectionIdentifier = done.location!.searchParams.get('connectionIdentifier')!;
    // The consent was confirmed with the app's own credentials at the customer's tenant.
    const confirm = fake.requests.find((r) => r.path === `/${CUSTOMER_TENANT}/oauth2/v2.0/token`)!;
    expect(Object.fromEntries(confirm.form)).toMatchObject({
      grant_type: 'client_credentials',
      client_id: 'bot-app-id',
      client_secret: 'bot-client-secret',
    });

    const connection = (await novu.channelConnections.retrieve(connectionIdentifier)).result;
    expect(connection).toMatchObject({
      providerId: 'msteams',
      subscriberId,
      workspace: { id: CUSTOMER_TENANT },
      auth: { accessToken: '****' },
    });
    // No Microsoft token is kept, in clear or not.
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.channelConnection(env.scope, connectionIdentifier) }),
    );
    expect(JSON.stringify(Item)).not.toContain('customer-graph-token');
    expect(JSON.stringify(Item)).not.toContain('bot-client-secret');

    // A replayed state is refused and stores nothing more.
    expect((await follow(back)).status).toBe(400);
    expect((await novu.channelConnections.list({ subscriberId })).result.totalCount).toBe(1);

    const channel = (
      await novu.channelEndpoints.create({
        subscriberId,
        integrationIdentifier,
        type: 'ms_teams_channel',
        endpoint: { teamId: 'team-42', channelId: '19:general@thread.tacv2' },
      })
    ).result;
    expect(channel).toMatchObject({ connectionIdentifier, providerId: 'msteams', type: 'ms_teams_channel' });
    await novu.channelEndpoints.create({ subscriberId, integrationIdentifier, type: 'ms_teams_user', endpoint: { userId: 'aad-user-1' } });

    fake.reset();
    microsoft();
    const wf = await createWorkflow(client, [
      { name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'Deployed for {{subscriber.firstName}}' } },
    ]);
    const sent = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(sent.jobs[0].status).toBe('completed');
    expect(sent.jobs[0].executionDetails.filter((d: any) => d.detail === 'Message sent')).toHaveLength(2);

    const botToken = fake.requests.find((r) => r.path === `/${BOT_HOME_TENANT}/oauth2/v2.0/token`);
    // The bot's token may still be cached from an earlier send in this process; when asked for, it is the bot's own.
    if (botToken) expect(Object.fromEntries(botToken.form)).toMatchObject({ grant_type: 'client_credentials', client_id: 'bot-app-id' });
    const toChannel = fake.requests.find(
      (r) => r.path === `/teams/v3/conversations/${encodeURIComponent('19:general@thread.tacv2')}/activities`,
    )!;
    expect(toChannel.headers.authorization).toBe('Bearer bot-framework-token');
    expect(toChannel.json).toMatchObject({
      type: 'message',
      text: 'Deployed for Grace',
      channelData: { tenant: { id: CUSTOMER_TENANT }, team: { id: 'team-42' }, channel: { id: '19:general@thread.tacv2' } },
    });
    const opened = fake.requests.find((r) => r.path === '/teams/v3/conversations')!;
    expect(opened.json).toMatchObject({
      isGroup: false,
      bot: { id: 'bot-app-id' },
      members: [{ id: 'aad-user-1' }],
      channelData: { tenant: { id: CUSTOMER_TENANT } },
    });
    const toUser = fake.requests.find((r) => r.path === `/teams/v3/conversations/${encodeURIComponent('a:1on1-aad-user-1')}/activities`)!;
    expect(toUser.json).toMatchObject({ type: 'message', text: 'Deployed for Grace' });
  });

  it('links a subscriber’s own Teams user: after the consent, by generateLinkUserOAuthUrl and by linkChannelEndpoint', async () => {
    const subscriberId = await subscriber();
    microsoft();
    // generateConnectOAuthUrl links the subscriber who connects by default: a second redirect, to their sign-in.
    const { url } = (await novu.integrations.generateConnectOAuthUrl({ integrationIdentifier, subscriberId })).result;
    const afterConsent = await follow(adminConsents(url));
    expect(afterConsent.status).toBe(302);
    const signIn = afterConsent.location!;
    expect(signIn.origin + signIn.pathname).toBe(`${fake.url}/${CUSTOMER_TENANT}/oauth2/v2.0/authorize`);
    expect(signIn.searchParams.get('scope')).toBe('openid profile User.Read');
    expect(signIn.searchParams.get('response_type')).toBe('code');
    const linked = await follow(userSignsIn(signIn.toString()));
    expect(linked.location!.searchParams.get('status')).toBe('success');
    const connectionIdentifier = linked.location!.searchParams.get('connectionIdentifier')!;
    const exchange = fake.requests.find((r) => r.form.get('grant_type') === 'authorization_code')!;
    expect(exchange.path).toBe(`/${CUSTOMER_TENANT}/oauth2/v2.0/token`);
    expect(exchange.form.get('redirect_uri')).toBe(`${api.url}${callbackPath}`);
    const endpoints = (await novu.channelEndpoints.list({ subscriberId })).result.data;
    expect(endpoints).toHaveLength(1);
    expect(endpoints[0]).toMatchObject({
      identifier: linked.location!.searchParams.get('endpointIdentifier'),
      type: 'ms_teams_user',
      connectionIdentifier,
      endpoint: { userId: 'aad-user-7' },
    });

    // Signing in again links nothing twice.
    const again = (await novu.integrations.generateLinkUserOAuthUrl({ integrationIdentifier, subscriberId })).result.url;
    expect((await follow(userSignsIn(again))).location!.searchParams.get('status')).toBe('success');
    expect((await novu.channelEndpoints.list({ subscriberId })).result.totalCount).toBe(1);

    // linkChannelEndpoint hands out the same sign-in, with when it expires.
    const link = (await novu.integrations.linkChannelEndpoint({ integrationIdentifier, subscriberId })).result;
    expect(new URL(link.url).pathname).toBe(`/${CUSTOMER_TENANT}/oauth2/v2.0/authorize`);
    expect(Date.parse(String(link.providerMetadata?.expiresAt))).toBeGreaterThan(Date.now());
    // A user of another tenant is not linked to this tenant's connection.
    microsoft({ user: { oid: 'aad-stranger', tid: 'other-tenant' } });
    const stranger = await follow(userSignsIn(link.url));
    expect(stranger.location!.searchParams.get('status')).toBe('error');
    expect(stranger.location!.searchParams.get('reason')).toContain('other-tenant');
    expect((await novu.channelEndpoints.list({ subscriberId })).result.totalCount).toBe(1);

    // Without a connection there is nothing to link a user to.
    const unconnected = await subscriber();
    const none = await client.post('/v1/integrations/channel-endpoints/oauth', { integrationIdentifier, subscriberId: unconnected });
    expect(none.status).toBe(422);
    expect(none.body.errors.connectionIdentifier).toBeDefined();
  });

  it('a 401 from the Bot Framework fails the step and marks the connection revoked until it is reconnected', async () => {
    const subscriberId = await subscriber();
    const connectionIdentifier = await connectTenant(subscriberId);
    await novu.channelEndpoints.create({
      subscriberId,
      integrationIdentifier,
      type: 'ms_teams_channel',
      endpoint: { teamId: 'team-1', channelId: '19:ops@thread.tacv2' },
    });
    microsoft({
      bot: (r) => (r.path.endsWith('/activities') ? { status: 401, body: { message: 'Authorization has been denied' } } : undefined),
    });
    const wf = await createWorkflow(client, [{ name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: 'Hello' } }]);
    const failed = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(failed.jobs[0].status).toBe('failed');
    expect(failed.jobs[0].executionDetails.map((d: any) => d.detail)).toContain(
      'The provider refused the channel connection token; the connection is marked revoked',
    );
    const plain = await client.get(`/v1/channel-connections/${connectionIdentifier}`);
    expect(plain.body).toMatchObject({ status: 'revoked', revokedReason: '401' });

    // Skipped while revoked; a new consent renews the same connection.
    fake.reset();
    const skipped = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(skipped.jobs[0].status).toBe('canceled');
    expect(fake.requests.filter((r) => r.path.startsWith('/teams/'))).toHaveLength(0);
    expect(await connectTenant(subscriberId)).toBe(connectionIdentifier);
    expect((await client.get(`/v1/channel-connections/${connectionIdentifier}`)).body.status).toBe('active');
    microsoft();
    const again = await settledOne(client, await triggerWith(client, { name: wf, to: subscriberId }));
    expect(again.jobs[0].status).toBe('completed');
  });

  it('refuses forged, replayed and other environments’ states, a tenant that did not consent, and a declined consent', async () => {
    const subscriberId = await subscriber();
    microsoft();
    const { url } = (await novu.integrations.generateConnectOAuthUrl({ integrationIdentifier, subscriberId, autoLinkUser: false })).result;
    const state = new URL(url).searchParams.get('state')!;
    const [header, payload, signature] = state.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, subscriberId: 'someone-else' })).toString('base64url');
    const forged = await follow(
      `${api.url}${callbackPath}?admin_consent=True&tenant=${CUSTOMER_TENANT}&state=${header}.${forgedPayload}.${signature}`,
    );
    expect(forged.status).toBe(400);
    expect(await forged.answer.json()).toMatchObject({ message: 'The OAuth state is invalid' });

    // A tenant named in the callback that never consented: Microsoft gives the app no token there.
    const unconsented = await follow(adminConsents(url, 'never-consented'));
    expect(Object.fromEntries(unconsented.location!.searchParams)).toMatchObject({ status: 'error' });
    expect(unconsented.location!.searchParams.get('reason')).toContain('invalid_client');
    expect((await follow(adminConsents(url))).status).toBe(400); // the state was used
    expect((await novu.channelConnections.list({ subscriberId })).result.data).toEqual([]);

    // The administrator declined.
    const declined = (await novu.integrations.generateConnectOAuthUrl({ integrationIdentifier, subscriberId })).result.url;
    const declinedState = new URL(declined).searchParams.get('state')!;
    const no = await follow(`${api.url}${callbackPath}?error=access_denied&error_description=declined&state=${declinedState}`);
    expect(Object.fromEntries(no.location!.searchParams)).toEqual({ status: 'error', reason: 'access_denied' });
    expect((await novu.channelConnections.list({ subscriberId })).result.data).toEqual([]);

    // Another environment of the same organization sees none of it.
    const prod = org.prod;
    const prodNovu = new Novu({ secretKey: prod.apiKey, serverURL: api.url });
    expect((await prod.client.post('/v1/integrations/channel-connections/oauth', { integrationIdentifier, subscriberId })).status).toBe(
      404,
    );
    expect((await prod.client.post('/v1/integrations/channel-endpoints/link', { integrationIdentifier, subscriberId })).status).toBe(404);
    expect((await prodNovu.channelConnections.list({ integrationIdentifier })).result.data).toEqual([]);
  });

  it('refuses bad input: an incomplete bot, endpoints that do not fit, a context without its HMAC', async () => {
    const subscriberId = await subscriber();
    const partial = `teams-partial-${rand()}`;
    await novu.integrations.create({
      providerId: 'msteams',
      channel: 'chat',
      identifier: partial,
      active: true,
      credentials: { clientId: 'bot-app-id', secretKey: 's', redirectUrl: `${fake.url}/done` },
    });
    const noTenant = await client.post('/v1/integrations/chat/oauth', { integrationIdentifier: partial, subscriberId });
    expect(noTenant.status).toBe(422);
    expect(noTenant.body.errors.integrationIdentifier.messages[0]).toContain('tenantId');

    const connectionIdentifier = await connectTenant(subscriberId);
    const noTeam = await client.post('/v1/channel-endpoints', {
      subscriberId,
      integrationIdentifier,
      type: 'ms_teams_channel',
      endpoint: { channelId: '19:x@thread.tacv2' },
    });
    expect(noTeam.status).toBe(422);
    expect(Object.keys(noTeam.body.errors)).toEqual(['endpoint.teamId']);
    const user = (
      await novu.channelEndpoints.create({
        subscriberId,
        integrationIdentifier,
        connectionIdentifier,
        type: 'ms_teams_user',
        endpoint: { userId: 'u1' },
      })
    ).result;
    const notAUser = await client.patch(`/v1/channel-endpoints/${user.identifier}`, { endpoint: { teamId: 't' } });
    expect(notAUser.status).toBe(422);

    const slackIntegration = `slack-${rand()}`;
    await novu.integrations.create({
      providerId: 'slack',
      channel: 'chat',
      identifier: slackIntegration,
      active: true,
      credentials: { applicationId: 'A', clientId: 'c', secretKey: 's' },
    });
    const teamsOnSlack = await client.post('/v1/channel-endpoints', {
      subscriberId,
      integrationIdentifier: slackIntegration,
      type: 'ms_teams_user',
      endpoint: { userId: 'u1' },
    });
    expect(teamsOnSlack.status).toBe(422);

    // With HMAC on, a context must come signed with the environment's key.
    const signed = `teams-hmac-${rand()}`;
    await novu.integrations.create({
      providerId: 'msteams',
      channel: 'chat',
      identifier: signed,
      active: true,
      credentials: {
        clientId: 'b',
        secretKey: 's',
        tenantId: BOT_HOME_TENANT,
        redirectUrl: `${fake.url}/done`,
        baseUrl: fake.url,
        hmac: true,
      },
    });
    const context = { team: { id: `t-${rand()}`, data: { plan: 'pro' } } };
    const unsigned = await client.post('/v1/integrations/channel-connections/oauth', {
      integrationIdentifier: signed,
      connectionMode: 'shared',
      context,
      contextHash: 'beef',
    });
    expect(unsigned.status).toBe(400);
    const { createHmac } = await import('node:crypto');
    const { canonicalize } = await import('@tufjs/canonical-json');
    const contextHash = createHmac('sha256', env.apiKey).update(canonicalize(context)).digest('hex');
    expect(contextHashValid([env.apiKey], context, contextHash)).toBe(true);
    const ok = await novu.integrations.generateConnectOAuthUrl({
      integrationIdentifier: signed,
      connectionMode: 'shared',
      context,
      contextHash,
    });
    expect(new URL(ok.result.url).pathname).toBe('/organizations/v2.0/adminconsent');
  });
});
