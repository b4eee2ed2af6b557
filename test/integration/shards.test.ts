import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { tableName } from '#lib/config.ts';
import type { StoredMessage } from '#lib/messages/model.ts';
import { messageItem } from '#lib/messages/repository.ts';
import type { StoredNotification } from '#lib/pipeline/model.ts';
import { dayOfId, notificationItem } from '#lib/pipeline/notification-store.ts';
import { getTriggerEvent } from '#lib/pipeline/trigger-store.ts';
import { db } from '#lib/store/client.ts';
import { keys, shardOf, ACTIVITY_DAY_SHARDS, MESSAGE_LIST_SHARDS, TRANSACTION_SHARDS } from '#lib/store/keys.ts';
import type { EnvScope } from '#lib/scope.ts';
import { createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { buildMessage, seedMessages, type MessageRecipient } from '../support/message-builder.ts';
import { buildNotification, seedNotification } from '../support/notification-builder.ts';
import { activity, createWorkflow, rand, trigger, WAIT } from '../support/pipeline.ts';

// The lists over keys spread across shards (lib/store/keys.ts, docs/data-model.md "A 1,000,000-
// subscriber fan-out"): the activity feed over a day's index shards and a topic trigger's
// transaction shards, the messages list over its index shards, cancel over a transaction's
// shards, each answering exactly as over one partition; and entries written under the keys from
// before sharding (shard 0's) still found by every list and by the lookups by id.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const newTestEnv = async (): Promise<TestEnv> => (await createTestOrg(api.url)).dev;

async function ok(env: TestEnv, path: string) {
  const res = await env.client.get(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const idsOf = (items: { _id: string }[]) => items.map((n) => n._id);
const newestFirst = (items: { _id: string }[]) => idsOf(items).sort().reverse();

/** Pages of `limit` from page 0 until one says there are no more; each page's ids and hasMore. */
async function allPages(env: TestEnv, path: (page: number) => string, pages: number) {
  const found = [];
  for (let page = 0; page < pages; page++) found.push(await ok(env, path(page)));
  return found as { page: number; hasMore: boolean; totalCount?: number; data: { _id: string }[] }[];
}

/** A notification stored as before sharding: its day entry under the day's one key (shard 0's). */
async function putUnshardedNotification(scope: EnvScope, n: StoredNotification): Promise<void> {
  const item = { ...notificationItem(n, 1), gsi3pk: keys.activityDay(scope, dayOfId(n._id))[0]!.gsi3pk };
  await db().send(new PutCommand({ TableName: tableName(), Item: item }));
}

/** A message stored as before sharding: its entry in the environment's list under the one key (shard 0's). */
async function putUnshardedMessage(scope: EnvScope, m: StoredMessage): Promise<void> {
  const item = { ...messageItem(m), gsi5pk: keys.messagesOfEnvironment(scope)[0]!.gsi5pk };
  await db().send(new PutCommand({ TableName: tableName(), Item: item }));
}

describe('the activity feed over the shards of a day', () => {
  it('pages newest first with hasMore exact, and finds entries written before sharding', async () => {
    const env = await newTestEnv();
    const now = Date.now();
    // Notifications of the last minute, a second apart (a minute that spans midnight spans two days: listed the same).
    const at = (i: number) => now - 60_000 + i * 1000;
    const seeded: StoredNotification[] = [];
    for (let i = 0; i < 40; i++) seeded.push(await seedNotification(env.scope, { at: at(i) }));
    const shards = new Set(seeded.map((n) => keys.activityDayIndex(env.scope, dayOfId(n._id), n._id).gsi3pk));
    expect(shards.size).toBeGreaterThanOrEqual(ACTIVITY_DAY_SHARDS / 2);

    // Six more as stored before the day was sharded, at least one of them outside shard 0.
    const legacy: StoredNotification[] = [];
    while (legacy.length < 6 || legacy.every((n) => shardOf(n._id, ACTIVITY_DAY_SHARDS) === 0)) {
      const n = buildNotification(env.scope, { at: at(40 + legacy.length) });
      await putUnshardedNotification(env.scope, n);
      legacy.push(n);
    }
    const all = newestFirst([...seeded, ...legacy]);

    const pages = await allPages(env, (page) => `/v1/notifications?limit=7&page=${page}`, 8);
    expect(pages.map((p) => [p.page, p.hasMore, p.data.length])).toEqual([
      [0, true, 7],
      [1, true, 7],
      [2, true, 7],
      [3, true, 7],
      [4, true, 7],
      [5, true, 7],
      [6, false, 4],
      [7, false, 0],
    ]);
    expect(pages.flatMap((p) => idsOf(p.data))).toEqual(all);
    expect(idsOf((await ok(env, '/v1/notifications?limit=50')).data)).toEqual(all);
    // A full last page still knows it is the last.
    expect((await ok(env, `/v1/notifications?limit=${all.length}`)).hasMore).toBe(false);
    expect((await ok(env, `/v1/notifications?limit=${all.length - 1}`)).hasMore).toBe(true);

    // By id: in its own shard, or (written before sharding) in shard 0.
    for (const n of [...seeded.slice(0, 5), ...legacy]) expect((await ok(env, `/v1/notifications/${n._id}`))._id).toBe(n._id);
  });
});

describe('GET /v1/messages over the shards of the environment list', () => {
  it('pages newest first with an exact totalCount, filters, and deletes entries written before sharding', async () => {
    const env = await newTestEnv();
    const recipients: MessageRecipient[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await env.client.post('/v2/subscribers', { subscriberId: `sub-${rand()}` });
      expect(res.status).toBe(201);
      recipients.push({ subscriberId: res.body.subscriberId, _id: res.body._id });
    }
    const built = Array.from({ length: 45 }, (_, i) =>
      buildMessage(env.scope, recipients[i % 3]!, { transactionId: `txn-${i % 5}`, channel: i % 4 === 0 ? 'email' : 'in_app' }),
    );
    // Every fifth one as stored before sharding; the rest as now.
    const legacy = built.filter((_, i) => i % 5 === 0);
    await seedMessages(built.filter((_, i) => i % 5 !== 0));
    for (const m of legacy) await putUnshardedMessage(env.scope, m);
    expect(legacy.some((m) => shardOf(m._id, MESSAGE_LIST_SHARDS) !== 0)).toBe(true);
    expect(new Set(built.map((m) => keys.messageListIndex(env.scope, m._id).gsi5pk)).size).toBeGreaterThanOrEqual(MESSAGE_LIST_SHARDS / 2);
    const all = newestFirst(built);

    const pages = await allPages(env, (page) => `/v1/messages?limit=10&page=${page}`, 6);
    expect(pages.map((p) => [p.page, p.totalCount, p.hasMore, p.data.length])).toEqual([
      [0, 45, true, 10],
      [1, 45, true, 10],
      [2, 45, true, 10],
      [3, 45, true, 10],
      [4, 45, false, 5],
      [5, 45, false, 0],
    ]);
    expect(pages.flatMap((p) => idsOf(p.data))).toEqual(all);
    expect(await ok(env, '/v1/messages?limit=45')).toMatchObject({ totalCount: 45, hasMore: false });
    expect(await ok(env, '/v1/messages?limit=44')).toMatchObject({ totalCount: 45, hasMore: true });

    // Filters count and page only what matches, across the shards.
    const ofTxn = (ids: string[]) => all.filter((id) => ids.includes(built.find((m) => m._id === id)!.transactionId));
    const txn = await ok(env, '/v1/messages?transactionId=txn-1&transactionId=txn-3&limit=5&page=1');
    expect(txn).toMatchObject({ totalCount: 18, hasMore: true });
    expect(idsOf(txn.data)).toEqual(ofTxn(['txn-1', 'txn-3']).slice(5, 10));
    const inApp = all.filter((id) => built.find((m) => m._id === id)!.channel === 'in_app');
    const channel = await ok(env, '/v1/messages?channel=in_app&limit=8&page=4');
    expect(channel).toMatchObject({ totalCount: inApp.length, hasMore: false });
    expect(idsOf(channel.data)).toEqual(inApp.slice(32));

    // A message listed from shard 0 is found by id and deleted like any other.
    const old = legacy.find((m) => shardOf(m._id, MESSAGE_LIST_SHARDS) !== 0)!;
    expect((await env.client.delete(`/v1/messages/${old._id}`)).status).toBe(200);
    expect((await env.client.delete(`/v1/messages/${old._id}`)).status).toBe(404);
    const after = await ok(env, '/v1/messages?limit=100');
    expect(after.totalCount).toBe(44);
    expect(idsOf(after.data)).toEqual(all.filter((id) => id !== old._id));
  });
});

describe('a topic trigger: its notifications over the shards of its transaction', () => {
  async function topicOf(env: TestEnv, size: number): Promise<{ topicKey: string; members: string[] }> {
    const topicKey = `topic-${rand()}`;
    const members = Array.from({ length: size }, (_, i) => `member-${rand()}-${i}`);
    for (const subscriberId of members) expect((await env.client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    expect((await env.client.post(`/v2/topics/${topicKey}/subscriptions`, { subscriberIds: members })).status).toBeLessThan(300);
    return { topicKey, members };
  }

  /** The transaction's partitions the members' notifications are stored in. */
  async function partitionsOf(env: TestEnv, transactionId: string, members: string[], shards: number): Promise<Set<string>> {
    const pks = new Set<string>();
    for (const subscriberId of members) {
      const key = keys.notification(env.scope, transactionId, subscriberId, shards);
      const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
      expect(Item, subscriberId).toBeDefined();
      pks.add(key.pk);
    }
    return pks;
  }

  it('delivers, lists by transaction (feed and messages) and cancels across the shards', async () => {
    const env = await newTestEnv();
    const { topicKey, members } = await topicOf(env, 20);
    const inbox = { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hello' } };

    // Delivered: the feed and the messages list of the transaction, page by page.
    const delivered = await trigger(env.client, await createWorkflow(env.client, [inbox]), [{ type: 'Topic', topicKey }]);
    expect((await getTriggerEvent(env.scope, delivered))?.notificationShards).toBe(TRANSACTION_SHARDS);
    const items = await vi.waitFor(async () => {
      const found = await activity(env.client, delivered);
      expect(found).toHaveLength(20);
      for (const item of found) expect(item.jobs[0].status).toBe('completed');
      return found;
    }, WAIT);
    expect((await partitionsOf(env, delivered, members, TRANSACTION_SHARDS)).size).toBeGreaterThanOrEqual(8);
    expect(items.map((n: any) => n.subscriber.subscriberId).sort()).toEqual([...members].sort());
    const feedIds = idsOf(items);
    expect(feedIds).toEqual([...feedIds].sort().reverse());
    const feedPages = await allPages(env, (page) => `/v1/notifications?transactionId=${delivered}&limit=6&page=${page}`, 5);
    expect(feedPages.map((p) => [p.hasMore, p.data.length])).toEqual([
      [true, 6],
      [true, 6],
      [true, 6],
      [false, 2],
      [false, 0],
    ]);
    expect(feedPages.flatMap((p) => idsOf(p.data))).toEqual(feedIds);
    // With a subscriber filter as well: only that member's, found in its shard.
    const one = await ok(env, `/v1/notifications?transactionId=${delivered}&subscriberIds=${members[7]}`);
    expect(one.data.map((n: any) => n.subscriber.subscriberId)).toEqual([members[7]]);

    const messagePages = await allPages(env, (page) => `/v1/messages?transactionId=${delivered}&limit=8&page=${page}`, 3);
    expect(messagePages.map((p) => [p.totalCount, p.hasMore, p.data.length])).toEqual([
      [20, true, 8],
      [20, true, 8],
      [20, false, 4],
    ]);
    expect(messagePages.flatMap((p) => p.data.map((m: any) => m.subscriberId)).sort()).toEqual([...members].sort());

    // Waiting: every notification's delay is canceled, whichever shard holds it.
    const wait = { name: 'Wait', stepId: 'wait', type: 'delay', controlValues: { type: 'regular', amount: 1, unit: 'hours' } };
    const delayed = await trigger(env.client, await createWorkflow(env.client, [wait, inbox]), [{ type: 'Topic', topicKey }]);
    await vi.waitFor(async () => {
      const found = await activity(env.client, delayed);
      expect(found).toHaveLength(20);
      for (const item of found) expect(item.jobs[0].status).toBe('delayed');
    }, WAIT);
    const res = await env.client.delete(`/v1/events/trigger/${delayed}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: true });
    const canceled = await activity(env.client, delayed);
    expect(canceled).toHaveLength(20);
    for (const item of canceled) expect(item.jobs.map((j: any) => j.status)).toEqual(['canceled', 'canceled']);
    expect((await env.client.delete(`/v1/events/trigger/${delayed}`)).body).toEqual({ data: false });
  });

  it('keeps the notifications of a trigger to a few subscribers in the one partition of before', async () => {
    const env = await newTestEnv();
    const { members } = await topicOf(env, 3);
    const wf = await createWorkflow(env.client, [{ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hi' } }]);
    const txid = await trigger(env.client, wf, members);
    expect((await getTriggerEvent(env.scope, txid))?.notificationShards).toBeUndefined();
    await vi.waitFor(async () => expect(await activity(env.client, txid)).toHaveLength(3), WAIT);
    expect(await partitionsOf(env, txid, members, 1)).toEqual(new Set([keys.triggerEvent(env.scope, txid).pk]));
  });
});
