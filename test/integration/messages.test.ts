import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { tableName } from '#lib/config.ts';
import type { StoredMessage } from '#lib/messages/model.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import { createTestOrg, startTestApi, type ApiResponse, type TestEnv } from '../support/api.ts';
import { buildMessage, seedMessages, seedMessagesFor, type MessageRecipient } from '../support/message-builder.ts';
import { rand } from '../support/pipeline.ts';

// The in-app inbox end to end: messages list and delete, a subscriber's feed, unseen count,
// mark-as and mark-all, through the route table and the real handlers against the emulators.
// Messages are seeded as the pipeline stores them (messageItem), so no workflow runs here.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const newTestEnv = async (): Promise<TestEnv> => (await createTestOrg(api.url)).dev;

async function newSubscriber(env: TestEnv, subscriberId = `sub-${rand()}`): Promise<MessageRecipient> {
  const res = await env.client.post('/v2/subscribers', { subscriberId, firstName: 'Ann' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { subscriberId, _id: res.body._id };
}

function expectError(res: ApiResponse, status: number, error: string, message?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, error, path: expect.any(String), message: message ?? expect.any(String) });
}

function expectOk(res: ApiResponse, status = 200) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

const ids = (messages: { _id: string }[]) => messages.map((m) => m._id);
const newestFirst = (messages: StoredMessage[]) => ids(messages).reverse();
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const INTERNAL = ['pk', 'sk', 'gsi5pk', 'gsi5sk', 'gsi6pk', 'gsi6sk', 'type', 'version'];

const feedPath = (s: MessageRecipient, query = '') => `/v1/subscribers/${s.subscriberId}/notifications/feed${query}`;
const unseenPath = (s: MessageRecipient, query = '') => `/v1/subscribers/${s.subscriberId}/notifications/unseen${query}`;
const markAsPath = (s: MessageRecipient) => `/v1/subscribers/${s.subscriberId}/messages/mark-as`;
const markAllPath = (s: MessageRecipient) => `/v1/subscribers/${s.subscriberId}/messages/mark-all`;
const base64 = (value: unknown) => encodeURIComponent(Buffer.from(JSON.stringify(value)).toString('base64'));

async function storedItem(env: TestEnv, m: StoredMessage) {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.message(env.scope, m.subscriberId, m._id), ConsistentRead: true }),
  );
  return Item;
}

// Unseen count, mark-all and delete answer in the reference's `{data}` envelope (what @novu/node apps read).
const unseenCount = async (env: TestEnv, s: MessageRecipient, query = '') =>
  expectOk(await env.client.get(unseenPath(s, query))).data.count;

