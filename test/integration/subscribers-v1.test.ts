import { Novu } from '@novu/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { buildMessage, seedMessages } from '../support/message-builder.ts';
import { createWorkflow, rand, settled, trigger, WAIT } from '../support/pipeline.ts';
import { seedWorkflow } from '../support/workflow-builder.ts';

// The legacy v1 subscriber routes (issue 26, item 1) as an app on `@novu/node` 2.x calls them:
// identify, get, update, list, bulk create, delete, online status, the v1 preferences, markAs and
// message actions. The SDK returns axios responses, so an app reads the reference's envelope,
// `res.data.data`. Status codes and error bodies are checked over plain HTTP as well.

let api: LocalApi;
let env: TestEnv;
let novu: Novu;

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
  novu = new Novu(env.apiKey, { backendUrl: api.url });
});
afterAll(() => api.close());

/** The status and error body of a call the SDK rejects (an axios error: the SDK bundles its own axios). */
async function refusal(call: Promise<unknown>): Promise<{ status: number; body: any }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e as { response?: { status: number; data: unknown } } | undefined,
  );
  if (!error?.response) throw new Error(`expected an HTTP error, got ${String(error)}`);
  return { status: error.response.status, body: error.response.data };
}

const sid = () => `v1-${rand()}`;

async function chatIntegration(): Promise<string> {
  const res = await env.client.post('/v1/integrations', {
    providerId: 'discord',
    channel: 'chat',
    active: true,
    identifier: `discord-${rand()}`,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data._id;
}

describe('identify, get, update, delete', () => {
  it('identify creates a subscriber (201), then updates its profile and appends its channel credentials', async () => {
    const subscriberId = sid();
    const created = await novu.subscribers.identify(subscriberId, { firstName: 'Ada', email: 'ada@example.com', data: { plan: 'pro' } });
    expect(created.status).toBe(201);
    expect(created.data.data).toMatchObject({
      subscriberId,
      firstName: 'Ada',
      email: 'ada@example.com',
      data: { plan: 'pro' },
      channels: [],
      deleted: false,
    });
    expect(created.data.data._id).toMatch(/^[0-9a-f]{24}$/);

    const integrationId = await chatIntegration();
    const again = await novu.subscribers.identify(subscriberId, {
      lastName: 'Lovelace',
      channels: [{ providerId: 'discord' as never, credentials: { webhookUrl: 'https://hooks.example/1' } }],
    });
    expect(again.status).toBe(201);
    expect(again.data.data).toMatchObject({ _id: created.data.data._id, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
    expect(again.data.data.channels).toEqual([
      { providerId: 'discord', _integrationId: integrationId, credentials: { webhookUrl: 'https://hooks.example/1' } },
    ]);

    const read = await novu.subscribers.get(subscriberId);
    expect(read.status).toBe(200);
    expect(read.data.data).toEqual(again.data.data);
  });

  it('refuses a channel without an active integration (400) and bad fields (422), writing nothing', async () => {
    const subscriberId = sid();
    const noIntegration = await refusal(
      novu.subscribers.identify(subscriberId, {
        firstName: 'Bo',
        channels: [{ providerId: 'slack' as never, credentials: { webhookUrl: 'https://hooks.example/2' } }],
      }),
    );
    expect(noIntegration.status).toBe(400);
    expect(noIntegration.body.message).toBe(`Subscribers environment (${env.id}) do not have active slack integration.`);

    const badEmail = await refusal(novu.subscribers.identify(subscriberId, { email: 'not-an-email' }));
    expect(badEmail.status).toBe(422);
    expect(badEmail.body).toMatchObject({ statusCode: 422, message: 'Validation Error', errors: { email: { value: 'not-an-email' } } });

    const tooMany = await env.client.post('/v1/subscribers', {
      subscriberId,
      channels: [{ providerId: 'discord', credentials: { deviceTokens: Array.from({ length: 101 }, (_, i) => `t${i}`) } }],
    });
    expect(tooMany.status).toBe(400);
    expect((await refusal(novu.subscribers.get(subscriberId))).status).toBe(404);
  });

  it('update (PUT) changes only the fields sent; get, update and delete of an unknown subscriber are 404', async () => {
    const subscriberId = sid();
    await novu.subscribers.identify(subscriberId, { firstName: 'Cy', lastName: 'Young', phone: '+15550001' });
    const updated = await novu.subscribers.update(subscriberId, { lastName: 'Old', locale: 'en-GB' });
    expect(updated.status).toBe(200);
    expect(updated.data.data).toMatchObject({ subscriberId, firstName: 'Cy', lastName: 'Old', phone: '+15550001', locale: 'en-GB' });
    expect(updated.data.data.updatedAt > updated.data.data.createdAt).toBe(true);

    const unknown = `missing-${rand()}`;
    for (const call of [
      () => novu.subscribers.get(unknown),
      () => novu.subscribers.update(unknown, { firstName: 'X' }),
      () => novu.subscribers.delete(unknown),
    ]) {
      const { status, body } = await refusal(call());
      expect(status).toBe(404);
      expect(body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    expect((await refusal(novu.subscribers.update(subscriberId, { locale: 'not a locale!' }))).status).toBe(422);
  });

  it('delete answers {acknowledged, status} and removes the subscriber', async () => {
    const subscriberId = sid();
    await novu.subscribers.identify(subscriberId, { firstName: 'Di' });
    const deleted = await novu.subscribers.delete(subscriberId);
    expect(deleted.status).toBe(200);
    expect(deleted.data).toEqual({ data: { acknowledged: true, status: 'deleted' } });
    expect((await refusal(novu.subscribers.get(subscriberId))).status).toBe(404);
  });

  it("updateOnlineStatus takes the SDK's `online` and the reference's `isOnline`; going offline stamps lastOnlineAt", async () => {
    const subscriberId = sid();
    await novu.subscribers.identify(subscriberId, {});
    const online = await novu.subscribers.updateOnlineStatus(subscriberId, true);
    expect(online.status).toBe(200);
    expect(online.data.data).toMatchObject({ subscriberId, isOnline: true, lastOnlineAt: null });

    const offline = await env.client.patch(`/v1/subscribers/${subscriberId}/online-status`, { isOnline: false });
    expect(offline.status).toBe(200);
    expect(offline.body.data.isOnline).toBe(false);
    expect(Date.parse(offline.body.data.lastOnlineAt)).toBeGreaterThan(Date.now() - 60_000);

    const empty = await env.client.patch(`/v1/subscribers/${subscriberId}/online-status`, {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors.isOnline.messages).toEqual(['isOnline should not be null or undefined']);
    expect((await refusal(novu.subscribers.updateOnlineStatus(`missing-${rand()}`, true))).status).toBe(404);
  });
});

describe('list and bulk create', () => {
  it('lists the environment in creation order, a numbered page at a time, with an exact hasMore', async () => {
    const own = (await createTestOrg(api.url)).dev;
    const client = new Novu(own.apiKey, { backendUrl: api.url });
    const ids = ['a', 'b', 'c', 'd', 'e'].map((x) => `${x}-${rand()}`);
    for (const id of ids) await client.subscribers.identify(id, { firstName: id });

    await vi.waitFor(async () => expect((await client.subscribers.list(0, 100)).data.data).toHaveLength(5), WAIT);
    const pages = await Promise.all([0, 1, 2, 3].map((page) => client.subscribers.list(page, 2)));
    expect(pages.map((p) => p.status)).toEqual([200, 200, 200, 200]);
    expect(pages.map((p) => p.data.data.map((s: { subscriberId: string }) => s.subscriberId))).toEqual([
      ids.slice(0, 2),
      ids.slice(2, 4),
      ids.slice(4),
      [],
    ]);
    expect(pages.map(({ data: { page, hasMore, pageSize } }) => ({ page, hasMore, pageSize }))).toEqual([
      { page: 0, hasMore: true, pageSize: 2 },
      { page: 1, hasMore: true, pageSize: 2 },
      { page: 2, hasMore: false, pageSize: 2 },
      { page: 3, hasMore: false, pageSize: 2 },
    ]);
    // The defaults (page 0, 10 a page), and the bounds.
    const first = await own.client.get('/v1/subscribers');
    expect(first.body).toMatchObject({ page: 0, pageSize: 10, hasMore: false });
    expect((await own.client.get('/v1/subscribers?limit=101')).status).toBe(422);
    expect((await own.client.get('/v1/subscribers?page=-1')).status).toBe(422);
  });

  it('bulk create answers which subscribers were created, updated or failed, in request order', async () => {
    const existing = sid();
    await novu.subscribers.identify(existing, { firstName: 'Old' });
    const [one, two, bad] = [sid(), sid(), sid()];
    const res = await novu.subscribers.bulkCreate([
      { subscriberId: one, firstName: 'One', email: 'one@example.com' },
      { subscriberId: existing, firstName: 'New' },
      { subscriberId: two, firstName: 'Two' },
      { subscriberId: two, lastName: 'Again' },
      { subscriberId: bad, channels: [{ providerId: 'fcm' as never, credentials: { deviceTokens: ['t'] } }] },
    ]);
    expect(res.status).toBe(201);
    expect(res.data.data).toEqual({
      created: [{ subscriberId: one }, { subscriberId: two }],
      updated: [{ subscriberId: existing }, { subscriberId: two }],
      failed: [{ subscriberId: bad, message: `Subscribers environment (${env.id}) do not have active fcm integration.` }],
    });
    expect((await novu.subscribers.get(existing)).data.data.firstName).toBe('New');
    expect((await novu.subscribers.get(two)).data.data).toMatchObject({ firstName: 'Two', lastName: 'Again' });
    expect((await refusal(novu.subscribers.get(bad))).status).toBe(404);
  });

  it('refuses more than 500 subscribers, or an invalid one, as a whole (422), writing nothing', async () => {
    const tooMany = await env.client.post('/v1/subscribers/bulk', {
      subscribers: Array.from({ length: 501 }, (_, i) => ({ subscriberId: `many-${i}` })),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors.subscribers.messages).toEqual(['subscribers must contain no more than 500 elements']);

    const first = sid();
    const invalid = await env.client.post('/v1/subscribers/bulk', {
      subscribers: [{ subscriberId: first }, { subscriberId: sid(), email: 'nope' }],
    });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors)).toEqual(['subscribers.1.email']);
    expect((await env.client.get(`/v1/subscribers/${first}`)).status).toBe(404);
    expect((await env.client.post('/v1/subscribers/bulk', { subscribers: [] })).status).toBe(422);
  });
});

describe('preferences (v1 shapes)', () => {
  it('lists every active workflow as {template, preference}, all five channels unless includeInactiveChannels=false', async () => {
    const own = (await createTestOrg(api.url)).dev;
    const client = new Novu(own.apiKey, { backendUrl: api.url });
    const subscriberId = sid();
    await client.subscribers.identify(subscriberId, {});
    const wf = await seedWorkflow(own.scope, { name: 'Digest', tags: ['news'], steps: [{ type: 'in_app' }, { type: 'email' }] });
    await seedWorkflow(own.scope, { name: 'Off', active: false, steps: [{ type: 'sms' }] });

    const all = await client.subscribers.getPreference(subscriberId);
    expect(all.status).toBe(200);
    expect(all.data.data).toEqual([
      {
        template: {
          _id: wf._id,
          name: 'Digest',
          tags: ['news'],
          critical: false,
          triggers: [{ type: 'event', identifier: wf.workflowId, variables: [], subscriberVariables: [] }],
        },
        preference: {
          enabled: true,
          channels: { in_app: true, email: true, sms: true, chat: true, push: true },
          overrides: ['in_app', 'email', 'sms', 'chat', 'push'].map((channel) => ({ channel, source: 'template' })),
        },
      },
    ]);
    const active = await client.subscribers.getPreference(subscriberId, { includeInactiveChannels: false });
    expect(active.data.data[0].preference.channels).toEqual({ in_app: true, email: true });
    expect((await client.subscribers.getPreferenceByLevel(subscriberId, 'template' as never)).data.data).toEqual(all.data.data);

    const global = await client.subscribers.getGlobalPreference(subscriberId);
    expect(global.data.data).toEqual([
      { preference: { enabled: true, channels: { in_app: true, email: true, sms: true, chat: true, push: true } } },
    ]);
  });

  it('changes one workflow (channel, switch) and the global preferences; v2 reads the same choices', async () => {
    const own = (await createTestOrg(api.url)).dev;
    const client = new Novu(own.apiKey, { backendUrl: api.url });
    const subscriberId = sid();
    await client.subscribers.identify(subscriberId, {});
    const wf = await seedWorkflow(own.scope, { name: 'Alerts', steps: [{ type: 'in_app' }, { type: 'email' }] });

    const channel = await client.subscribers.updatePreference(subscriberId, wf._id, {
      channel: { type: 'email' as never, enabled: false },
    });
    expect(channel.status).toBe(200);
    expect(channel.data.data.preference).toMatchObject({ enabled: true, channels: { email: false, in_app: true } });
    expect(channel.data.data.preference.overrides).toContainEqual({ channel: 'email', source: 'subscriber' });
    // Named by workflowId too; the switch of the whole workflow.
    const off = await client.subscribers.updatePreference(subscriberId, wf.workflowId, { enabled: false });
    expect(off.data.data.preference).toMatchObject({ enabled: false, channels: { email: false } });

    const global = await client.subscribers.updateGlobalPreference(subscriberId, {
      enabled: true,
      preferences: [
        { type: 'sms' as never, enabled: false },
        { type: 'in_app' as never, enabled: false },
      ],
    });
    expect(global.status).toBe(200);
    expect(global.data.data).toEqual({
      preference: { enabled: true, channels: { email: true, sms: false, in_app: false, chat: true, push: true } },
    });

    const v2 = await own.client.get(`/v2/subscribers/${subscriberId}/preferences`);
    expect(v2.body.global).toEqual({ enabled: true, channels: { in_app: false, email: true } });
    expect(v2.body.workflows[0]).toMatchObject({ enabled: false, channels: { in_app: false, email: false } });
  });

  it(
    'refuses what cannot be changed: unknown subscriber or workflow ' + '(404), a critical workflow (400), bad bodies and levels (422)',
    async () => {
      const subscriberId = sid();
      await novu.subscribers.identify(subscriberId, {});
      const critical = await seedWorkflow(env.scope, {
        steps: [{ type: 'in_app' }],
        userPreferences: { all: { enabled: true, readOnly: true }, channels: {} },
      });
      const path = `/v1/subscribers/${subscriberId}/preferences`;
      expect((await env.client.patch(`${path}/${critical._id}`, { enabled: false })).status).toBe(400);
      expect((await env.client.patch(`${path}/0123456789abcdef01234567`, { enabled: false })).status).toBe(404);
      expect((await env.client.patch(`/v1/subscribers/missing-${rand()}/preferences`, { enabled: false })).status).toBe(404);
      expect((await env.client.get(`/v1/subscribers/missing-${rand()}/preferences`)).status).toBe(404);

      const empty = await env.client.patch(`${path}/${critical._id}`, {});
      expect(empty.status).toBe(422);
      expect(empty.body.errors.channel.messages).toEqual(['channel or enabled is required']);
      expect((await env.client.patch(path, { preferences: [{ type: 'fax', enabled: true }] })).status).toBe(422);
      expect((await env.client.get(`${path}/everything`)).status).toBe(422);
      // A critical workflow is listed, marked critical, and stays on.
      const listed = (await env.client.get(path)).body.data.find((p: { template: { _id: string } }) => p.template._id === critical._id);
      expect(listed).toMatchObject({ template: { critical: true }, preference: { enabled: true } });
    },
  );

  it('the global switch stops every non-critical workflow from delivering', async () => {
    const own = (await createTestOrg(api.url)).dev;
    const client = new Novu(own.apiKey, { backendUrl: api.url });
    const subscriberId = sid();
    await client.subscribers.identify(subscriberId, {});
    const workflowId = await createWorkflow(own.client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hi' } },
    ]);
    await client.subscribers.updateGlobalPreference(subscriberId, { enabled: false });

    const [item] = await settled(own.client, await trigger(own.client, workflowId, subscriberId));
    expect(item.jobs[0].status).toBe('canceled');
    expect(item.jobs[0].executionDetails.map((d: { detail: string }) => d.detail)).toContain(
      'Step filtered by subscriber global preferences',
    );

    await client.subscribers.updateGlobalPreference(subscriberId, { enabled: true });
    const [again] = await settled(own.client, await trigger(own.client, workflowId, subscriberId));
    expect(again.jobs[0].status).toBe('completed');
  });
});

describe('markAs and message actions', () => {
  async function subscriberWithMessages(count: number, extra: Parameters<typeof buildMessage>[2] = {}) {
    const subscriberId = sid();
    const { data } = await novu.subscribers.identify(subscriberId, {});
    const messages = await seedMessages(
      Array.from({ length: count }, () => buildMessage(env.scope, { subscriberId, _id: data.data._id }, extra)),
    );
    return { subscriberId, ids: messages.map((m) => m._id) };
  }

  it('markMessageSeen, markMessageRead and markMessageAs set just the flags sent, and the counts follow', async () => {
    const { subscriberId, ids } = await subscriberWithMessages(3);
    const [a, b, c] = ids as [string, string, string];

    const seen = await novu.subscribers.markMessageSeen(subscriberId, a);
    expect(seen.status).toBe(201);
    expect(seen.data.data).toHaveLength(1);
    expect(seen.data.data[0]).toMatchObject({ _id: a, seen: true, read: false });
    expect(seen.data.data[0].lastSeenDate).toEqual(expect.any(String));

    const read = await novu.subscribers.markMessageRead(subscriberId, b);
    expect(read.data.data[0]).toMatchObject({ _id: b, read: true, seen: false });
    expect((await novu.subscribers.getUnseenCount(subscriberId, false)).data.data.count).toBe(2);

    // Several ids, comma-separated as the reference splits them; ids of another subscriber are ignored.
    const other = await subscriberWithMessages(1);
    const both = await env.client.post(`/v1/subscribers/${subscriberId}/messages/markAs`, {
      messageId: `${b},${c},${other.ids[0]}`,
      mark: { seen: true, read: false },
    });
    expect(both.status).toBe(201);
    expect(both.body.data.map((m: { _id: string; seen: boolean; read: boolean }) => [m._id, m.seen, m.read])).toEqual([
      [b, true, false],
      [c, true, false],
    ]);
    const marked = await novu.subscribers.markMessageAs(subscriberId, a, { seen: false });
    expect(marked.data.data[0]).toMatchObject({ _id: a, seen: false });
    expect((await novu.subscribers.getUnseenCount(subscriberId, false)).data.data.count).toBe(1);
  });

  it('refuses bad markAs bodies (422) and an unknown subscriber (404)', async () => {
    const { subscriberId, ids } = await subscriberWithMessages(1);
    const path = `/v1/subscribers/${subscriberId}/messages/markAs`;
    const missing = await env.client.post(path, { mark: { seen: true } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.messageId.messages).toEqual(['messageId should not be null or undefined']);
    expect((await env.client.post(path, { messageId: 'nope', mark: { seen: true } })).status).toBe(422);
    expect((await env.client.post(path, { messageId: ids[0] })).status).toBe(422);
    expect((await refusal(novu.subscribers.markMessageSeen(`missing-${rand()}`, ids[0]!))).status).toBe(404);
  });

  it('markMessageActionSeen sets the action status, its button and payload', async () => {
    const buttons = [
      { type: 'primary' as const, content: 'Accept' },
      { type: 'secondary' as const, content: 'Decline' },
    ];
    const { subscriberId, ids } = await subscriberWithMessages(1, { cta: { action: { status: 'pending', buttons } } });
    const id = ids[0]!;

    const done = await novu.subscribers.markMessageActionSeen(subscriberId, id, 'primary' as never, {
      status: 'done' as never,
      payload: { answer: 42 },
    });
    expect(done.status).toBe(201);
    expect(done.data.data).toMatchObject({
      _id: id,
      cta: { action: { status: 'done', buttons, result: { type: 'primary', payload: { answer: 42 } } } },
    });

    const back = await novu.subscribers.markMessageActionSeen(subscriberId, id, 'secondary' as never, { status: 'pending' as never });
    expect(back.data.data.cta.action).toEqual({ status: 'pending', buttons, result: { type: 'secondary', payload: { answer: 42 } } });
    // The feed shows what the action set.
    const feed = await novu.subscribers.getNotificationsFeed(subscriberId, {});
    expect(feed.data.data[0].cta.action.status).toBe('pending');
  });

  it('refuses an action the message has not (400), an unknown message (404) and a bad type or status (422)', async () => {
    const { subscriberId, ids } = await subscriberWithMessages(1, { cta: { action: { buttons: [{ type: 'primary', content: 'Go' }] } } });
    const path = (type: string, id = ids[0]!) => `/v1/subscribers/${subscriberId}/messages/${id}/actions/${type}`;
    const noButton = await env.client.post(path('secondary'), { status: 'done' });
    expect(noButton.status).toBe(400);
    expect(noButton.body.message).toBe(`Message ${ids[0]} has no secondary action`);
    expect((await env.client.post(path('primary', '0123456789abcdef01234567'), { status: 'done' })).status).toBe(404);
    expect((await env.client.post(path('tertiary'), { status: 'done' })).status).toBe(422);
    expect((await env.client.post(path('primary'), { status: 'finished' })).status).toBe(422);
  });
});
