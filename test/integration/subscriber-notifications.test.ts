import { Novu } from '@novu/api';
import type { InboxNotificationDto } from '@novu/api/models/components/inboxnotificationdto.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StoredMessage } from '#lib/messages/model.ts';
import { createTestOrg, startTestApi, type TestApi, type TestEnv, type TestOrg } from '../support/api.ts';
import { buildMessage, seedMessages } from '../support/message-builder.ts';
import { rand } from '../support/pipeline.ts';
import { startFakeApi, type FakeApi } from '../support/provider-servers.ts';
import { SOCKET_WAIT, subscriberSession, TestSocket, withToken } from '../support/sockets.ts';

// A subscriber's inbox from the server side (/v2/subscribers/{subscriberId}/notifications), as a
// backend drives it through the reference's server SDK, `@novu/api`, which checks every answer
// against its models. Each action is checked where a user sees its effect: the list and the
// counts, an open inbox socket of the subscriber, and a webhook endpoint of the environment.

let api: TestApi;
let org: TestOrg;
let env: TestEnv;
let novu: Novu;
let receiver: FakeApi;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  [api, receiver] = await Promise.all([startTestApi(), startFakeApi()]);
  org = await createTestOrg(api.url);
  env = org.dev;
  novu = new Novu({ secretKey: env.apiKey, serverURL: api.url });
});
afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await Promise.all([api?.close(), receiver?.close()]);
});

// Webhooks go through the table's stream and two queues.
vi.setConfig({ testTimeout: 90_000 });
const WAIT = { timeout: 60_000, interval: 200 };

const BUTTONS = {
  action: {
    buttons: [
      { type: 'primary' as const, content: 'Accept' },
      { type: 'secondary' as const, content: 'Decline' },
    ],
  },
};

/** A new subscriber with `count` in-app messages stored as the pipeline stores them (oldest first), and its session. */
async function inboxWith(count: number, extra: (i: number) => Partial<StoredMessage> = () => ({})) {
  const { session, token } = await subscriberSession(env);
  const messages = await seedMessages(
    Array.from({ length: count }, (_, i) =>
      buildMessage(env.scope, { subscriberId: session.subscriberId, _id: session.subscriberDbId }, { cta: BUTTONS, ...extra(i) }),
    ),
  );
  return { subscriberId: session.subscriberId, ids: messages.map((m) => m._id), token };
}

async function listed(subscriberId: string, filter: Record<string, unknown> = {}): Promise<InboxNotificationDto[]> {
  const page = await novu.subscribers.notifications.list({ subscriberId, limit: 100, ...filter });
  return page.result.data;
}

const idsOf = (notifications: InboxNotificationDto[]) => notifications.map((n) => n.id);

async function counts(subscriberId: string, filters: Record<string, unknown>[]): Promise<number[]> {
  const res = await novu.subscribers.notifications.count(subscriberId, JSON.stringify(filters));
  expect(res.result.map((r) => r.filter)).toEqual(filters);
  return res.result.map((r) => r.count);
}

/** The status of a refused SDK call. */
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => 'succeeded',
    (error: { statusCode?: number }) => error.statusCode,
  );