describe('GET /v1/messages', () => {
  it('lists the environment messages newest first, as stored, without internal attributes', async () => {
    const env = await newTestEnv();
    const [ann, bob] = [await newSubscriber(env), await newSubscriber(env)];
    const seeded = await seedMessages([
      buildMessage(env.scope, ann, { payload: { order: 1 }, cta: { type: 'redirect', data: { url: '/orders/1' } } }),
      buildMessage(env.scope, bob, { channel: 'email', email: 'bob@example.com', subject: 'Hi' }),
      buildMessage(env.scope, ann, { channel: 'sms', phone: '+15550001' }),
    ]);

    const body = expectOk(await env.client.get('/v1/messages'));
    expect(body).toMatchObject({ page: 0, totalCount: 3, hasMore: false, pageSize: 10 });
    expect(ids(body.data)).toEqual(newestFirst(seeded));
    expect(body.data[2]).toEqual(seeded[0]);
    for (const m of body.data) for (const attribute of INTERNAL) expect(m).not.toHaveProperty(attribute);
  });

  it('filters by subscriber, channel and transactionId (one or several)', async () => {
    const env = await newTestEnv();
    const [ann, bob] = [await newSubscriber(env), await newSubscriber(env)];
    const seeded = await seedMessages([
      buildMessage(env.scope, ann, { transactionId: 'txn-a' }),
      buildMessage(env.scope, ann, { transactionId: 'txn-b', channel: 'email' }),
      buildMessage(env.scope, bob, { transactionId: 'txn-a' }),
      buildMessage(env.scope, bob, { transactionId: 'txn-c', channel: 'push' }),
    ]);
    const [annA, annB, bobA, bobC] = seeded.map((m) => m._id);
    const list = async (query: string) => ids(expectOk(await env.client.get(`/v1/messages${query}`)).data);

    expect(await list(`?subscriberId=${ann.subscriberId}`)).toEqual([annB, annA]);
    expect(await list('?channel=in_app')).toEqual([bobA, annA]);
    expect(await list(`?channel=in_app&subscriberId=${bob.subscriberId}`)).toEqual([bobA]);
    expect(await list('?transactionId=txn-a')).toEqual([bobA, annA]);
    expect(await list('?transactionId=txn-a&transactionId=txn-c')).toEqual([bobC, bobA, annA]);
    expect(await list('?transactionId=txn-b,txn-c')).toEqual([bobC, annB]);
    expect(await list(`?transactionId=txn-a&subscriberId=${ann.subscriberId}&channel=in_app`)).toEqual([annA]);
    expect(await list('?transactionId=txn-none')).toEqual([]);
    expect(await list('?channel=chat')).toEqual([]);

    // An unknown subscriber has no messages: an empty page, not a 404.
    expect(expectOk(await env.client.get('/v1/messages?subscriberId=nobody'))).toEqual({
      page: 0,
      totalCount: 0,
      hasMore: false,
      pageSize: 10,
      data: [],
    });
  });

  it('pages by number with an exact totalCount and hasMore', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    const seeded = await seedMessagesFor(env.scope, ann, 25, (i) => ({ channel: i % 5 === 0 ? 'email' : 'in_app' }));
    const all = newestFirst(seeded);
    const page = async (query: string) => expectOk(await env.client.get(`/v1/messages${query}`));

    const pages = [await page('?limit=10'), await page('?limit=10&page=1'), await page('?limit=10&page=2')];
    expect(pages.map((p) => [p.page, p.pageSize, p.totalCount, p.hasMore, p.data.length])).toEqual([
      [0, 10, 25, true, 10],
      [1, 10, 25, true, 10],
      [2, 10, 25, false, 5],
    ]);
    expect(pages.flatMap((p) => ids(p.data))).toEqual(all);
    expect(await page('?limit=10&page=3')).toMatchObject({ page: 3, totalCount: 25, hasMore: false, data: [] });
    expect(await page('?limit=25')).toMatchObject({ totalCount: 25, hasMore: false });
    expect(ids((await page('?limit=1000')).data)).toEqual(all);

    // Filtered pages count only what matches.
    const inApp = all.filter((id) => seeded.find((m) => m._id === id)!.channel === 'in_app');
    const filtered = await page(`?channel=in_app&subscriberId=${ann.subscriberId}&limit=7&page=2`);
    expect(filtered).toMatchObject({ totalCount: 20, hasMore: false, pageSize: 7 });
    expect(ids(filtered.data)).toEqual(inApp.slice(14, 20));
    expect((await page('?channel=in_app&limit=7&page=1')).hasMore).toBe(true);
  });

  it('refuses bad query values with a 422 naming the parameter', async () => {
    const env = await newTestEnv();
    const cases: [string, string][] = [
      ['channel=fax', 'channel'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=ten', 'limit'],
      ['page=-1', 'page'],
      ['page=1.5', 'page'],
      ['transactionId=a,,b', 'transactionId.1'],
      [`transactionId=${Array.from({ length: 101 }, (_, i) => `t${i}`).join(',')}`, 'transactionId'],
      [`subscriberId=${'s'.repeat(300)}`, 'subscriberId'],
    ];
    for (const [query, field] of cases) {
      const res = await env.client.get(`/v1/messages?${query}`);
      expectError(res, 422, 'Unprocessable Entity', 'Validation Error');
      expect(Object.keys(res.body.errors), query).toEqual([field]);
    }
  });

  it('shows nothing of another environment or organization', async () => {
    const org = await createTestOrg(api.url);
    const other = await newTestEnv();
    const ann = await newSubscriber(org.dev, 'ann');
    await newSubscriber(org.prod, 'ann');
    await newSubscriber(other, 'ann');
    await seedMessagesFor(org.dev.scope, ann, 3);
    for (const env of [org.prod, other]) {
      expect(expectOk(await env.client.get('/v1/messages')).totalCount).toBe(0);
      expect(expectOk(await env.client.get('/v1/messages?subscriberId=ann')).data).toEqual([]);
      expect(expectOk(await env.client.get(feedPath(ann))).data).toEqual([]);
      expect(await unseenCount(env, ann)).toBe(0);
    }
  });
});

