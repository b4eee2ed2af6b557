import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { removeSubscriberFromAllTopics, subscribersOfTopicPages } from '#lib/topics/subscriptions.ts';
import { createTestOrg, startTestApi, type TestEnv, type ApiResponse } from '../support/api.ts';
import { seedSubscribers, seedTopicSubscriptions } from '../support/seed-subscribers.ts';

// Topics, topic subscriptions and a subscriber's subscriptions list, end to end through the route
// table and the real handlers against the emulators. Every test provisions its own organization.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

// ---- helpers ---------------------------------------------------------------------------------

const newTestEnv = async (): Promise<TestEnv> => (await createTestOrg(api.url)).dev;

async function createSubscriber(env: TestEnv, subscriberId: string, extra: Record<string, unknown> = {}) {
  const res = await env.client.post('/v2/subscribers', { subscriberId, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const qs = (query: Record<string, string | number | boolean> = {}) => {
  const s = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return s ? `?${s}` : '';
};

async function subscribe(env: TestEnv, topicKey: string, subscriberIds: string[]) {
  const res = await env.client.post(`/v2/topics/${encodeURIComponent(topicKey)}/subscriptions`, { subscriberIds });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const unsubscribe = (env: TestEnv, topicKey: string, subscriberIds: unknown) =>
  env.client.request('DELETE', `/v2/topics/${encodeURIComponent(topicKey)}/subscriptions`, { body: { subscriberIds } });

const subscriptionsOf = (env: TestEnv, subscriberId: string, query: Record<string, string | number | boolean> = {}) =>
  env.client.get(`/v2/subscribers/${encodeURIComponent(subscriberId)}/subscriptions${qs(query)}`);

async function page(env: TestEnv, subscriberId: string, query: Record<string, string | number | boolean> = {}) {
  const res = await subscriptionsOf(env, subscriberId, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: any[]; next: string | null; previous: string | null; totalCount: number; totalCountCapped: boolean };
}

const totalCountOf = async (env: TestEnv, subscriberId: string) => (await page(env, subscriberId)).totalCount;

function expectError(res: ApiResponse, status: number, error: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, error, path: expect.any(String), message: expect.any(String) });
}

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const ID = expect.stringMatching(/^[0-9a-f]{24}$/);
const ids = (p: { data: any[] }) => p.data.map((s) => s._id);

// ---- POST/GET/DELETE /v2/topics -------------------------------------------------------------

describe('topics', () => {
  it('creates a topic, renames it on a repeat with a name, and keeps it on a repeat without', async () => {
    const env = await newTestEnv();
    const created = await env.client.post('/v2/topics', { key: 'product-news', name: 'Product News' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ _id: ID, key: 'product-news', name: 'Product News', createdAt: ISO, updatedAt: ISO });

    const renamed = await env.client.post('/v2/topics', { key: 'product-news', name: 'Releases' });
    expect(renamed.body).toMatchObject({ _id: created.body._id, name: 'Releases', createdAt: created.body.createdAt });
    const kept = await env.client.post('/v2/topics', { key: 'product-news' });
    expect(kept.body).toMatchObject({ _id: created.body._id, name: 'Releases' });

    const got = await env.client.get('/v2/topics/product-news');
    expect(got.status).toBe(200);
    expect(got.body).toEqual(renamed.body);
  });

  it('refuses keys a topic cannot have (422) and answers 404 for an unknown key', async () => {
    const env = await newTestEnv();
    const bad = await env.client.post('/v2/topics', { key: 'has space', name: 'x' });
    expectError(bad, 422, 'Unprocessable Entity');
    expect(bad.body.errors.key.value).toBe('has space');
    expectError(await env.client.post('/v2/topics', { name: 'no key' }), 422, 'Unprocessable Entity');
    const email = await env.client.post('/v2/topics', { key: 'team@example.com' });
    expect(email.status).toBe(201);

    const missing = await env.client.get('/v2/topics/nope');
    expectError(missing, 404, 'Not Found');
    expect(missing.body.message).toBe('Topic with key nope not found');
  });

  it('lists the environment topics in creation order, filtered by key and by name, in cursor pages', async () => {
    const env = await newTestEnv();
    for (const [key, name] of [
      ['news', 'Product News'],
      ['alerts', 'Security Alerts'],
      ['digest', undefined],
    ] as const) {
      expect((await env.client.post('/v2/topics', { key, name })).status).toBe(201);
    }
    const keysOf = (res: ApiResponse) => res.body.data.map((t: any) => t.key);

    const all = await env.client.get('/v2/topics');
    expect(all.status).toBe(200);
    expect(keysOf(all)).toEqual(['digest', 'alerts', 'news']);
    expect(all.body).toMatchObject({ next: null, previous: null, totalCount: 3, totalCountCapped: false });
    expect(keysOf(await env.client.get('/v2/topics?orderDirection=ASC'))).toEqual(['news', 'alerts', 'digest']);
    expect(keysOf(await env.client.get('/v2/topics?name=NEWS'))).toEqual(['news']);
    const withE = await env.client.get('/v2/topics?name=e');
    expect(keysOf(withE)).toEqual(['alerts', 'news']);
    expect(withE.body.totalCount).toBe(2);
    expect(keysOf(await env.client.get('/v2/topics?key=alerts'))).toEqual(['alerts']);
    expect((await env.client.get('/v2/topics?key=alerts')).body.totalCount).toBe(1);
    expect(keysOf(await env.client.get('/v2/topics?key=alert'))).toEqual([]);
    expect((await env.client.get('/v2/topics?key=alert')).body.totalCount).toBe(0);
    expect(keysOf(await env.client.get('/v2/topics?key=alerts&name=zzz'))).toEqual([]);

    const first = await env.client.get('/v2/topics?limit=2');
    expect(keysOf(first)).toEqual(['digest', 'alerts']);
    // The total is the list's, not the page's.
    expect(first.body).toMatchObject({ totalCount: 3, totalCountCapped: false });
    expect(first.body.previous).toBeNull();
    const second = await env.client.get(`/v2/topics${qs({ limit: 2, after: first.body.next })}`);
    expect(keysOf(second)).toEqual(['news']);
    expect(second.body.next).toBeNull();
    const back = await env.client.get(`/v2/topics${qs({ limit: 2, before: second.body.previous })}`);
    expect(keysOf(back)).toEqual(['digest', 'alerts']);
    expect(back.body.previous).toBeNull();

    expectError(await env.client.get(`/v2/topics${qs({ after: first.body.next, before: first.body.next })}`), 400, 'Bad Request');
    expectError(await env.client.get('/v2/topics?after=not*a*cursor'), 422, 'Unprocessable Entity');
    expectError(await env.client.get('/v2/topics?limit=0'), 422, 'Unprocessable Entity');
    expectError(await env.client.get('/v2/topics?limit=101'), 422, 'Unprocessable Entity');
  });

  it('deletes a topic with all its subscriptions and uncounts them from each subscriber', async () => {
    const env = await newTestEnv();
    await createSubscriber(env, 'ann');
    await createSubscriber(env, 'bob');
    await subscribe(env, 'going', ['ann', 'bob']);
    await subscribe(env, 'staying', ['ann']);
    expect(await totalCountOf(env, 'ann')).toBe(2);

    const res = await env.client.delete('/v2/topics/going');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ acknowledged: true });

    expectError(await env.client.get('/v2/topics/going'), 404, 'Not Found');
    expect((await page(env, 'ann')).data.map((s) => s.topic.key)).toEqual(['staying']);
    expect(await totalCountOf(env, 'ann')).toBe(1);
    expect(await page(env, 'bob')).toMatchObject({ data: [], totalCount: 0 });
    expectError(await env.client.delete('/v2/topics/going'), 404, 'Not Found');
  });
});

