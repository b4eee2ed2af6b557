import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { expireItems } from '#infra/local/ttl.ts';
import { timeOfId } from '#lib/ids.ts';
import { storeGeneratedTriggers } from '#lib/pipeline/trigger-store.ts';
import type { TriggerEvent } from '#lib/pipeline/model.ts';
import { getItem } from '#lib/store/get-item.ts';
import { keys, type Key } from '#lib/store/keys.ts';
import { apiClient, createTestOrg, inboxClient, startTestApi, type ApiClient, type TestOrg } from '../support/api.ts';
import { buildMessage, seedMessages } from '../support/message-builder.ts';
import { buildJob, seedNotification } from '../support/notification-builder.ts';
import { createWorkflow, messagesOf, rand, settledOne, trigger, WAIT } from '../support/pipeline.ts';
import { startFakeApi, type FakeApi } from '../support/provider-servers.ts';

// Retention that deletes: what a trigger leaves behind (its trigger, notification, messages)
// expires after the stage's retention. Until DynamoDB deletes it (late in AWS, never in
// DynamoDB Local) nothing shows it; when it is deleted (emulated as DynamoDB does it: the item
// deleted, a REMOVE record with DynamoDB's service principal on the stream) nothing changes
// again: the inbox counts are not kept as numbers that would need correcting. The clock is
// moved with a fake `Date` in this worker (where the API runs), not waited for.

vi.setConfig({ testTimeout: 120_000 });
const DAY = 86_400_000;
const RETENTION_DAYS = 30; // the test stack's default

let api: LocalApi;
let org: TestOrg;
let client: ApiClient;
let receiver: FakeApi;

beforeAll(async () => {
  [api, receiver] = await Promise.all([startTestApi(), startFakeApi()]);
  org = await createTestOrg(api.url);
  client = org.dev.client;
});
afterAll(async () => {
  await Promise.all([api?.close(), receiver?.close()]);
});
afterEach(() => {
  vi.useRealTimers();
});

const stored = (key: Key) => getItem(key, { consistent: true });
const seconds = (ms: number) => Math.floor(ms / 1000);

/** What the subscriber's inbox shows: its unread count (session and count route), unseen count, list, and the API's lists. */
async function whatTheSubscriberSees(subscriberId: string) {
  const opened = await apiClient(api.url).post('/v1/inbox/session', {
    applicationIdentifier: org.dev.applicationIdentifier,
    subscriber: subscriberId,
  });
  expect(opened.status).toBe(201);
  const session = apiClient(api.url, { bearer: opened.body.data.token as string });
  const inbox = await session.get('/v1/inbox/notifications?limit=50');
  const counts = await session.get(
    `/v1/inbox/notifications/count?filters=${encodeURIComponent(JSON.stringify([{ read: false }, { seen: false }]))}`,
  );
  const unseen = await client.get(`/v1/subscribers/${subscriberId}/notifications/unseen`);
  const feed = await client.get(`/v1/subscribers/${subscriberId}/notifications/feed?limit=50`);
  return {
    sessionUnread: opened.body.data.unreadCount.total as number,
    unread: counts.body.data[0].count as number,
    unseenInbox: counts.body.data[1].count as number,
    unseen: unseen.body.data.count as number,
    inbox: (inbox.body.data as { id: string }[]).map((n) => n.id).sort(),
    feed: (feed.body.data as { _id: string }[]).map((m) => m._id).sort(),
    messages: (await messagesOf(client, subscriberId)).map((m: { _id: string }) => m._id).sort(),
  };
}

/** The subscriber as a message names it (its subscriberId and internal id). */
async function recipient(subscriberId: string) {
  const res = await client.get(`/v2/subscribers/${subscriberId}`);
  expect(res.status).toBe(200);
  return { subscriberId, _id: res.body._id as string };
}

