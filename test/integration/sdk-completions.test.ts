import { readFileSync } from 'node:fs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import { createTestOrg, startTestApi, type TestEnv, type TestOrg } from '../support/api.ts';
import { createWorkflow, rand, settledOne, trigger, WAIT } from '../support/pipeline.ts';
import { startFakeApi, type FakeApi } from '../support/provider-servers.ts';

// The operations of the reference's server SDK (`@novu/api`) that complete its surface, called
// through the SDK (which checks every answer against its models): a topic renamed, one
// subscription by its identifier, many workflows' preferences at once, a transaction's messages
// deleted, and a provider's delivery events through the SDK's path for them.

vi.setConfig({ testTimeout: 60_000 });

let api: LocalApi;
let fake: FakeApi;
beforeAll(async () => {
  [api, fake] = await Promise.all([startTestApi(), startFakeApi()]);
});
afterAll(async () => {
  await Promise.all([api?.close(), fake?.close()]);
});

const sdk = (env: TestEnv) => new Novu({ secretKey: env.apiKey, serverURL: api.url });

async function topicWith(env: TestEnv, subscriberIds: string[]): Promise<string> {
  const key = `topic-${rand()}`;
  expect((await env.client.post('/v2/topics', { key, name: 'Release notes' })).status).toBe(201);
  if (subscriberIds.length === 0) return key;
  for (const subscriberId of subscriberIds) {
    expect((await env.client.post('/v2/subscribers', { subscriberId, firstName: 'Ada' })).status).toBe(201);
  }
  const subscribed = await env.client.post(`/v2/topics/${key}/subscriptions`, { subscriberIds });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBeLessThan(300);
  return key;
}

describe('topics', () => {
  it('renames a topic', async () => {
    const { dev, prod } = await createTestOrg(api.url);
    const key = await topicWith(dev, []);
    const renamed = await sdk(dev).topics.update({ name: 'Product updates' }, key);
    expect(renamed.result).toMatchObject({ id: expect.any(String), key, name: 'Product updates' });
    expect((await sdk(dev).topics.get(key)).result.name).toBe('Product updates');
    await expect(sdk(dev).topics.update({ name: 'x' }, 'no-such-topic')).rejects.toMatchObject({ statusCode: 404 });
    // Another environment's topic is not found, and stays as it was.
    await expect(sdk(prod).topics.update({ name: 'Hijacked' }, key)).rejects.toMatchObject({ statusCode: 404 });
    expect((await sdk(dev).topics.get(key)).result.name).toBe('Product updates');
    expect((await dev.client.patch(`/v2/topics/${key}`, { data: { a: 1 } })).status).toBe(422);
  });

  it('finds a subscription by its default identifier and names it', async () => {
    const { dev } = await createTestOrg(api.url);
    const subscriberId = `sub-${rand()}`;
    const key = await topicWith(dev, [subscriberId]);
    const identifier = `tk_${key}:si_${subscriberId}`;
    const novu = sdk(dev);

    const found = await novu.topics.subscriptions.getSubscription(key, identifier);
    expect(found.result).toEqual({ id: expect.any(String), identifier, contextKeys: [] });

    const named = await novu.topics.subscriptions.update({
      topicKey: key,
      identifier,
      updateTopicSubscriptionRequestDto: { name: 'Weekly' },
    });
    expect(named.result).toMatchObject({
      id: found.result.id,
      identifier,
      name: 'Weekly',
      topic: { key, name: 'Release notes' },
      subscriber: { subscriberId, firstName: 'Ada' },
    });
    expect((await novu.topics.subscriptions.getSubscription(key, identifier)).result.name).toBe('Weekly');

    await expect(novu.topics.subscriptions.getSubscription(key, `tk_${key}:si_nobody`)).rejects.toMatchObject({ statusCode: 404 });
    await expect(novu.topics.subscriptions.getSubscription('no-such-topic', identifier)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('finds a subscription by an identifier chosen for it', async () => {
    const { dev, prod } = await createTestOrg(api.url);
    const [ann, bob] = [`ann-${rand()}`, `bob-${rand()}`];
    const key = await topicWith(dev, [ann, bob]);
    // As a subscribe with `{identifier, subscriberId}` stores it.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.topicSubscription(dev.scope, key, bob),
        UpdateExpression: 'SET #identifier = :identifier',
        ExpressionAttributeNames: { '#identifier': 'identifier' },
        ExpressionAttributeValues: { ':identifier': 'bob-weekly' },
      }),
    );
    const novu = sdk(dev);
    const found = await novu.topics.subscriptions.getSubscription(key, 'bob-weekly');
    expect(found.result).toMatchObject({ identifier: 'bob-weekly' });
    const named = await novu.topics.subscriptions.update({
      topicKey: key,
      identifier: 'bob-weekly',
      updateTopicSubscriptionRequestDto: { name: 'Bob weekly' },
    });
    expect(named.result.subscriber?.subscriberId).toBe(bob);
    // Ann's kept the default; Bob's default no longer names his.
    expect((await novu.topics.subscriptions.getSubscription(key, `tk_${key}:si_${ann}`)).result.identifier).toBe(`tk_${key}:si_${ann}`);
    await expect(novu.topics.subscriptions.getSubscription(key, `tk_${key}:si_${bob}`)).rejects.toMatchObject({ statusCode: 404 });

    // Another environment finds neither, and changes nothing.
    await expect(sdk(prod).topics.subscriptions.getSubscription(key, 'bob-weekly')).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      sdk(prod).topics.subscriptions.update({ topicKey: key, identifier: 'bob-weekly', updateTopicSubscriptionRequestDto: { name: 'x' } }),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect((await novu.topics.subscriptions.getSubscription(key, 'bob-weekly')).result.name).toBe('Bob weekly');
  });
});

