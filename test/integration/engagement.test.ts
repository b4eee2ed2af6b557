import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { consumeChanges, type KeyedChange } from '#lib/engagement/consume.ts';
import { getStats } from '#lib/engagement/stats.ts';
import { newId } from '#lib/ids.ts';
import { keys, MESSAGE_ITEM_TYPE } from '#lib/store/keys.ts';
import { createTestOrg, inboxClient, startTestApi, type ApiClient, type TestOrg } from '../support/api.ts';
import { activity, createWorkflow, messagesOf, rand, settledOne, trigger } from '../support/pipeline.ts';

// Steps that depend on engagement and the numbers over time, end to end: workflows made through
// the v2 API, triggered, their in-app messages read or seen through the inbox API as a browser
// would; a later step's `skip` condition and a delay waiting for engagement decide from what the
// subscriber did (both ways), the table's stream wakes the waiting delay early, and the counters
// (GET /v1/engagement/stats) count each fact once, also when stream records come twice.

const WAIT = { timeout: 60_000, interval: 250 };
vi.setConfig({ testTimeout: 120_000 });

let api: LocalApi;
let org: TestOrg;
let client: ApiClient;

beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
  client = org.dev.client;
});
afterAll(() => api?.close());

const INBOX = { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Your invoice is ready' } };
/** Sent only when the inbox message was not read (the step runs when its `skip` rule is true). */
const NUDGE = {
  name: 'Nudge',
  stepId: 'nudge',
  type: 'in_app',
  controlValues: { body: 'Did you see your invoice?', skip: { '!': { var: 'steps.inbox.read' } } },
};
const delay = (seconds: number) => ({
  name: 'Wait',
  stepId: 'wait',
  type: 'delay',
  controlValues: { type: 'regular', amount: seconds, unit: 'seconds' },
});
const waitFor = (event: string, seconds: number) => ({
  name: 'Wait',
  stepId: 'wait',
  type: 'delay',
  controlValues: { type: 'regular', amount: seconds, unit: 'seconds', waitFor: { stepId: 'inbox', event } },
});

/** The subscriber's in-app message of a step (by its body), once it exists. */
const messageWith = (subscriberId: string, content: string) =>
  vi.waitFor(async () => {
    const found = (await messagesOf(client, subscriberId)).filter((m) => m.content === content);
    expect(found).toHaveLength(1);
    return found[0];
  }, WAIT);

const detailsOf = (job: any): string[] => job.executionDetails.map((d: any) => d.detail);

// The cases of a describe have workflows and subscribers of their own and mostly wait on delays:
// they run at once.
describe.concurrent('a step condition on an earlier step', () => {
  it('sends the nudge when the inbox message was not read by the time the step runs', async () => {
    const workflowId = await createWorkflow(client, [INBOX, delay(2), NUDGE]);
    const subscriberId = `sub-${rand()}`;
    const tx = await trigger(client, workflowId, subscriberId);
    const notification = await settledOne(client, tx);
    expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'completed']);
    await messageWith(subscriberId, 'Did you see your invoice?');
  });

  it('skips the nudge when the inbox message was read first', async () => {
    const workflowId = await createWorkflow(client, [INBOX, delay(6), NUDGE]);
    const subscriberId = `sub-${rand()}`;
    const tx = await trigger(client, workflowId, subscriberId);
    const inbox = await messageWith(subscriberId, 'Your invoice is ready');
    const session = await inboxClient(api.url, org.dev, subscriberId);
    expect((await session.patch(`/v1/inbox/notifications/${inbox._id}/read`)).status).toBe(200);
    const notification = await settledOne(client, tx);
    expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'canceled']);
    expect(detailsOf(notification.jobs[2])).toContain('Step was skipped based on steps conditions');
    expect((await messagesOf(client, subscriberId)).map((m) => m.content)).toEqual(['Your invoice is ready']);
  });
});

