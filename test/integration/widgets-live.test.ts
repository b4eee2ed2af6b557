import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { signSessionToken } from '#lib/auth/session-token.ts';
import { createTestOrg, startTestApi, type TestApi, type TestEnv } from '../support/api.ts';
import { call, headlessClient, type HeadlessClient } from '../support/headless.ts';
import { createWorkflow, rand, trigger } from '../support/pipeline.ts';
import { SOCKET_WAIT } from '../support/sockets.ts';

// The legacy clients' live socket: socket.io 4 (Engine.IO v4 over WebSocket) on the stage's
// WebSocket API, beside `@novu/js`'s. `@novu/headless` 2.6.6 is driven from Node with only its
// socketUrl; `<NotificationCenter />`'s way (the token in the CONNECT packet's `auth`) is driven
// with socket.io-client itself, as the widget calls it.

let api: TestApi;
let env: TestEnv;
const clients: HeadlessClient[] = [];
const sockets: Socket[] = [];

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of sockets) s.disconnect();
  await api.close();
});

async function open(subscriberId = `sub-${rand()}`): Promise<HeadlessClient> {
  const client = await headlessClient({
    applicationIdentifier: env.applicationIdentifier,
    subscriberId,
    backendUrl: api.url,
    socketUrl: api.socketUrl,
  });
  clients.push(client);
  return client;
}

/** A socket as `<NotificationCenter />` 2.0.0 opens it (useInitializeSocket). */
function widgetSocket(auth: Record<string, unknown>, url = api.socketUrl): Socket {
  const socket = io(url, { reconnectionDelayMax: 10000, transports: ['websocket'], auth, reconnection: false });
  sockets.push(socket);
  return socket;
}

const connected = (c: HeadlessClient) => vi.waitFor(() => expect(c.socket()?.connected).toBe(true), SOCKET_WAIT);

const inApp = (body: string) => ({ name: 'Inbox', stepId: `inbox-${rand()}`, type: 'in_app', controlValues: { body } });