describe('one notification', () => {
  it('lists and counts the inbox, newest first, in the shape the SDK reads', async () => {
    const { subscriberId, ids } = await inboxWith(3, (i) => ({ tags: i === 0 ? ['billing'] : [], severity: i === 2 ? 'high' : 'none' }));
    const page = await novu.subscribers.notifications.list({ subscriberId, limit: 2 });
    expect(idsOf(page.result.data)).toEqual([ids[2], ids[1]]);
    expect(page.result.hasMore).toBe(true);
    expect(page.result.data[0]).toMatchObject({
      id: ids[2],
      to: { subscriberId },
      isRead: false,
      isSeen: false,
      isArchived: false,
      isSnoozed: false,
      channelType: 'in_app',
      severity: 'high',
      primaryAction: { label: 'Accept', isCompleted: false },
      secondaryAction: { label: 'Decline', isCompleted: false },
    });
    const next = await novu.subscribers.notifications.list({ subscriberId, limit: 2, after: ids[1] });
    expect(idsOf(next.result.data)).toEqual([ids[0]]);
    expect(next.result.hasMore).toBe(false);
    expect(idsOf((await novu.subscribers.notifications.list({ subscriberId, limit: 1, offset: 1 })).result.data)).toEqual([ids[1]]);
    expect(idsOf(await listed(subscriberId, { severity: ['high', 'low'] }))).toEqual([ids[2]]);
    // The reference's plain `tags` (the SDK has no field for it).
    const tagged = await env.client.get(`/v2/subscribers/${subscriberId}/notifications?tags=billing`);
    expect(tagged.status).toBe(200);
    expect(tagged.body.data.map((n: { id: string }) => n.id)).toEqual([ids[0]]);

    expect(await counts(subscriberId, [{}, { read: false }, { tags: ['billing'] }, { severity: ['high'] }, { archived: true }])).toEqual([
      3, 3, 1, 1, 0,
    ]);
  });

  it('marks read and unread, archives and unarchives, and the list and counts follow', async () => {
    const { subscriberId, ids } = await inboxWith(2);
    const [older, newer] = ids as [string, string];

    const read = await novu.subscribers.notifications.markAsRead({ subscriberId, notificationId: older });
    expect(read.result).toMatchObject({ id: older, isRead: true, isSeen: true });
    expect(read.result.readAt).toEqual(expect.any(String));
    expect(idsOf(await listed(subscriberId, { read: true }))).toEqual([older]);
    expect(await counts(subscriberId, [{ read: false }, { read: true }])).toEqual([1, 1]);

    const unread = await novu.subscribers.notifications.markAsUnread({ subscriberId, notificationId: older });
    expect(unread.result).toMatchObject({ id: older, isRead: false, readAt: null });
    expect(await counts(subscriberId, [{ read: false }])).toEqual([2]);

    const archived = await novu.subscribers.notifications.archive({ subscriberId, notificationId: newer });
    expect(archived.result).toMatchObject({ id: newer, isArchived: true, isRead: true });
    expect(archived.result.archivedAt).toEqual(expect.any(String));
    expect(idsOf(await listed(subscriberId, { archived: false }))).toEqual([older]);
    expect(idsOf(await listed(subscriberId, { archived: true }))).toEqual([newer]);

    const unarchived = await novu.subscribers.notifications.unarchive({ subscriberId, notificationId: newer });
    expect(unarchived.result).toMatchObject({ id: newer, isArchived: false, archivedAt: null });
    expect(idsOf(await listed(subscriberId, { archived: false }))).toEqual([newer, older]);
  });

  it('snoozes a notification out of the list (the snoozed filter shows it) and brings it back', async () => {
    const { subscriberId, ids } = await inboxWith(2);
    const [older, newer] = ids as [string, string];
    const snoozeUntil = new Date(Date.now() + 3_600_000);
    const snoozed = await novu.subscribers.notifications.snooze({
      subscriberId,
      notificationId: newer,
      snoozeSubscriberNotificationDto: { snoozeUntil },
    });
    expect(snoozed.result).toMatchObject({ id: newer, isSnoozed: true, snoozedUntil: snoozeUntil.toISOString() });
    expect(idsOf(await listed(subscriberId))).toEqual([older]);
    expect(idsOf(await listed(subscriberId, { snoozed: true }))).toEqual([newer]);
    expect(await counts(subscriberId, [{ snoozed: true }, { snoozed: false }])).toEqual([1, 1]);

    const back = await novu.subscribers.notifications.unsnooze({ subscriberId, notificationId: newer });
    expect(back.result).toMatchObject({ id: newer, isSnoozed: false, snoozedUntil: null });
    expect(idsOf(await listed(subscriberId))).toEqual([newer, older]);
    expect(await listed(subscriberId, { snoozed: true })).toEqual([]);

    // A snooze ending in the past is refused, and changes nothing.
    const past = novu.subscribers.notifications.snooze({
      subscriberId,
      notificationId: newer,
      snoozeSubscriberNotificationDto: { snoozeUntil: new Date(Date.now() - 60_000) },
    });
    expect(await refusal(past)).toBe(400);
    expect((await listed(subscriberId))[0]).toMatchObject({ id: newer, isSnoozed: false });
  });

  it('completes and reverts the primary and secondary actions', async () => {
    const { subscriberId, ids } = await inboxWith(1);
    const notificationId = ids[0]!;
    const done = await novu.subscribers.notifications.completeAction({ subscriberId, notificationId, actionType: 'primary' });
    expect(done.result).toMatchObject({ isRead: true, primaryAction: { isCompleted: true }, secondaryAction: { isCompleted: false } });
    const reverted = await novu.subscribers.notifications.revertAction({ subscriberId, notificationId, actionType: 'primary' });
    expect(reverted.result.primaryAction?.isCompleted).toBe(false);
    const secondary = await novu.subscribers.notifications.completeAction({ subscriberId, notificationId, actionType: 'secondary' });
    expect(secondary.result).toMatchObject({ primaryAction: { isCompleted: false }, secondaryAction: { isCompleted: true } });
    expect((await listed(subscriberId))[0]!.secondaryAction?.isCompleted).toBe(true);
    await novu.subscribers.notifications.revertAction({ subscriberId, notificationId, actionType: 'secondary' });
    expect((await listed(subscriberId))[0]!.secondaryAction?.isCompleted).toBe(false);

    // A notification without that button has no such action.
    const plain = await inboxWith(1, () => ({ cta: {} }));
    const missing = novu.subscribers.notifications.completeAction({
      subscriberId: plain.subscriberId,
      notificationId: plain.ids[0]!,
      actionType: 'primary',
    });
    expect(await refusal(missing)).toBe(400);
  });

  it('deletes a notification: it leaves the list, and a second delete finds nothing', async () => {
    const { subscriberId, ids } = await inboxWith(2);
    await novu.subscribers.notifications.delete({ subscriberId, notificationId: ids[1]! });
    expect(idsOf(await listed(subscriberId))).toEqual([ids[0]]);
    expect(await counts(subscriberId, [{}])).toEqual([1]);
    expect(await refusal(novu.subscribers.notifications.delete({ subscriberId, notificationId: ids[1]! }))).toBe(404);
  });
});

