import { Novu } from '@novu/js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { routes, type RouteDef } from '#infra/routes.ts';
import { provisionOrganization } from '#lib/tenancy/provision.ts';
import { apiClient, startTestApi, type ApiClient, type TestApi } from '../support/api.ts';
import { createWorkflow, rand, trigger } from '../support/pipeline.ts';
import { SOCKET_WAIT, subscriberSession } from '../support/sockets.ts';

// The real front-end client, @novu/js 3.19, driven from Node against the local stack with only
// the settings a product changes: apiUrl, socketUrl and socketOptions.socketType 'cloud'
// (PartySocket mode). Node 20 has no global WebSocket, so the client is handed the `ws` package's
// through socketOptions (PartySocket's `WebSocket` option). A trigger of an in-app workflow must
// reach the client as its own Notification object, then the counts.

let api: TestApi;
let client: ApiClient;
let applicationIdentifier: string;
let scope: { organizationId: string; environmentId: string };
const clients: Novu[] = [];

beforeAll(async () => {
  api = await startTestApi();
  const org = await provisionOrganization('Live client');
  const dev = org.environments.find((e) => e.environment.name === 'Development')!;
  applicationIdentifier = dev.environment.identifier;
  scope = { organizationId: org.organization._id, environmentId: dev.environment._id };
  client = apiClient(api.url, dev.apiKey);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.socket.disconnect()));
  await api.close();
});

function newNovu(subscriberId: string): Novu {
  const novu = new Novu({
    applicationIdentifier,
    subscriber: { subscriberId },
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

const inApp = (body: string, extra: Record<string, unknown> = {}) => ({ name: 'Inbox', stepId: `inbox-${rand()}`, type: 'in_app', controlValues: { body, ...extra } });

async function expectDelivered(got: ReturnType<typeof listen>, subscriberId: string) {
  // The socket opens once the session is there; the connect event says it opened without error.
  await vi.waitFor(() => expect(got.connected.filter((e) => !e.error)).toHaveLength(1), SOCKET_WAIT);
  const wf = await createWorkflow(client, [
    inApp('Hi {{subscriber.firstName}}, {{payload.who}} commented', {
      subject: 'New comment',
      primaryAction: { label: 'Open', redirect: { url: '/posts/1', target: '_blank' } },
      redirect: { url: 'https://example.com/posts/1' },
    }),
  ]);
  const txid = await trigger(client, wf, subscriberId, { who: 'Bob' });
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
  expect(typeof notification.read).toBe('function'); // a live Notification the app can act on
  await vi.waitFor(() => expect(got.unseen).toEqual([1]), SOCKET_WAIT);
  expect(got.unread).toEqual([{ total: 1, severity: { high: 0, medium: 0, low: 0, none: 1 } }]);
}

describe('@novu/js in PartySocket mode', () => {
  it('receives and maps notification_received, then the counts (a minted session token)', async () => {
    // The session here is minted as POST /v1/inbox/session mints it, and handed to the socket as
    // the client hands it the session's token.
    const { session, token } = await subscriberSession({ id: scope.environmentId, scope, client, apiKey: '' });
    const novu = newNovu(session.subscriberId);
    (novu.socket as unknown as { onSessionSuccess(data: { token: string }): void }).onSessionSuccess({ token });
    const got = listen(novu);
    await expectDelivered(got, session.subscriberId);
  });

  it.runIf((routes as readonly RouteDef[]).some((r) => r.path === '/v1/inbox/session'))('opens its socket with the token of its own session and gets the notification', async () => {
    const subscriberId = `sub-${rand()}`;
    const created = await client.post('/v2/subscribers', { subscriberId, firstName: 'Ada' });
    expect(created.status).toBe(201);
    const novu = newNovu(subscriberId);
    const got = listen(novu);
    await expectDelivered(got, subscriberId);
  });
});