// ---- POST/DELETE/GET /v2/topics/{topicKey}/subscriptions ------------------------------------

describe('topic subscriptions', () => {
  it('subscribes, creating a missing topic, and reports subscribers that were not found', async () => {
    const env = await newTestEnv();
    const ann = await createSubscriber(env, 'ann', { firstName: 'Ann', email: 'ann@example.com' });

    const body = await subscribe(env, 'fresh', ['ann', 'ghost']);
    const topic = (await env.client.get('/v2/topics/fresh')).body;
    expect(topic).toMatchObject({ _id: ID, key: 'fresh' });
    expect(body).toEqual({
      data: [
        {
          _id: ID,
          identifier: 'tk_fresh:si_ann',
          topic: { _id: topic._id, key: 'fresh' },
          subscriber: {
            _id: ann._id,
            subscriberId: 'ann',
            firstName: 'Ann',
            lastName: null,
            email: 'ann@example.com',
            avatar: null,
            createdAt: ann.createdAt,
            updatedAt: ann.updatedAt,
          },
          createdAt: ISO,
          updatedAt: ISO,
        },
      ],
      meta: { totalCount: 2, successful: 1, failed: 1 },
      errors: [{ subscriberId: 'ghost', code: 'SUBSCRIBER_NOT_FOUND', message: "Subscriber with ID 'ghost' could not be found." }],
    });
  });

  it('is idempotent for subscribers already subscribed: same subscription, counted once', async () => {
    const env = await newTestEnv();
    await createSubscriber(env, 'ann');
    const first = await subscribe(env, 'news', ['ann']);
    const again = await subscribe(env, 'news', ['ann', 'ann']);
    expect(again.data.map((s: any) => s._id)).toEqual([first.data[0]._id]);
    expect(again.meta).toEqual({ totalCount: 1, successful: 1, failed: 0 });
    expect(await totalCountOf(env, 'ann')).toBe(1);
  });

  it('answers 400 when no subscriber could be subscribed, 422 for bad lists and topic keys', async () => {
    const env = await newTestEnv();
    const none = await env.client.post('/v2/topics/news/subscriptions', { subscriberIds: ['ghost'] });
    expectError(none, 400, 'Bad Request');
    expect(none.body.errors['subscriberIds.0']).toEqual({ messages: ["Subscriber with ID 'ghost' could not be found."], value: 'ghost' });

    const tooMany = Array.from({ length: 101 }, (_, i) => `s${i}`);
    const big = await env.client.post('/v2/topics/news/subscriptions', { subscriberIds: tooMany });
    expectError(big, 422, 'Unprocessable Entity');
    expect(big.body.errors.subscriberIds.messages).toEqual(['Cannot change more than 100 subscriptions at once']);
    expectError(await env.client.post('/v2/topics/news/subscriptions', { subscriberIds: [] }), 422, 'Unprocessable Entity');
    expectError(await env.client.post('/v2/topics/news/subscriptions', {}), 422, 'Unprocessable Entity');
    const badKey = await env.client.post('/v2/topics/bad%20key/subscriptions', { subscriberIds: ['x'] });
    expectError(badKey, 422, 'Unprocessable Entity');
    expect(badKey.body.errors.topicKey).toBeDefined();
  });

  it('unsubscribes, reporting subscribers that were not subscribed or not found', async () => {
    const env = await newTestEnv();
    await createSubscriber(env, 'ann');
    await createSubscriber(env, 'bob');
    const subscribed = await subscribe(env, 'news', ['ann']);
    expect(await totalCountOf(env, 'ann')).toBe(1);

    const res = await unsubscribe(env, 'news', ['ann', 'bob', 'ghost']);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((s: any) => [s._id, s.subscriber.subscriberId])).toEqual([[subscribed.data[0]._id, 'ann']]);
    expect(res.body.meta).toEqual({ totalCount: 3, successful: 1, failed: 2 });
    expect(res.body.errors.map((e: any) => [e.subscriberId, e.code])).toEqual([
      ['bob', 'SUBSCRIPTION_NOT_FOUND'],
      ['ghost', 'SUBSCRIBER_NOT_FOUND'],
    ]);
    expect(await page(env, 'ann')).toMatchObject({ data: [], totalCount: 0 });

    expectError(await unsubscribe(env, 'news', ['ann']), 400, 'Bad Request');
    expectError(await unsubscribe(env, 'unknown-topic', ['ann']), 404, 'Not Found');
    expectError(await unsubscribe(env, 'news', []), 422, 'Unprocessable Entity');
  });

  it("lists a topic's subscriptions in subscriberId order, in cursor pages, filtered by subscriberId", async () => {
    const env = await newTestEnv();
    for (const id of ['carl', 'ann', 'bob']) await createSubscriber(env, id);
    await subscribe(env, 'news', ['carl', 'ann', 'bob']);
    const list = (query: Record<string, string | number> = {}) => env.client.get(`/v2/topics/news/subscriptions${qs(query)}`);
    const subscriberIds = (res: ApiResponse) => res.body.data.map((s: any) => s.subscriber.subscriberId);

    const asc = await list({ orderDirection: 'ASC' });
    expect(asc.status).toBe(200);
    expect(subscriberIds(asc)).toEqual(['ann', 'bob', 'carl']);
    expect(asc.body.data[0]).toEqual({
      _id: ID,
      identifier: 'tk_news:si_ann',
      createdAt: ISO,
      topic: { _id: ID, key: 'news', createdAt: ISO, updatedAt: ISO },
      subscriber: { _id: ID, subscriberId: 'ann', firstName: null, lastName: null, email: null, avatar: null },
    });
    expect(asc.body).toMatchObject({ totalCount: 3, totalCountCapped: false });
    expect(subscriberIds(await list())).toEqual(['carl', 'bob', 'ann']);
    const bob = await list({ subscriberId: 'bob' });
    expect(subscriberIds(bob)).toEqual(['bob']);
    expect(bob.body).toMatchObject({ totalCount: 1, totalCountCapped: false });
    expect((await list({ subscriberId: 'nobody' })).body).toMatchObject({ data: [], totalCount: 0 });

    const first = await list({ orderDirection: 'ASC', limit: 2 });
    expect(subscriberIds(first)).toEqual(['ann', 'bob']);
    const rest = await list({ orderDirection: 'ASC', limit: 2, after: first.body.next });
    expect(subscriberIds(rest)).toEqual(['carl']);
    expect(rest.body.next).toBeNull();

    expectError(await env.client.get('/v2/topics/unknown/subscriptions'), 404, 'Not Found');
  });
});