describe('bulk actions', () => {
  it('marks seen by id, reads all, archives the read ones, archives all and deletes all', async () => {
    const { subscriberId, ids } = await inboxWith(4);
    const [a, b, c, d] = ids as [string, string, string, string];

    await novu.subscribers.notifications.markAsSeen({ notificationIds: [a, b] }, subscriberId);
    expect((await listed(subscriberId, { seen: true })).map((n) => n.id).sort()).toEqual([a, b].sort());

    await novu.subscribers.notifications.markAsRead({ subscriberId, notificationId: c });
    await novu.subscribers.notifications.archiveAllRead({}, subscriberId);
    expect(idsOf(await listed(subscriberId, { archived: true }))).toEqual([c]);

    await novu.subscribers.notifications.markAllAsRead({}, subscriberId);
    expect((await listed(subscriberId)).every((n) => n.isRead && n.isSeen)).toBe(true);
    expect(await counts(subscriberId, [{ read: false }, { seen: false }])).toEqual([0, 0]);

    await novu.subscribers.notifications.archiveAll({}, subscriberId);
    expect(await listed(subscriberId, { archived: false })).toEqual([]);
    expect(idsOf(await listed(subscriberId, { archived: true }))).toEqual([d, c, b, a]);

    await novu.subscribers.notifications.deleteAll({}, subscriberId);
    expect(await listed(subscriberId)).toEqual([]);
    expect(await counts(subscriberId, [{}, { archived: true }])).toEqual([0, 0]);
  });

  it('changes only the notifications of the tags and data given', async () => {
    const { subscriberId, ids } = await inboxWith(3, (i) => ({ tags: i === 0 ? ['billing'] : ['news'], data: { kind: `k${i}` } }));
    const [billing, news1, news2] = ids as [string, string, string];
    // Tags as the reference takes them (the SDK's `tags` object has no fields: raw HTTP).
    const byTag = await env.client.post(`/v2/subscribers/${subscriberId}/notifications/read`, { tags: ['billing'] });
    expect(byTag.status, JSON.stringify(byTag.body)).toBe(204);
    expect(idsOf(await listed(subscriberId, { read: true }))).toEqual([billing]);
    const byGroups = await env.client.post(`/v2/subscribers/${subscriberId}/notifications/archive`, {
      tags: { and: [{ or: ['news', 'other'] }] },
      data: JSON.stringify({ kind: 'k2' }),
    });
    expect(byGroups.status, JSON.stringify(byGroups.body)).toBe(204);
    expect(idsOf(await listed(subscriberId, { archived: true }))).toEqual([news2]);

    await novu.subscribers.notifications.deleteAll({ data: JSON.stringify({ kind: 'k1' }) }, subscriberId);
    expect(idsOf(await listed(subscriberId))).toEqual([news2, billing]);
    expect(ids).toContain(news1);
  });
});