describe('a previousStep filter of a v1 workflow', () => {
  it('sends the reminder only to the subscriber who did not read the first message', async () => {
    const groupId = (await client.get('/v1/notification-groups')).body.data[0]._id;
    const created = await client.post('/v1/notification-templates', {
      name: `Reminder ${rand()}`,
      notificationGroupId: groupId,
      active: true,
      steps: [
        { uuid: 'inbox', template: { type: 'in_app', content: 'Your invoice is ready' } },
        { uuid: 'wait', template: { type: 'delay', content: '' }, metadata: { type: 'regular', amount: 6, unit: 'seconds' } },
        {
          uuid: 'reminder',
          template: { type: 'in_app', content: 'Reminder: your invoice' },
          filters: [
            { isNegated: false, type: 'GROUP', value: 'AND', children: [{ on: 'previousStep', step: 'inbox', stepType: 'unread' }] },
          ],
        },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const workflowId = created.body.data.triggers[0].identifier as string;
    // The filter is kept as sent.
    expect(created.body.data.steps[2].filters[0].children[0]).toEqual({ on: 'previousStep', step: 'inbox', stepType: 'unread' });
    const [reader, other] = [`sub-${rand()}`, `sub-${rand()}`];
    const [readerTx, otherTx] = [await trigger(client, workflowId, reader), await trigger(client, workflowId, other)];
    const inbox = await messageWith(reader, 'Your invoice is ready');
    const session = await inboxClient(api.url, org.dev, reader);
    expect((await session.patch(`/v1/inbox/notifications/${inbox._id}/read`)).status).toBe(200);
    expect((await settledOne(client, readerTx)).jobs[2].status).toBe('canceled');
    expect((await settledOne(client, otherTx)).jobs[2].status).toBe('completed');
    await messageWith(other, 'Reminder: your invoice');
    expect((await messagesOf(client, reader)).map((m) => m.content)).toEqual(['Your invoice is ready']);
  });
});

describe.concurrent('a delay that waits for engagement', () => {
  it('ends early when the message is read (woken by the change), and the nudge is not sent, even after the limit', async () => {
    const workflowId = await createWorkflow(client, [INBOX, waitFor('read', 25), NUDGE]);
    const subscriberId = `sub-${rand()}`;
    const started = Date.now();
    const tx = await trigger(client, workflowId, subscriberId);
    const inbox = await messageWith(subscriberId, 'Your invoice is ready');
    await vi.waitFor(async () => expect((await activity(client, tx))[0].jobs[1].status).toBe('delayed'), WAIT);
    const session = await inboxClient(api.url, org.dev, subscriberId);
    expect((await session.patch(`/v1/inbox/notifications/${inbox._id}/read`)).status).toBe(200);
    const notification = await settledOne(client, tx);
    // Well before the 25 s limit: the stream's record of the read woke the delay.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'canceled']);
    expect(detailsOf(notification.jobs[1])).toContain('Delay ended: the subscriber read the message');
    // The timed message comes at the limit too: it finds the job done and sends nothing more.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 27_000 - Date.now())));
    const after = (await activity(client, tx))[0];
    expect(after.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'canceled']);
    expect(after.jobs[1].executionDetails).toHaveLength(notification.jobs[1].executionDetails.length);
    expect((await messagesOf(client, subscriberId)).map((m) => m.content)).toEqual(['Your invoice is ready']);
  });

  it('waits out its limit when nothing happens, then the nudge is sent once', async () => {
    const workflowId = await createWorkflow(client, [INBOX, waitFor('read', 3), NUDGE]);
    const subscriberId = `sub-${rand()}`;
    const tx = await trigger(client, workflowId, subscriberId);
    const notification = await settledOne(client, tx);
    expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'completed']);
    expect(detailsOf(notification.jobs[1]).some((d) => d.startsWith('Delay ended'))).toBe(false);
    const contents = (await messagesOf(client, subscriberId)).map((m) => m.content).sort();
    expect(contents).toEqual(['Did you see your invoice?', 'Your invoice is ready']);
  });

  it('waits for `seen` as well, marked through the inbox', async () => {
    const workflowId = await createWorkflow(client, [
      INBOX,
      waitFor('seen', 25),
      { ...NUDGE, controlValues: { ...NUDGE.controlValues, skip: { '!': { var: 'steps.inbox.seen' } } } },
    ]);
    const subscriberId = `sub-${rand()}`;
    const started = Date.now();
    const tx = await trigger(client, workflowId, subscriberId);
    const inbox = await messageWith(subscriberId, 'Your invoice is ready');
    await vi.waitFor(async () => expect((await activity(client, tx))[0].jobs[1].status).toBe('delayed'), WAIT);
    const session = await inboxClient(api.url, org.dev, subscriberId);
    expect((await session.post('/v1/inbox/notifications/seen', { notificationIds: [inbox._id] })).status).toBe(204);
    const notification = await settledOne(client, tx);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(detailsOf(notification.jobs[1])).toContain('Delay ended: the subscriber saw the message');
    expect(notification.jobs[2].status).toBe('canceled');
  });

  it('does not wait at all when the event happened before the delay started', async () => {
    // A first delay gives the time to read the message before the waiting one starts.
    const workflowId = await createWorkflow(client, [
      INBOX,
      { name: 'Pause', stepId: 'pause', type: 'delay', controlValues: { type: 'regular', amount: 4, unit: 'seconds' } },
      waitFor('read', 60),
      NUDGE,
    ]);
    const subscriberId = `sub-${rand()}`;
    const tx = await trigger(client, workflowId, subscriberId);
    const inbox = await messageWith(subscriberId, 'Your invoice is ready');
    const session = await inboxClient(api.url, org.dev, subscriberId);
    expect((await session.patch(`/v1/inbox/notifications/${inbox._id}/read`)).status).toBe(200);
    const notification = await settledOne(client, tx);
    expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'completed', 'canceled']);
    expect(detailsOf(notification.jobs[2])).toContain('Delay ended: the subscriber read the message');
    expect(detailsOf(notification.jobs[2])).not.toContain('Step delayed');
  });

  it('refuses a waitFor with an unknown event (422)', async () => {
    const res = await client.post('/v2/workflows', {
      name: `wf-${rand()}`,
      workflowId: `wf-${rand()}`,
      steps: [
        INBOX,
        {
          ...waitFor('read', 5),
          controlValues: { type: 'regular', amount: 5, unit: 'seconds', waitFor: { stepId: 'inbox', event: 'liked' } },
        },
      ],
    });
    expect(res.status).toBe(422);
  });
});