describe('DELETE /v1/messages/{messageId}', () => {
  it('deletes a message of the environment; it is gone from every view', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    const [first, second] = await seedMessagesFor(env.scope, ann, 2);
    expect(await unseenCount(env, ann)).toBe(2);

    expect(expectOk(await env.client.delete(`/v1/messages/${first!._id}`))).toEqual({ data: { acknowledged: true, status: 'deleted' } });
    expect(await storedItem(env, first!)).toBeUndefined();
    expect(ids(expectOk(await env.client.get('/v1/messages')).data)).toEqual([second!._id]);
    expect(ids(expectOk(await env.client.get(feedPath(ann))).data)).toEqual([second!._id]);
    expect(await unseenCount(env, ann)).toBe(1);

    expectError(await env.client.delete(`/v1/messages/${first!._id}`), 404, 'Not Found', `Message with id ${first!._id} not found`);
  });

  it('answers 404 for ids it does not have, whatever their shape, and for other environments', async () => {
    const org = await createTestOrg(api.url);
    const ann = await newSubscriber(org.dev);
    const [message] = await seedMessagesFor(org.dev.scope, ann, 1);
    for (const id of ['000000000000000000000000', 'not-an-id', 'x'.repeat(256), '%E2%9C%93']) {
      expectError(await org.dev.client.delete(`/v1/messages/${id}`), 404, 'Not Found');
    }
    expectError(
      await org.prod.client.delete(`/v1/messages/${message!._id}`),
      404,
      'Not Found',
      `Message with id ${message!._id} not found`,
    );
    expectError(await (await newTestEnv()).client.delete(`/v1/messages/${message!._id}`), 404, 'Not Found');
    expect(await storedItem(org.dev, message!)).toBeDefined();
    expectError(await org.dev.client.delete(`/v1/messages/${'x'.repeat(257)}`), 422, 'Unprocessable Entity');
  });
});

