import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signSessionToken } from '#lib/auth/session-token.ts';
import { announce, liveMessage } from '#lib/live/announce.ts';
import { connectionsOf, saveConnection } from '#lib/live/connections.ts';
import type { JobContext } from '#lib/pipeline/decision.ts';
import { decideInApp } from '#lib/pipeline/steps/in-app.ts';
import { getItem } from '#lib/store/get-item.ts';
import { keys } from '#lib/store/keys.ts';
import { dynamo } from '#lib/store/client.ts';
import { countsBetween, meterRequests } from '../../bench/request-meter.ts';
import { handler as liveConsumer } from '#functions/consumers/live.ts';
import { createTestOrg, startTestApi, type TestApi, type TestEnv, type TestOrg } from '../support/api.ts';
import { createWorkflow, rand, trigger, WAIT } from '../support/pipeline.ts';
import { SOCKET_WAIT, subscriberSession, TestSocket, withToken } from '../support/sockets.ts';
import { step, workflow } from '../support/workflow-builder.ts';

// Live inbox updates over the local WebSocket API (the same $connect authorizer and routes a
// deployed stack runs): who may open a socket, what is kept of it, and what it receives when the
// delivery pipeline stores an in-app message or an inbox's counts change. Sockets are raw `ws`
// clients here; test/integration/live-client.test.ts drives the real @novu/js client.

let api: TestApi;
let org: TestOrg;
let env: TestEnv;
const open: TestSocket[] = [];

beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
  env = org.dev;
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await api.close();
});

async function connect(token: string): Promise<TestSocket> {
  const socket = await TestSocket.open(withToken(api.socketUrl, token));
  open.push(socket);
  return socket;
}

const refusal = (url: string) =>
  TestSocket.open(url).then(
    () => 'opened',
    (error: { status?: number }) => error.status,
  );

const inApp = (body: string, extra: Record<string, unknown> = {}) => ({
  name: 'Inbox',
  stepId: `inbox-${rand()}`,
  type: 'in_app',
  controlValues: { body, ...extra },
});

/** The connection items of a subscriber, by id (read as the push reads them). */
const connectionItem = (subscriberId: string, connectionId: string) =>
  getItem(keys.liveConnection(env.scope, subscriberId, connectionId), { consistent: true });

describe('opening a socket', () => {
  it('refuses a missing token (401) and a token that opens nothing (403)', async () => {
    expect(await refusal(api.socketUrl)).toBe(401);
    expect(await refusal(withToken(api.socketUrl, ''))).toBe(401);
    expect(await refusal(withToken(api.socketUrl, 'not-a-token'))).toBe(403);
    const { token } = await subscriberSession(env);
    // One character of the signature changed.
    const altered = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1);
    expect(await refusal(withToken(api.socketUrl, altered))).toBe(403);
  });

  it('keeps an open socket under its subscriber, with its context keys and a TTL, until it closes', async () => {
    const { session, token } = await subscriberSession(env, ['tenant:acme']);
    const before = Math.floor(Date.now() / 1000);
    const socket = await connect(token);
    // The connection id is only known to the server: find the item by the subscriber's partition.
    const items = await vi.waitFor(async () => {
      const found = await connectionsOf(env.scope, session.subscriberId, new Date());
      expect(found).toHaveLength(1);
      return found;
    }, SOCKET_WAIT);
    const item = await connectionItem(session.subscriberId, items[0]!.connectionId);
    expect(item).toMatchObject({
      connectionId: items[0]!.connectionId,
      contextKeys: ['tenant:acme'],
      contextKey: 'tenant:acme',
      subscriberDbId: session.subscriberDbId,
    });
    // API Gateway closes a socket after 2 hours: the item goes by then (and a minute's margin).
    expect(item!.ttl).toBeGreaterThanOrEqual(before + 2 * 3600);
    expect(item!.ttl).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 2 * 3600 + 60);

    await socket.close();
    // $disconnect, which API Gateway hands the authorizer's context too, removes it.
    await vi.waitFor(async () => expect(await connectionItem(session.subscriberId, items[0]!.connectionId)).toBeUndefined(), SOCKET_WAIT);
  });

  it('answers the client heartbeat `ping` with `pong`, and ignores anything else', async () => {
    const { token } = await subscriberSession(env);
    const socket = await connect(token);
    socket.send('hello');
    socket.send('ping');
    await vi.waitFor(() => expect(socket.texts).toEqual(['pong']), SOCKET_WAIT);
    socket.send('ping');
    await vi.waitFor(() => expect(socket.texts).toEqual(['pong', 'pong']), SOCKET_WAIT);
    expect(socket.closed).toBeUndefined();
  });
});