describe('socket.io for the legacy clients', { timeout: 90_000 }, () => {
  it('@novu/headless connects with only its socketUrl and hears arrivals, marks and removals', async () => {
    const subscriberId = `sub-${rand()}`;
    const c = await open(subscriberId);
    await connected(c);
    // On connecting, the counts are sent at once (how a reconnected client catches up).
    await vi.waitFor(() => expect([c.got.unseen.at(-1), c.got.unread.at(-1)]).toEqual([0, 0]), SOCKET_WAIT);

    const wf = await createWorkflow(env.client, [inApp('Hello {{payload.n}}')]);
    await trigger(env.client, wf, subscriberId, { n: 1 });
    await vi.waitFor(() => expect(c.got.received).toHaveLength(1), SOCKET_WAIT);
    const message = c.got.received[0];
    expect(message).toMatchObject({ _id: expect.any(String), content: 'Hello 1', seen: false, read: false, templateIdentifier: wf });
    await vi.waitFor(() => expect(c.got.unseen.at(-1)).toBe(1), SOCKET_WAIT);
    await vi.waitFor(() => expect(c.got.unread.at(-1)).toBe(1), SOCKET_WAIT);

    await call((cb) => c.service.markNotificationsAsSeen({ messageId: message._id, ...cb }));
    await vi.waitFor(() => expect(c.got.unseen.at(-1)).toBe(0), SOCKET_WAIT);
    expect(c.got.unread.at(-1)).toBe(1);
    await call((cb) => c.service.markAllMessagesAsRead({ ...cb }));
    await vi.waitFor(() => expect(c.got.unread.at(-1)).toBe(0), SOCKET_WAIT);

    await trigger(env.client, wf, subscriberId, { n: 2 });
    await vi.waitFor(() => expect(c.got.unread.at(-1)).toBe(1), SOCKET_WAIT);
    const second = c.got.received.at(-1);
    await call((cb) => c.service.removeNotification({ messageId: second._id, ...cb }));
    await vi.waitFor(() => expect(c.got.unread.at(-1)).toBe(0), SOCKET_WAIT);
    expect(c.got.unseen.at(-1)).toBe(0);
  });

  it('delivers to the subscriber’s own sockets only', async () => {
    const aId = `a-${rand()}`;
    const a = await open(aId);
    const b = await open(`b-${rand()}`);
    await Promise.all([connected(a), connected(b)]);
    const wf = await createWorkflow(env.client, [inApp('for A')]);
    await trigger(env.client, wf, aId);
    await vi.waitFor(() => expect(a.got.received).toHaveLength(1), SOCKET_WAIT);
    await vi.waitFor(() => expect(a.got.unseen.at(-1)).toBe(1), SOCKET_WAIT);
    expect(b.got.received).toEqual([]);
    expect(b.got.unseen.every((n) => n === 0)).toBe(true);
  });

  it('takes the token from the CONNECT packet (<NotificationCenter />), and refuses a bad one there', async () => {
    const subscriberId = `nc-${rand()}`;
    const c = await open(subscriberId);
    const events: { unseen: any[] } = { unseen: [] };
    const socket = widgetSocket({ token: c.token });
    socket.on('unseen_count_changed', (data) => events.unseen.push(data));
    await vi.waitFor(() => expect(socket.connected).toBe(true), SOCKET_WAIT);
    await vi.waitFor(() => expect(events.unseen.at(-1)).toEqual({ unseenCount: 0, hasMore: false }), SOCKET_WAIT);
    const wf = await createWorkflow(env.client, [inApp('hi')]);
    await trigger(env.client, wf, subscriberId);
    await vi.waitFor(() => expect(events.unseen.at(-1)).toEqual({ unseenCount: 1, hasMore: false }), SOCKET_WAIT);

    const forged = `${c.token.slice(0, -4)}AAAA`;
    const session = { ...env.scope, subscriberId, subscriberDbId: 'not-this-one', contextKeys: [] };
    for (const auth of [{}, { token: forged }, { token: await signSessionToken(session) }]) {
      const bad = widgetSocket(auth);
      const error = await new Promise<Error>((resolve) => bad.once('connect_error', resolve));
      expect(error.message, JSON.stringify(auth)).toBe('Unauthorized');
      expect(bad.connected).toBe(false);
    }
    // A namespace other than `/` (a socketUrl with a path) is refused as the reference refuses one it does not serve.
    const elsewhere = widgetSocket({ token: c.token }, `${api.socketUrl}/prod`);
    expect((await new Promise<Error>((resolve) => elsewhere.once('connect_error', resolve))).message).toBe('Invalid namespace');
  });

  it('speaks Engine.IO v4 on the wire: the open packet first, then CONNECT with the query token', async () => {
    const c = await open();
    const ws = new WebSocket(`${api.socketUrl}/socket.io/?EIO=4&transport=websocket&token=${c.token}`);
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(data.toString()));
    await new Promise((resolve) => ws.once('open', resolve));
    await vi.waitFor(() => expect(frames.length).toBeGreaterThan(0), SOCKET_WAIT);
    const open0 = JSON.parse(frames[0]!.slice(1));
    expect(frames[0]![0]).toBe('0');
    expect(open0).toMatchObject({
      sid: expect.any(String),
      upgrades: [],
      pingInterval: expect.any(Number),
      pingTimeout: expect.any(Number),
    });
    ws.send('40');
    await vi.waitFor(() => expect(frames).toContain(`40{"sid":"${open0.sid}"}`), SOCKET_WAIT);
    await vi.waitFor(() => expect(frames.some((f) => f.startsWith('42["unread_count_changed"'))).toBe(true), SOCKET_WAIT);
    ws.close();

    // Without a socket.io handshake, no token is still API Gateway's 401 (`@novu/js`'s socket is unchanged).
    const refused = new WebSocket(api.socketUrl);
    refused.on('error', () => undefined);
    const status = await new Promise<number>((resolve) => refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(401);
    refused.terminate();
  });
});