describe('GET /v1/subscribers/{subscriberId}/notifications/feed', () => {
  it('lists the in-app messages only, newest first, ten by default', async () => {
    const env = await newTestEnv();
    const [ann, bob] = [await newSubscriber(env), await newSubscriber(env)];
    const seeded = await seedMessagesFor(env.scope, ann, 14, (i) => ({ channel: i % 4 === 3 ? 'email' : 'in_app' }));
    await seedMessagesFor(env.scope, bob, 2);
    const inApp = newestFirst(seeded.filter((m) => m.channel === 'in_app'));

    const body = expectOk(await env.client.get(feedPath(ann)));
    expect(body).toMatchObject({ page: 0, pageSize: 10, totalCount: 11, hasMore: true });
    expect(ids(body.data)).toEqual(inApp.slice(0, 10));
    for (const m of body.data) for (const attribute of INTERNAL) expect(m).not.toHaveProperty(attribute);
    expect(body.data[0]).toEqual(seeded.find((m) => m._id === inApp[0]));
  });

  it('pages with totalCount and hasMore', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    const all = newestFirst(await seedMessagesFor(env.scope, ann, 12));
    const page = async (n: number, limit: number) => expectOk(await env.client.get(feedPath(ann, `?page=${n}&limit=${limit}`)));

    const pages = [await page(0, 5), await page(1, 5), await page(2, 5), await page(3, 5)];
    expect(pages.map((p) => [p.page, p.pageSize, p.totalCount, p.hasMore, p.data.length])).toEqual([
      [0, 5, 12, true, 5],
      [1, 5, 12, true, 5],
      [2, 5, 12, false, 2],
      [3, 5, 12, false, 0],
    ]);
    expect(pages.flatMap((p) => ids(p.data))).toEqual(all);
    expect(await page(0, 12)).toMatchObject({ hasMore: false, totalCount: 12 });
    expect(await page(0, 11)).toMatchObject({ hasMore: true, totalCount: 12 });
    expect(await page(0, 100)).toMatchObject({ hasMore: false, pageSize: 100 });
  });

  it('filters by read and seen, alone and together', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    const states = [
      { read: false, seen: false },
      { read: false, seen: true },
      { read: true, seen: true },
      { read: false, seen: false },
      { read: true, seen: true },
    ];
    const seeded = await seedMessages([
      ...states.map((s) => buildMessage(env.scope, ann, s)),
      buildMessage(env.scope, ann, { channel: 'email', read: false, seen: false }),
    ]);
    const expected = (match: (m: StoredMessage) => boolean) => newestFirst(seeded.filter((m) => m.channel === 'in_app' && match(m)));
    const feed = async (query: string) => {
      const body = expectOk(await env.client.get(feedPath(ann, query)));
      expect(body.totalCount).toBe(body.data.length);
      return ids(body.data);
    };

    expect(await feed('?seen=false')).toEqual(expected((m) => !m.seen));
    expect(await feed('?seen=true')).toEqual(expected((m) => m.seen));
    expect(await feed('?read=false')).toEqual(expected((m) => !m.read));
    expect(await feed('?read=true')).toEqual(expected((m) => m.read));
    expect(await feed('?read=false&seen=true')).toEqual(expected((m) => !m.read && m.seen));
    expect(await feed('?read=true&seen=false')).toEqual([]);
    const paged = expectOk(await env.client.get(feedPath(ann, '?seen=false&limit=1&page=1')));
    expect(paged).toMatchObject({ totalCount: 2, hasMore: false });
    expect(ids(paged.data)).toEqual(expected((m) => !m.seen).slice(1, 2));
  });

  it('filters by payload (base64 JSON): every key/value given, nested ones by path', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    const seeded = await seedMessages([
      buildMessage(env.scope, ann, { payload: { kind: 'order', order: { id: 7, paid: true }, tags: ['a', 'b'] } }),
      buildMessage(env.scope, ann, { payload: { kind: 'order', order: { id: 8, paid: false } } }),
      buildMessage(env.scope, ann, { payload: { kind: 'comment', note: null } }),
      buildMessage(env.scope, ann, { payload: {} }),
    ]);
    const [order7, order8, comment, empty] = seeded.map((m) => m._id);
    const feed = async (payload: unknown) => ids(expectOk(await env.client.get(feedPath(ann, `?payload=${base64(payload)}`))).data);

    expect(await feed({ kind: 'order' })).toEqual([order8, order7]);
    expect(await feed({ kind: 'order', order: { paid: true } })).toEqual([order7]);
    expect(await feed({ order: { id: 8 } })).toEqual([order8]);
    expect(await feed({ order: { id: '8' } })).toEqual([]);
    expect(await feed({ tags: ['a'] })).toEqual([order7]);
    expect(await feed({ kind: 'invoice' })).toEqual([]);
    // null matches a null or missing value, as the reference's query does.
    expect(await feed({ note: null })).toEqual([empty, comment, order8, order7]);
    expect(await feed({ kind: 'comment', note: null })).toEqual([comment]);
    expect(await feed({})).toEqual([empty, comment, order8, order7]);
    expect(ids(expectOk(await env.client.get(feedPath(ann, `?read=false&payload=${base64({ kind: 'comment' })}`))).data)).toEqual([
      comment,
    ]);

    for (const bad of [
      encodeURIComponent(Buffer.from('not json').toString('base64')),
      base64([1, 2]),
      base64('text'),
      base64({ '': 1 }),
      base64({ a: 1e300 }),
      base64(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i]))),
      base64(Array.from({ length: 11 }).reduce<unknown>((inner) => ({ a: inner }), 1)),
      '%%%',
    ]) {
      const res = await env.client.get(feedPath(ann, `?payload=${bad}`));
      expectError(res, 422, 'Unprocessable Entity', 'Validation Error');
      expect(Object.keys(res.body.errors)).toEqual(['payload']);
    }
  });

  it('takes odd but valid payload filters without a 5xx', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    const odd = { 'a.b': 1, '#k': ':v', 'sp ace': '', é: '✓', n: -0, tiny: 1e-129, big: 2 ** 53 - 1, t: true, list: [[1], { x: null }] };
    await seedMessages([buildMessage(env.scope, ann, { payload: odd })]);
    const filters: unknown[] = [
      { 'a.b': 1 },
      { '#k': ':v', 'sp ace': '' },
      { é: '✓', n: 0, tiny: 1e-129, big: 2 ** 53 - 1, t: true },
      { list: [[1], { x: null }] },
      { list: { 1: { x: null } } },
      { missing: null, 'a.b': 1 },
      { a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } },
      { s: 'x'.repeat(3000) },
    ];
    const found = [];
    for (const payload of filters) {
      const res = await env.client.get(feedPath(ann, `?payload=${base64(payload)}`));
      expect(res.status, `${JSON.stringify(payload)}: ${JSON.stringify(res.body)}`).toBe(200);
      found.push(res.body.totalCount);
    }
    // null matches a path the payload does not have, whatever shape the stored value has there.
    expect(found).toEqual([1, 1, 1, 1, 1, 1, 0, 0]);
    // Lone surrogate halves cannot be stored or compared: refused, in the filter and in feed ids.
    const lone = encodeURIComponent(Buffer.from('{"a":"\\ud800"}').toString('base64'));
    expectError(await env.client.get(feedPath(ann, `?payload=${lone}`)), 422, 'Unprocessable Entity');
    const markAll = await env.client.request('POST', markAllPath(ann), { rawBody: '{"markAs":"read","feedIdentifier":["\\ud800"]}' });
    expect(markAll.status, JSON.stringify(markAll.body)).toBeLessThan(500);
  });

  it('answers 404 for an unknown subscriber and 422 for bad query values', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    expectError(await env.client.get(feedPath({ subscriberId: 'nobody', _id: '' })), 404, 'Not Found', 'Subscriber nobody not found');
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['page=-1', 'page'],
      ['read=maybe', 'read'],
      ['seen=2', 'seen'],
    ]) {
      const res = await env.client.get(feedPath(ann, `?${query}`));
      expectError(res, 422, 'Unprocessable Entity', 'Validation Error');
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
  });
});