describe('contexts', () => {
  it('reaches the notifications of exactly the context keys given; none given, those sent without a context', async () => {
    const { subscriberId, ids } = await inboxWith(2, (i) => ({ contextKeys: i === 0 ? ['tenant:acme'] : [] }));
    const [acme, plain] = ids as [string, string];
    expect(idsOf(await listed(subscriberId))).toEqual([plain]);
    expect(idsOf(await listed(subscriberId, { contextKeys: ['tenant:acme'] }))).toEqual([acme]);
    expect(await listed(subscriberId, { contextKeys: ['tenant:other'] })).toEqual([]);
    expect(await counts(subscriberId, [{}, { contextKeys: ['tenant:acme'] }])).toEqual([1, 1]);

    expect(await refusal(novu.subscribers.notifications.markAsRead({ subscriberId, notificationId: acme }))).toBe(404);
    const read = await novu.subscribers.notifications.markAsRead({ subscriberId, notificationId: acme, contextKeys: ['tenant:acme'] });
    expect(read.result.isRead).toBe(true);

    await novu.subscribers.notifications.archiveAll({ contextKeys: ['tenant:acme'] }, subscriberId);
    expect(idsOf(await listed(subscriberId, { contextKeys: ['tenant:acme'], archived: true }))).toEqual([acme]);
    expect((await listed(subscriberId))[0]).toMatchObject({ id: plain, isArchived: false });
  });
});

describe('what is not the subscriber’s', () => {
  it('answers 404 for an unknown subscriber and for another subscriber’s notification, changing nothing', async () => {
    const owner = await inboxWith(1);
    const other = await inboxWith(1);
    const unknown = `nobody-${rand()}`;
    const notificationId = owner.ids[0]!;
    const n = novu.subscribers.notifications;
    const calls: [string, Promise<unknown>][] = [
      ['list', n.list({ subscriberId: unknown })],
      ['count', n.count(unknown, JSON.stringify([{}]))],
      ['read', n.markAsRead({ subscriberId: unknown, notificationId })],
      [
        'snooze',
        n.snooze({
          subscriberId: unknown,
          notificationId,
          snoozeSubscriberNotificationDto: { snoozeUntil: new Date(Date.now() + 3_600_000) },
        }),
      ],
      ['complete', n.completeAction({ subscriberId: unknown, notificationId, actionType: 'primary' })],
      ['delete', n.delete({ subscriberId: unknown, notificationId })],
      ['seen', n.markAsSeen({ notificationIds: [notificationId] }, unknown)],
      ['readAll', n.markAllAsRead({}, unknown)],
      ['deleteAll', n.deleteAll({}, unknown)],
      // The other subscriber's path, the owner's notification.
      ['read (other)', n.markAsRead({ subscriberId: other.subscriberId, notificationId })],
      ['archive (other)', n.archive({ subscriberId: other.subscriberId, notificationId })],
      ['unsnooze (other)', n.unsnooze({ subscriberId: other.subscriberId, notificationId })],
      ['revert (other)', n.revertAction({ subscriberId: other.subscriberId, notificationId, actionType: 'primary' })],
      ['delete (other)', n.delete({ subscriberId: other.subscriberId, notificationId })],
    ];
    // Each refusal is taken as soon as the call is made (all run at once).
    const statuses = calls.map(([what, call]) => [what, refusal(call)] as const);
    for (const [what, status] of statuses) expect(await status, what).toBe(404);
    // Another environment's key does not reach it either.
    const prod = new Novu({ secretKey: org.prod.apiKey, serverURL: api.url });
    expect(await refusal(prod.subscribers.notifications.markAsRead({ subscriberId: owner.subscriberId, notificationId }))).toBe(404);
    expect(await refusal(prod.subscribers.notifications.list({ subscriberId: owner.subscriberId }))).toBe(404);

    // A seen or bulk action on the other subscriber's inbox with the owner's id changes nothing.
    await n.markAsSeen({ notificationIds: [notificationId] }, other.subscriberId);
    expect((await listed(owner.subscriberId))[0]).toMatchObject({ id: notificationId, isSeen: false, isRead: false });
  });

  it('refuses bad input with a 4xx naming it', async () => {
    const { subscriberId, ids } = await inboxWith(1);
    const base = `/v2/subscribers/${subscriberId}/notifications`;
    const badAction = await env.client.patch(`${base}/${ids[0]}/actions/tertiary/complete`);
    expect(badAction.status).toBe(422);
    expect(badAction.body.errors).toHaveProperty('actionType');
    const badFilters = await env.client.get(`${base}/count?filters=${encodeURIComponent('not json')}`);
    expect(badFilters.status).toBe(422);
    const unreadArchived = await env.client.get(`${base}?read=false&archived=true`);
    expect(unreadArchived.status).toBe(400);
    const badTags = await env.client.post(`${base}/read`, { tags: { some: 'thing' } });
    expect(badTags.status).toBe(422);
    const badSnooze = await env.client.patch(`${base}/${ids[0]}/snooze`, { snoozeUntil: 'tomorrow' });
    expect(badSnooze.status).toBe(422);
    expect((await listed(subscriberId))[0]).toMatchObject({ isRead: false, isSnoozed: false });
  });
});