describe('retention', () => {
  it('writes every trigger, notification and message with a ttl of its creation plus the retention', async () => {
    const workflowId = await createWorkflow(client, [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello' } }]);
    const subscriberId = `sub-${rand()}`;
    const transactionId = await trigger(client, workflowId, { subscriberId });
    const notification = await settledOne(client, transactionId);
    const [message] = await messagesOf(client, subscriberId);
    const scope = org.dev.scope;

    const triggerItem = await stored(keys.triggerEvent(scope, transactionId));
    const notificationItem = await stored(keys.notification(scope, transactionId, subscriberId, 1));
    const messageItem = await stored(keys.message(scope, subscriberId, message._id));
    expect(triggerItem!.ttl).toBe(seconds(Date.parse(triggerItem!.createdAt as string) + RETENTION_DAYS * DAY));
    expect(notificationItem!.ttl).toBe(seconds(timeOfId(notification._id).getTime() + RETENTION_DAYS * DAY));
    expect(messageItem!.ttl).toBe(seconds(timeOfId(message._id).getTime() + RETENTION_DAYS * DAY));
    // The ttl is bookkeeping: no answer shows it.
    expect(notification).not.toHaveProperty('ttl');
    expect(message).not.toHaveProperty('ttl');
  });

  it('keeps messages for MESSAGE_RETENTION_DAYS when it is set', async () => {
    process.env.MESSAGE_RETENTION_DAYS = '90';
    try {
      const [message] = await seedMessages([
        buildMessage(org.dev.scope, { subscriberId: `sub-${rand()}`, _id: '000000000000000000000000' }),
      ]);
      const item = await stored(keys.message(org.dev.scope, message!.subscriberId, message!._id));
      expect(item!.ttl).toBe(seconds(timeOfId(message!._id).getTime() + 90 * DAY));
    } finally {
      delete process.env.MESSAGE_RETENTION_DAYS;
    }
  });

  it('keeps a notification whose delay waits past the retention until the wait has ended, plus the retention', async () => {
    const at = new Date();
    const until = new Date(at.getTime() + (RETENTION_DAYS + 15) * DAY);
    const delay = {
      ...buildJob({ _id: 'delay', stepId: 'wait', type: 'delay' }, 0, at),
      status: 'delayed' as const,
      delayUntil: until.toISOString(),
    };
    const n = await seedNotification(org.dev.scope, {
      at,
      jobs: [delay, { ...buildJob({ _id: 'inbox', stepId: 'inbox', type: 'in_app' }, 1, at), status: 'pending' }],
    });
    const item = await stored(keys.notification(org.dev.scope, n.transactionId, n.subscriberId, 1));
    expect(item!.ttl).toBe(seconds(until.getTime() + RETENTION_DAYS * DAY));
  });

  it(
    'drops expired messages and notifications from the inbox, its counts and ' +
      'the activity feed, and counts nothing twice when DynamoDB deletes them',
    async () => {
      const hookPath = `/hook-${rand()}`;
      expect(
        (await client.post('/v2/webhooks/endpoints', { url: `${receiver.url}${hookPath}`, eventTypes: ['message.deleted'] })).status,
      ).toBe(201);
      const deletedIds = () =>
        receiver.requests
          .filter((r) => r.path === hookPath)
          .map((r) => (JSON.parse(r.text) as { data: { object: { _id: string } } }).data.object._id);

      const workflowId = await createWorkflow(client, [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello' } }]);
      const subscriberId = `sub-${rand()}`;
      const first = await trigger(client, workflowId, { subscriberId });
      const second = await trigger(client, workflowId, { subscriberId });
      const notifications = [await settledOne(client, first), await settledOne(client, second)];
      const old = (await messagesOf(client, subscriberId)).map((m: { _id: string }) => m._id as string).sort();
      expect(old).toHaveLength(2);
      // One of them read: the unread one is what must leave the unread count, once.
      const session = await inboxClient(api.url, org.dev, subscriberId);
      expect((await session.patch(`/v1/inbox/notifications/${old[0]}/read`)).status).toBe(200);
      // What the subscriber sees until the retention ends.
      const beforeExpiry = {
        sessionUnread: 1,
        unread: 1,
        unseenInbox: 1,
        unseen: 1,
        inbox: old,
        feed: old,
        messages: old,
      };

      expect(await whatTheSubscriberSees(subscriberId)).toEqual(beforeExpiry);

      // A day before the retention ends, nothing has changed.
      const created = Math.max(...old.map((id) => timeOfId(id).getTime()));
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(created + (RETENTION_DAYS - 1) * DAY);
      expect(await whatTheSubscriberSees(subscriberId)).toEqual(beforeExpiry);
      expect((await client.get(`/v1/notifications/${notifications[0]._id}`)).status).toBe(200);

      // A day after it ended: gone from every view, though DynamoDB has not deleted anything yet;
      // a message made since is counted as usual.
      vi.setSystemTime(created + (RETENTION_DAYS + 1) * DAY);
      const [fresh] = await seedMessages([buildMessage(org.dev.scope, await recipient(subscriberId))]);
      const now = {
        sessionUnread: 1,
        unread: 1,
        unseenInbox: 1,
        unseen: 1,
        inbox: [fresh!._id],
        feed: [fresh!._id],
        messages: [fresh!._id],
      };
      expect(await whatTheSubscriberSees(subscriberId)).toEqual(now);
      for (const n of notifications) expect((await client.get(`/v1/notifications/${n._id}`)).status).toBe(404);
      expect((await client.get(`/v1/notifications?subscriberIds=${subscriberId}&limit=50`)).body.data).toEqual([]);
      expect((await client.get(`/v1/notifications?transactionId=${first}&limit=50`)).body.data).toEqual([]);
      const later = await inboxClient(api.url, org.dev, subscriberId);
      expect((await later.patch(`/v1/inbox/notifications/${old[1]}/read`)).status).toBe(404);
      expect((await client.delete(`/v1/messages/${old[1]}`)).status).toBe(404);

      // DynamoDB's TTL deletes them: the items go, their REMOVE records (service principal) reach
      // the stream consumer, which makes no `message.deleted` of an expiry.
      const scope = org.dev.scope;
      const items = [
        ...[first, second].map((t) => keys.triggerEvent(scope, t)),
        ...[first, second].map((t) => keys.notification(scope, t, subscriberId, 1)),
        ...old.map((id) => keys.message(scope, subscriberId, id)),
        keys.message(scope, subscriberId, fresh!._id),
      ];
      const deleted = await expireItems(items, seconds(Date.now()));
      expect(deleted).toEqual(items.slice(0, 6));
      for (const key of items.slice(0, 6)) expect(await stored(key)).toBeUndefined();
      expect(await whatTheSubscriberSees(subscriberId)).toEqual(now);

      // A delete the subscriber asks for is a `message.deleted`; by the time it arrives, the
      // expiries before it on the stream have gone through the same consumer, and made none.
      vi.useRealTimers();
      expect((await client.delete(`/v1/messages/${fresh!._id}`)).status).toBe(200);
      await vi.waitFor(() => expect(deletedIds()).toContain(fresh!._id), WAIT);
      expect(deletedIds()).toEqual([fresh!._id]);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(created + (RETENTION_DAYS + 1) * DAY);
      expect(await whatTheSubscriberSees(subscriberId)).toEqual({
        sessionUnread: 0,
        unread: 0,
        unseenInbox: 0,
        unseen: 0,
        inbox: [],
        feed: [],
        messages: [],
      });
    },
  );

  it('frees a transactionId once its trigger has expired, even before DynamoDB deletes it, and cancels nothing of it', async () => {
    const workflowId = await createWorkflow(client, [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello' } }]);
    const subscriberId = `sub-${rand()}`;
    const transactionId = `txn-${rand()}`;
    // A trigger and its notification from 31 days ago: past their retention, still stored.
    const longAgo = new Date(Date.now() - (RETENTION_DAYS + 1) * DAY);
    const event = {
      transactionId,
      createdAt: longAgo.toISOString(),
      _organizationId: org.dev.scope.organizationId,
      _environmentId: org.dev.scope.environmentId,
    } as unknown as TriggerEvent;
    await storeGeneratedTriggers([event]);
    expect((await client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    const relic = await seedNotification(org.dev.scope, { at: longAgo, transactionId, subscriber: await recipient(subscriberId) });

    // Expired, it is unknown: nothing to cancel.
    expect((await client.delete(`/v1/events/trigger/${transactionId}`)).body).toEqual({ data: false });
    const again = await client.post('/v1/events/trigger', { name: workflowId, to: { subscriberId }, transactionId });
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ acknowledged: true, status: 'processed', transactionId });
    const notification = await settledOne(client, transactionId);
    expect(notification._id).not.toBe(relic._id);
    await vi.waitFor(async () => expect(await messagesOf(client, subscriberId)).toHaveLength(1), WAIT);
  });
});