describe('GET /v1/subscribers/{subscriberId}/notifications/unseen', () => {
  it('counts unseen in-app messages (or seen ones), up to limit', async () => {
    const env = await newTestEnv();
    const [ann, bob] = [await newSubscriber(env), await newSubscriber(env)];
    await seedMessages([
      ...Array.from({ length: 5 }, () => buildMessage(env.scope, ann)),
      ...Array.from({ length: 3 }, () => buildMessage(env.scope, ann, { seen: true, read: true })),
      buildMessage(env.scope, ann, { channel: 'email' }),
      buildMessage(env.scope, ann, { channel: 'push', seen: true }),
      buildMessage(env.scope, bob),
    ]);
    expect(expectOk(await env.client.get(unseenPath(ann)))).toEqual({ data: { count: 5 } });
    expect(await unseenCount(env, ann, '?seen=false')).toBe(5);
    expect(await unseenCount(env, ann, '?limit=2')).toBe(2);
    expect(await unseenCount(env, ann, '?seen=true')).toBe(3);
    expect(await unseenCount(env, ann, '?seen=true&limit=1')).toBe(1);
    expect(await unseenCount(env, bob)).toBe(1);
    expect(await unseenCount(env, await newSubscriber(env))).toBe(0);
  });

  it('caps at 100 by default', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    await seedMessagesFor(env.scope, ann, 120);
    expect(await unseenCount(env, ann)).toBe(100);
    expect(await unseenCount(env, ann, '?limit=100')).toBe(100);
    expect(await unseenCount(env, ann, '?limit=99')).toBe(99);
    expect(expectOk(await env.client.get(feedPath(ann, '?seen=false&limit=1'))).totalCount).toBe(120);
  });

  it('answers 404 for an unknown subscriber and 422 for bad query values', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    expectError(await env.client.get(unseenPath({ subscriberId: 'nobody', _id: '' })), 404, 'Not Found', 'Subscriber nobody not found');
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['seen=perhaps', 'seen'],
    ]) {
      const res = await env.client.get(unseenPath(ann, `?${query}`));
      expectError(res, 422, 'Unprocessable Entity', 'Validation Error');
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
  });
});