describe('preferences in bulk', () => {
  it('changes several workflows at once, as GET preferences then shows them', async () => {
    const { dev } = await createTestOrg(api.url);
    const steps = [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hi' } },
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hi</p>' } },
    ];
    const [first, second] = [await createWorkflow(dev.client, steps), await createWorkflow(dev.client, steps)];
    const subscriberId = `sub-${rand()}`;
    expect((await dev.client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    const novu = sdk(dev);

    const changed = await novu.subscribers.preferences.bulkUpdate(
      {
        preferences: [
          { workflowId: first, channels: { inApp: false } },
          { workflowId: second, channels: { email: false } },
        ],
      },
      subscriberId,
    );
    expect(changed.result.map((p) => [p.level, p.workflow?.identifier, p.channels.inApp, p.channels.email])).toEqual([
      ['template', first, false, true],
      ['template', second, true, false],
    ]);
    const shown = await novu.subscribers.preferences.list({ subscriberId });
    const byWorkflow = Object.fromEntries(shown.result.workflows.map((w) => [w.workflow.identifier, w.channels]));
    expect(byWorkflow[first]).toMatchObject({ inApp: false });
    expect(byWorkflow[second]).toMatchObject({ inApp: true, email: false });

    // One unknown workflow refuses the whole request, before anything is written.
    await expect(
      novu.subscribers.preferences.bulkUpdate(
        {
          preferences: [
            { workflowId: first, channels: { inApp: true } },
            { workflowId: 'no-such-workflow', channels: { inApp: true } },
          ],
        },
        subscriberId,
      ),
    ).rejects.toMatchObject({ statusCode: 404 });
    const after = await novu.subscribers.preferences.list({ subscriberId });
    expect(after.result.workflows.find((w) => w.workflow.identifier === first)?.channels.inApp).toBe(false);
    await expect(
      novu.subscribers.preferences.bulkUpdate({ preferences: [{ workflowId: first, channels: {} }] }, 'no-such-subscriber'),
    ).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('messages of a transaction', () => {
  it("deletes a transaction's messages, of one channel or all, from the subscriber's feed", async () => {
    const { dev, prod } = await createTestOrg(api.url);
    const workflowId = await createWorkflow(dev.client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hi' } },
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hi</p>' } },
    ]);
    const subscriberId = `sub-${rand()}`;
    const to = { subscriberId, email: `${subscriberId}@example.com` };
    const doomed = await trigger(dev.client, workflowId, to);
    const kept = await trigger(dev.client, workflowId, to);
    await settledOne(dev.client, doomed);
    await settledOne(dev.client, kept);
    const messages = async () => (await dev.client.get(`/v1/messages?subscriberId=${subscriberId}&limit=100`)).body.data as any[];
    const feed = async () => (await dev.client.get(`/v1/subscribers/${subscriberId}/notifications/feed?limit=100`)).body.data as any[];
    await vi.waitFor(async () => expect(await messages()).toHaveLength(4), WAIT);

    const novu = sdk(dev);
    // Another environment finds no such messages.
    await expect(sdk(prod).messages.deleteByTransactionId(doomed)).rejects.toMatchObject({ statusCode: 404 });
    await novu.messages.deleteByTransactionId(doomed, 'email');
    expect((await messages()).map((m) => [m.transactionId, m.channel]).sort()).toEqual(
      [
        [doomed, 'in_app'],
        [kept, 'email'],
        [kept, 'in_app'],
      ].sort(),
    );
    await novu.messages.deleteByTransactionId(doomed);
    expect((await feed()).map((m) => m.transactionId)).toEqual([kept]);
    expect((await messages()).every((m) => m.transactionId === kept)).toBe(true);
    await expect(novu.messages.deleteByTransactionId(doomed)).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('delivery events through the SDK (activity.track)', () => {
  let org: TestOrg;
  let integrationId: string;
  beforeAll(async () => {
    fake.reply = (request) =>
      request.path === '/email' ? { status: 200, body: { MessageID: crypto.randomUUID(), ErrorCode: 0, Message: 'OK' } } : { status: 404 };
    org = await createTestOrg(api.url);
    const created = await org.dev.client.post('/v1/integrations', {
      providerId: 'postmark',
      channel: 'email',
      active: true,
      identifier: `postmark-${rand()}`,
      credentials: { apiKey: 'pm-token', from: 'team@acme.test', senderName: 'Acme', baseUrl: fake.url },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    integrationId = created.body.data._id;
    expect((await org.dev.client.post(`/v1/integrations/${integrationId}/set-primary`, {})).status).toBeLessThan(300);
  });

  it("records a provider's delivery event on the message, as the receipt URL does", async () => {
    const { client } = org.dev;
    const workflowId = await createWorkflow(client, [
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hi</p>' } },
    ]);
    const subscriberId = `sub-${rand()}`;
    const txid = await trigger(client, workflowId, { subscriberId, email: `${subscriberId}@example.test` });
    expect((await settledOne(client, txid)).jobs[0].status).toBe('completed');
    const [message] = (await client.get(`/v1/messages?subscriberId=${subscriberId}&channel=email`)).body.data;
    const event = JSON.parse(
      readFileSync(new URL('../fixtures/receipts/postmark-delivery.json', import.meta.url), 'utf8').replace(
        '00000000-0000-0000-0000-000000000000',
        message.identifier,
      ),
    );

    // No API key: Postmark sends none (the SDK turns any Authorization header into an API key, so
    // a Basic-auth credential cannot go through it; without a signing key set none is asked for).
    const vendor = new Novu({ serverURL: api.url });
    const track = (environmentId = org.dev.id, id = integrationId) =>
      vendor.activity.track({ environmentId, integrationId: id, requestBody: event }, { retries: { strategy: 'none' } });
    await expect(track(org.prod.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(track(org.dev.id, '0'.repeat(24))).rejects.toMatchObject({ statusCode: 404 });
    await expect(track('not-an-id')).rejects.toMatchObject({ statusCode: 404 });

    const recorded = await track();
    expect(recorded).toEqual([
      {
        id: message._id,
        event: expect.objectContaining({ status: 'delivered', date: '2019-11-05T16:33:54.907Z', externalId: message.identifier }),
      },
    ]);
    // Vendors redeliver: the same event again records nothing.
    expect(await track()).toEqual([]);
    const now = (await client.get(`/v1/messages?subscriberId=${subscriberId}&channel=email`)).body.data[0];
    expect(now).toMatchObject({ _id: message._id, deliveryStatus: 'delivered' });
    const item = await settledOne(client, txid);
    expect(item.jobs[0].executionDetails.filter((d: any) => d.source === 'Webhook').map((d: any) => d.detail)).toEqual([
      'Test delivery webhook details - (delivered)',
    ]);
  });
});