// ---- GET /v2/subscribers/{subscriberId}/subscriptions ----------------------------------------

describe('subscriber subscriptions', () => {
  /** A subscriber subscribed to `count` topics, one after the other; their subscription ids ascending. */
  async function subscribedTo(env: TestEnv, subscriberId: string, count: number) {
    await createSubscriber(env, subscriberId, { firstName: 'Alice', email: 'alice@example.com' });
    const subscriptionIds: string[] = [];
    for (let i = 1; i <= count; i++) {
      const key = `topic-${String(i).padStart(2, '0')}`;
      expect((await env.client.post('/v2/topics', { key, name: `Topic ${i}` })).status).toBe(201);
      subscriptionIds.push((await subscribe(env, key, [subscriberId])).data[0]._id);
    }
    return [...subscriptionIds].sort();
  }

  it('answers 404 for an unknown subscriber', async () => {
    const env = await newTestEnv();
    const res = await subscriptionsOf(env, 'nobody');
    expectError(res, 404, 'Not Found');
    expect(res.body.message).toBe('Subscriber not found');
  });

  it('validates limit, orderDirection, orderBy, includeCursor and the cursors', async () => {
    const env = await newTestEnv();
    await createSubscriber(env, 'alice');
    for (const [query, field] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ orderDirection: 'UP' }, 'orderDirection'],
      [{ orderBy: 'name' }, 'orderBy'],
      [{ includeCursor: 'maybe' }, 'includeCursor'],
      [{ after: 'not-an-id' }, 'after'],
    ] as const) {
      const res = await subscriptionsOf(env, 'alice', query);
      expectError(res, 422, 'Unprocessable Entity');
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    const both = await subscriptionsOf(env, 'alice', { after: '0'.repeat(24), before: '0'.repeat(24) });
    expectError(both, 400, 'Bad Request');
    expect(both.body.message).toBe('Cannot specify both "before" and "after" cursors at the same time.');
    for (const orderBy of ['createdAt', '_id']) expect((await subscriptionsOf(env, 'alice', { orderBy })).status).toBe(200);
  });

  it('returns TopicSubscription items, newest first, 10 by default, with the total count', async () => {
    const env = await newTestEnv();
    const alice = await createSubscriber(env, 'alice', { firstName: 'Alice', lastName: 'Liddell', email: 'alice@example.com' });
    const topic = (await env.client.post('/v2/topics', { key: 'news', name: 'News' })).body;
    const subscribed = await subscribe(env, 'news', ['alice']);

    const body = await page(env, 'alice');
    expect(body).toEqual({
      data: [
        {
          _id: subscribed.data[0]._id,
          identifier: 'tk_news:si_alice',
          createdAt: subscribed.data[0].createdAt,
          topic,
          subscriber: {
            _id: alice._id,
            subscriberId: 'alice',
            avatar: null,
            firstName: 'Alice',
            lastName: 'Liddell',
            email: 'alice@example.com',
          },
        },
      ],
      next: null,
      previous: null,
      totalCount: 1,
      totalCountCapped: false,
    });
  });

  it('pages forward and backward across 27 subscriptions in both orders without gaps or repeats', async () => {
    const env = await newTestEnv();
    const ascending = await subscribedTo(env, 'alice', 27);

    for (const orderDirection of ['DESC', 'ASC'] as const) {
      const expected = orderDirection === 'DESC' ? [...ascending].reverse() : ascending;
      const pages: Awaited<ReturnType<typeof page>>[] = [await page(env, 'alice', { orderDirection, limit: 10 })];
      while (pages.at(-1)!.next) pages.push(await page(env, 'alice', { orderDirection, limit: 10, after: pages.at(-1)!.next! }));
      expect(pages.map((p) => p.data.length)).toEqual([10, 10, 7]);
      expect(pages.flatMap(ids)).toEqual(expected);
      expect(pages.map((p) => [p.previous, p.next])).toEqual([
        [null, expected[9]],
        [expected[10], expected[19]],
        [expected[20], null],
      ]);
      for (const p of pages) expect(p).toMatchObject({ totalCount: 27, totalCountCapped: false });

      // Back from the last page to the first, following `previous`.
      const back = [pages[2]!];
      while (back.at(-1)!.previous) back.push(await page(env, 'alice', { orderDirection, limit: 10, before: back.at(-1)!.previous! }));
      expect(back.map(ids)).toEqual(pages.map(ids).reverse());
      expect(back.at(-1)!).toMatchObject({ previous: null, next: expected[9] });
    }

    // Past the end, and a default page size of 10.
    expect(await page(env, 'alice', { after: ascending[0]! })).toMatchObject({ data: [], next: null, previous: null, totalCount: 27 });
    expect((await page(env, 'alice')).data).toHaveLength(10);
  });

  it('includes the cursor item with includeCursor, on either side', async () => {
    const env = await newTestEnv();
    const ascending = await subscribedTo(env, 'alice', 8);
    const asc = { orderDirection: 'ASC', limit: 3, includeCursor: true } as const;

    const after = await page(env, 'alice', { ...asc, after: ascending[2]! });
    expect(ids(after)).toEqual(ascending.slice(2, 5));
    expect([after.previous, after.next]).toEqual([ascending[2], ascending[4]]);
    const before = await page(env, 'alice', { ...asc, before: ascending[5]! });
    expect(ids(before)).toEqual(ascending.slice(3, 6));
    expect([before.previous, before.next]).toEqual([ascending[3], ascending[5]]);

    // With the cursor at an end of the list there is nothing beyond it.
    const fromFirst = await page(env, 'alice', { ...asc, after: ascending[0]! });
    expect(ids(fromFirst)).toEqual(ascending.slice(0, 3));
    expect(fromFirst.previous).toBeNull();
    const toLast = await page(env, 'alice', { ...asc, before: ascending[7]! });
    expect(ids(toLast)).toEqual(ascending.slice(5, 8));
    expect(toLast.next).toBeNull();
  });

  it('filters by topic key with a direct read, counting only the match', async () => {
    const env = await newTestEnv();
    await subscribedTo(env, 'alice', 3);
    const one = await page(env, 'alice', { key: 'topic-02' });
    expect(one.data.map((s) => s.topic.key)).toEqual(['topic-02']);
    expect(one).toMatchObject({ next: null, previous: null, totalCount: 1, totalCountCapped: false });
    expect(await page(env, 'alice', { key: 'topic-99' })).toEqual({
      data: [],
      next: null,
      previous: null,
      totalCount: 0,
      totalCountCapped: false,
    });
  });

  it('answers an unknown cursor with an empty page and a zero count', async () => {
    const env = await newTestEnv();
    await subscribedTo(env, 'alice', 2);
    const other = await newTestEnv();
    const foreign = await subscribedTo(other, 'alice', 1);
    for (const cursor of ['0'.repeat(24), foreign[0]!]) {
      for (const side of ['after', 'before']) {
        expect(await page(env, 'alice', { [side]: cursor })).toEqual({
          data: [],
          next: null,
          previous: null,
          totalCount: 0,
          totalCountCapped: false,
        });
      }
    }
  });

  it('keeps totalCount in step with subscribe, unsubscribe and topic delete', async () => {
    const env = await newTestEnv();
    await createSubscriber(env, 'alice');
    await subscribe(env, 'a', ['alice']);
    await subscribe(env, 'b', ['alice']);
    await subscribe(env, 'c', ['alice']);
    await subscribe(env, 'c', ['alice']);
    expect(await totalCountOf(env, 'alice')).toBe(3);
    expect((await unsubscribe(env, 'a', ['alice'])).status).toBe(200);
    expect(await totalCountOf(env, 'alice')).toBe(2);
    expect((await env.client.delete('/v2/topics/b')).status).toBe(200);
    expect(await totalCountOf(env, 'alice')).toBe(1);
  });

  it("shows another organization's key nothing", async () => {
    const env = await newTestEnv();
    await subscribedTo(env, 'alice', 2);
    const other = await newTestEnv();
    expectError(await subscriptionsOf(other, 'alice'), 404, 'Not Found');
    expectError(await other.client.get('/v2/topics/topic-01'), 404, 'Not Found');
    expectError(await other.client.get('/v2/topics/topic-01/subscriptions'), 404, 'Not Found');
    expect((await other.client.get('/v2/topics')).body.data).toEqual([]);
    expectError(await other.client.post('/v2/topics/topic-01/subscriptions', { subscriberIds: ['alice'] }), 400, 'Bad Request');
    expectError(await other.client.delete('/v2/topics/topic-02'), 404, 'Not Found');
    expect(await totalCountOf(env, 'alice')).toBe(2);
  });

  it('loses every subscription when the subscriber is removed from all topics', async () => {
    const env = await newTestEnv();
    await subscribedTo(env, 'alice', 3);
    await createSubscriber(env, 'bob');
    await subscribe(env, 'topic-01', ['bob']);

    await removeSubscriberFromAllTopics(env.scope, 'alice');

    expect(await page(env, 'alice')).toEqual({ data: [], next: null, previous: null, totalCount: 0, totalCountCapped: false });
    const members = await env.client.get('/v2/topics/topic-01/subscriptions');
    expect(members.body.data.map((s: any) => s.subscriber.subscriberId)).toEqual(['bob']);
  });
});