describe('POST /v1/subscribers/{subscriberId}/messages/mark-as', () => {
  const startedAt = () => new Date().toISOString();

  it('applies each row of the mark-as table and returns the updated messages', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    const oldDate = '2020-01-01T00:00:00.000Z';
    const fresh = () => ({ read: false, seen: false, lastReadDate: oldDate, lastSeenDate: oldDate });
    const rows = [
      // markAs, state before, fields after (dates: 'now' = stamped by this request, 'old' = untouched)
      { markAs: 'read', before: fresh(), after: { read: true, seen: true, lastReadDate: 'now', lastSeenDate: 'now' } },
      {
        markAs: 'unread',
        before: { ...fresh(), read: true, seen: true },
        after: { read: false, seen: true, lastReadDate: 'now', lastSeenDate: 'now' },
      },
      { markAs: 'unread', before: fresh(), after: { read: false, seen: true, lastReadDate: 'now', lastSeenDate: 'now' } },
      { markAs: 'seen', before: fresh(), after: { read: false, seen: true, lastReadDate: 'old', lastSeenDate: 'now' } },
      {
        markAs: 'seen',
        before: { ...fresh(), read: true, seen: true },
        after: { read: true, seen: true, lastReadDate: 'old', lastSeenDate: 'now' },
      },
      {
        markAs: 'unseen',
        before: { ...fresh(), seen: true },
        after: { read: false, seen: false, lastReadDate: 'old', lastSeenDate: 'now' },
      },
      {
        markAs: 'unseen',
        before: { ...fresh(), read: true, seen: true },
        after: { read: true, seen: false, lastReadDate: 'old', lastSeenDate: 'now' },
      },
    ] as const;
    for (const row of rows) {
      const [message] = await seedMessages([buildMessage(env.scope, ann, { ...row.before })]);
      const since = startedAt();
      const res = await env.client.post(markAsPath(ann), { messageId: message!._id, markAs: row.markAs });
      const what = `${row.markAs} from ${JSON.stringify(row.before)}`;
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body, what).toHaveLength(1);
      const updated = res.body[0];
      expect(updated, what).toMatchObject({ _id: message!._id, read: row.after.read, seen: row.after.seen });
      for (const field of ['lastReadDate', 'lastSeenDate'] as const) {
        if (row.after[field] === 'old') expect(updated[field], `${what} ${field}`).toBe(oldDate);
        else expect(updated[field] >= since, `${what} ${field}`).toBe(true);
      }
      expect(updated.updatedAt >= since).toBe(true);
      for (const attribute of INTERNAL) expect(updated).not.toHaveProperty(attribute);
      // The rest of the message is untouched, and the stored item matches what was returned.
      // firstSeenDate: when it was first seen (the inbox shows it).
      const { read: _r, seen: _s, lastReadDate: _lr, lastSeenDate: _ls, firstSeenDate: _fs, updatedAt: _u, ...rest } = updated;
      expect(message).toMatchObject(rest);
      const item = await storedItem(env, message!);
      expect(item).toMatchObject({ read: row.after.read, seen: row.after.seen, lastSeenDate: updated.lastSeenDate });
      // The unseen index holds the message exactly while it is unseen.
      expect(item!.gsi6pk !== undefined, `${what} unseen index`).toBe(!row.after.seen);
    }
  });

  it('changes the unseen count and the unseen feed', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    const messages = await seedMessagesFor(env.scope, ann, 4);
    const [a, b, c, d] = messages.map((m) => m._id);
    expect(await unseenCount(env, ann)).toBe(4);

    expectOk(await env.client.post(markAsPath(ann), { messageId: [a, b], markAs: 'seen' }), 201);
    expect(await unseenCount(env, ann)).toBe(2);
    expect(ids(expectOk(await env.client.get(feedPath(ann, '?seen=false'))).data)).toEqual([d, c]);

    expectOk(await env.client.post(markAsPath(ann), { messageId: c, markAs: 'read' }), 201);
    expect(await unseenCount(env, ann)).toBe(1);
    expect(await unseenCount(env, ann, '?seen=true')).toBe(3);

    expectOk(await env.client.post(markAsPath(ann), { messageId: [a, c], markAs: 'unseen' }), 201);
    expect(await unseenCount(env, ann)).toBe(3);
    expect(ids(expectOk(await env.client.get(feedPath(ann, '?seen=false'))).data)).toEqual([d, c, a]);

    // unread marks seen too.
    expectOk(await env.client.post(markAsPath(ann), { messageId: [a, c, d], markAs: 'unread' }), 201);
    expect(await unseenCount(env, ann)).toBe(0);
    expect(ids(expectOk(await env.client.get(feedPath(ann, '?read=false'))).data)).toEqual([d, c, b, a]);
  });

  it("ignores ids that are not the subscriber's, marks any channel, keeps the order asked", async () => {
    const org = await createTestOrg(api.url);
    const env = org.dev;
    const [ann, bob] = [await newSubscriber(env), await newSubscriber(env)];
    const [annInApp, annEmail] = await seedMessages([buildMessage(env.scope, ann), buildMessage(env.scope, ann, { channel: 'email' })]);
    const [bobs] = await seedMessagesFor(env.scope, bob, 1);
    const prodAnn = await newSubscriber(org.prod, ann.subscriberId);
    const [prodMessage] = await seedMessagesFor(org.prod.scope, prodAnn, 1);

    const res = await env.client.post(markAsPath(ann), {
      messageId: [annEmail!._id, bobs!._id, '0123456789abcdef01234567', prodMessage!._id, annInApp!._id.toUpperCase(), annEmail!._id],
      markAs: 'read',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(ids(res.body)).toEqual([annEmail!._id, annInApp!._id]);
    expect(res.body.map((m: StoredMessage) => m.read)).toEqual([true, true]);

    expect(await storedItem(env, bobs!)).toMatchObject({ read: false, seen: false });
    expect(await storedItem(org.prod, prodMessage!)).toMatchObject({ read: false, seen: false });
    expect(await unseenCount(env, bob)).toBe(1);
    expect(await unseenCount(org.prod, prodAnn)).toBe(1);

    // Only others' ids: nothing to change, an empty list.
    expect(expectOk(await env.client.post(markAsPath(ann), { messageId: bobs!._id, markAs: 'seen' }), 201)).toEqual([]);
  });

  it('answers 404 for an unknown subscriber and 422 for a bad body', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    const [message] = await seedMessagesFor(env.scope, ann, 1);
    const id = message!._id;
    expectError(
      await env.client.post(markAsPath({ subscriberId: 'nobody', _id: '' }), { messageId: id, markAs: 'read' }),
      404,
      'Not Found',
      'Subscriber nobody not found',
    );
    const cases: [unknown, string][] = [
      [{ markAs: 'read' }, 'messageId'],
      [{ messageId: null, markAs: 'read' }, 'messageId'],
      [{ messageId: [], markAs: 'read' }, 'messageId'],
      [{ messageId: 'not-an-id', markAs: 'read' }, 'messageId'],
      [{ messageId: `${id},${id}`, markAs: 'read' }, 'messageId'],
      [{ messageId: [id, 'nope'], markAs: 'read' }, 'messageId.1'],
      [{ messageId: Array.from({ length: 101 }, () => id), markAs: 'read' }, 'messageId'],
      [{ messageId: 7, markAs: 'read' }, 'messageId'],
      [{ messageId: id }, 'markAs'],
      [{ messageId: id, markAs: 'archived' }, 'markAs'],
    ];
    for (const [body, field] of cases) {
      const res = await env.client.post(markAsPath(ann), body);
      expectError(res, 422, 'Unprocessable Entity', 'Validation Error');
      expect(Object.keys(res.body.errors), JSON.stringify(body).slice(0, 100)).toEqual([field]);
    }
    const missing = await env.client.post(markAsPath(ann), { markAs: 'read' });
    expect(missing.body.errors.messageId.messages).toEqual(['messageId should not be null or undefined']);
    expect(await storedItem(env, message!)).toMatchObject({ read: false, seen: false });
  });
});

