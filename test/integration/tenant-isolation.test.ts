import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import type { StoredMessage } from '#lib/messages/model.ts';
import { routes, type OperationId } from '#infra/routes.ts';
import { hashApiKey } from '#lib/auth/api-keys.ts';
import type { StoredNotification } from '#lib/pipeline/model.ts';
import { apiClient, createTestOrg, inboxClient, startTestApi, type ApiClient, type ApiResponse, type TestEnv } from '../support/api.ts';
import { buildMessage, seedMessages } from '../support/message-builder.ts';
import { multipartBody, type MultipartBody } from '../support/multipart.ts';
import { seedNotification } from '../support/notification-builder.ts';
import { rand } from '../support/pipeline.ts';

// Tenant isolation (issue 9, item 2). Two organizations × two environments, each environment
// seeded through the API with one of everything. Then every route of the route table is called
// with the API key of every OTHER scope, with the victim's ids and keys in the path and body, and
// must answer 404, or a success that belongs to the caller's own scope and shows none of the
// victim's data; afterwards every victim's GET views are exactly what they were before.
//
// The cases are keyed by operationId and typed as a Record over every operationId, so a route
// added to infra/routes.ts without a case here fails to compile, and the first test fails too.
//
// Documented exceptions (docs/reliability.md, "Tenants"): integrations are organization-scoped —
// GET /v1/integrations (and /v1/integrations/active, its active ones) lists every environment of
// the organization, and PUT/DELETE/set-primary
// of an integration work from any environment of its organization — and workflow sync (and an
// integration's `_environmentId`) target environments of the caller's organization; idempotency
// keys are scoped to the organization; environment promotion (diff, publish) reads and writes the
// target environment from the source's key, as the sync; environment variables are the
// organization's (their keys listed organization-wide, each value its environment's). The matrix
// expects exactly that for the same organization, and nothing at all for the other one; the
// exceptions themselves are exercised, with their effects, in the last test.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

interface Seeded {
  /** SendGrid (email), Discord (chat), Expo (push): each with its own identifier. */
  integrations: { email: Entity; chat: Entity; push: Entity };
  subscriber: { subscriberId: string; _id: string };
  topic: { key: string; _id: string };
  subscriptionId: string;
  workflow: { workflowId: string; _id: string; slug: string };
  tenant: { identifier: string; _id: string };
  /** An email layout of the scope's own (the environment's default is the provisioned one). */
  layout: { layoutId: string; _id: string; slug: string };
  /** The environment's one notification group (v1 workflows). */
  notificationGroupId: string;
  /** A webhook endpoint (disabled: the seeding's own changes are sent nowhere). */
  webhookEndpoint: { _id: string };
  /** An environment variable of the organization with this scope's value (its marker in it). */
  variable: { key: string; _id: string };
  /** A Slack integration, a workspace connection of the subscriber and a Slack channel endpoint (lib/channels). */
  slack: { integration: string; connection: string; endpoint: string };
}

interface Entity {
  _id: string;
  identifier: string;
}

interface Scope {
  name: string;
  org: 'A' | 'B';
  orgId: string;
  env: TestEnv;
  client: ApiClient;
  /** An inbox session of the scope's own subscriber (`Authorization: Bearer`). */
  inbox: ApiClient;
  /** Client-chosen ids of this scope's data are `<kind>-<tag>`. */
  tag: string;
  /** A random string put into every name, email and data field this scope stores. */
  marker: string;
  seeded: Seeded;
}