// ---- scale: a topic read page by page ---------------------------------------------------------

describe('large topics', () => {
  it('pages through every subscriber of a topic exactly once, in bounded pages, and deletes them all', async () => {
    const env = await newTestEnv();
    const topic = (await env.client.post('/v2/topics', { key: 'everyone' })).body;
    const subscriberIds = Array.from({ length: 300 }, (_, i) => `user-${String(i).padStart(3, '0')}`);
    const subscribers = await seedSubscribers(env.scope, subscriberIds);
    await seedTopicSubscriptions(env.scope, topic, subscribers);

    const pageSizes: number[] = [];
    const seen: string[] = [];
    for await (const batch of subscribersOfTopicPages(env.scope, 'everyone', 64)) {
      pageSizes.push(batch.length);
      seen.push(...batch.map((s) => s.subscriberId));
    }
    expect(Math.max(...pageSizes)).toBeLessThanOrEqual(64);
    expect(pageSizes.length).toBeGreaterThanOrEqual(5);
    expect(seen).toHaveLength(300);
    expect(new Set(seen)).toEqual(new Set(subscriberIds));

    // The same through the API, 100 at a time.
    const listed: string[] = [];
    let after: string | null | undefined;
    do {
      const res = await env.client.get(
        `/v2/topics/everyone/subscriptions${qs({ limit: 100, orderDirection: 'ASC', ...(after && { after }) })}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(100);
      listed.push(...res.body.data.map((s: any) => s.subscriber.subscriberId));
      after = res.body.next;
    } while (after);
    expect(listed).toEqual(subscriberIds);

    expect((await env.client.delete('/v2/topics/everyone')).status).toBe(200);
    const left: unknown[] = [];
    for await (const batch of subscribersOfTopicPages(env.scope, 'everyone', 64)) left.push(...batch);
    expect(left).toEqual([]);
    expect(await totalCountOf(env, 'user-000')).toBe(0);
    expect(await totalCountOf(env, 'user-299')).toBe(0);
  });
});
