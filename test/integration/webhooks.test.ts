import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { newId } from '#lib/ids.ts';
import { recordAttempt } from '#lib/webhooks/attempt-store.ts';
import { deliverWebhook } from '#lib/webhooks/deliver.ts';
import { handler as webhooksConsumer } from '#functions/consumers/webhooks.ts';
import { createTestOrg, inboxClient, startTestApi, type ApiClient, type TestOrg } from '../support/api.ts';
import { buildMessage, seedMessages } from '../support/message-builder.ts';
import { createWorkflow, messagesOf, rand, settledOne, trigger } from '../support/pipeline.ts';
import { startFakeApi, type FakeApi, type RecordedRequest } from '../support/provider-servers.ts';

// Outbound webhooks end to end: endpoints registered through the API receive the events of
// stored changes (the table's stream → the emitter → the webhooks queue → the sender), each
// verified with the `standardwebhooks` library as a customer would; retries keep the event's id,
// attempts and dead letters are readable through the API. The test run's retry schedule is a
// second between attempts and a 2 s timeout (test/support/global-setup.ts).

const WAIT = { timeout: 60_000, interval: 200 };
// Events go through the stream, two queues and (for retries) their schedule: more than the default 30 s for a whole test.
vi.setConfig({ testTimeout: 120_000 });

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

interface Received {
  id: string;
  type: string;
  object: string;
  data: any;
  timestamp: string;
  environmentId: string;
  headers: RecordedRequest['headers'];
}

