import { Novu } from '@novu/js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { createTestOrg, startTestApi, type TestApi, type TestEnv } from '../support/api.ts';
import { createWorkflow, rand, trigger } from '../support/pipeline.ts';
import { SOCKET_WAIT } from '../support/sockets.ts';

// The real front-end client, @novu/js 3.19, driven from Node against the local stack with only
// the settings a product changes: apiUrl, socketUrl and socketOptions.socketType 'cloud'
// (PartySocket mode). Node 20 has no global WebSocket, so the client is handed the `ws` package's
// through socketOptions (PartySocket's `WebSocket` option). The client opens its own session
// (POST /v1/inbox/session), then its socket with that session's token; a trigger of an in-app
// workflow must reach it as its own Notification object, then the counts, and its own actions
// must come back as new counts.

let api: TestApi;
let env: TestEnv;
const clients: Novu[] = [];

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.socket.disconnect()));
  await api.close();
});

function newNovu(subscriberId: string, context?: Record<string, string>): Novu {
  const novu = new Novu({
    applicationIdentifier: env.applicationIdentifier,
    subscriber: { subscriberId, firstName: 'Ada' },
    ...(context && { context }),
    apiUrl: api.url,
    socketUrl: api.socketUrl,
    socketOptions: { socketType: 'cloud', WebSocket: WsWebSocket },
  });
  clients.push(novu);
  return novu;
}

/** What the client's listeners were handed, per socket event, in arrival order. */
function listen(novu: Novu) {
  const got = { received: [] as any[], unread: [] as any[], unseen: [] as any[], connected: [] as any[] };
  novu.on('socket.connect.resolved', (event) => got.connected.push(event));
  novu.on('notifications.notification_received', ({ result }) => got.received.push(result));
  novu.on('notifications.unread_count_changed', ({ result }) => got.unread.push(result));
  novu.on('notifications.unseen_count_changed', ({ result }) => got.unseen.push(result));
  return got;
}

/** The socket opens once the session is there; the connect event says it opened without error. */
const connected = (got: ReturnType<typeof listen>) =>
  vi.waitFor(() => expect(got.connected.filter((e) => !e.error)).toHaveLength(1), SOCKET_WAIT);

const inApp = (body: string, extra: Record<string, unknown> = {}) => ({
  name: 'Inbox',
  stepId: `inbox-${rand()}`,
  type: 'in_app',
  controlValues: { body, ...extra },
});

describe('@novu/js in PartySocket mode', () => {
  it('opens its socket with its own session, gets a triggered notification mapped, then the counts, and its actions’ counts', async () => {
    const subscriberId = `sub-${rand()}`;
    const novu = newNovu(subscriberId);
    const got = listen(novu);
    await connected(got);

    const wf = await createWorkflow(env.client, [
      inApp('Hi {{subscriber.firstName}}, {{payload.who}} commented', {
        subject: 'New comment',
        primaryAction: { label: 'Open', redirect: { url: '/posts/1', target: '_blank' } },
        redirect: { url: 'https://example.com/posts/1' },
      }),
    ]);
    const txid = await trigger(env.client, wf, subscriberId, { who: 'Bob' });
    await vi.waitFor(() => expect(got.received).toHaveLength(1), SOCKET_WAIT);
    const notification = got.received[0];
    expect(notification).toMatchObject({
      transactionId: txid,
      subject: 'New comment',
      body: 'Hi Ada, Bob commented',
      to: { subscriberId, firstName: 'Ada' },
      isRead: false,
      isSeen: false,
      isArchived: false,
      isSnoozed: false,
      channelType: 'in_app',
      primaryAction: { label: 'Open', isCompleted: false, redirect: { url: '/posts/1', target: '_blank' } },
      redirect: { url: 'https://example.com/posts/1' },
      workflow: { identifier: wf, critical: false },
      severity: 'none',
    });
    await vi.waitFor(() => expect(got.unseen).toEqual([1]), SOCKET_WAIT);
    expect(got.unread).toEqual([{ total: 1, severity: { high: 0, medium: 0, low: 0, none: 1 } }]);

    // The notification the socket handed over is live: reading it changes the counts, which the
    // socket tells (the inbox routes announce to the live queue too).
    const { error } = await notification.read();
    expect(error).toBeUndefined();
    await vi.waitFor(() => expect(got.unread.at(-1)).toEqual({ total: 0, severity: { high: 0, medium: 0, low: 0, none: 0 } }), SOCKET_WAIT);
  });

  it('gets only what was sent in its own context', async () => {
    const subscriberId = `sub-${rand()}`;
    const acme = newNovu(subscriberId, { tenant: 'acme' });
    const got = listen(acme);
    await connected(got);
    const wf = await createWorkflow(env.client, [inApp('{{payload.n}}')]);
    await trigger(env.client, wf, subscriberId, { n: 'no context' });
    await trigger(env.client, wf, subscriberId, { n: 'globex' }, { context: { tenant: 'globex' } });
    await trigger(env.client, wf, subscriberId, { n: 'acme' }, { context: { tenant: 'acme' } });
    await vi.waitFor(() => expect(got.received.map((n) => n.body)).toEqual(['acme']), SOCKET_WAIT);
    await vi.waitFor(() => expect(got.unseen.at(-1)).toBe(1), SOCKET_WAIT);
  });
});