describe('what a socket receives', () => {
  it('gets notification_received with the raw message when a trigger stores an in-app message, then the counts', async () => {
    const wf = await createWorkflow(env.client, [
      inApp('Hi {{subscriber.firstName}}, {{payload.who}} commented', {
        subject: 'New comment',
        primaryAction: { label: 'Open', redirect: { url: '/posts/1' } },
      }),
    ]);
    const { session, token } = await subscriberSession(env);
    const socket = await connect(token);
    const txid = await trigger(env.client, wf, session.subscriberId, { who: 'Bob' });

    const [received] = await socket.waitFor('notification_received');
    const message = received!.data.message;
    expect(message).toMatchObject({
      transactionId: txid,
      channel: 'in_app',
      content: 'Hi Ada, Bob commented',
      subject: 'New comment',
      read: false,
      seen: false,
      archived: false,
      snoozedUntil: null,
      templateIdentifier: wf,
      subscriber: { _id: session.subscriberDbId, subscriberId: session.subscriberId, firstName: 'Ada', lastName: 'Lovelace' },
      cta: { action: { status: 'pending', buttons: [{ type: 'primary', content: 'Open', url: '/posts/1' }] } },
      workflow: { identifier: wf, critical: false, severity: 'none' },
      severity: 'none',
    });
    expect(message.deliveredAt).toHaveLength(1);

    const [unread] = await socket.waitFor('unread_count_changed');
    expect(unread!.data).toEqual({
      unreadCount: 1,
      counts: { total: 1, severity: { high: 0, medium: 0, low: 0, none: 1 } },
      hasMore: false,
    });
    const [unseen] = await socket.waitFor('unseen_count_changed');
    expect(unseen!.data).toEqual({ unseenCount: 1, hasMore: false });
    // In that order: the message first, then the counts.
    expect(socket.frames.map((f) => f.event)).toEqual(['notification_received', 'unread_count_changed', 'unseen_count_changed']);
  });

  it('gives each push of a consumer batch to one subscriber its frames, from one read of its sockets and counts', async () => {
    const wf = await createWorkflow(env.client, [inApp('Batched')]);
    const { session, token } = await subscriberSession(env);
    const socket = await connect(token);
    await trigger(env.client, wf, session.subscriberId);
    const [received] = await socket.waitFor('notification_received');
    await socket.waitFor('unseen_count_changed');

    const events = [{ kind: 'counts' }, { kind: 'received', messageId: received!.data.message._id }, { kind: 'counts' }] as const;
    const records = events.map((event, i) => ({
      messageId: `m${i}`,
      body: JSON.stringify(liveMessage(session, session.subscriberId, event)),
    }));
    const meter = meterRequests(dynamo());
    const before = meter.snapshot();
    const outcome = await liveConsumer({ Records: records } as any, { awsRequestId: rand() } as any);
    const queries = countsBetween(before, meter.snapshot()).Query?.requests ?? 0;
    expect(outcome).toEqual({ batchItemFailures: [] });
    // The sockets once, the unread counts once, the unseen count once (the stream consumer may read the environment's endpoints meanwhile).
    expect(queries).toBeGreaterThanOrEqual(3);
    expect(queries).toBeLessThanOrEqual(4);

    await socket.waitFor('unseen_count_changed', 4);
    await socket.waitFor('notification_received', 2);
    expect(
      socket
        .events('unread_count_changed')
        .slice(1)
        .map((f) => f.data),
    ).toEqual(
      Array.from({ length: 3 }, () => ({
        unreadCount: 1,
        counts: { total: 1, severity: { high: 0, medium: 0, low: 0, none: 1 } },
        hasMore: false,
      })),
    );
    expect(socket.events('unseen_count_changed').map((f) => f.data)).toEqual(
      Array.from({ length: 4 }, () => ({ unseenCount: 1, hasMore: false })),
    );
  });

  it('sends nothing to another subscriber, nor to the subscriber’s socket of another context', async () => {
    const wf = await createWorkflow(env.client, [inApp('For the acme tenant')]);
    const ada = await subscriberSession(env, ['tenant:acme']);
    const adaOtherContext = await signSessionToken({ ...ada.session, contextKeys: ['tenant:globex'] });
    const adaNoContext = await signSessionToken({ ...ada.session, contextKeys: [] });
    const bob = await subscriberSession(env, ['tenant:acme']);
    const prodAda = await subscriberSession(org.prod, ['tenant:acme'], ada.session.subscriberId);
    const [acme, globex, none, bobs, prods] = await Promise.all([
      connect(ada.token),
      connect(adaOtherContext),
      connect(adaNoContext),
      connect(bob.token),
      connect(prodAda.token),
    ]);

    await trigger(env.client, wf, ada.session.subscriberId, {}, { context: { tenant: 'acme' } });
    await acme.waitFor('unseen_count_changed');
    expect(acme.frames.map((f) => f.event)).toEqual(['notification_received', 'unread_count_changed', 'unseen_count_changed']);

    // Each of the others gets a push of its own now: the first frame it sees is that one's.
    await announce(ada.session, ada.session.subscriberId, { kind: 'counts' });
    await announce(bob.session, bob.session.subscriberId, { kind: 'counts' });
    await announce(prodAda.session, prodAda.session.subscriberId, { kind: 'counts' });
    for (const socket of [globex, none, bobs, prods]) {
      await socket.waitFor('unseen_count_changed');
      expect(socket.frames.map((f) => f.event)).toEqual(['unread_count_changed', 'unseen_count_changed']);
      // The counts of its own context: nothing unread there.
      expect(socket.frames[0]!.data.counts.total).toBe(0);
    }
    // The counts push reached the acme socket too, with its own context's count.
    await vi.waitFor(() => expect(acme.events('unread_count_changed')).toHaveLength(2), SOCKET_WAIT);
    expect(acme.events('unread_count_changed')[1]!.data.counts.total).toBe(1);
  });

  it('drops a connection whose socket is gone (410) when it pushes, and still reaches the open ones', async () => {
    const { session, token } = await subscriberSession(env);
    const socket = await connect(token);
    // A connection whose $disconnect never came: API Gateway answers 410 Gone for it.
    await saveConnection(session, 'R29uZUNvbm5lY3Rpb24=', new Date());
    expect(await connectionItem(session.subscriberId, 'R29uZUNvbm5lY3Rpb24=')).toBeDefined();

    await announce(session, session.subscriberId, { kind: 'counts' });
    await socket.waitFor('unseen_count_changed');
    await vi.waitFor(async () => expect(await connectionItem(session.subscriberId, 'R29uZUNvbm5lY3Rpb24=')).toBeUndefined(), SOCKET_WAIT);
  });

  it(
    'pushes to every open socket of the subscriber (two tabs)',
    async () => {
      const wf = await createWorkflow(env.client, [inApp('Two tabs')]);
      const { session, token } = await subscriberSession(env);
      const [one, two] = await Promise.all([connect(token), connect(token)]);
      await trigger(env.client, wf, session.subscriberId);
      for (const socket of [one, two]) {
        const [frame] = await socket.waitFor('notification_received');
        expect(frame!.data.message.content).toBe('Two tabs');
      }
    },
    WAIT.timeout,
  );
});

