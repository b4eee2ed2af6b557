import { Novu } from '@novu/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { apiClient, createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { expectError, ID, ISO, sdkError } from '../support/legacy-sdk.ts';
import { createWorkflow, messagesOf, rand, trigger, WAIT } from '../support/pipeline.ts';
import { seedSubscribers, seedTopicSubscriptions } from '../support/seed-subscribers.ts';

// The older topics API (/v1/topics) as an app written against `@novu/node` 2.x calls it: the
// SDK's every topics call against the real handlers, plus status codes and error bodies over
// HTTP. The topics are the ones /v2/topics serves: both views are checked against each other.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

interface Setup {
  env: TestEnv;
  novu: Novu;
}

async function setup(): Promise<Setup> {
  const env = (await createTestOrg(api.url)).dev;
  return { env, novu: new Novu(env.apiKey, { backendUrl: api.url }) };
}

async function createSubscribers(env: TestEnv, ...subscriberIds: string[]) {
  for (const subscriberId of subscriberIds) {
    const res = await env.client.post('/v2/subscribers', { subscriberId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
}

describe('topics through @novu/node 2.6.6', () => {
  it('creates, gets, renames, lists and deletes a topic, in the reference’s v1 shapes', async () => {
    const { env, novu } = await setup();

    const created = await novu.topics.create({ key: 'news', name: 'News' });
    expect(created.status).toBe(201);
    expect(created.data).toEqual({ data: { _id: ID, key: 'news' } });
    const topicId = created.data.data._id as string;

    const got = await novu.topics.get('news');
    expect(got.status).toBe(200);
    expect(got.data).toEqual({
      data: { _id: topicId, _organizationId: env.scope.organizationId, _environmentId: env.id, key: 'news', name: 'News', subscribers: [] },
    });

    const renamed = await novu.topics.rename('news', 'Breaking news');
    expect(renamed.status).toBe(200);
    expect(renamed.data.data).toMatchObject({ _id: topicId, key: 'news', name: 'Breaking news', subscribers: [] });
    // The same topic through the newer API.
    expect((await env.client.get('/v2/topics/news')).body).toMatchObject({ _id: topicId, name: 'Breaking news' });

    // A page carries its own `data`, so it is not wrapped again.
    const listed = await novu.topics.list({});
    expect(listed.status).toBe(200);
    expect(listed.data).toEqual({ data: [renamed.data.data], page: 0, pageSize: 10, totalCount: 1 });
    expect((await novu.topics.list({ key: 'news' })).data).toMatchObject({ data: [{ key: 'news' }], totalCount: 1 });
    expect((await novu.topics.list({ key: 'other' })).data).toEqual({ data: [], page: 0, pageSize: 10, totalCount: 0 });

    const deleted = await novu.topics.delete('news');
    expect(deleted.status).toBe(204);
    expect(deleted.data).toBe('');
    expectError(await sdkError(novu.topics.get('news')), 404, 'Not Found');
    expect((await env.client.get('/v2/topics/news')).status).toBe(404);
  });

  it('adds subscribers (naming the ones not found), checks one, removes them, and refuses to delete a topic that has some', async () => {
    const { env, novu } = await setup();
    await createSubscribers(env, 'ann', 'bob', 'cy@example.com');
    await novu.topics.create({ key: 'team', name: 'Team' });

    const added = await novu.topics.addSubscribers('team', { subscribers: ['bob', 'ghost', 'ann', 'bob'] });
    expect(added.status).toBe(200);
    expect(added.data).toEqual({ data: { succeeded: ['bob', 'ann'], failed: { notFound: ['ghost'] } } });
    // Adding again keeps one subscription each; without unknown ones there is no `failed`.
    const again = await novu.topics.addSubscribers('team', { subscribers: ['ann', 'cy@example.com'] });
    expect(again.data).toEqual({ data: { succeeded: ['ann', 'cy@example.com'] } });
    expect((await env.client.get('/v2/subscribers/ann/subscriptions')).body.totalCount).toBe(1);

    const topic = (await novu.topics.get('team')).data.data;
    expect(topic.subscribers).toEqual(['ann', 'bob', 'cy@example.com']);

    for (const check of [novu.topics.checkSubscriber('team', 'bob'), novu.topics.getSubscriber('team', 'bob')]) {
      const res = await check;
      expect(res.status).toBe(200);
      expect(res.data).toEqual({
        data: {
          _id: ID,
          _organizationId: env.scope.organizationId,
          _environmentId: env.id,
          _subscriberId: ID,
          _topicId: topic._id,
          topicKey: 'team',
          externalSubscriberId: 'bob',
          createdAt: ISO,
          updatedAt: ISO,
        },
      });
    }
    expect((await novu.topics.checkSubscriber('team', 'bob')).data.data._subscriberId).toBe(
      (await env.client.get('/v2/subscribers/bob')).body._id,
    );
    expectError(await sdkError(novu.topics.checkSubscriber('team', 'ghost')), 404, 'Not Found');

    expectError(await sdkError(novu.topics.delete('team')), 409, 'Conflict');
    expect((await novu.topics.get('team')).data.data.subscribers).toHaveLength(3);

    const removed = await novu.topics.removeSubscribers('team', { subscribers: ['ann', 'ghost', 'bob'] });
    expect(removed.status).toBe(204);
    expect(removed.data).toBe('');
    expect((await novu.topics.get('team')).data.data.subscribers).toEqual(['cy@example.com']);
    expectError(await sdkError(novu.topics.checkSubscriber('team', 'ann')), 404, 'Not Found');
    expect((await env.client.get('/v2/subscribers/ann/subscriptions')).body.totalCount).toBe(0);

    await novu.topics.removeSubscribers('team', { subscribers: ['cy@example.com'] });
    expect((await novu.topics.delete('team')).status).toBe(204);
  });

  it('creates a missing topic when subscribers are added, as the reference does', async () => {
    const { env, novu } = await setup();
    await createSubscribers(env, 'ann');
    const added = await novu.topics.addSubscribers('fresh', { subscribers: ['ann'] });
    expect(added.data).toEqual({ data: { succeeded: ['ann'] } });
    expect((await novu.topics.get('fresh')).data.data).toMatchObject({ key: 'fresh', name: 'Autogenerated-fresh', subscribers: ['ann'] });

    // Made even when none of the subscribers exists.
    const none = await novu.topics.addSubscribers('empty', { subscribers: ['ghost'] });
    expect(none.data).toEqual({ data: { succeeded: [], failed: { notFound: ['ghost'] } } });
    expect((await env.client.get('/v2/topics/empty')).status).toBe(200);
  });

  it('pages topics by number in creation order, counting them all', async () => {
    const { env, novu } = await setup();
    const keys = Array.from({ length: 12 }, (_, i) => `t-${String(i).padStart(2, '0')}`);
    for (const key of keys) expect((await novu.topics.create({ key, name: key })).status).toBe(201);

    const page = async (p: number, pageSize?: number) => (await novu.topics.list({ page: p, ...(pageSize && { pageSize }) })).data;
    expect(await page(0, 5)).toMatchObject({ page: 0, pageSize: 5, totalCount: 12, data: keys.slice(0, 5).map((key) => ({ key })) });
    expect((await page(1, 5)).data.map((t: { key: string }) => t.key)).toEqual(keys.slice(5, 10));
    expect(await page(2, 5)).toMatchObject({ totalCount: 12, data: keys.slice(10).map((key) => ({ key })) });
    expect(await page(3, 5)).toEqual({ data: [], page: 3, pageSize: 5, totalCount: 12 });
    expect((await page(1)).data.map((t: { key: string }) => t.key)).toEqual(keys.slice(10));

    // The reference's page size is at most 10.
    expectError(await sdkError(novu.topics.list({ pageSize: 11 })), 422, 'Unprocessable Entity');
    const bad = await env.client.get('/v1/topics?page=-1&pageSize=0');
    expectError(bad, 422, 'Unprocessable Entity');
    expect(Object.keys(bad.body.errors).sort()).toEqual(['page', 'pageSize']);
  });

  it('names at most the first 1,000 subscribers of a topic', async () => {
    const { env, novu } = await setup();
    const topic = (await novu.topics.create({ key: 'big', name: 'Big' })).data.data;
    const subscriberIds = Array.from({ length: 1005 }, (_, i) => `s-${String(i).padStart(4, '0')}`);
    await seedTopicSubscriptions(env.scope, topic, await seedSubscribers(env.scope, subscriberIds));

    const shown = (await novu.topics.get('big')).data.data.subscribers;
    expect(shown).toEqual(subscriberIds.slice(0, 1000));
    expect((await novu.topics.checkSubscriber('big', 's-1004')).status).toBe(200);
  });

  it('delivers a trigger to the subscribers added through the older API', async () => {
    const { env, novu } = await setup();
    await createSubscribers(env, 'ann', 'bob');
    await novu.topics.addSubscribers('launch', { subscribers: ['ann', 'bob'] });
    const workflowId = await createWorkflow(env.client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Launched {{payload.v}}' } },
    ]);
    const v = rand();
    await trigger(env.client, workflowId, [{ type: 'Topic', topicKey: 'launch' }], { v });
    for (const subscriberId of ['ann', 'bob']) {
      await vi.waitFor(
        async () => expect((await messagesOf(env.client, subscriberId)).map((m) => m.content)).toEqual([`Launched ${v}`]),
        WAIT,
      );
    }
  });
});

describe('/v1/topics over HTTP: status codes and error bodies', () => {
  it('answers 409 for a taken key, 422 for bad input, 404 for unknown topics, and writes nothing when refusing', async () => {
    const { env } = await setup();
    expect((await env.client.post('/v1/topics', { key: 'news', name: 'News' })).status).toBe(201);
    const taken = await env.client.post('/v1/topics', { key: 'news', name: 'Other' });
    expectError(taken, 409, 'Conflict');
    expect((await env.client.get('/v1/topics/news')).body.data.name).toBe('News');

    const invalid = await env.client.post('/v1/topics', { key: 'bad key!', name: 7 });
    expectError(invalid, 422, 'Unprocessable Entity');
    expect(invalid.body).toMatchObject({ message: 'Validation Error', errors: { key: { value: 'bad key!' }, name: { value: 7 } } });
    expectError(await env.client.post('/v1/topics', { key: 'nameless' }), 422, 'Unprocessable Entity');
    expect((await env.client.get('/v2/topics/nameless')).status).toBe(404);

    expectError(await env.client.patch('/v1/topics/news', {}), 422, 'Unprocessable Entity');
    expectError(await env.client.post('/v1/topics/news/subscribers', { subscribers: 'ann' }), 422, 'Unprocessable Entity');
    const tooMany = await env.client.post('/v1/topics/news/subscribers', { subscribers: Array.from({ length: 1001 }, (_, i) => `s${i}`) });
    expectError(tooMany, 422, 'Unprocessable Entity');
    expect(tooMany.body.errors.subscribers.messages).toEqual(['Cannot change more than 1000 subscriptions at once']);
    expectError(await env.client.post('/v1/topics/news/subscribers/removal', {}), 422, 'Unprocessable Entity');
    // A new topic's key must be one a topic can have.
    expectError(
      await env.client.post(`/v1/topics/${encodeURIComponent('bad key')}/subscribers`, { subscribers: [] }),
      422,
      'Unprocessable Entity',
    );
    expect((await env.client.get('/v1/topics')).body.totalCount).toBe(1);

    const notFound = await env.client.get('/v1/topics/nope');
    expectError(notFound, 404, 'Not Found');
    expect(notFound.body.path).toBe('/v1/topics/nope');
    expectError(await env.client.patch('/v1/topics/nope', { name: 'X' }), 404, 'Not Found');
    expectError(await env.client.delete('/v1/topics/nope'), 404, 'Not Found');
    expectError(await env.client.get('/v1/topics/nope/subscribers/ann'), 404, 'Not Found');
    // Removal changes nothing that is not there, and answers as the reference does.
    expect((await env.client.post('/v1/topics/nope/subscribers/removal', { subscribers: ['ann'] })).status).toBe(204);
    expect((await env.client.get('/v2/topics/nope')).status).toBe(404);
  });

  it('documents the envelope in OpenAPI: records wrapped in `data`, pages as they are', async () => {
    const doc = (await apiClient(api.url).get('/openapi.json')).body;
    const schemaOf = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status].content['application/json'].schema;
    expect(schemaOf('/v1/topics/{topicKey}', 'get', '200')).toMatchObject({
      type: 'object',
      properties: { data: { $ref: '#/$defs/TopicV1' } },
      required: ['data'],
    });
    expect(schemaOf('/v1/topics', 'get', '200')).toMatchObject({ $ref: '#/$defs/TopicListV1' });
  });
});