describe('live updates and webhooks', () => {
  it("tells the subscriber's open inbox socket the new counts, and a returning notification", async () => {
    const { subscriberId, ids, token } = await inboxWith(2);
    const socket = await TestSocket.open(withToken(api.socketUrl, token));
    sockets.push(socket);
    await novu.subscribers.notifications.markAsRead({ subscriberId, notificationId: ids[1]! });
    const [unread] = await socket.waitFor('unread_count_changed');
    expect(unread!.data.counts.total).toBe(1);

    await novu.subscribers.notifications.markAllAsRead({}, subscriberId);
    await vi.waitFor(() => expect(socket.events('unread_count_changed').at(-1)?.data.counts.total).toBe(0), SOCKET_WAIT);

    await novu.subscribers.notifications.snooze({
      subscriberId,
      notificationId: ids[0]!,
      snoozeSubscriberNotificationDto: { snoozeUntil: new Date(Date.now() + 3_600_000) },
    });
    await novu.subscribers.notifications.unsnooze({ subscriberId, notificationId: ids[0]! });
    const [received] = await socket.waitFor('notification_received');
    expect(received!.data.message._id).toBe(ids[0]);
  });

  it('sends the message events of each change to a webhook endpoint of the environment', async () => {
    const path = `/hook-${rand()}`;
    const types = ['message.read', 'message.unread', 'message.seen', 'message.archived', 'message.snoozed', 'message.deleted'];
    const created = await env.client.post('/v2/webhooks/endpoints', { url: `${receiver.url}${path}`, eventTypes: types });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { subscriberId, ids } = await inboxWith(3);
    const [a, b, c] = ids as [string, string, string];

    await novu.subscribers.notifications.markAsRead({ subscriberId, notificationId: a });
    await novu.subscribers.notifications.markAsUnread({ subscriberId, notificationId: a });
    await novu.subscribers.notifications.archive({ subscriberId, notificationId: b });
    await novu.subscribers.notifications.snooze({
      subscriberId,
      notificationId: c,
      snoozeSubscriberNotificationDto: { snoozeUntil: new Date(Date.now() + 3_600_000) },
    });
    await novu.subscribers.notifications.deleteAll({}, subscriberId);

    const events = () =>
      receiver.requests
        .filter((r) => r.path === path)
        .map((r) => JSON.parse(r.text) as { type: string; data: { object: { _id: string } } })
        .map((e) => `${e.type} ${e.data.object._id}`)
        .sort();
    const expected = [
      `message.seen ${a}`,
      `message.read ${a}`,
      `message.unread ${a}`,
      `message.seen ${b}`,
      `message.read ${b}`,
      `message.archived ${b}`,
      `message.snoozed ${c}`,
      // deleteAll removes what the inbox shows: the snoozed one stays.
      `message.deleted ${a}`,
      `message.deleted ${b}`,
    ].sort();
    await vi.waitFor(() => expect(events()).toEqual(expected), WAIT);
  });
});