const IN_APP = { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hello {{subscriber.firstName}}' } };
const EMAIL = { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hello</p>' } };
const V1_IN_APP = { name: 'Inbox', template: { type: 'in_app', content: 'Hello {{subscriber.firstName}}' } };

function expectStatus(res: ApiResponse, status: number, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
}

/** Each scope's context (`tenant:<id>`) is named by its tag. */
const contextIdOf = (scope: Pick<Scope, 'tag'>) => `ctx-${scope.tag}`;
/** The path of the victim's subscription by its default identifier. */
const subscriptionPathOf = ({ seeded }: Scope) =>
  `/v2/topics/${seeded.topic.key}/subscriptions/${encodeURIComponent(`tk_${seeded.topic.key}:si_${seeded.subscriber.subscriberId}`)}`;

async function seed(scope: Omit<Scope, 'seeded' | 'inbox'>): Promise<Seeded> {
  const { client, tag, marker } = scope;
  const integration = async (body: Record<string, unknown>): Promise<Entity> => {
    const res = await client.post('/v1/integrations', body);
    expectStatus(res, 201, `seed integration ${String(body.providerId)}`);
    return { _id: res.body.data._id, identifier: res.body.data.identifier };
  };
  const email = await integration({
    providerId: 'sendgrid',
    channel: 'email',
    identifier: `int-email-${tag}`,
    name: `Mail ${marker}`,
    active: true,
    credentials: { apiKey: `SG.${marker}`, from: `${marker}@example.com`, senderName: `Sender ${marker}` },
  });
  const chat = await integration({
    providerId: 'discord',
    channel: 'chat',
    identifier: `int-chat-${tag}`,
    name: `Chat ${marker}`,
    active: true,
  });
  const push = await integration({
    providerId: 'expo',
    channel: 'push',
    identifier: `int-push-${tag}`,
    name: `Push ${marker}`,
    active: true,
    credentials: { apiKey: `expo-${marker}` },
  });

  const subscriberId = `sub-${tag}`;
  const sub = await client.post('/v2/subscribers', {
    subscriberId,
    firstName: `First ${marker}`,
    email: `${marker}@example.com`,
    data: { marker },
  });
  expectStatus(sub, 201, 'seed subscriber');
  const credentialsPath = `/v1/subscribers/${subscriberId}/credentials`;
  expectStatus(
    await client.put(credentialsPath, { providerId: 'discord', credentials: { webhookUrl: `https://hooks.example/${marker}` } }),
    200,
    'seed chat credentials',
  );
  expectStatus(
    await client.put(credentialsPath, { providerId: 'expo', credentials: { deviceTokens: [`token-${marker}`] } }),
    200,
    'seed push credentials',
  );

  const topicKey = `topic-${tag}`;
  const topic = await client.post('/v2/topics', { key: topicKey, name: `Topic ${marker}` });
  expectStatus(topic, 201, 'seed topic');
  const subscribed = await client.post(`/v2/topics/${topicKey}/subscriptions`, { subscriberIds: [subscriberId] });
  expectStatus(subscribed, 201, 'seed subscription');
  const subscriptions = await client.get(`/v2/subscribers/${subscriberId}/subscriptions`);
  expectStatus(subscriptions, 200, 'seed subscription list');
  expect(subscriptions.body.data).toHaveLength(1);

  const workflowId = `wf-${tag}`;
  const workflow = await client.post('/v2/workflows', {
    name: `Workflow ${marker}`,
    workflowId,
    description: `About ${marker}`,
    steps: [IN_APP, EMAIL],
  });
  expectStatus(workflow, 201, 'seed workflow');

  const preferencesPath = `/v2/subscribers/${subscriberId}/preferences`;
  expectStatus(await client.patch(preferencesPath, { channels: { email: false } }), 200, 'seed global preferences');
  expectStatus(await client.patch(preferencesPath, { workflowId, channels: { in_app: false } }), 200, 'seed workflow preferences');

  const translation = await client.post('/v2/translations', {
    resourceType: 'workflow',
    resourceId: workflowId,
    locale: 'en_US',
    content: { greeting: `Hello ${marker}` },
  });
  expectStatus(translation, 200, 'seed translation');

  const tenant = await client.post('/v2/tenants', { identifier: `tenant-${tag}`, name: `Tenant ${marker}`, data: { marker } });
  expectStatus(tenant, 201, 'seed tenant');
  const context = await client.post('/v2/contexts', { type: 'tenant', id: contextIdOf(scope), data: { marker } });
  expectStatus(context, 201, 'seed context');

  const groups = await client.get('/v1/notification-groups');
  expectStatus(groups, 200, 'seed notification group');

  const layout = await client.post('/v2/layouts', {
    layoutId: `layout-${tag}`,
    name: `Layout ${marker}`,
    controlValues: { email: { editorType: 'html', body: `<html><body><p>${marker}</p>{{content}}</body></html>` } },
  });
  expectStatus(layout, 201, 'seed layout');
  const endpoint = await client.post('/v2/webhooks/endpoints', {
    url: `https://hooks.example/${marker}`,
    description: `Hook ${marker}`,
    enabled: false,
  });
  expectStatus(endpoint, 201, 'seed webhook endpoint');
  const variable = await client.post('/v1/environment-variables', {
    key: `VAR_${tag.replace(/[^A-Za-z0-9]/g, '_')}`,
    values: [{ _environmentId: scope.env.id, value: `value-${marker}` }],
  });
  expectStatus(variable, 200, 'seed environment variable');

  const slack = await integration({
    providerId: 'slack',
    channel: 'chat',
    identifier: `int-slack-${tag}`,
    name: `Slack ${marker}`,
    active: true,
    credentials: {
      applicationId: `A-${marker}`,
      clientId: `client-${marker}`,
      secretKey: `secret-${marker}`,
      redirectUrl: 'https://app.example/connected',
    },
  });
  const connection = await client.post('/v1/channel-connections', {
    identifier: `conn-${tag}`,
    subscriberId,
    integrationIdentifier: slack.identifier,
    workspace: { id: `T-${marker}`, name: `Workspace ${marker}` },
    auth: { accessToken: `xoxb-${marker}` },
  });
  expectStatus(connection, 201, 'seed channel connection');
  const channelEndpoint = await client.post('/v1/channel-endpoints', {
    identifier: `ep-${tag}`,
    subscriberId,
    integrationIdentifier: slack.identifier,
    type: 'slack_channel',
    endpoint: { channelId: `C-${marker}` },
  });
  expectStatus(channelEndpoint, 201, 'seed channel endpoint');

  return {
    slack: { integration: slack.identifier, connection: `conn-${tag}`, endpoint: `ep-${tag}` },
    integrations: { email, chat, push },
    subscriber: { subscriberId, _id: sub.body._id },
    topic: { key: topicKey, _id: topic.body._id },
    subscriptionId: subscriptions.body.data[0]._id,
    workflow: { workflowId, _id: workflow.body._id, slug: workflow.body.slug },
    tenant: { identifier: tenant.body.identifier, _id: tenant.body._id },
    layout: { layoutId: layout.body.layoutId, _id: layout.body._id, slug: layout.body.slug },
    notificationGroupId: groups.body.data[0]._id,
    webhookEndpoint: { _id: endpoint.body._id },
    variable: { key: variable.body.data.key, _id: variable.body.data._id },
  };
}

let scopes: Scope[] = [];

beforeAll(async () => {
  const [a, b] = await Promise.all([createTestOrg(api.url), createTestOrg(api.url)]);
  const bare = [
    { name: 'A/Development', org: 'A' as const, orgId: a.id, env: a.dev },
    { name: 'A/Production', org: 'A' as const, orgId: a.id, env: a.prod },
    { name: 'B/Development', org: 'B' as const, orgId: b.id, env: b.dev },
    { name: 'B/Production', org: 'B' as const, orgId: b.id, env: b.prod },
  ].map((s) => ({
    ...s,
    client: s.env.client,
    tag: `${s.org.toLowerCase()}${s.name.includes('Dev') ? 'dev' : 'prod'}-${rand()}`,
    marker: `mk${rand()}`,
  }));
  scopes = await Promise.all(
    bare.map(async (s) => {
      const seeded = await seed(s);
      return { ...s, seeded, inbox: await inboxClient(api.url, s.env, seeded.subscriber.subscriberId) };
    }),
  );
});

// The activity feed lists what the pipeline writes: each scope gets one notification stored
// directly, of its own subscriber, workflow and topic, with its marker in the payload.
const notifications = new Map<string, StoredNotification>();
beforeAll(async () => {
  for (const scope of scopes) {
    const { subscriber, workflow, topic } = scope.seeded;
    const notification = await seedNotification(scope.env.scope, {
      subscriber: { subscriberId: subscriber.subscriberId, _id: subscriber._id },
      _templateId: workflow._id,
      templateIdentifier: workflow.workflowId,
      transactionId: `txn-${scope.tag}`,
      topics: [{ _topicId: topic._id, topicKey: topic.key }],
      contextKeys: [`tenant:${scope.tag}`],
      payload: { marker: scope.marker },
    });
    notifications.set(scope.name, notification);
  }
});
const notificationOf = (scope: Scope): StoredNotification => notifications.get(scope.name)!;

// The inbox lists what the pipeline writes: each scope gets one unseen in-app message of its own
// subscriber, stored directly, with its marker in the content and payload.
const messages = new Map<string, StoredMessage>();
beforeAll(async () => {
  for (const scope of scopes) {
    const { subscriber } = scope.seeded;
    const [message] = await seedMessages([
      buildMessage(scope.env.scope, subscriber, {
        content: `Hello ${scope.marker}`,
        payload: { marker: scope.marker },
        transactionId: `msg-txn-${scope.tag}`,
      }),
    ]);
    messages.set(scope.name, message!);
  }
});
const messageOf = (scope: Scope): StoredMessage => messages.get(scope.name)!;

// ---- what a victim sees -----------------------------------------------------------------------

async function snapshot(victim: Scope): Promise<Record<string, { status: number; body: unknown }>> {
  const { subscriberId } = victim.seeded.subscriber;
  const { key } = victim.seeded.topic;
  const views: Record<string, string> = {
    subscribers: '/v2/subscribers?limit=100',
    subscriber: `/v2/subscribers/${subscriberId}`,
    subscriberSubscriptions: `/v2/subscribers/${subscriberId}/subscriptions?limit=100`,
    preferences: `/v2/subscribers/${subscriberId}/preferences`,
    topics: '/v2/topics?limit=100',
    topic: `/v2/topics/${key}`,
    topicSubscriptions: `/v2/topics/${key}/subscriptions?limit=100`,
    workflows: '/v2/workflows?limit=100',
    workflow: `/v2/workflows/${victim.seeded.workflow.workflowId}`,
    workflowsV1: '/v1/notification-templates?limit=100',
    workflowV1: `/v1/notification-templates/${victim.seeded.workflow._id}`,
    tenants: '/v2/tenants?limit=100',
    tenant: `/v2/tenants/${victim.seeded.tenant.identifier}`,
    contexts: '/v2/contexts?limit=100',
    context: `/v2/contexts/tenant/${contextIdOf(victim)}`,
    translation: `/v2/translations/workflow/${victim.seeded.workflow.workflowId}/en_US`,
    translations: '/v2/translations/master-json?locale=en_US',
    layouts: '/v2/layouts?limit=100',
    layout: `/v2/layouts/${victim.seeded.layout.layoutId}`,
    layoutUsage: `/v2/layouts/${victim.seeded.layout.layoutId}/usage`,
    messages: '/v1/messages?limit=100',
    feed: `/v1/subscribers/${subscriberId}/notifications/feed?limit=100`,
    unseen: `/v1/subscribers/${subscriberId}/notifications/unseen`,
    webhookEndpoints: '/v2/webhooks/endpoints?limit=100',
    webhookEndpoint: `/v2/webhooks/endpoints/${victim.seeded.webhookEndpoint._id}`,
    webhookAttempts: `/v2/webhooks/endpoints/${victim.seeded.webhookEndpoint._id}/attempts?limit=100`,
    variable: `/v1/environment-variables/${victim.seeded.variable.key}`,
    channelConnections: '/v1/channel-connections?limit=100',
    channelConnection: `/v1/channel-connections/${victim.seeded.slack.connection}`,
    channelEndpoints: '/v1/channel-endpoints?limit=100',
    channelEndpoint: `/v1/channel-endpoints/${victim.seeded.slack.endpoint}`,
  };
  const out: Record<string, { status: number; body: unknown }> = {};
  for (const [name, path] of Object.entries(views)) {
    const res = await victim.client.get(path);
    out[name] = { status: res.status, body: res.body };
  }
  // The list is organization-wide; the victim's part of it is its own environment's integrations.
  const integrations = await victim.client.get<{ _id: string; _environmentId: string }[]>('/v1/integrations');
  out.integrations = {
    status: integrations.status,
    body: integrations.body.filter((i) => i._environmentId === victim.env.id).sort((x, y) => x._id.localeCompare(y._id)),
  };
  return out;
}

/** Strings of the victim the attacker must never be shown (unless it sent them itself). */
function victimSecrets(victim: Scope, sameOrg: boolean): string[] {
  const s = victim.seeded;
  return [
    victim.marker,
    victim.env.id,
    victim.env.apiKey,
    hashApiKey(victim.env.apiKey),
    ...(sameOrg ? [] : [victim.orgId]),
    s.integrations.email._id,
    s.integrations.chat._id,
    s.integrations.push._id,
    s.subscriber._id,
    s.topic._id,
    s.subscriptionId,
    s.workflow._id,
    s.tenant._id,
    s.layout._id,
    s.notificationGroupId,
    s.webhookEndpoint._id,
    s.variable._id,
    s.slack.connection,
    s.slack.endpoint,
    messageOf(victim)._id,
  ];
}

// ---- the cases --------------------------------------------------------------------------------

/**
 * - `notFound`: 404.
 * - `own`: the route's success status (or one of `statuses`), a result of the caller's own scope:
 *   none of the victim's data in it. `cleanup` then removes what the call created in the
 *   caller's own scope, so the attacker's own snapshot stays as it was.
 * - `orgWide`: a documented organization-scoped read: success, and the victim's data in it.
 */
type Expectation =
  | { kind: 'notFound' }
  | { kind: 'own'; statuses?: number[]; cleanup?: (res: ApiResponse) => Promise<void> }
  | { kind: 'orgWide'; contains: string };

interface Call {
  method: string;
  path: string;
  body?: unknown;
  /** Made with the attacker's inbox session instead of its API key (the inbox routes). */
  session?: true;
  /** Sent as multipart/form-data instead of `body` (the upload routes). */
  form?: MultipartBody;
  expect: Expectation;
  /** Why a case exists when it is not the route's plain substitution. */
  note?: string;
}

interface Ctx {
  attacker: Scope;
  victim: Scope;
  sameOrg: boolean;
}

const notFound = { kind: 'notFound' } as const;
const own = (extra: Omit<Extract<Expectation, { kind: 'own' }>, 'kind'> = {}): Expectation => ({ kind: 'own', ...extra });

const enc = encodeURIComponent;

/** Deletes an environment a create made, with the API key its answer shows (the only key acting there). */
const removeEnvironment = async (res: ApiResponse) => {
  const { _id, apiKeys } = res.body.data as { _id: string; apiKeys: { key: string }[] };
  const removed = await apiClient(api.url, apiKeys[0]!.key).delete(`/v1/environments/${_id}`);
  expect(removed.status, JSON.stringify(removed.body)).toBe(200);
};

/** Deletes, with the attacker's own key, what a successful create made in the attacker's scope. */
const removeOwn = (attacker: Scope, path: string) => async () => {
  const res = await attacker.client.delete(path);
  expect([200, 204], `cleanup ${path}: ${JSON.stringify(res.body)}`).toContain(res.status);
};

/** What a tracking token holds (lib/tracking/token.ts), for the victim's message, in the clear instead of sealed. */
const forgedToken = (victim: Scope, kind: 'c' | 'o') => {
  const { _id } = messageOf(victim);
  const fields = [1, kind, victim.orgId, victim.env.id, victim.seeded.subscriber.subscriberId, _id, 0, 4102444800];
  return Buffer.concat([Buffer.alloc(12), Buffer.from(JSON.stringify(fields)), Buffer.alloc(16)]).toString('base64url');
};

const cases: Record<OperationId, (ctx: Ctx) => Call[]> = {
  // ---- integrations: organization-scoped (documented) ----
  listIntegrations: ({ victim, sameOrg }) => [
    {
      method: 'GET',
      path: '/v1/integrations',
      // Documented: the list covers every environment of the caller's organization.
      expect: sameOrg ? { kind: 'orgWide', contains: victim.seeded.integrations.email._id } : own(),
    },
  ],
  listActiveIntegrations: ({ victim, sameOrg }) => [
    {
      method: 'GET',
      path: '/v1/integrations/active',
      // Documented: organization-wide, as the list (the reference's too).
      expect: sameOrg ? { kind: 'orgWide', contains: victim.seeded.integrations.email._id } : own(),
    },
  ],
  createIntegration: ({ attacker, victim, sameOrg }) => [
    {
      method: 'POST',
      path: '/v1/integrations',
      body: { providerId: 'sendgrid', channel: 'email', identifier: victim.seeded.integrations.email.identifier, name: 'Probe' },
      // Identifiers are unique per organization: taken in the same organization (409, which
      // reveals nothing but that the identifier exists there); free in another one.
      expect: sameOrg
        ? own({ statuses: [409] })
        : own({ cleanup: async (res) => removeOwn(attacker, `/v1/integrations/${res.body.data._id}`)() }),
    },
    // Placing an integration in another organization's environment (in the same organization
    // this is documented and exercised in the exceptions test).
    ...(sameOrg
      ? []
      : [
          {
            method: 'POST',
            path: '/v1/integrations',
            body: { providerId: 'discord', channel: 'chat', _environmentId: victim.env.id },
            expect: notFound,
          },
        ]),
  ],
  updateIntegration: ({ attacker, victim, sameOrg }) =>
    sameOrg
      ? [] // Documented: any environment of the organization may change it (exceptions test).
      : [
          ...Object.values(victim.seeded.integrations).map((i) => ({
            method: 'PUT',
            path: `/v1/integrations/${i._id}`,
            body: { name: 'Hijacked', active: false, credentials: { apiKey: 'stolen' } },
            expect: notFound,
          })),
          {
            method: 'PUT',
            path: `/v1/integrations/${attacker.seeded.integrations.chat._id}`,
            body: { _environmentId: victim.env.id },
            note: "moving the caller's own integration into the victim's environment",
            expect: notFound,
          },
        ],
  deleteIntegration: ({ victim, sameOrg }) =>
    sameOrg
      ? []
      : Object.values(victim.seeded.integrations).map((i) => ({ method: 'DELETE', path: `/v1/integrations/${i._id}`, expect: notFound })),
  setPrimaryIntegration: ({ victim, sameOrg }) =>
    sameOrg ? [] : [{ method: 'POST', path: `/v1/integrations/${victim.seeded.integrations.email._id}/set-primary`, expect: notFound }],

  // ---- subscribers ----
  createSubscriber: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v2/subscribers',
      body: { subscriberId: victim.seeded.subscriber.subscriberId, firstName: 'Probe' },
      expect: own({ cleanup: removeOwn(attacker, `/v2/subscribers/${enc(victim.seeded.subscriber.subscriberId)}`) }),
    },
  ],
  listSubscribers: ({ victim }) => [
    { method: 'GET', path: '/v2/subscribers?limit=100', expect: own() },
    { method: 'GET', path: `/v2/subscribers?email=${enc(`${victim.marker}@example.com`)}`, expect: own() },
    { method: 'GET', path: `/v2/subscribers?name=${enc(`First ${victim.marker}`)}`, expect: own() },
  ],
  getSubscriber: ({ victim }) => [{ method: 'GET', path: `/v2/subscribers/${victim.seeded.subscriber.subscriberId}`, expect: notFound }],
  patchSubscriber: ({ victim }) => [
    {
      method: 'PATCH',
      path: `/v2/subscribers/${victim.seeded.subscriber.subscriberId}`,
      body: { firstName: 'Hijacked', data: {} },
      expect: notFound,
    },
  ],
  deleteSubscriber: ({ victim }) => [
    { method: 'DELETE', path: `/v2/subscribers/${victim.seeded.subscriber.subscriberId}`, expect: notFound },
  ],
  updateSubscriberCredentials: ({ attacker, victim }) => [
    {
      method: 'PUT',
      path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/credentials`,
      body: { providerId: 'discord', credentials: { webhookUrl: 'https://evil.example/hook' } },
      expect: notFound,
    },
    {
      method: 'PUT',
      path: `/v1/subscribers/${attacker.seeded.subscriber.subscriberId}/credentials`,
      body: {
        providerId: 'discord',
        integrationIdentifier: victim.seeded.integrations.chat.identifier,
        credentials: { webhookUrl: 'https://evil.example/hook' },
      },
      note: "the caller's own subscriber, bound to the victim's integration: no active integration in the caller's environment",
      expect: { kind: 'own', statuses: [400] },
    },
  ],
  appendSubscriberCredentials: ({ attacker, victim }) => [
    {
      method: 'PATCH',
      path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/credentials`,
      body: { providerId: 'expo', credentials: { deviceTokens: ['evil-token'] } },
      expect: notFound,
    },
    {
      method: 'PATCH',
      path: `/v1/subscribers/${attacker.seeded.subscriber.subscriberId}/credentials`,
      body: {
        providerId: 'expo',
        integrationIdentifier: victim.seeded.integrations.push.identifier,
        credentials: { deviceTokens: ['evil-token'] },
      },
      note: "the caller's own subscriber, bound to the victim's integration",
      expect: { kind: 'own', statuses: [400] },
    },
  ],
  deleteSubscriberCredentials: ({ victim }) => [
    { method: 'DELETE', path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/credentials/discord`, expect: notFound },
    { method: 'DELETE', path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/credentials/expo`, expect: notFound },
  ],

  // ---- subscribers: the legacy v1 routes (@novu/node 2.x) ----
  identifySubscriber: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/subscribers',
      body: { subscriberId: victim.seeded.subscriber.subscriberId, firstName: 'Probe' },
      // Identifies a subscriber of that id in the caller's own environment, never the victim's.
      expect: own({ cleanup: removeOwn(attacker, `/v2/subscribers/${enc(victim.seeded.subscriber.subscriberId)}`) }),
    },
    {
      method: 'POST',
      path: '/v1/subscribers',
      body: {
        subscriberId: attacker.seeded.subscriber.subscriberId,
        channels: [
          {
            providerId: 'discord',
            integrationIdentifier: victim.seeded.integrations.chat.identifier,
            credentials: { webhookUrl: 'https://evil.example/hook' },
          },
        ],
      },
      note: "the caller's own subscriber, bound to the victim's integration: no active integration in the caller's environment",
      expect: own({ statuses: [400] }),
    },
  ],
  bulkCreateSubscribers: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/subscribers/bulk',
      body: {
        subscribers: [
          { subscriberId: victim.seeded.subscriber.subscriberId, firstName: 'Probe' },
          {
            subscriberId: attacker.seeded.subscriber.subscriberId,
            channels: [
              {
                providerId: 'expo',
                integrationIdentifier: victim.seeded.integrations.push.identifier,
                credentials: { deviceTokens: ['evil-token'] },
              },
            ],
          },
        ],
      },
      note: "the victim's subscriberId is made in the caller's environment; the victim's integration is not found there (failed)",
      expect: own({ cleanup: removeOwn(attacker, `/v2/subscribers/${enc(victim.seeded.subscriber.subscriberId)}`) }),
    },
  ],
  listSubscribersV1: () => [
    { method: 'GET', path: '/v1/subscribers?limit=100', expect: own() },
    { method: 'GET', path: '/v1/subscribers?page=1&limit=1', expect: own() },
  ],
  getSubscriberV1: ({ victim }) => [{ method: 'GET', path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}`, expect: notFound }],
  updateSubscriberV1: ({ victim }) => [
    {
      method: 'PUT',
      path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}`,
      body: { firstName: 'Hijacked', data: {} },
      expect: notFound,
    },
  ],
  deleteSubscriberV1: ({ victim }) => [
    { method: 'DELETE', path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}`, expect: notFound },
  ],
  updateSubscriberOnlineStatus: ({ victim }) => [
    {
      method: 'PATCH',
      path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/online-status`,
      body: { isOnline: true },
      expect: notFound,
    },
    {
      method: 'PATCH',
      path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/online-status`,
      body: { online: false },
      expect: notFound,
    },
  ],
  getSubscriberPreferencesV1: ({ victim }) => [
    { method: 'GET', path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/preferences`, expect: notFound },
  ],
  getSubscriberPreferencesByLevel: ({ victim }) =>
    ['global', 'template'].map((level) => ({
      method: 'GET',
      path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/preferences/${level}?includeInactiveChannels=false`,
      expect: notFound,
    })),
  updateSubscriberGlobalPreferencesV1: ({ victim }) => [
    {
      method: 'PATCH',
      path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/preferences`,
      body: { enabled: false, preferences: [{ type: 'email', enabled: true }] },
      expect: notFound,
    },
  ],
  updateSubscriberWorkflowPreferenceV1: ({ attacker, victim }) => [
    {
      method: 'PATCH',
      path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/preferences/${victim.seeded.workflow._id}`,
      body: { channel: { type: 'in_app', enabled: true } },
      expect: notFound,
    },
    ...[victim.seeded.workflow._id, victim.seeded.workflow.workflowId].map((ref) => ({
      method: 'PATCH',
      path: `/v1/subscribers/${attacker.seeded.subscriber.subscriberId}/preferences/${ref}`,
      body: { enabled: false },
      note: "the caller's own subscriber, the victim's workflow",
      expect: notFound,
    })),
  ],
  markMessageFlags: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/messages/markAs`,
      body: { messageId: messageOf(victim)._id, mark: { seen: true, read: true } },
      expect: notFound,
    },
    {
      method: 'POST',
      path: `/v1/subscribers/${attacker.seeded.subscriber.subscriberId}/messages/markAs`,
      body: { messageId: messageOf(victim)._id, mark: { read: true } },
      note: "the caller's own subscriber, the victim's message: not the subscriber's, so ignored",
      expect: own(),
    },
  ],
  updateMessageAction: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/messages/${messageOf(victim)._id}/actions/primary`,
      body: { status: 'done' },
      expect: notFound,
    },
    {
      method: 'POST',
      path: `/v1/subscribers/${attacker.seeded.subscriber.subscriberId}/messages/${messageOf(victim)._id}/actions/primary`,
      body: { status: 'done', payload: { stolen: true } },
      note: "the caller's own subscriber, the victim's message",
      expect: notFound,
    },
  ],

  // ---- topics ----
  upsertTopic: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v2/topics',
      body: { key: victim.seeded.topic.key, name: 'Renamed' },
      // Creates a topic of that key in the caller's own environment, never renames the victim's.
      expect: own({ cleanup: removeOwn(attacker, `/v2/topics/${enc(victim.seeded.topic.key)}`) }),
    },
  ],
  listTopics: ({ victim }) => [
    { method: 'GET', path: '/v2/topics?limit=100', expect: own() },
    { method: 'GET', path: `/v2/topics?key=${enc(victim.seeded.topic.key)}`, expect: own() },
    { method: 'GET', path: `/v2/topics?name=${enc(`Topic ${victim.marker}`)}`, expect: own() },
  ],
  getTopic: ({ victim }) => [{ method: 'GET', path: `/v2/topics/${victim.seeded.topic.key}`, expect: notFound }],
  deleteTopic: ({ victim }) => [{ method: 'DELETE', path: `/v2/topics/${victim.seeded.topic.key}`, expect: notFound }],
  listTopicSubscriptions: ({ victim }) => [
    { method: 'GET', path: `/v2/topics/${victim.seeded.topic.key}/subscriptions`, expect: notFound },
  ],
  createTopicSubscriptions: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: `/v2/topics/${victim.seeded.topic.key}/subscriptions`,
      body: { subscriberIds: [victim.seeded.subscriber.subscriberId, attacker.seeded.subscriber.subscriberId] },
      // The topic is created if missing — in the caller's environment; the victim's subscriber
      // is not found there. Removing the caller's topic removes the caller's subscription with it.
      expect: own({ cleanup: removeOwn(attacker, `/v2/topics/${enc(victim.seeded.topic.key)}`) }),
    },
    {
      method: 'POST',
      path: `/v2/topics/${attacker.seeded.topic.key}/subscriptions`,
      body: { subscriberIds: [victim.seeded.subscriber.subscriberId] },
      note: "the victim's subscriber into the caller's own topic: not found there, so none could be subscribed",
      expect: own({ statuses: [400] }),
    },
  ],
  deleteTopicSubscriptions: ({ attacker, victim }) => [
    {
      method: 'DELETE',
      path: `/v2/topics/${victim.seeded.topic.key}/subscriptions`,
      body: { subscriberIds: [victim.seeded.subscriber.subscriberId] },
      expect: notFound,
    },
    {
      method: 'DELETE',
      path: `/v2/topics/${attacker.seeded.topic.key}/subscriptions`,
      body: { subscriberIds: [victim.seeded.subscriber.subscriberId] },
      note: "the victim's subscriber from the caller's own topic: not found there, so none could be unsubscribed",
      expect: own({ statuses: [400] }),
    },
  ],
  // The older API over the same topics (/v1/topics).
  createTopicV1: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/topics',
      body: { key: victim.seeded.topic.key, name: 'Probe' },
      // A topic of that key in the caller's own environment; the victim's is not taken there.
      expect: own({ cleanup: removeOwn(attacker, `/v1/topics/${enc(victim.seeded.topic.key)}`) }),
    },
  ],
  listTopicsV1: ({ victim }) => [
    { method: 'GET', path: '/v1/topics?pageSize=10', expect: own() },
    { method: 'GET', path: `/v1/topics?key=${enc(victim.seeded.topic.key)}`, expect: own() },
  ],
  getTopicV1: ({ victim }) => [{ method: 'GET', path: `/v1/topics/${victim.seeded.topic.key}`, expect: notFound }],
  renameTopicV1: ({ victim }) => [
    { method: 'PATCH', path: `/v1/topics/${victim.seeded.topic.key}`, body: { name: 'Hijacked' }, expect: notFound },
  ],
  deleteTopicV1: ({ victim }) => [{ method: 'DELETE', path: `/v1/topics/${victim.seeded.topic.key}`, expect: notFound }],
  addTopicSubscribersV1: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: `/v1/topics/${victim.seeded.topic.key}/subscribers`,
      body: { subscribers: [victim.seeded.subscriber.subscriberId, attacker.seeded.subscriber.subscriberId] },
      // The topic is made in the caller's environment, where the victim's subscriber is not found.
      expect: own({ cleanup: removeOwn(attacker, `/v2/topics/${enc(victim.seeded.topic.key)}`) }),
    },
    {
      method: 'POST',
      path: `/v1/topics/${attacker.seeded.topic.key}/subscribers`,
      body: { subscribers: [victim.seeded.subscriber.subscriberId] },
      note: "the victim's subscriber into the caller's own topic: not found there",
      expect: own(),
    },
  ],
  removeTopicSubscribersV1: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: `/v1/topics/${victim.seeded.topic.key}/subscribers/removal`,
      body: { subscribers: [victim.seeded.subscriber.subscriberId] },
      note: 'no such topic here: nothing to remove (the reference answers 204 too)',
      expect: own(),
    },
    {
      method: 'POST',
      path: `/v1/topics/${attacker.seeded.topic.key}/subscribers/removal`,
      body: { subscribers: [victim.seeded.subscriber.subscriberId] },
      note: "the victim's subscriber from the caller's own topic: not subscribed there",
      expect: own(),
    },
  ],
  getTopicSubscriberV1: ({ attacker, victim }) => [
    { method: 'GET', path: `/v1/topics/${victim.seeded.topic.key}/subscribers/${victim.seeded.subscriber.subscriberId}`, expect: notFound },
    {
      method: 'GET',
      path: `/v1/topics/${attacker.seeded.topic.key}/subscribers/${victim.seeded.subscriber.subscriberId}`,
      expect: notFound,
    },
  ],
  listSubscriberSubscriptions: ({ victim }) => [
    { method: 'GET', path: `/v2/subscribers/${victim.seeded.subscriber.subscriberId}/subscriptions`, expect: notFound },
  ],

  // ---- preferences ----
  getSubscriberPreferences: ({ victim }) => [
    { method: 'GET', path: `/v2/subscribers/${victim.seeded.subscriber.subscriberId}/preferences`, expect: notFound },
  ],
  updateSubscriberPreferences: ({ attacker, victim }) => [
    {
      method: 'PATCH',
      path: `/v2/subscribers/${victim.seeded.subscriber.subscriberId}/preferences`,
      body: { channels: { email: true, in_app: true } },
      expect: notFound,
    },
    {
      method: 'PATCH',
      path: `/v2/subscribers/${victim.seeded.subscriber.subscriberId}/preferences`,
      body: { workflowId: victim.seeded.workflow.workflowId, channels: { in_app: true } },
      expect: notFound,
    },
    ...[victim.seeded.workflow.workflowId, victim.seeded.workflow._id].map((workflowId) => ({
      method: 'PATCH',
      path: `/v2/subscribers/${attacker.seeded.subscriber.subscriberId}/preferences`,
      body: { workflowId, channels: { in_app: true } },
      note: "the caller's own subscriber, the victim's workflow",
      expect: notFound,
    })),
  ],

  // ---- workflows (by workflowId, database id and slug) ----
  createWorkflow: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v2/workflows',
      body: { name: 'Probe', workflowId: victim.seeded.workflow.workflowId, steps: [IN_APP] },
      expect: own({ cleanup: removeOwn(attacker, `/v2/workflows/${enc(victim.seeded.workflow.workflowId)}`) }),
    },
  ],
  listWorkflows: ({ victim }) => [
    { method: 'GET', path: '/v2/workflows?limit=100', expect: own() },
    { method: 'GET', path: `/v2/workflows?query=${enc(victim.marker)}`, expect: own() },
  ],
  getWorkflow: ({ victim }) => workflowRefs(victim).map((ref) => ({ method: 'GET', path: `/v2/workflows/${ref}`, expect: notFound })),
  updateWorkflow: ({ victim }) =>
    workflowRefs(victim).map((ref) => ({
      method: 'PUT',
      path: `/v2/workflows/${ref}`,
      body: { name: 'Hijacked', steps: [IN_APP] },
      expect: notFound,
    })),
  patchWorkflow: ({ victim }) =>
    workflowRefs(victim).map((ref) => ({ method: 'PATCH', path: `/v2/workflows/${ref}`, body: { active: false }, expect: notFound })),
  deleteWorkflow: ({ victim }) => workflowRefs(victim).map((ref) => ({ method: 'DELETE', path: `/v2/workflows/${ref}`, expect: notFound })),
  syncWorkflow: ({ attacker, victim, sameOrg }) => [
    // The victim's workflow is not in the caller's environment, whatever the target.
    ...workflowRefs(victim).flatMap((ref) =>
      [victim.env.id, sibling(attacker).env.id].map((targetEnvironmentId) => ({
        method: 'PUT',
        path: `/v2/workflows/${ref}/sync`,
        body: { targetEnvironmentId },
        expect: notFound,
      })),
    ),
    // The caller's own workflow into the victim's environment: another organization's
    // environment is not found. (Within the organization this is documented; exceptions test.)
    ...(sameOrg
      ? []
      : [
          {
            method: 'PUT',
            path: `/v2/workflows/${attacker.seeded.workflow.workflowId}/sync`,
            body: { targetEnvironmentId: victim.env.id },
            note: "the caller's own workflow into the other organization's environment",
            expect: notFound,
          },
        ]),
  ],

  // ---- workflows through the v1 API (database id; GET also the trigger identifier) and groups ----
  listNotificationTemplates: ({ victim }) => [
    { method: 'GET', path: '/v1/notification-templates?limit=100', expect: own() },
    { method: 'GET', path: `/v1/notification-templates?query=${enc(victim.marker)}`, expect: own() },
  ],
  createNotificationTemplate: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/notification-templates',
      body: { name: `Probe ${victim.marker}`, notificationGroupId: victim.seeded.notificationGroupId, steps: [V1_IN_APP] },
      note: "the victim's notification group: not one of the caller's environment",
      expect: notFound,
    },
    {
      method: 'POST',
      path: '/v1/notification-templates',
      // Its trigger identifier is the victim's workflowId, free in the caller's environment.
      body: { name: victim.seeded.workflow.workflowId, notificationGroupId: attacker.seeded.notificationGroupId, steps: [V1_IN_APP] },
      expect: own({ cleanup: async (res) => removeOwn(attacker, `/v1/notification-templates/${res.body.data._id}`)() }),
    },
  ],
  getNotificationTemplate: ({ victim }) =>
    [victim.seeded.workflow._id, victim.seeded.workflow.workflowId].map((ref) => ({
      method: 'GET',
      path: `/v1/notification-templates/${ref}`,
      expect: notFound,
    })),
  updateNotificationTemplate: ({ attacker, victim }) => [
    {
      method: 'PUT',
      path: `/v1/notification-templates/${victim.seeded.workflow._id}`,
      body: { name: 'Hijacked', critical: true, steps: [V1_IN_APP] },
      expect: notFound,
    },
    {
      method: 'PUT',
      path: `/v1/notification-templates/${attacker.seeded.workflow._id}`,
      body: { notificationGroupId: victim.seeded.notificationGroupId },
      note: "the caller's own workflow into the victim's notification group",
      expect: notFound,
    },
  ],
  deleteNotificationTemplate: ({ victim }) => [
    { method: 'DELETE', path: `/v1/notification-templates/${victim.seeded.workflow._id}`, expect: notFound },
  ],
  updateNotificationTemplateStatus: ({ victim }) => [
    { method: 'PUT', path: `/v1/notification-templates/${victim.seeded.workflow._id}/status`, body: { active: true }, expect: notFound },
  ],
  listNotificationGroups: () => [{ method: 'GET', path: '/v1/notification-groups', expect: own() }],
  getNotificationGroup: ({ victim }) => [
    { method: 'GET', path: `/v1/notification-groups/${victim.seeded.notificationGroupId}`, expect: notFound },
  ],

  // ---- layouts ----
  createLayout: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v2/layouts',
      body: { layoutId: victim.seeded.layout.layoutId, name: 'Probe' },
      expect: own({ cleanup: removeOwn(attacker, `/v2/layouts/${enc(victim.seeded.layout.layoutId)}`) }),
    },
  ],
  listLayouts: ({ victim }) => [
    { method: 'GET', path: '/v2/layouts?limit=100', expect: own() },
    { method: 'GET', path: `/v2/layouts?query=${enc(victim.marker)}`, expect: own() },
  ],
  getLayout: ({ victim }) => layoutRefs(victim).map((ref) => ({ method: 'GET', path: `/v2/layouts/${ref}`, expect: notFound })),
  updateLayout: ({ victim }) =>
    layoutRefs(victim).map((ref) => ({
      method: 'PUT',
      path: `/v2/layouts/${ref}`,
      body: { name: 'Hijacked', controlValues: { email: { editorType: 'html', body: '<html><body>x{{content}}</body></html>' } } },
      expect: notFound,
    })),
  deleteLayout: ({ victim }) => layoutRefs(victim).map((ref) => ({ method: 'DELETE', path: `/v2/layouts/${ref}`, expect: notFound })),
  duplicateLayout: ({ victim }) =>
    layoutRefs(victim).map((ref) => ({
      method: 'POST',
      path: `/v2/layouts/${ref}/duplicate`,
      body: { name: 'Copy', layoutId: `copy-${victim.tag}` },
      expect: notFound,
    })),
  layoutUsage: ({ victim }) => layoutRefs(victim).map((ref) => ({ method: 'GET', path: `/v2/layouts/${ref}/usage`, expect: notFound })),
  previewLayout: ({ victim }) =>
    layoutRefs(victim).map((ref) => ({ method: 'POST', path: `/v2/layouts/${ref}/preview`, body: {}, expect: notFound })),

  // ---- tenants ----
  createTenant: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v2/tenants',
      body: { identifier: victim.seeded.tenant.identifier, name: 'Probe' },
      expect: own({ cleanup: removeOwn(attacker, `/v2/tenants/${enc(victim.seeded.tenant.identifier)}`) }),
    },
  ],
  listTenants: () => [{ method: 'GET', path: '/v2/tenants?limit=100', expect: own() }],
  getTenant: ({ victim }) => [{ method: 'GET', path: `/v2/tenants/${victim.seeded.tenant.identifier}`, expect: notFound }],
  patchTenant: ({ victim }) => [
    { method: 'PATCH', path: `/v2/tenants/${victim.seeded.tenant.identifier}`, body: { name: 'Hijacked', data: {} }, expect: notFound },
  ],
  deleteTenant: ({ victim }) => [{ method: 'DELETE', path: `/v2/tenants/${victim.seeded.tenant.identifier}`, expect: notFound }],

  // The older API over the same tenants (/v1/tenants).
  createTenantV1: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/tenants',
      body: { identifier: victim.seeded.tenant.identifier, name: 'Probe' },
      expect: own({ cleanup: removeOwn(attacker, `/v1/tenants/${enc(victim.seeded.tenant.identifier)}`) }),
    },
  ],
  listTenantsV1: () => [{ method: 'GET', path: '/v1/tenants?limit=100', expect: own() }],
  getTenantV1: ({ victim }) => [{ method: 'GET', path: `/v1/tenants/${victim.seeded.tenant.identifier}`, expect: notFound }],
  updateTenantV1: ({ victim }) => [
    { method: 'PATCH', path: `/v1/tenants/${victim.seeded.tenant.identifier}`, body: { name: 'Hijacked', data: {} }, expect: notFound },
    {
      method: 'PATCH',
      path: `/v1/tenants/${victim.seeded.tenant.identifier}`,
      body: { identifier: `moved-${victim.tag}` },
      expect: notFound,
    },
  ],
  deleteTenantV1: ({ victim }) => [{ method: 'DELETE', path: `/v1/tenants/${victim.seeded.tenant.identifier}`, expect: notFound }],

  // ---- contexts, and the SDK's completing operations (topic rename, a subscription by identifier,
  // bulk preferences, a transaction's messages, delivery events) ----
  createContext: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v2/contexts',
      body: { type: 'tenant', id: contextIdOf(victim), data: { probe: true } },
      expect: own({ cleanup: removeOwn(attacker, `/v2/contexts/tenant/${contextIdOf(victim)}`) }),
    },
  ],
  listContexts: ({ victim }) => [
    { method: 'GET', path: '/v2/contexts?limit=100', expect: own() },
    { method: 'GET', path: `/v2/contexts?search=${contextIdOf(victim)}`, expect: own() },
  ],
  getContext: ({ victim }) => [{ method: 'GET', path: `/v2/contexts/tenant/${contextIdOf(victim)}`, expect: notFound }],
  updateContext: ({ victim }) => [
    { method: 'PATCH', path: `/v2/contexts/tenant/${contextIdOf(victim)}`, body: { data: { hijacked: true } }, expect: notFound },
  ],
  deleteContext: ({ victim }) => [{ method: 'DELETE', path: `/v2/contexts/tenant/${contextIdOf(victim)}`, expect: notFound }],
  patchTopic: ({ victim }) => [
    { method: 'PATCH', path: `/v2/topics/${victim.seeded.topic.key}`, body: { name: 'Hijacked' }, expect: notFound },
  ],
  getTopicSubscription: ({ victim }) => [
    {
      method: 'GET',
      path: subscriptionPathOf(victim),
      expect: notFound,
    },
  ],
  patchTopicSubscription: ({ victim }) => [
    {
      method: 'PATCH',
      path: subscriptionPathOf(victim),
      body: { name: 'Hijacked' },
      expect: notFound,
    },
  ],
  bulkUpdateSubscriberPreferences: ({ victim }) => [
    {
      method: 'PATCH',
      path: `/v2/subscribers/${victim.seeded.subscriber.subscriberId}/preferences/bulk`,
      body: { preferences: [{ workflowId: victim.seeded.workflow.workflowId, channels: { in_app: false } }] },
      expect: notFound,
    },
  ],
  deleteMessagesByTransactionId: ({ victim }) => [
    { method: 'DELETE', path: `/v1/messages/transaction/${enc(messageOf(victim).transactionId)}`, expect: notFound },
    { method: 'DELETE', path: `/v1/messages/transaction/${enc(notificationOf(victim).transactionId)}`, expect: notFound },
  ],
  // No API key: the URL's environment is the scope; the victim's integration under the caller's finds nothing.
  trackProviderActivity: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: `/v2/inbound-webhooks/delivery-providers/${attacker.env.id}/${victim.seeded.integrations.email._id}`,
      body: {},
      expect: notFound,
      note: "the victim's integration named under the caller's own environment",
    },
  ],
  // ---- channel connections and endpoints: another environment's are not found; lists are the caller's ----
  createChannelConnection: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/channel-connections',
      body: {
        subscriberId: victim.seeded.subscriber.subscriberId,
        integrationIdentifier: victim.seeded.slack.integration,
        workspace: { id: 'T-probe' },
        auth: { accessToken: 'xoxb-probe' },
      },
      expect: notFound,
    },
    {
      method: 'POST',
      path: '/v1/channel-connections',
      body: {
        subscriberId: victim.seeded.subscriber.subscriberId,
        integrationIdentifier: attacker.seeded.slack.integration,
        workspace: { id: 'T-probe' },
        auth: { accessToken: 'xoxb-probe' },
      },
      expect: notFound,
      note: "the attacker's own integration with the victim's subscriber",
    },
  ],
  listChannelConnections: ({ victim }) => [
    { method: 'GET', path: '/v1/channel-connections?limit=100', expect: own() },
    { method: 'GET', path: `/v1/channel-connections?subscriberId=${victim.seeded.subscriber.subscriberId}`, expect: own() },
  ],
  getChannelConnection: ({ victim }) => [
    { method: 'GET', path: `/v1/channel-connections/${victim.seeded.slack.connection}`, expect: notFound },
  ],
  updateChannelConnection: ({ victim }) => [
    {
      method: 'PATCH',
      path: `/v1/channel-connections/${victim.seeded.slack.connection}`,
      body: { workspace: { id: 'T-hijack' }, auth: { accessToken: 'xoxb-hijack' } },
      expect: notFound,
    },
  ],
  deleteChannelConnection: ({ victim }) => [
    { method: 'DELETE', path: `/v1/channel-connections/${victim.seeded.slack.connection}`, expect: notFound },
  ],
  createChannelEndpoint: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/channel-endpoints',
      body: {
        subscriberId: victim.seeded.subscriber.subscriberId,
        integrationIdentifier: victim.seeded.slack.integration,
        type: 'slack_channel',
        endpoint: { channelId: 'C-probe' },
      },
      expect: notFound,
    },
    {
      method: 'POST',
      path: '/v1/channel-endpoints',
      body: {
        subscriberId: attacker.seeded.subscriber.subscriberId,
        integrationIdentifier: attacker.seeded.slack.integration,
        connectionIdentifier: victim.seeded.slack.connection,
        type: 'slack_channel',
        endpoint: { channelId: 'C-probe' },
      },
      expect: notFound,
      note: "the victim's connection named from the attacker's own integration",
    },
  ],
  listChannelEndpoints: ({ victim }) => [
    { method: 'GET', path: '/v1/channel-endpoints?limit=100', expect: own() },
    { method: 'GET', path: `/v1/channel-endpoints?subscriberId=${victim.seeded.subscriber.subscriberId}`, expect: own() },
  ],
  getChannelEndpoint: ({ victim }) => [{ method: 'GET', path: `/v1/channel-endpoints/${victim.seeded.slack.endpoint}`, expect: notFound }],
  updateChannelEndpoint: ({ victim }) => [
    {
      method: 'PATCH',
      path: `/v1/channel-endpoints/${victim.seeded.slack.endpoint}`,
      body: { endpoint: { channelId: 'C-hijack' } },
      expect: notFound,
    },
  ],
  deleteChannelEndpoint: ({ victim }) => [
    { method: 'DELETE', path: `/v1/channel-endpoints/${victim.seeded.slack.endpoint}`, expect: notFound },
  ],

  // The OAuth connect flow: another environment's integration is not found; the callback is public
  // and trusts only a signed state (one of another scope's is exercised in chat-oauth.test.ts).
  generateChatOAuthUrl: ({ victim }) => [
    {
      method: 'POST',
      path: '/v1/integrations/chat/oauth',
      body: { integrationIdentifier: victim.seeded.slack.integration, subscriberId: victim.seeded.subscriber.subscriberId },
      expect: notFound,
    },
  ],
  generateConnectOAuthUrl: ({ victim }) => [
    {
      method: 'POST',
      path: '/v1/integrations/channel-connections/oauth',
      body: { integrationIdentifier: victim.seeded.slack.integration, subscriberId: victim.seeded.subscriber.subscriberId },
      expect: notFound,
    },
  ],
  generateLinkUserOAuthUrl: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/integrations/channel-endpoints/oauth',
      body: { integrationIdentifier: victim.seeded.slack.integration, subscriberId: victim.seeded.subscriber.subscriberId },
      expect: notFound,
    },
    {
      method: 'POST',
      path: '/v1/integrations/channel-endpoints/oauth',
      body: {
        integrationIdentifier: attacker.seeded.slack.integration,
        subscriberId: attacker.seeded.subscriber.subscriberId,
        connectionIdentifier: victim.seeded.slack.connection,
      },
      expect: notFound,
      note: "the victim's connection named from the attacker's own integration",
    },
  ],
  linkChannelEndpoint: ({ victim }) => [
    {
      method: 'POST',
      path: '/v1/integrations/channel-endpoints/link',
      body: { integrationIdentifier: victim.seeded.slack.integration, subscriberId: victim.seeded.subscriber.subscriberId },
      expect: notFound,
    },
  ],
  chatOAuthCallback: ({ victim }) => [
    {
      method: 'GET',
      path: `/v1/integrations/chat/oauth/callback?code=c&state=${enc(victim.seeded.slack.connection)}`,
      expect: own({ statuses: [400] }),
      note: 'a state that is not a signed one is refused, whoever calls',
    },
  ],
  // ---- integration set-up (auto-configure, Telegram webhook and mobile link): another scope's integration is not found ----
  autoConfigureIntegration: ({ victim, sameOrg }) =>
    sameOrg
      ? [] // As set-primary: an integration's id works from any environment of its organization.
      : [{ method: 'POST', path: `/v1/integrations/${victim.seeded.integrations.email._id}/auto-configure`, expect: notFound }],
  configureIntegrationWebhook: ({ victim }) => [
    { method: 'POST', path: `/v1/integrations/${enc(victim.seeded.integrations.chat.identifier)}/webhook/configure`, expect: notFound },
  ],
  createIntegrationMobileLink: ({ victim }) => [
    {
      method: 'POST',
      path: `/v1/integrations/${enc(victim.seeded.integrations.chat.identifier)}/mobile-link`,
      body: { subscriberId: victim.seeded.subscriber.subscriberId },
      expect: notFound,
    },
  ],
  // No API key: the URL's environment is the scope; the victim's integration under the caller's finds nothing.
  receiveTelegramUpdate: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: `/webhooks/telegram/${attacker.env.id}/${victim.seeded.integrations.chat._id}`,
      body: { update_id: 1, message: { text: '/start x', chat: { id: 1 } } },
      expect: notFound,
      note: "the victim's integration named under the caller's own environment",
    },
  ],

  // ---- translations: another scope's workflow is not found; lists and exports are the caller's ----
  upsertTranslation: ({ victim }) => [
    {
      method: 'POST',
      path: '/v2/translations',
      body: { resourceType: 'workflow', resourceId: victim.seeded.workflow.workflowId, locale: 'en_US', content: { greeting: 'Hijacked' } },
      expect: notFound,
    },
    {
      method: 'POST',
      path: '/v2/translations',
      body: { resourceType: 'workflow', resourceId: victim.seeded.workflow._id, locale: 'en_US', content: {} },
      expect: notFound,
    },
  ],
  uploadTranslations: ({ victim }) => [
    {
      method: 'POST',
      path: '/v2/translations/upload',
      form: multipartBody({ resourceType: 'workflow', resourceId: victim.seeded.workflow.workflowId }, [
        { field: 'files[]', filename: 'en_US.json', content: '{"greeting":"Hijacked"}' },
      ]),
      expect: notFound,
    },
  ],
  uploadMasterJson: ({ victim }) => [
    {
      method: 'POST',
      path: '/v2/translations/master-json/upload',
      form: multipartBody({}, [
        {
          field: 'file',
          filename: 'en_US.json',
          content: JSON.stringify({ workflows: { [victim.seeded.workflow.workflowId]: { greeting: 'Hijacked' } } }),
        },
      ]),
      note: 'the unknown id is reported in `failed`, nothing is written',
      expect: own(),
    },
  ],
  listTranslationGroups: () => [{ method: 'GET', path: '/v2/translations/list', expect: own() }],
  getMasterJson: () => [{ method: 'GET', path: '/v2/translations/master-json?locale=en_US', expect: own() }],
  importMasterJson: ({ victim }) => [
    {
      method: 'POST',
      path: '/v2/translations/master-json',
      body: { locale: 'en_US', masterJson: { workflows: { [victim.seeded.workflow.workflowId]: { greeting: 'Hijacked' } } } },
      note: 'the unknown id is reported in `failed`, nothing is written',
      expect: own(),
    },
  ],
  getTranslationGroup: ({ victim }) => [
    { method: 'GET', path: `/v2/translations/group/workflow/${victim.seeded.workflow.workflowId}`, expect: notFound },
  ],
  deleteTranslationGroup: ({ victim }) => [
    { method: 'DELETE', path: `/v2/translations/workflow/${victim.seeded.workflow.workflowId}`, expect: notFound },
  ],
  getTranslation: ({ victim }) => [
    { method: 'GET', path: `/v2/translations/workflow/${victim.seeded.workflow.workflowId}/en_US`, expect: notFound },
    { method: 'GET', path: `/v2/translations/workflow/${victim.seeded.workflow._id}/en_US`, expect: notFound },
  ],
  deleteTranslation: ({ victim }) => [
    { method: 'DELETE', path: `/v2/translations/workflow/${victim.seeded.workflow.workflowId}/en_US`, expect: notFound },
  ],
  // The settings are organization-wide (as the reference's); nothing of an environment is in them.
  getOrganizationSettings: () => [{ method: 'GET', path: '/v1/organizations/settings', expect: own() }],
  updateOrganizationSettings: () => [{ method: 'PATCH', path: '/v1/organizations/settings', body: {}, expect: own() }],
  // ---- outbound webhooks ----
  createWebhookEndpoint: ({ attacker }) => [
    {
      method: 'POST',
      path: '/v2/webhooks/endpoints',
      body: { url: 'https://hooks.example/probe', enabled: false },
      expect: own({ cleanup: (res) => removeOwn(attacker, `/v2/webhooks/endpoints/${res.body._id}`)() }),
    },
  ],
  listWebhookEndpoints: () => [{ method: 'GET', path: '/v2/webhooks/endpoints?limit=100', expect: own() }],
  getWebhookEndpoint: ({ victim }) => [
    { method: 'GET', path: `/v2/webhooks/endpoints/${victim.seeded.webhookEndpoint._id}`, expect: notFound },
  ],
  patchWebhookEndpoint: ({ victim }) => [
    {
      method: 'PATCH',
      path: `/v2/webhooks/endpoints/${victim.seeded.webhookEndpoint._id}`,
      body: { url: 'https://hooks.example/hijacked', enabled: true },
      expect: notFound,
    },
  ],
  deleteWebhookEndpoint: ({ victim }) => [
    { method: 'DELETE', path: `/v2/webhooks/endpoints/${victim.seeded.webhookEndpoint._id}`, expect: notFound },
  ],
  rotateWebhookEndpointSecret: ({ victim }) => [
    { method: 'POST', path: `/v2/webhooks/endpoints/${victim.seeded.webhookEndpoint._id}/secret/rotate`, expect: notFound },
  ],
  listWebhookAttempts: ({ victim }) => [
    { method: 'GET', path: `/v2/webhooks/endpoints/${victim.seeded.webhookEndpoint._id}/attempts`, expect: notFound },
  ],
  listWebhookDeadLetters: ({ victim }) => [
    { method: 'GET', path: `/v2/webhooks/endpoints/${victim.seeded.webhookEndpoint._id}/dead-letters`, expect: notFound },
  ],

  // ---- engagement numbers (ours) ----
  getEngagementStats: ({ victim }) => [
    { method: 'GET', path: '/v1/engagement/stats', expect: own() },
    { method: 'GET', path: `/v1/engagement/stats?workflowId=${enc(victim.seeded.workflow.workflowId)}`, expect: own() },
  ],

  // ---- messages (inbox) ----
  listMessages: ({ victim }) => [
    { method: 'GET', path: '/v1/messages?limit=100', expect: own() },
    { method: 'GET', path: `/v1/messages?subscriberId=${enc(victim.seeded.subscriber.subscriberId)}`, expect: own() },
    { method: 'GET', path: `/v1/messages?transactionId=${enc(messageOf(victim).transactionId)}&channel=in_app`, expect: own() },
  ],
  deleteMessage: ({ victim }) => [{ method: 'DELETE', path: `/v1/messages/${messageOf(victim)._id}`, expect: notFound }],
  getSubscriberFeed: ({ victim }) => [
    { method: 'GET', path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/notifications/feed`, expect: notFound },
  ],
  getUnseenCount: ({ victim }) => [
    { method: 'GET', path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/notifications/unseen`, expect: notFound },
  ],
  markMessagesAs: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/messages/mark-as`,
      body: { messageId: messageOf(victim)._id, markAs: 'read' },
      expect: notFound,
    },
    {
      method: 'POST',
      path: `/v1/subscribers/${attacker.seeded.subscriber.subscriberId}/messages/mark-as`,
      body: { messageId: [messageOf(victim)._id], markAs: 'read' },
      note: "the caller's own subscriber, the victim's message: not the subscriber's, so ignored",
      expect: own(),
    },
  ],
  markAllMessages: ({ victim }) => [
    {
      method: 'POST',
      path: `/v1/subscribers/${victim.seeded.subscriber.subscriberId}/messages/mark-all`,
      body: { markAs: 'read' },
      expect: notFound,
    },
  ],

  // ---- notifications (activity) ----
  listNotifications: ({ victim }) => {
    const n = notificationOf(victim);
    return [
      { method: 'GET', path: '/v1/notifications?limit=50', expect: own() },
      { method: 'GET', path: `/v1/notifications?transactionId=${enc(n.transactionId)}`, expect: own() },
      { method: 'GET', path: `/v1/notifications?subscriberIds=${enc(n.subscriberId)}`, expect: own() },
      { method: 'GET', path: `/v1/notifications?emails=${enc(`${victim.marker}@example.com`)}`, expect: own() },
      { method: 'GET', path: `/v1/notifications?templates=${n._templateId}&topicKey=${enc(victim.seeded.topic.key)}`, expect: own() },
      { method: 'GET', path: `/v1/notifications?contextKeys=${enc(n.contextKeys[0]!)}`, expect: own() },
    ];
  },
  getNotification: ({ victim }) => [{ method: 'GET', path: `/v1/notifications/${notificationOf(victim)._id}`, expect: notFound }],
  getExecutionDetails: ({ attacker, victim }) => {
    const n = notificationOf(victim);
    return [
      { method: 'GET', path: `/v1/execution-details?notificationId=${n._id}&subscriberId=${enc(n.subscriberId)}`, expect: notFound },
      {
        method: 'GET',
        path: `/v1/execution-details?notificationId=${n._id}&subscriberId=${enc(attacker.seeded.subscriber.subscriberId)}`,
        note: "the caller's own subscriber, the victim's notification: none of its details",
        expect: own(),
      },
    ];
  },

  // ---- the caller's own environment ----
  getCurrentEnvironment: () => [{ method: 'GET', path: '/v1/environments/me', expect: own() }],
  // ---- code-first bridge: every call acts on the caller's own environment only. No bridge
  // answers at this address, so a sync or diff is a 400 that writes nothing, and the attacker's
  // environment has no stored bridge for a status to reach (the victim's is never used).
  syncBridge: () => [
    {
      method: 'POST',
      path: '/v1/bridge/sync?source=cli',
      body: { bridgeUrl: 'http://127.0.0.1:9/api/novu' },
      expect: own({ statuses: [400] }),
    },
  ],
  diffBridge: () => [
    { method: 'POST', path: '/v1/bridge/diff', body: { bridgeUrl: 'http://127.0.0.1:9/api/novu' }, expect: own({ statuses: [400] }) },
  ],
  validateBridge: () => [
    { method: 'POST', path: '/v1/bridge/validate', body: { bridgeUrl: 'http://127.0.0.1:9/api/novu' }, expect: own() },
  ],
  getBridgeStatus: () => [{ method: 'GET', path: '/v1/bridge/status', expect: own({ statuses: [400] }) }],
  putBridgeStepControls: ({ victim }) =>
    workflowRefs(victim).map((ref) => ({
      method: 'PUT',
      path: `/v1/bridge/controls/${ref}/inbox`,
      body: { variables: { subject: 'Hijacked' } },
      expect: notFound,
    })),
  // A step of the victim's workflow, by any of the workflow's names: not in the caller's environment.
  getWorkflowStep: ({ victim }) =>
    workflowRefs(victim).map((ref) => ({ method: 'GET', path: `/v2/workflows/${ref}/steps/inbox`, expect: notFound })),
  previewWorkflowStep: ({ victim }) =>
    workflowRefs(victim).map((ref) => ({ method: 'POST', path: `/v2/workflows/${ref}/step/inbox/preview`, body: {}, expect: notFound })),
  // Names nothing stored: renders what the request carries, in the caller's own environment.
  previewDraftStep: () => [
    { method: 'POST', path: '/v2/workflows/steps/preview', body: { type: 'sms', controlValues: { body: 'Hi' } }, expect: own() },
  ],
  listEnvironments: ({ victim, sameOrg }) => [
    {
      method: 'GET',
      path: '/v1/environments',
      // Documented: the organization's environments (the sibling's API keys are not in it: its
      // key and hash are checked by the orgWide case below and by the keys' own test).
      expect: sameOrg ? { kind: 'orgWide', contains: victim.env.id } : own(),
    },
  ],
  listApiKeys: () => [{ method: 'GET', path: '/v1/environments/api-keys', expect: own() }],
  // Acts on the caller's own environment only (it names nothing); the replaced key keeps working
  // for the stage's grace period, so the attacker's client goes on.
  regenerateApiKey: () => [{ method: 'POST', path: '/v1/environments/api-keys/regenerate', expect: own() }],
  revokeApiKey: ({ victim }) => [
    { method: 'DELETE', path: `/v1/environments/api-keys/${hashApiKey(victim.env.apiKey)}`, expect: notFound },
  ],
  // ---- managing environments, tags, promotion (issue 32): an API key acts for its own
  // environment; another of its organization is refused (403), another organization's not found.
  // Promotion reads the target (documented, as the workflow sync): only dry runs here, whose
  // effects-free answer lists the victim's workflows as ones a publish would delete. ----
  createEnvironment: ({ attacker, victim, sameOrg }) => [
    {
      method: 'POST',
      path: '/v1/environments',
      body: { name: `Probe ${rand()}`, color: '#123456', parentId: victim.env.id },
      note: "the victim's environment as the parent",
      expect: sameOrg ? own({ cleanup: removeEnvironment }) : notFound,
    },
    {
      method: 'POST',
      path: '/v1/environments',
      body: { name: `Probe ${rand()}`, color: '#123456' },
      expect: own({ cleanup: removeEnvironment }),
      note: `made in ${attacker.name}'s organization`,
    },
  ],
  updateEnvironment: ({ victim, sameOrg }) => [
    {
      method: 'PUT',
      path: `/v1/environments/${victim.env.id}`,
      body: { identifier: `hijack-${rand()}`, color: '#000000', bridge: { url: 'https://attacker.example' } },
      expect: sameOrg ? own({ statuses: [403] }) : notFound,
    },
  ],
  deleteEnvironment: ({ victim, sameOrg }) => [
    { method: 'DELETE', path: `/v1/environments/${victim.env.id}`, expect: sameOrg ? own({ statuses: [403] }) : notFound },
  ],
  getEnvironmentTags: ({ victim, sameOrg }) =>
    [victim.env.id, victim.env.applicationIdentifier].map((ref) => ({
      method: 'GET',
      path: `/v2/environments/${ref}/tags`,
      expect: sameOrg ? own({ statuses: [403] }) : notFound,
    })),
  diffEnvironment: ({ attacker, victim, sameOrg }) => [
    {
      method: 'POST',
      path: `/v2/environments/${victim.env.id}/diff`,
      body: { sourceEnvironmentId: attacker.env.id },
      expect: sameOrg ? { kind: 'orgWide', contains: victim.seeded.workflow._id } : notFound,
    },
    {
      method: 'POST',
      path: `/v2/environments/${attacker.env.id}/diff`,
      body: { sourceEnvironmentId: victim.env.id },
      note: "the victim's environment as the source",
      expect: sameOrg ? own({ statuses: [403] }) : notFound,
    },
  ],
  publishEnvironment: ({ attacker, victim, sameOrg }) => [
    {
      method: 'POST',
      path: `/v2/environments/${victim.env.id}/publish`,
      body: { sourceEnvironmentId: attacker.env.id, dryRun: true },
      expect: sameOrg ? { kind: 'orgWide', contains: victim.seeded.workflow._id } : notFound,
    },
    ...(sameOrg ? [] : [{ method: 'POST', path: `/v2/environments/${victim.env.id}/publish`, body: {}, expect: notFound }]),
    {
      method: 'POST',
      path: `/v2/environments/${attacker.env.id}/publish`,
      body: { sourceEnvironmentId: victim.env.id },
      note: "the victim's environment as the source",
      expect: sameOrg ? own({ statuses: [403] }) : notFound,
    },
  ],

  // ---- environment variables: the organization's (documented), each key seeing and setting its
  // own environment's value only ----
  createEnvironmentVariable: ({ attacker, victim, sameOrg }) => [
    {
      method: 'POST',
      path: '/v1/environment-variables',
      body: { key: `PROBE_${rand()}`, values: [{ _environmentId: victim.env.id, value: 'hijack' }] },
      note: "a value for the victim's environment",
      expect: sameOrg ? own({ statuses: [403] }) : notFound,
    },
    {
      method: 'POST',
      path: '/v1/environment-variables',
      body: { key: victim.seeded.variable.key },
      // The key is the organization's: taken in the same one, free in another.
      expect: sameOrg
        ? own({ statuses: [409] })
        : own({ cleanup: removeOwn(attacker, `/v1/environment-variables/${victim.seeded.variable.key}`) }),
    },
  ],
  listEnvironmentVariables: ({ victim, sameOrg }) => [
    {
      method: 'GET',
      path: '/v1/environment-variables',
      expect: sameOrg ? { kind: 'orgWide', contains: victim.seeded.variable.key } : own(),
    },
  ],
  getEnvironmentVariable: ({ victim, sameOrg }) => [
    {
      method: 'GET',
      path: `/v1/environment-variables/${victim.seeded.variable.key}`,
      // Without the victim's value: the key and id are the organization's.
      expect: sameOrg ? { kind: 'orgWide', contains: victim.seeded.variable._id } : notFound,
    },
  ],
  getEnvironmentVariableUsage: ({ victim, sameOrg }) => [
    { method: 'GET', path: `/v1/environment-variables/${victim.seeded.variable.key}/usage`, expect: sameOrg ? own() : notFound },
  ],
  updateEnvironmentVariable: ({ victim, sameOrg }) => [
    {
      method: 'PATCH',
      path: `/v1/environment-variables/${victim.seeded.variable.key}`,
      body: { values: [{ _environmentId: victim.env.id, value: 'hijack' }] },
      expect: sameOrg ? own({ statuses: [403] }) : notFound,
    },
  ],
  deleteEnvironmentVariable: ({ victim }) => [
    // The caller's environment has no value of it, the victim's has: not the caller's to remove.
    { method: 'DELETE', path: `/v1/environment-variables/${victim.seeded.variable.key}`, expect: notFound },
  ],

  // ---- events (triggers): another scope's workflow is not found, its tenant does not exist ----
  // (The seeded workflows are inactive, so nothing here is ever queued for delivery.)
  trigger: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/events/trigger',
      body: { name: victim.seeded.workflow.workflowId, to: victim.seeded.subscriber.subscriberId },
      note: 'workflow_not_found',
      expect: own({ statuses: [422] }),
    },
    {
      method: 'POST',
      path: '/v1/events/trigger',
      body: {
        name: attacker.seeded.workflow.workflowId,
        to: attacker.seeded.subscriber.subscriberId,
        tenant: victim.seeded.tenant.identifier,
      },
      note: 'no_tenant_found',
      expect: own(),
    },
  ],
  triggerBulk: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/events/trigger/bulk',
      body: {
        events: [
          { name: victim.seeded.workflow.workflowId, to: victim.seeded.subscriber.subscriberId },
          {
            name: attacker.seeded.workflow.workflowId,
            to: attacker.seeded.subscriber.subscriberId,
            tenant: { identifier: victim.seeded.tenant.identifier },
          },
          { name: attacker.seeded.workflow.workflowId, to: { type: 'Topic', topicKey: victim.seeded.topic.key } },
        ],
      },
      expect: own(),
    },
  ],
  triggerBroadcast: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/events/trigger/broadcast',
      body: { name: victim.seeded.workflow.workflowId },
      expect: own({ statuses: [422] }),
    },
    {
      method: 'POST',
      path: '/v1/events/trigger/broadcast',
      body: { name: attacker.seeded.workflow.workflowId, tenant: victim.seeded.tenant.identifier },
      expect: own(),
    },
  ],

  // A transaction of another scope is unknown here: nothing to cancel (false), nothing changed.
  cancelTrigger: ({ victim }) => [{ method: 'DELETE', path: `/v1/events/trigger/txn-${victim.tag}`, expect: own() }],

  // ---- the inbox: the attacker's own session, the victim's ids ----
  // A session opened with the attacker's application identifier and the victim's subscriberId is a
  // subscriber of the attacker's own environment (made there, then removed again).
  // No API key: the URL's organization and environment are the scope. Naming the victim's
  // integration under the caller's scope, or the victim's environment under another
  // organization, must find nothing (in one organization the victim's URL is the victim's own).
  receiveProviderReceipts: ({ attacker, victim, sameOrg }) => [
    {
      method: 'POST',
      path: `/webhooks/organizations/${attacker.orgId}/environments/${attacker.env.id}/email/${victim.seeded.integrations.email._id}`,
      body: [],
      expect: notFound,
      note: "the victim's integration named in the caller's own receipt URL",
    },
    ...(sameOrg
      ? []
      : [
          {
            method: 'POST',
            path: `/webhooks/organizations/${attacker.orgId}/environments/${victim.env.id}/email/${victim.seeded.integrations.email._id}`,
            body: [],
            expect: notFound,
            note: "the caller's organization with the victim's environment",
          },
        ]),
  ],
  openInboxSession: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/inbox/session',
      body: {
        applicationIdentifier: attacker.env.applicationIdentifier,
        subscriber: { subscriberId: victim.seeded.subscriber.subscriberId },
      },
      expect: own({ cleanup: removeOwn(attacker, `/v2/subscribers/${victim.seeded.subscriber.subscriberId}`) }),
    },
  ],
  listInboxNotifications: () => [
    { method: 'GET', path: '/v1/inbox/notifications?limit=100', session: true, expect: own() },
    { method: 'GET', path: '/v1/inbox/notifications?archived=true&snoozed=true&read=true', session: true, expect: own() },
  ],
  countInboxNotifications: () => [
    {
      method: 'GET',
      path: `/v1/inbox/notifications/count?filters=${enc(JSON.stringify([{ read: false }, { seen: false }, { archived: true }]))}`,
      session: true,
      expect: own(),
    },
  ],
  ...(Object.fromEntries(
    (['read', 'unread', 'archive', 'unarchive', 'unsnooze'] as const).map((action) => [
      `${action}InboxNotification`,
      ({ victim }: Ctx): Call[] => [
        { method: 'PATCH', path: `/v1/inbox/notifications/${messageOf(victim)._id}/${action}`, session: true, expect: notFound },
      ],
    ]),
  ) as Record<
    | 'readInboxNotification'
    | 'unreadInboxNotification'
    | 'archiveInboxNotification'
    | 'unarchiveInboxNotification'
    | 'unsnoozeInboxNotification',
    (ctx: Ctx) => Call[]
  >),
  snoozeInboxNotification: ({ victim }) => [
    {
      method: 'PATCH',
      path: `/v1/inbox/notifications/${messageOf(victim)._id}/snooze`,
      body: { snoozeUntil: new Date(Date.now() + 3_600_000).toISOString() },
      session: true,
      expect: notFound,
    },
  ],
  completeInboxAction: ({ victim }) => [
    {
      method: 'PATCH',
      path: `/v1/inbox/notifications/${messageOf(victim)._id}/complete`,
      body: { actionType: 'primary' },
      session: true,
      expect: notFound,
    },
  ],
  revertInboxAction: ({ victim }) => [
    {
      method: 'PATCH',
      path: `/v1/inbox/notifications/${messageOf(victim)._id}/revert`,
      body: { actionType: 'primary' },
      session: true,
      expect: notFound,
    },
  ],
  deleteInboxNotification: ({ victim }) => [
    { method: 'DELETE', path: `/v1/inbox/notifications/${messageOf(victim)._id}/delete`, session: true, expect: notFound },
  ],
  // Bulk actions act on the caller's own inbox only: with the victim's marker as tag they match nothing.
  ...(Object.fromEntries(
    (
      [
        ['readAllInboxNotifications', 'read'],
        ['archiveAllInboxNotifications', 'archive'],
        ['archiveReadInboxNotifications', 'read-archive'],
        ['deleteAllInboxNotifications', 'delete'],
      ] as const
    ).map(([operationId, action]) => [
      operationId,
      ({ victim }: Ctx): Call[] => [
        { method: 'POST', path: `/v1/inbox/notifications/${action}`, body: { tags: [victim.marker] }, session: true, expect: own() },
      ],
    ]),
  ) as Record<
    'readAllInboxNotifications' | 'archiveAllInboxNotifications' | 'archiveReadInboxNotifications' | 'deleteAllInboxNotifications',
    (ctx: Ctx) => Call[]
  >),
  markInboxNotificationsSeen: ({ victim }) => [
    {
      method: 'POST',
      path: '/v1/inbox/notifications/seen',
      body: { notificationIds: [messageOf(victim)._id] },
      session: true,
      note: 'not a message of this inbox: nothing changes',
      expect: own(),
    },
  ],

  // ---- inbox preferences: the attacker's own session, the victim's workflows ----
  listInboxPreferences: () => [
    { method: 'GET', path: '/v1/inbox/preferences?criticality=all', session: true, expect: own() },
    { method: 'GET', path: '/v1/inbox/preferences', session: true, expect: own() },
  ],
  getInboxGlobalPreferences: () => [{ method: 'GET', path: '/v1/inbox/preferences/global', session: true, expect: own() }],
  // The value the attacker's own subscriber already has (seeded): its snapshot stays as it was.
  updateInboxGlobalPreferences: () => [
    { method: 'PATCH', path: '/v1/inbox/preferences', body: { email: false }, session: true, expect: own() },
  ],
  updateInboxWorkflowPreferences: ({ victim }) =>
    workflowRefs(victim).map((ref) => ({
      method: 'PATCH',
      path: `/v1/inbox/preferences/${ref}`,
      body: { in_app: true, enabled: false },
      session: true,
      expect: notFound,
    })),
  bulkUpdateInboxPreferences: ({ attacker, victim }) =>
    workflowRefs(victim).map((ref) => ({
      method: 'PATCH',
      path: '/v1/inbox/preferences/bulk',
      body: {
        preferences: [
          { workflowId: attacker.seeded.workflow._id, in_app: true },
          { workflowId: ref, in_app: true },
        ],
      },
      session: true,
      note: "the attacker's own workflow with the victim's: nothing written",
      expect: notFound,
    })),

  // ---- a subscriber's inbox with an API key: the victim's subscriber, or the caller's own with the victim's message ----
  listSubscriberNotifications: ({ attacker, victim }) => [
    { method: 'GET', path: `/v2/subscribers/${victim.seeded.subscriber.subscriberId}/notifications`, expect: notFound },
    {
      method: 'GET',
      path: `/v2/subscribers/${attacker.seeded.subscriber.subscriberId}/notifications?seen=false&tags=${enc(victim.marker)}`,
      expect: own(),
    },
  ],
  countSubscriberNotifications: ({ attacker, victim }) =>
    [victim, attacker].map((scope) => ({
      method: 'GET',
      path: `/v2/subscribers/${scope.seeded.subscriber.subscriberId}/notifications/count?filters=${enc('[{"read":false},{"seen":false}]')}`,
      expect: scope === victim ? notFound : own(),
    })),
  ...(Object.fromEntries(
    (
      [
        ['readSubscriberNotification', 'PATCH', 'read'],
        ['unreadSubscriberNotification', 'PATCH', 'unread'],
        ['archiveSubscriberNotification', 'PATCH', 'archive'],
        ['unarchiveSubscriberNotification', 'PATCH', 'unarchive'],
        ['unsnoozeSubscriberNotification', 'PATCH', 'unsnooze'],
        ['snoozeSubscriberNotification', 'PATCH', 'snooze'],
        ['completeSubscriberNotificationAction', 'PATCH', 'actions/primary/complete'],
        ['revertSubscriberNotificationAction', 'PATCH', 'actions/primary/revert'],
        ['deleteSubscriberNotification', 'DELETE', ''],
      ] as const
    ).map(([operationId, method, action]) => [
      operationId,
      ({ attacker, victim }: Ctx): Call[] =>
        [victim, attacker].map((scope) => ({
          method,
          path: `/v2/subscribers/${scope.seeded.subscriber.subscriberId}/notifications/${messageOf(victim)._id}${action && `/${action}`}`,
          ...(action === 'snooze' && { body: { snoozeUntil: new Date(Date.now() + 3_600_000).toISOString() } }),
          ...(scope === attacker && { note: "the caller's own subscriber, the victim's message" }),
          expect: notFound,
        })),
    ]),
  ) as Record<
    | 'readSubscriberNotification'
    | 'unreadSubscriberNotification'
    | 'archiveSubscriberNotification'
    | 'unarchiveSubscriberNotification'
    | 'unsnoozeSubscriberNotification'
    | 'snoozeSubscriberNotification'
    | 'completeSubscriberNotificationAction'
    | 'revertSubscriberNotificationAction'
    | 'deleteSubscriberNotification',
    (ctx: Ctx) => Call[]
  >),
  markSubscriberNotificationsSeen: ({ attacker, victim }) =>
    [victim, attacker].map((scope) => ({
      method: 'POST',
      path: `/v2/subscribers/${scope.seeded.subscriber.subscriberId}/notifications/seen`,
      body: { notificationIds: [messageOf(victim)._id] },
      ...(scope === attacker && { note: "the caller's own subscriber, the victim's message: not its, nothing changes" }),
      expect: scope === victim ? notFound : own(),
    })),
  // On the caller's own subscriber, with the victim's marker as tag: they match nothing.
  ...(Object.fromEntries(
    (
      [
        ['readAllSubscriberNotifications', 'read'],
        ['archiveAllSubscriberNotifications', 'archive'],
        ['archiveReadSubscriberNotifications', 'read-archive'],
        ['deleteAllSubscriberNotifications', 'delete'],
      ] as const
    ).map(([operationId, action]) => [
      operationId,
      ({ attacker, victim }: Ctx): Call[] =>
        [victim, attacker].map((scope) => ({
          method: 'POST',
          path: `/v2/subscribers/${scope.seeded.subscriber.subscriberId}/notifications/${action}`,
          body: { tags: [victim.marker] },
          expect: scope === victim ? notFound : own(),
        })),
    ]),
  ) as Record<
    | 'readAllSubscriberNotifications'
    | 'archiveAllSubscriberNotifications'
    | 'archiveReadSubscriberNotifications'
    | 'deleteAllSubscriberNotifications',
    (ctx: Ctx) => Call[]
  >),

  // ---- the legacy widget API (/v1/widgets): the attacker's own session, the victim's ids ----
  initializeWidgetSession: ({ attacker, victim }) => [
    {
      method: 'POST',
      path: '/v1/widgets/session/initialize',
      body: {
        applicationIdentifier: attacker.env.applicationIdentifier,
        subscriberId: victim.seeded.subscriber.subscriberId,
        hmacHash: null,
      },
      expect: own({ cleanup: removeOwn(attacker, `/v2/subscribers/${victim.seeded.subscriber.subscriberId}`) }),
    },
  ],
  getWidgetFeed: ({ victim }) => [
    { method: 'GET', path: '/v1/widgets/notifications/feed?limit=100', session: true, expect: own() },
    {
      method: 'GET',
      path: `/v1/widgets/notifications/feed?payload=${enc(Buffer.from(JSON.stringify({ marker: victim.marker })).toString('base64'))}`,
      session: true,
      expect: own(),
    },
  ],
  getWidgetUnseenCount: () => [{ method: 'GET', path: '/v1/widgets/notifications/unseen', session: true, expect: own() }],
  getWidgetUnreadCount: () => [{ method: 'GET', path: '/v1/widgets/notifications/unread', session: true, expect: own() }],
  getWidgetCount: () => [{ method: 'GET', path: '/v1/widgets/notifications/count?read=false', session: true, expect: own() }],
  // Marks and removals by id find only the caller's own messages: the victim's is neither changed nor answered.
  markWidgetMessageFlags: ({ victim }) => [
    {
      method: 'POST',
      path: '/v1/widgets/messages/markAs',
      body: { messageId: messageOf(victim)._id, mark: { seen: true, read: true } },
      session: true,
      note: 'the reference answers the other subscriber’s message in full; here nothing',
      expect: own(),
    },
  ],
  markWidgetMessagesAs: ({ victim }) => [
    {
      method: 'POST',
      path: '/v1/widgets/messages/mark-as',
      body: { messageId: [messageOf(victim)._id], markAs: 'read' },
      session: true,
      expect: own(),
    },
  ],
  // Mark-all of a feed no message has: the caller's own messages stay as they were.
  readAllWidgetMessages: ({ victim }) => [
    { method: 'POST', path: '/v1/widgets/messages/read', body: { feedId: victim.marker }, session: true, expect: own() },
  ],
  seeAllWidgetMessages: ({ victim }) => [
    { method: 'POST', path: '/v1/widgets/messages/seen', body: { feedId: [victim.marker] }, session: true, expect: own() },
  ],
  removeWidgetMessage: ({ victim }) => [
    {
      method: 'DELETE',
      path: `/v1/widgets/messages/${messageOf(victim)._id}`,
      session: true,
      note: 'the reference deletes any message of the environment by id',
      expect: notFound,
    },
  ],
  removeWidgetMessages: ({ victim }) => [
    {
      method: 'POST',
      path: '/v1/widgets/messages/bulk/delete',
      body: { messageIds: [messageOf(victim)._id] },
      session: true,
      expect: own(),
    },
  ],
  removeAllWidgetMessages: ({ victim }) => [
    { method: 'DELETE', path: `/v1/widgets/messages?feedId=${victim.marker}`, session: true, expect: own() },
  ],
  updateWidgetMessageAction: ({ victim }) => [
    {
      method: 'POST',
      path: `/v1/widgets/messages/${messageOf(victim)._id}/actions/primary`,
      body: { executedType: 'primary', status: 'done' },
      session: true,
      expect: notFound,
    },
  ],
  getWidgetOrganization: () => [{ method: 'GET', path: '/v1/widgets/organization', session: true, expect: own() }],
  listWidgetPreferences: () => [{ method: 'GET', path: '/v1/widgets/preferences', session: true, expect: own() }],
  getWidgetPreferencesByLevel: () => [
    { method: 'GET', path: '/v1/widgets/preferences/global', session: true, expect: own() },
    { method: 'GET', path: '/v1/widgets/preferences/template', session: true, expect: own() },
  ],
  updateWidgetWorkflowPreference: ({ victim }) =>
    workflowRefs(victim).map((ref) => ({
      method: 'PATCH',
      path: `/v1/widgets/preferences/${ref}`,
      body: { channel: { type: 'in_app', enabled: true } },
      session: true,
      expect: notFound,
    })),
  // The value the attacker's own subscriber already has (seeded): its snapshot stays as it was.
  updateWidgetGlobalPreferences: () => [
    {
      method: 'PATCH',
      path: '/v1/widgets/preferences',
      body: { preferences: [{ type: 'email', channelType: 'email', enabled: false }] },
      session: true,
      expect: own(),
    },
  ],
  logWidgetUsage: ({ victim }) => [
    {
      method: 'POST',
      path: '/v1/widgets/usage/log',
      body: { name: '[Widget] - Notification Click', payload: { notificationId: messageOf(victim)._id, hasCta: false } },
      session: true,
      expect: own(),
    },
  ],

  // ---- engagement: public routes (no API key), the sealed token is the only credential ----
  // A token cannot be made from the victim's ids: the ids themselves, or a token-shaped text
  // holding them in the clear, lead to the plain 404 page and change nothing.
  followTrackedLink: ({ victim }) => [
    { method: 'GET', path: `/t/${messageOf(victim)._id}`, expect: notFound },
    { method: 'GET', path: `/t/${forgedToken(victim, 'c')}`, expect: notFound },
  ],
  loadOpenPixel: ({ victim }) => [
    // The pixel answers the same image whatever the token; the victim's message stays unopened (checked after).
    { method: 'GET', path: `/o/${forgedToken(victim, 'o')}`, expect: own() },
  ],

  // ---- no tenant data ----
  getOpenApi: () => [{ method: 'GET', path: '/openapi.json', expect: own() }],
};