describe('who is announced to (the presence stamp on the profile)', () => {
  const profile = (subscriberId: string) => getItem(keys.subscriber(env.scope, subscriberId), { consistent: true });

  it('stamps the profile when a socket opens, keeps the stamp through profile changes, and never shows it', async () => {
    const { session, token } = await subscriberSession(env);
    expect((await profile(session.subscriberId))!.liveUntil).toBeUndefined();
    const before = Math.floor(Date.now() / 1000);
    const socket = await connect(token);
    const stamped = (await profile(session.subscriberId))!.liveUntil as number;
    // Until the socket can no longer be open: API Gateway's 2 hours (and a minute's margin).
    expect(stamped).toBeGreaterThanOrEqual(before + 2 * 3600);
    expect(stamped).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 2 * 3600 + 60);

    // Every other profile write names its own attributes: the stamp stays.
    expect((await env.client.patch(`/v2/subscribers/${session.subscriberId}`, { firstName: 'Grace' })).status).toBe(200);
    const wf = await createWorkflow(env.client, [inApp('Hi {{subscriber.firstName}}')]);
    await trigger(env.client, wf, { subscriberId: session.subscriberId, lastName: 'Hopper' });
    const [received] = await socket.waitFor('notification_received');
    expect(received!.data.message.content).toBe('Hi Grace');
    expect((await profile(session.subscriberId))!.liveUntil).toBe(stamped);
    // Closing a socket does not unstamp: another may be open.
    await socket.close();
    expect((await profile(session.subscriberId))!.liveUntil).toBe(stamped);

    // Internal: the API shows the subscriber without it.
    const shown = await env.client.get(`/v2/subscribers/${session.subscriberId}`);
    expect(shown.body).toMatchObject({ subscriberId: session.subscriberId, lastName: 'Hopper' });
    expect(JSON.stringify(shown.body)).not.toContain('liveUntil');
  });

  it('announces an in-app message only while the subscriber may have a socket open', async () => {
    const inbox = step('in_app', { body: 'Hello' });
    const context = (liveUntil: number | undefined) =>
      ({
        scope: env.scope,
        notification: {
          _id: 'n1',
          _organizationId: env.scope.organizationId,
          _environmentId: env.scope.environmentId,
          _subscriberId: 's1',
          subscriberId: 'ada',
          _templateId: 'w1',
          templateIdentifier: 'wf',
          transactionId: 't1',
          payload: {},
          overrides: {},
          tags: [],
          severity: 'none',
          critical: false,
          contextKeys: [],
        },
        job: { _id: 'j1', index: 0, status: 'queued', updatedAt: new Date().toISOString(), executionDetails: [] },
        step: inbox,
        workflow: workflow([inbox]),
        subscriber: undefined,
        choices: { workflows: new Map() },
        liveUntil,
        variables: {},
        now: new Date(),
      }) as unknown as JobContext;
    const nowSeconds = Math.floor(Date.now() / 1000);
    expect((await decideInApp(context(undefined))).announce).toBe(false);
    expect((await decideInApp(context(nowSeconds - 1))).announce).toBe(false);
    expect((await decideInApp(context(nowSeconds + 60))).announce).toBe(true);
  });
});