describe('POST /v1/subscribers/{subscriberId}/messages/mark-all', () => {
  it('marks every in-app message not yet in that state and returns how many changed', async () => {
    const env = await newTestEnv();
    const [ann, bob] = [await newSubscriber(env), await newSubscriber(env)];
    const seeded = await seedMessages([
      buildMessage(env.scope, ann),
      buildMessage(env.scope, ann),
      buildMessage(env.scope, ann, { seen: true }),
      buildMessage(env.scope, ann, { seen: true, read: true }),
      buildMessage(env.scope, ann, { channel: 'email' }),
      buildMessage(env.scope, bob),
    ]);
    const markAll = async (s: MessageRecipient, body: unknown) => {
      const res = await env.client.post(markAllPath(s), body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.headers.get('content-type')).toContain('application/json');
      return res.body.data as number;
    };

    expect(await markAll(ann, { markAs: 'seen' })).toBe(2);
    expect(await unseenCount(env, ann)).toBe(0);
    expect(await markAll(ann, { markAs: 'seen' })).toBe(0);
    expect(await markAll(ann, { markAs: 'read' })).toBe(3);
    expect(await markAll(ann, { markAs: 'read' })).toBe(0);
    expect(await markAll(ann, { markAs: 'unseen' })).toBe(4);
    expect(await unseenCount(env, ann)).toBe(4);
    expect(await markAll(ann, { markAs: 'unread' })).toBe(4);
    expect(await unseenCount(env, ann)).toBe(0);
    expect(await unseenCount(env, ann, '?seen=true')).toBe(4);

    // Other channels and other subscribers are untouched.
    expect(await storedItem(env, seeded[4]!)).toMatchObject({ read: false, seen: false });
    expect(await storedItem(env, seeded[5]!)).toMatchObject({ read: false, seen: false });
    expect(await unseenCount(env, bob)).toBe(1);
    const item = await storedItem(env, seeded[0]!);
    expect(item).toMatchObject({ read: false, seen: true, lastReadDate: ISO, lastSeenDate: ISO });
    expect(item!.gsi6pk).toBeUndefined();
  });

  it('pages through many messages', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    // Over 1 MB of items: the Query needs more than one page.
    const big = 'x'.repeat(8 * 1024);
    const all = newestFirst(await seedMessagesFor(env.scope, ann, 150, () => ({ content: big })));
    // A page whose window spans Query pages, and the count after it.
    const deep = expectOk(await env.client.get(feedPath(ann, '?limit=100&page=1')));
    expect(deep).toMatchObject({ totalCount: 150, hasMore: false });
    expect(ids(deep.data)).toEqual(all.slice(100));
    const middle = expectOk(await env.client.get(`/v1/messages?subscriberId=${ann.subscriberId}&limit=60&page=1`));
    expect(middle).toMatchObject({ totalCount: 150, hasMore: true });
    expect(ids(middle.data)).toEqual(all.slice(60, 120));

    const res = await env.client.post(markAllPath(ann), { markAs: 'read' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ data: 150 });
    expect(await unseenCount(env, ann)).toBe(0);
    expect(expectOk(await env.client.get(feedPath(ann, '?read=true&limit=1'))).totalCount).toBe(150);
    expect((await env.client.post(markAllPath(ann), { markAs: 'unseen' })).body.data).toBe(150);
    expect(await unseenCount(env, ann)).toBe(100);
  }, 60_000);

  it('with feedIdentifier marks only messages of those feeds', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    const [inFeed, otherFeed] = await seedMessages([
      buildMessage(env.scope, ann, { _feedId: 'feed-a' }),
      buildMessage(env.scope, ann, { _feedId: 'feed-b' }),
      buildMessage(env.scope, ann),
    ]);
    expect((await env.client.post(markAllPath(ann), { markAs: 'read', feedIdentifier: [] })).body.data).toBe(0);
    expect((await env.client.post(markAllPath(ann), { markAs: 'read', feedIdentifier: 'nope' })).body.data).toBe(0);
    expect((await env.client.post(markAllPath(ann), { markAs: 'read', feedIdentifier: 'feed-a' })).body.data).toBe(1);
    expect(await storedItem(env, inFeed!)).toMatchObject({ read: true });
    expect(await storedItem(env, otherFeed!)).toMatchObject({ read: false });
    expect((await env.client.post(markAllPath(ann), { markAs: 'seen', feedIdentifier: ['feed-a', 'feed-b'] })).body.data).toBe(1);
    expect(await unseenCount(env, ann)).toBe(1);
  });

  it('answers 404 for an unknown subscriber and 422 for a bad body', async () => {
    const env = await newTestEnv();
    const ann = await newSubscriber(env);
    expectError(
      await env.client.post(markAllPath({ subscriberId: 'nobody', _id: '' }), { markAs: 'read' }),
      404,
      'Not Found',
      'Subscriber nobody not found',
    );
    for (const [body, field] of [
      [{}, 'markAs'],
      [{ markAs: 'done' }, 'markAs'],
      [{ markAs: 'read', feedIdentifier: 5 }, 'feedIdentifier'],
      [{ markAs: 'read', feedIdentifier: [''] }, 'feedIdentifier.0'],
    ] as const) {
      const res = await env.client.post(markAllPath(ann), body);
      expectError(res, 422, 'Unprocessable Entity', 'Validation Error');
      expect(Object.keys(res.body.errors), JSON.stringify(body)).toEqual([field]);
    }
  });
});