describe('numbers over time', () => {
  it('counts triggers, sends, deliveries and reads of a workflow per day and channel', async () => {
    const workflowId = await createWorkflow(client, [INBOX]);
    const subscribers = [`sub-${rand()}`, `sub-${rand()}`, `sub-${rand()}`];
    for (const subscriberId of subscribers) await settledOne(client, await trigger(client, workflowId, subscriberId));
    const first = await messageWith(subscribers[0]!, 'Your invoice is ready');
    const session = await inboxClient(api.url, org.dev, subscribers[0]!);
    expect((await session.patch(`/v1/inbox/notifications/${first._id}/read`)).status).toBe(200);
    // Read, unread and read again: the message counts as read once.
    expect((await session.patch(`/v1/inbox/notifications/${first._id}/unread`)).status).toBe(200);
    expect((await session.patch(`/v1/inbox/notifications/${first._id}/read`)).status).toBe(200);

    const today = new Date().toISOString().slice(0, 10);
    const stats = await vi.waitFor(async () => {
      const res = await client.get(`/v1/engagement/stats?workflowId=${workflowId}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.workflows[0]?.channels.in_app).toMatchObject({ sent: 3, delivered: 3, read: 1 });
      return res.body;
    }, WAIT);
    expect(stats.to).toBe(today);
    expect(stats.days).toEqual([
      {
        date: today,
        workflowId,
        triggered: 3,
        channels: { in_app: { sent: 3, delivered: 3, failed: 0, opened: 0, clicked: 0, read: 1 } },
      },
    ]);
    expect(stats.workflows[0].rates.in_app).toEqual({ delivery: 1, open: 0, click: 0, read: 0.3333 });
    // The other environment counts nothing of it.
    const prod = await org.prod.client.get(`/v1/engagement/stats?workflowId=${workflowId}`);
    expect(prod.body).toMatchObject({ days: [], workflows: [] });
  });

  it('answers a range (both ends included), and refuses bad ranges with 422', async () => {
    const ok = await client.get('/v1/engagement/stats?from=2026-01-01&to=2026-01-31');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ from: '2026-01-01', to: '2026-01-31', days: [], workflows: [] });
    for (const query of [
      'from=2026-02-01&to=2026-01-01',
      'from=2026-13-01',
      'to=yesterday',
      'from=2026-01-01&to=2026-12-31',
      'from=2026-02-30',
    ]) {
      const res = await client.get(`/v1/engagement/stats?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.errors, query).toBeDefined();
    }
  });

  it('counts each fact once when stream records come twice, in one batch or in a later one', async () => {
    const scope = { organizationId: newId(), environmentId: newId() };
    const pk = keys.message(scope, 'ada', 'x').pk;
    const made = {
      type: MESSAGE_ITEM_TYPE,
      _id: newId(),
      channel: 'email',
      templateIdentifier: 'digest',
      status: 'sent',
      read: false,
      seen: false,
      createdAt: '2026-11-02T10:00:00.000Z',
      updatedAt: '2026-11-02T10:00:00.000Z',
    };
    const delivered = { ...made, deliveryStatus: 'delivered', deliveryStatusAt: '2026-11-02T10:00:05.000Z' };
    const opened = { ...delivered, opened: '2026-11-02T11:00:00.000Z' };
    const clicked = { ...opened, clicked: '2026-11-03T08:00:00.000Z', clickCount: 1 };
    const record = (before: object | undefined, after: object): KeyedChange => ({
      pk,
      sk: `MSG#${made._id}`,
      ...(before && { before: before as Record<string, unknown> }),
      after: after as Record<string, unknown>,
      expired: false,
    });
    const trig = { transactionId: 'tx-dup', workflowId: 'digest', createdAt: '2026-11-02T09:59:59.000Z' };
    const triggered: KeyedChange = { pk: keys.triggerEvent(scope, 'tx-dup').pk, sk: 'EVENT', after: trig, expired: false };
    // An in-app message: sent and delivered when made, under one marker.
    const inApp = { ...made, _id: newId(), channel: 'in_app' };
    const inAppMade: KeyedChange = { pk, sk: `MSG#${inApp._id}`, after: inApp, expired: false };
    const batch = [triggered, record(undefined, made), record(made, delivered), record(delivered, opened), record(opened, clicked)];
    // Every record twice in the batch, then the whole batch handed over again, then a click more.
    await consumeChanges([...batch, ...batch, inAppMade]);
    await consumeChanges([...batch, inAppMade]);
    await consumeChanges([record(clicked, { ...clicked, clickCount: 2 }), inAppMade]);
    const stats = await getStats(scope, { from: '2026-11-01', to: '2026-11-05' });
    expect(stats.days).toEqual([
      {
        date: '2026-11-02',
        workflowId: 'digest',
        triggered: 1,
        channels: {
          email: { sent: 1, delivered: 1, failed: 0, opened: 1, clicked: 0, read: 0 },
          in_app: { sent: 1, delivered: 1, failed: 0, opened: 0, clicked: 0, read: 0 },
        },
      },
      {
        date: '2026-11-03',
        workflowId: 'digest',
        triggered: 0,
        channels: { email: { sent: 0, delivered: 0, failed: 0, opened: 0, clicked: 1, read: 0 } },
      },
    ]);
    expect(stats.workflows).toEqual([
      {
        workflowId: 'digest',
        triggered: 1,
        channels: {
          email: { sent: 1, delivered: 1, failed: 0, opened: 1, clicked: 1, read: 0 },
          in_app: { sent: 1, delivered: 1, failed: 0, opened: 0, clicked: 0, read: 0 },
        },
        rates: { email: { delivery: 1, open: 1, click: 1, read: 0 }, in_app: { delivery: 1, open: 0, click: 0, read: 0 } },
      },
    ]);
  });
});