/** The other environment of the scope's organization. */
function sibling(scope: Scope): Scope {
  const found = scopes.find((s) => s.orgId === scope.orgId && s !== scope);
  if (!found) throw new Error(`No sibling of ${scope.name}`);
  return found;
}

function layoutRefs(victim: Scope): string[] {
  const { layoutId, _id, slug } = victim.seeded.layout;
  return [layoutId, _id, slug];
}

function workflowRefs(victim: Scope): string[] {
  const { workflowId, _id, slug } = victim.seeded.workflow;
  return [workflowId, _id, slug];
}

const successStatus = (method: string, path: string): number => {
  const route = routes.find((r) => r.method === method && new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/?]+')}(\\?|$)`).test(path));
  if (!route) throw new Error(`No route for ${method} ${path}`);
  return route.successStatus;
};

/** What `call` must answer when `attacker` makes it against `victim`'s ids. */
async function check(call: Call, { attacker, victim, sameOrg }: Ctx) {
  const body = call.body === undefined ? '' : ` ${JSON.stringify(call.body)}`;
  const what = `${attacker.name} → ${victim.name}: ${call.method} ${call.path}${body}${call.note ? ` (${call.note})` : ''}`;
  const res = await (call.session ? attacker.inbox : attacker.client).request(call.method, call.path, {
    ...(call.body !== undefined && { body: call.body }),
    ...(call.form && { rawBody: call.form.rawBody, headers: call.form.headers }),
  });
  const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '');
  const sent = `${call.path} ${JSON.stringify(call.body ?? '')}`;
  const forbidden = victimSecrets(victim, sameOrg).filter((s) => !sent.includes(s));

  const expectation = call.expect;
  switch (expectation.kind) {
    case 'notFound':
      expect(res.status, `${what}: ${text}`).toBe(404);
      break;
    case 'own':
      expect(expectation.statuses ?? [successStatus(call.method, call.path)], `${what}: ${text}`).toContain(res.status);
      if (res.status < 300) await expectation.cleanup?.(res);
      break;
    case 'orgWide':
      expect(res.status, `${what}: ${text}`).toBe(200);
      expect(text, what).toContain(expectation.contains);
      return; // documented: the victim's data is in it
  }
  for (const secret of forbidden) expect(text.includes(secret), `${what} shows ${secret}: ${text}`).toBe(false);
}