/** A receiver path of its own and the endpoint registered for it; its deliveries, each verified. */
async function endpoint(body: Record<string, unknown> = {}, as: ApiClient = client) {
  const path = `/hook-${rand()}`;
  const res = await as.post('/v2/webhooks/endpoints', { url: `${receiver.url}${path}`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  let secret = res.body.secret as string;
  return {
    id: res.body._id as string,
    createdAt: res.body.createdAt as string,
    path,
    setSecret: (s: string) => (secret = s),
    requests: () => receiver.requests.filter((r) => r.path === path),
    /** Every delivery so far, verified with the endpoint's secret (a bad signature throws). */
    received: (): Received[] =>
      receiver.requests
        .filter((r) => r.path === path)
        .map((r) => {
          const headers = {
            'webhook-id': String(r.headers['svix-id']),
            'webhook-timestamp': String(r.headers['svix-timestamp']),
            'webhook-signature': String(r.headers['svix-signature']),
          };
          const event = new Webhook(secret).verify(r.text, headers) as Omit<Received, 'headers'>;
          expect(event.id).toBe(r.headers['svix-id']);
          return { ...event, headers: r.headers };
        }),
  };
}

const ofType = (events: Received[], type: string) => events.filter((e) => e.type === type);

describe('webhook endpoints API', () => {
  it('creates, reads, lists, updates, rotates and deletes an endpoint; the secret is shown only on create and rotate', async () => {
    const created = await client.post('/v2/webhooks/endpoints', {
      url: 'https://hooks.example/a',
      description: 'Orders',
      eventTypes: ['message.read', 'message.read'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: 'https://hooks.example/a',
      description: 'Orders',
      eventTypes: ['message.read'],
      enabled: true,
      _environmentId: org.dev.id,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const id = created.body._id as string;

    const got = await client.get(`/v2/webhooks/endpoints/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    expect(got.body).toMatchObject({ _id: id, url: 'https://hooks.example/a' });

    const listed = await client.get('/v2/webhooks/endpoints?limit=100');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((e: any) => e._id)).toContain(id);
    expect(listed.body.data.every((e: any) => !('secret' in e))).toBe(true);

    const patched = await client.patch(`/v2/webhooks/endpoints/${id}`, { url: 'https://hooks.example/b', enabled: false, eventTypes: [] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ url: 'https://hooks.example/b', enabled: false, eventTypes: [], description: 'Orders' });

    const rotated = await client.post(`/v2/webhooks/endpoints/${id}/secret/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);

    expect((await client.delete(`/v2/webhooks/endpoints/${id}`)).status).toBe(204);
    expect((await client.get(`/v2/webhooks/endpoints/${id}`)).status).toBe(404);
    expect((await client.delete(`/v2/webhooks/endpoints/${id}`)).status).toBe(404);
  });

  it('refuses bad input with a 422 naming the field, and unknown endpoints with 404', async () => {
    const badUrl = await client.post('/v2/webhooks/endpoints', { url: 'ftp://hooks.example' });
    expect(badUrl.status).toBe(422);
    expect(badUrl.body.errors).toHaveProperty('url');
    const badType = await client.post('/v2/webhooks/endpoints', { url: 'https://hooks.example', eventTypes: ['message.exploded'] });
    expect(badType.status).toBe(422);
    expect(JSON.stringify(badType.body.errors)).toContain('eventTypes');
    for (const path of ['', '/attempts', '/dead-letters']) {
      const res = await client.get(`/v2/webhooks/endpoints/0123456789abcdef01234567${path}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });
});

describe('message events', () => {
  it(
    'sends message.sent and message.delivered for an in-app message, ' + 'message.sent for an email, then one event per inbox change',
    async () => {
      const hook = await endpoint({
        eventTypes: [
          'message.sent',
          'message.delivered',
          'message.read',
          'message.unread',
          'message.seen',
          'message.archived',
          'message.unarchived',
          'message.snoozed',
          'message.unsnoozed',
          'message.deleted',
        ],
      });
      const workflowId = await createWorkflow(client, [
        { name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello' } },
        { name: 'Mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hello</p>' } },
      ]);
      const subscriberId = `sub-${rand()}`;
      await trigger(client, workflowId, { subscriberId, email: `${subscriberId}@example.test` });
      const [message] = await vi.waitFor(async () => {
        const found = await messagesOf(client, subscriberId);
        expect(found).toHaveLength(1);
        return found;
      }, WAIT);

      const sent = await vi.waitFor(() => {
        const events = hook.received();
        expect(ofType(events, 'message.sent')).toHaveLength(2);
        expect(ofType(events, 'message.delivered')).toHaveLength(1);
        return events;
      }, WAIT);
      const inApp = ofType(sent, 'message.sent').find((e) => e.data.object.channel === 'in_app')!;
      expect(inApp).toMatchObject({ object: 'message', environmentId: org.dev.applicationIdentifier });
      expect(inApp.data.object).toMatchObject({ _id: message._id, subscriberId, templateIdentifier: workflowId, read: false, seen: false });
      expect(inApp.data.object.subscriber).toMatchObject({ subscriberId });
      expect(inApp.id).toMatch(/^evt_[0-9a-f]{24}$/);
      expect(ofType(sent, 'message.sent').some((e) => e.data.object.channel === 'email')).toBe(true);
      expect(ofType(sent, 'message.delivered')[0]!.data.object._id).toBe(message._id);

      const inbox = await inboxClient(api.url, org.dev, subscriberId);
      const id = message._id as string;
      // Each change and the events its stored state makes: archiving an unread message also marks
      // it read (as the reference stores it), so that change is read as well.
      const steps: [string[], () => Promise<unknown>][] = [
        [['message.seen'], () => inbox.post('/v1/inbox/notifications/seen', { notificationIds: [id] })],
        [['message.read'], () => inbox.patch(`/v1/inbox/notifications/${id}/read`)],
        [['message.unread'], () => inbox.patch(`/v1/inbox/notifications/${id}/unread`)],
        [['message.read', 'message.archived'], () => inbox.patch(`/v1/inbox/notifications/${id}/archive`)],
        [['message.unarchived'], () => inbox.patch(`/v1/inbox/notifications/${id}/unarchive`)],
        [
          ['message.snoozed'],
          () => inbox.patch(`/v1/inbox/notifications/${id}/snooze`, { snoozeUntil: new Date(Date.now() + 3_600_000).toISOString() }),
        ],
        [['message.unsnoozed'], () => inbox.patch(`/v1/inbox/notifications/${id}/unsnooze`)],
        [['message.deleted'], () => client.delete(`/v1/messages/${id}`)],
      ];
      let expected = ['message.sent', 'message.sent', 'message.delivered'];
      for (const [types, change] of steps) {
        const res = (await change()) as { status: number; body: unknown };
        expect(res.status, `${types.join()}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
        expected = [...expected, ...types].sort();
        const events = await vi.waitFor(() => {
          const all = hook.received();
          expect(all.map((e) => e.type).sort(), types.join()).toEqual(expected);
          return all.slice(-types.length);
        }, WAIT);
        for (const event of events) expect(event.data.object._id).toBe(id);
      }
      // Each change made its events once, each with its own id.
      const all = hook.received();
      expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
      expect(ofType(all, 'message.read')[0]!.data.object.read).toBe(true);
    },
  );

  it("honours the event-type filter and `enabled`, and never sends an environment's events to another's endpoints", async () => {
    const readOnly = await endpoint({ eventTypes: ['message.read'] });
    const disabled = await endpoint({ enabled: false });
    const production = await endpoint({}, org.prod.client);
    const everything = await endpoint();
    const workflowId = await createWorkflow(client, [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello' } }]);
    const subscriberId = `sub-${rand()}`;
    await settledOne(client, await trigger(client, workflowId, { subscriberId }));
    await vi.waitFor(() => expect(ofType(everything.received(), 'message.delivered')).toHaveLength(1), WAIT);
    expect(readOnly.requests()).toHaveLength(0);

    const [message] = await messagesOf(client, subscriberId);
    const inbox = await inboxClient(api.url, org.dev, subscriberId);
    expect((await inbox.patch(`/v1/inbox/notifications/${message._id}/read`)).status).toBe(200);
    await vi.waitFor(() => expect(ofType(everything.received(), 'message.read')).toHaveLength(1), WAIT);
    await vi.waitFor(() => expect(readOnly.received().map((e) => e.type)).toEqual(['message.read']), WAIT);
    // The event reached `everything` after it reached the queue that `disabled` and production would have been sent from.
    expect(ofType(everything.received(), 'message.read')[0]!.id).toBe(readOnly.received()[0]!.id);
    expect(disabled.requests()).toHaveLength(0);
    expect(production.requests()).toHaveLength(0);
  });
});

describe('an endpoint created between a change and its event', () => {
  it('gets no event of a change made before it existed, though the stream hands the change over after', async () => {
    const subscriberId = `sub-${rand()}`;
    const created = await client.post('/v2/subscribers', { subscriberId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const recipient = { subscriberId, _id: created.body._id as string };
    const hook = await endpoint();
    // A change stored after the endpoint but made before it (its own time says so), as one
    // handed over late by the stream; then one made after it.
    const before = new Date(Date.parse(hook.createdAt) - 60_000).toISOString();
    const made = { createdAt: before, updatedAt: before, deliveredAt: [before] };
    const [early] = await seedMessages([buildMessage(org.dev.scope, recipient, made)]);
    const [late] = await seedMessages([buildMessage(org.dev.scope, recipient)]);
    await vi.waitFor(() => expect(hook.received().some((e) => e.data.object._id === late!._id)).toBe(true), WAIT);
    expect(hook.received().filter((e) => e.data.object._id === early!._id)).toEqual([]);
  });
});

describe('delivery you can trust', () => {
  it('retries a failing endpoint with the same event id until its fifth attempt succeeds; every attempt is readable', async () => {
    const hook = await endpoint({ eventTypes: ['message.sent'] });
    let calls = 0;
    const before = receiver.reply;
    receiver.reply = (request, index) => {
      if (request.path !== hook.path) return before(request, index);
      calls++;
      // A timeout (2 s in tests) once, then 500s, then the fifth attempt is taken.
      if (calls === 1) return { status: 200, delayMs: 4_000 };
      return calls < 5 ? { status: 500, body: { error: `down ${calls}` } } : { status: 204 };
    };
    const workflowId = await createWorkflow(client, [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello' } }]);
    await trigger(client, workflowId, { subscriberId: `sub-${rand()}` });

    const requests = await vi.waitFor(() => {
      const found = hook.requests();
      expect(found).toHaveLength(5);
      return found;
    }, WAIT);
    const ids = new Set(requests.map((r) => r.headers['svix-id']));
    expect(ids.size).toBe(1);
    const bodies = new Set(requests.map((r) => r.text));
    expect(bodies.size).toBe(1);
    const events = hook.received();
    expect(events.every((e) => e.type === 'message.sent')).toBe(true);
    const eventId = events[0]!.id;

    const attempts = await vi.waitFor(async () => {
      const res = await client.get(`/v2/webhooks/endpoints/${hook.id}/attempts?eventId=${eventId}&orderDirection=ASC&limit=100`);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(5);
      return res.body.data;
    }, WAIT);
    expect(attempts.map((a: any) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(attempts.map((a: any) => a.statusCode)).toEqual([null, 500, 500, 500, 204]);
    expect(attempts.map((a: any) => a.success)).toEqual([false, false, false, false, true]);
    expect(attempts[0].response).toMatch(/No answer within/);
    expect(attempts[1].response).toContain('down 2');
    expect(attempts[4].nextAttemptAt).toBeNull();
    expect(attempts[1].nextAttemptAt).not.toBeNull();
    for (const a of attempts) expect(a).toMatchObject({ eventId, eventType: 'message.sent', endpointId: hook.id });
    // Nothing more comes once it was taken.
    const all = await client.get(`/v2/webhooks/endpoints/${hook.id}/attempts?limit=100`);
    expect(all.body.data).toHaveLength(5);
    const dead = await client.get(`/v2/webhooks/endpoints/${hook.id}/dead-letters`);
    expect(dead.body.data).toEqual([]);
  });

  it('dead-letters an event after the last attempt to an endpoint that is down for good, visibly', async () => {
    const hook = await endpoint({ eventTypes: ['message.delivered'] });
    const before = receiver.reply;
    receiver.reply = (request, index) => (request.path === hook.path ? { status: 503, body: 'maintenance' } : before(request, index));
    const workflowId = await createWorkflow(client, [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello' } }]);
    await trigger(client, workflowId, { subscriberId: `sub-${rand()}` });

    const [dead] = await vi.waitFor(async () => {
      const res = await client.get(`/v2/webhooks/endpoints/${hook.id}/dead-letters`);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
      return res.body.data;
    }, WAIT);
    expect(dead).toMatchObject({
      endpointId: hook.id,
      eventType: 'message.delivered',
      attempts: 8,
      lastStatusCode: 503,
      lastResponse: 'maintenance',
    });
    expect(dead.payload).toMatchObject({ id: dead.eventId, type: 'message.delivered', object: 'message' });
    expect(hook.requests()).toHaveLength(8);
    expect(new Set(hook.requests().map((r) => r.headers['svix-id']))).toEqual(new Set([dead.eventId]));
  });
});

describe('workflow and preference events', () => {
  it(
    'sends workflow.created, .updated (with the previous workflow), ' + '.published on sync and .deleted; a trigger changes nothing',
    async () => {
      const dev = await endpoint({ eventTypes: ['workflow.created', 'workflow.updated', 'workflow.published', 'workflow.deleted'] });
      const prod = await endpoint({ eventTypes: ['workflow.created'] }, org.prod.client);
      const workflowId = `wf-${rand()}`;
      const created = await client.post('/v2/workflows', {
        name: 'Orders',
        workflowId,
        active: true,
        steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello' } }],
      });
      expect(created.status).toBe(201);
      const [createdEvent] = await vi.waitFor(() => {
        const found = ofType(dev.received(), 'workflow.created');
        expect(found).toHaveLength(1);
        return found;
      }, WAIT);
      expect(createdEvent).toMatchObject({
        object: 'workflow',
        environmentId: org.dev.applicationIdentifier,
        data: { object: { workflowId, name: 'Orders', _id: created.body._id } },
      });

      // A trigger stamps the workflow's lastTriggeredAt: no change of the workflow, no event.
      await settledOne(client, await trigger(client, workflowId, { subscriberId: `sub-${rand()}` }));
      expect((await client.patch(`/v2/workflows/${workflowId}`, { name: 'Orders v2' })).status).toBe(200);
      const [updated] = await vi.waitFor(() => {
        const found = ofType(dev.received(), 'workflow.updated');
        expect(found).toHaveLength(1);
        return found;
      }, WAIT);
      expect(updated!.data.object.name).toBe('Orders v2');
      expect(updated!.data.previousObject.name).toBe('Orders');

      expect((await client.put(`/v2/workflows/${workflowId}/sync`, { targetEnvironmentId: org.prod.id })).status).toBe(200);
      const [published] = await vi.waitFor(() => {
        const found = ofType(dev.received(), 'workflow.published');
        expect(found).toHaveLength(1);
        return found;
      }, WAIT);
      expect(published!.data.object.workflowId).toBe(workflowId);
      expect(published!.data).toHaveProperty('previousObject');
      // The copy made in Production is Production's own event.
      await vi.waitFor(
        () =>
          expect(prod.received().map((e) => [e.type, e.data.object.workflowId, e.environmentId])).toEqual([
            ['workflow.created', workflowId, org.prod.applicationIdentifier],
          ]),
        WAIT,
      );

      expect((await client.delete(`/v2/workflows/${workflowId}`)).status).toBe(204);
      const [deleted] = await vi.waitFor(() => {
        const found = ofType(dev.received(), 'workflow.deleted');
        expect(found).toHaveLength(1);
        return found;
      }, WAIT);
      expect(deleted!.data.object.workflowId).toBe(workflowId);
      expect(
        dev
          .received()
          .map((e) => e.type)
          .sort(),
      ).toEqual(['workflow.created', 'workflow.deleted', 'workflow.published', 'workflow.updated']);
    },
  );

  it('sends workflow.updated, not a deletion and a creation, when a v1 update gives a workflow a new identifier', async () => {
    const hook = await endpoint({ eventTypes: ['workflow.created', 'workflow.updated', 'workflow.deleted'] });
    await createWorkflow(client, [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello' } }]);
    await vi.waitFor(() => expect(hook.received().map((e) => e.type)).toEqual(['workflow.created']), WAIT);
    const dbId = hook.received()[0]!.data.object._id as string;
    const identifier = `renamed-${rand()}`;
    const renamed = await client.put(`/v1/notification-templates/${dbId}`, { identifier });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const [updated] = await vi.waitFor(() => {
      const found = ofType(hook.received(), 'workflow.updated');
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    expect(updated!.data.object).toMatchObject({ _id: dbId, workflowId: identifier });
    // The rename is one transaction (a Put and a Delete); DynamoDB Local's stream is one shard in
    // write order, so the old key's removal was handed to the emitter with or before the update.
    // An attempt is stored once its POST is answered: the endpoint may see it first.
    await vi.waitFor(async () => {
      const attempts = (await client.get(`/v2/webhooks/endpoints/${hook.id}/attempts?limit=100`)).body.data;
      expect(attempts.map((a: any) => a.eventType).sort()).toEqual(['workflow.created', 'workflow.updated']);
    }, WAIT);
    expect(ofType(hook.received(), 'workflow.deleted')).toEqual([]);
  });

  it("sends preference.updated for a change of a subscriber's global and workflow preferences", async () => {
    const hook = await endpoint({ eventTypes: ['preference.updated'] });
    const workflowId = await createWorkflow(client, [{ name: 'Mail', type: 'email', controlValues: { subject: 'Hi', body: 'Hello' } }]);
    const subscriberId = `sub-${rand()}`;
    expect((await client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    const path = `/v2/subscribers/${subscriberId}/preferences`;
    expect((await client.patch(path, { channels: { email: false } })).status).toBe(200);
    const [global] = await vi.waitFor(() => {
      const found = hook.received();
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    expect(global).toMatchObject({
      type: 'preference.updated',
      object: 'preference',
      data: { subscriberId, object: { level: 'global', channels: { email: false } } },
    });

    expect((await client.patch(path, { workflowId, channels: { email: true } })).status).toBe(200);
    const events = await vi.waitFor(() => {
      const found = hook.received();
      expect(found).toHaveLength(2);
      return found;
    }, WAIT);
    const template = events.find((e) => e.data.object.level === 'template')!;
    expect(template.data).toMatchObject({ subscriberId, object: { workflow: { identifier: workflowId }, channels: { email: true } } });
  });
});

describe('a delivery message handed over twice, or after a crash', () => {
  // SQS may deliver a message twice, and a sender may die between recording an attempt and
  // queueing the next: the attempt item, written once, is what the next run carries on from.
  const delivery = (endpointId: string, eventId: string, attempt: number) =>
    JSON.stringify({
      kind: 'webhook',
      ...org.dev.scope,
      endpointId,
      eventId,
      eventType: 'message.read',
      attempt,
      payload: JSON.stringify({
        id: eventId,
        type: 'message.read',
        object: 'message',
        data: { object: {} },
        timestamp: new Date().toISOString(),
        environmentId: org.dev.applicationIdentifier,
      }),
    });
  const eventId = () => `evt_${newId()}`;

  it('sends a redelivered attempt once and schedules one retry', async () => {
    const hook = await endpoint();
    const before = receiver.reply;
    receiver.reply = (request, index) =>
      request.path !== hook.path ? before(request, index) : hook.requests().length === 1 ? { status: 500 } : { status: 200 };
    const id = eventId();
    await deliverWebhook(delivery(hook.id, id, 1));
    await deliverWebhook(delivery(hook.id, id, 1));
    const attempts = await vi.waitFor(async () => {
      const res = await client.get(`/v2/webhooks/endpoints/${hook.id}/attempts?eventId=${id}&orderDirection=ASC`);
      expect(res.body.data.map((a: any) => [a.attempt, a.statusCode])).toEqual([
        [1, 500],
        [2, 200],
      ]);
      return res.body.data;
    }, WAIT);
    expect(attempts).toHaveLength(2);
    expect(hook.requests()).toHaveLength(2);
    expect(hook.received().map((e) => e.id)).toEqual([id, id]);
  });

  it('records each attempt of a consumer batch, sends none twice, and sends a recorded one no more', async () => {
    const hook = await endpoint();
    const before = receiver.reply;
    const failing = eventId();
    receiver.reply = (request, index) =>
      request.path !== hook.path
        ? before(request, index)
        : request.text.includes(failing) && hook.requests().filter((r) => r.text.includes(failing)).length === 1
          ? { status: 500 }
          : { status: 200 };
    const ids = [eventId(), eventId(), failing];
    const recorded = eventId();
    await recordAttempt(org.dev.scope, {
      eventId: recorded,
      eventType: 'message.read',
      endpointId: hook.id,
      attempt: 1,
      statusCode: 200,
      success: true,
      latencyMs: 5,
      response: '',
      timestamp: new Date().toISOString(),
      nextAttemptAt: null,
    });
    const records = [...ids, recorded].map((id, i) => ({ messageId: `m${i}`, body: delivery(hook.id, id, 1) }));
    const outcome = await webhooksConsumer({ Records: records } as any, { awsRequestId: newId() } as any);
    expect(outcome).toEqual({ batchItemFailures: [] });

    const attemptsOf = async (id: string) =>
      (await client.get(`/v2/webhooks/endpoints/${hook.id}/attempts?eventId=${id}&orderDirection=ASC`)).body.data.map((a: any) => [
        a.attempt,
        a.statusCode,
        a.success,
      ]);
    expect(await attemptsOf(ids[0]!)).toEqual([[1, 200, true]]);
    expect(await attemptsOf(ids[1]!)).toEqual([[1, 200, true]]);
    expect(await attemptsOf(recorded)).toEqual([[1, 200, true]]);
    // The failed one's retry follows as before.
    await vi.waitFor(
      async () =>
        expect(await attemptsOf(failing)).toEqual([
          [1, 500, false],
          [2, 200, true],
        ]),
      WAIT,
    );
    expect(hook.received().filter((e) => e.id === recorded)).toHaveLength(0);
    for (const id of ids.slice(0, 2)) expect(hook.received().filter((e) => e.id === id)).toHaveLength(1);
  });

  it(
    'after a sender died between recording a failed attempt and queueing ' +
      'the next, the redelivered message queues it without sending again',
    async () => {
      const hook = await endpoint();
      const id = eventId();
      // What the dead sender left: attempt 1 recorded (failed), its follow-up never queued.
      await recordAttempt(org.dev.scope, {
        eventId: id,
        eventType: 'message.read',
        endpointId: hook.id,
        attempt: 1,
        statusCode: 503,
        success: false,
        latencyMs: 5,
        response: 'unavailable',
        timestamp: new Date().toISOString(),
        nextAttemptAt: new Date().toISOString(),
      });
      await deliverWebhook(delivery(hook.id, id, 1));
      await vi.waitFor(() => expect(hook.requests()).toHaveLength(1), WAIT);
      const res = await client.get(`/v2/webhooks/endpoints/${hook.id}/attempts?eventId=${id}&orderDirection=ASC`);
      expect(res.body.data.map((a: any) => [a.attempt, a.statusCode, a.success])).toEqual([
        [1, 503, false],
        [2, 200, true],
      ]);
    },
  );
});