const pairs = (): Ctx[] =>
  scopes.flatMap((attacker) =>
    scopes.filter((victim) => victim !== attacker).map((victim) => ({ attacker, victim, sameOrg: attacker.orgId === victim.orgId })),
  );

describe('tenant isolation', () => {
  it('has a case for every route of the route table', () => {
    const missing = routes.map((r) => r.operationId).filter((id) => typeof (cases as Record<string, unknown>)[id] !== 'function');
    expect(missing, 'routes without an isolation case').toEqual([]);
    // Every route must be exercised against the other organization with at least one call.
    const [a, b] = [scopes[0]!, scopes[2]!];
    const empty = routes.filter((r) => cases[r.operationId]({ attacker: b, victim: a, sameOrg: false }).length === 0);
    expect(empty.map((r) => r.operationId)).toEqual([]);
  });

  it('answers every route called with another scope’s ids with 404 or the caller’s own data, and changes nothing', async () => {
    const before = await Promise.all(scopes.map(snapshot));
    let calls = 0;
    for (const ctx of pairs()) {
      for (const route of routes) {
        for (const call of cases[route.operationId](ctx)) {
          await check(call, ctx);
          calls += 1;
        }
      }
    }
    expect(calls).toBeGreaterThan(12 * routes.length);
    const after = await Promise.all(scopes.map(snapshot));
    scopes.forEach((scope, i) => expect(after[i], `${scope.name} changed`).toEqual(before[i]));
    // A bound on a hang, not a timing: over 2,000 requests, about 90 s alone, five to six minutes
    // beside the load files at a lower priority, as `npm test` runs this file (test/run-suite.ts),
    // and 11.4 minutes there on a slower day (2026-12-02).
  }, 1_800_000);

  it('gives an empty page for a cursor taken from another scope’s list', async () => {
    // Second items, so every list has a next page at limit=1.
    for (const scope of scopes) {
      const { client, tag } = scope;
      expectStatus(
        await client.post('/v2/subscribers', { subscriberId: `sub2-${tag}`, firstName: scope.marker }),
        201,
        'second subscriber',
      );
      expectStatus(await client.post('/v2/topics', { key: `topic2-${tag}`, name: scope.marker }), 201, 'second topic');
      expectStatus(await client.post('/v2/tenants', { identifier: `tenant2-${tag}`, name: scope.marker }), 201, 'second tenant');
      expectStatus(
        await client.post(`/v2/topics/${scope.seeded.topic.key}/subscriptions`, { subscriberIds: [`sub2-${tag}`] }),
        201,
        'second subscription of the topic',
      );
      expectStatus(
        await client.post(`/v2/topics/topic2-${tag}/subscriptions`, { subscriberIds: [scope.seeded.subscriber.subscriberId] }),
        201,
        'second subscription of the subscriber',
      );
    }
    const lists = (scope: Scope) => ({
      subscribers: '/v2/subscribers',
      topics: '/v2/topics',
      tenants: '/v2/tenants',
      topicSubscriptions: `/v2/topics/${scope.seeded.topic.key}/subscriptions`,
      subscriberSubscriptions: `/v2/subscribers/${scope.seeded.subscriber.subscriberId}/subscriptions`,
    });
    let checked = 0;
    for (const victim of scopes) {
      for (const [list, path] of Object.entries(lists(victim))) {
        const first = await victim.client.get(`${path}?limit=1`);
        expectStatus(first, 200, `${victim.name} ${list}`);
        expect(first.body.data).toHaveLength(1);
        const cursor = first.body.next as string;
        expect(cursor, `${victim.name} ${list} next`).toEqual(expect.any(String));
        // The cursor works in its own scope...
        const own = await victim.client.get(`${path}?limit=1&after=${enc(cursor)}`);
        expect(own.body.data, `${victim.name} ${list} second page`).toHaveLength(1);

        for (const attacker of scopes.filter((s) => s !== victim)) {
          // ...and gives nothing in another: the attacker's own list of the same kind.
          const attackerPath = lists(attacker)[list as keyof ReturnType<typeof lists>];
          for (const param of ['after', 'before']) {
            const res = await attacker.client.get(`${attackerPath}?limit=10&${param}=${enc(cursor)}`);
            const what = `${victim.name} ${list} cursor in ${attacker.name} (${param}): ${JSON.stringify(res.body)}`;
            expect([200, 422], what).toContain(res.status);
            if (res.status === 200) {
              expect(res.body.data, what).toEqual([]);
              expect(res.body.next ?? null, what).toBeNull();
              expect(res.body.previous ?? null, what).toBeNull();
            }
            for (const secret of victimSecrets(victim, victim.orgId === attacker.orgId)) {
              expect(JSON.stringify(res.body).includes(secret), what).toBe(false);
            }
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBe(4 * 5 * 3 * 2);
  });

  it('lets the same organization use its organization-scoped operations, and the other organization none of them', async () => {
    const [aDev, aProd, bDev] = [scopes[0]!, scopes[1]!, scopes[2]!];
    const aDevIntegrations = async () =>
      (
        await aDev.client.get<{ _id: string; _environmentId: string; name: string; primary: boolean; deleted: boolean }[]>(
          '/v1/integrations',
        )
      ).body;

    // Documented: GET /v1/integrations lists every environment of the organization...
    const seenByProd = (await aProd.client.get<{ _id: string }[]>('/v1/integrations')).body.map((i) => i._id);
    expect(seenByProd).toContain(aDev.seeded.integrations.email._id);
    // ...and nothing of another organization.
    const seenByB = JSON.stringify((await bDev.client.get('/v1/integrations')).body);
    for (const secret of victimSecrets(aDev, false)) expect(seenByB.includes(secret)).toBe(false);

    // Documented: an integration is changed from any environment of its organization.
    const target = aDev.seeded.integrations.push._id;
    expectStatus(await bDev.client.put(`/v1/integrations/${target}`, { name: 'Renamed by B' }), 404, 'other org PUT');
    const renamed = await aProd.client.put(`/v1/integrations/${target}`, { name: 'Renamed by Production' });
    expectStatus(renamed, 200, 'same org PUT');
    expect((await aDevIntegrations()).find((i) => i._id === target)?.name).toBe('Renamed by Production');

    // Documented: set-primary from another environment of the organization.
    const email = aDev.seeded.integrations.email._id;
    expectStatus(await bDev.client.post(`/v1/integrations/${email}/set-primary`), 404, 'other org set-primary');
    expectStatus(await aProd.client.post(`/v1/integrations/${email}/set-primary`), 200, 'same org set-primary');
    expect((await aDevIntegrations()).find((i) => i._id === email)?.primary).toBe(true);

    // Documented: `_environmentId` places an integration in another environment of the organization.
    const placed = await aProd.client.post('/v1/integrations', {
      providerId: 'discord',
      channel: 'chat',
      name: 'Placed',
      _environmentId: aDev.env.id,
    });
    expectStatus(placed, 201, 'same org create in the other environment');
    expect(placed.body.data._environmentId).toBe(aDev.env.id);
    expectStatus(
      await bDev.client.post('/v1/integrations', { providerId: 'discord', channel: 'chat', _environmentId: aDev.env.id }),
      404,
      'other org create in A',
    );

    // Documented: delete from another environment of the organization.
    expectStatus(await bDev.client.delete(`/v1/integrations/${placed.body.data._id}`), 404, 'other org DELETE');
    expectStatus(await aProd.client.delete(`/v1/integrations/${placed.body.data._id}`), 200, 'same org DELETE');
    expect((await aDevIntegrations()).map((i) => i._id)).not.toContain(placed.body.data._id);

    // Documented: workflow sync targets environments of the caller's organization.
    expectStatus(
      await bDev.client.put(`/v2/workflows/${bDev.seeded.workflow.workflowId}/sync`, { targetEnvironmentId: aProd.env.id }),
      404,
      'other org sync into A',
    );
    expectStatus(await aProd.client.get(`/v2/workflows/${bDev.seeded.workflow.workflowId}`), 404, 'nothing synced from B');
    const synced = await aDev.client.put(`/v2/workflows/${aDev.seeded.workflow.workflowId}/sync`, { targetEnvironmentId: aProd.env.id });
    expectStatus(synced, 200, 'same org sync');
    expect(synced.body._environmentId ?? aProd.env.id).toBe(aProd.env.id);
    const inProd = await aProd.client.get(`/v2/workflows/${aDev.seeded.workflow.workflowId}`);
    expectStatus(inProd, 200, 'synced workflow in Production');
    expect(inProd.body.name).toBe(`Workflow ${aDev.marker}`);

    // Documented: idempotency keys are scoped to the organization. The other organization's use
    // of the same key and body runs as its own request, never a replay of A's answer.
    const key = { 'idempotency-key': `isolation-${rand()}` };
    const body = { subscriberId: `idem-${rand()}`, firstName: 'Same body' };
    const first = await aDev.client.post('/v2/subscribers', body, key);
    expectStatus(first, 201, 'idempotent create in A');
    const other = await bDev.client.post('/v2/subscribers', body, key);
    expectStatus(other, 201, 'same key and body in B');
    expect(other.headers.get('idempotency-replay')).toBeNull();
    expect(other.body._id).not.toBe(first.body._id);
    expect(JSON.stringify(other.body)).not.toContain(aDev.env.id);
    expectStatus(await bDev.client.get(`/v2/subscribers/${body.subscriberId}`), 200, "B's own subscriber");
    // Within the organization the key is shared: another environment gets A/Development's answer replayed.
    const sibling = await aProd.client.post('/v2/subscribers', body, key);
    expect(sibling.headers.get('idempotency-replay')).toBe('true');
    expect(sibling.body._id).toBe(first.body._id);
  });
});
