import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes } from '#infra/routes.ts';
import { signSessionToken } from '#lib/auth/session-token.ts';
import { apiClient, createTestOrg, startTestApi, type TestApi, type TestEnv, type TestOrg } from '../support/api.ts';
import { call, headlessClient, type HeadlessClient } from '../support/headless.ts';
import { createWorkflow, rand, trigger, WAIT } from '../support/pipeline.ts';

// The legacy in-app clients' API (/v1/widgets), through the real `@novu/headless` 2.6.6 in Node,
// given only applicationIdentifier, subscriberId, backendUrl and socketUrl: its session, feed,
// counts, marks, removals, action and preferences, what the other APIs see of each change, and
// that one subscriber's session reaches nothing of another's. The live socket has its own file
// (widgets-live.test.ts).

let api: TestApi;
let org: TestOrg;
let env: TestEnv;
const clients: HeadlessClient[] = [];

beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
  env = org.dev;
});
afterAll(async () => {
  for (const c of clients) c.close();
  await api.close();
});

async function open(subscriberId = `sub-${rand()}`, target = env, subscriberHash?: string): Promise<HeadlessClient> {
  const client = await headlessClient({
    applicationIdentifier: target.applicationIdentifier,
    subscriberId,
    ...(subscriberHash && { subscriberHash }),
    backendUrl: api.url,
    socketUrl: api.socketUrl,
  });
  clients.push(client);
  return client;
}

const inApp = (body: string, extra: Record<string, unknown> = {}) => ({
  name: 'Inbox',
  stepId: `inbox-${rand()}`,
  type: 'in_app',
  controlValues: { body, ...extra },
});

/** The client's feed page (its whole answer: the feed is read unwrapped). */
const feed = (c: HeadlessClient, page = 0, query: Record<string, unknown> = {}) =>
  call<any>((cb) => c.service.fetchNotifications({ page, query, ...cb }));

/** Triggers `count` in-app messages to the subscriber and waits until its feed has them all. */
async function deliver(c: HeadlessClient, subscriberId: string, bodies: string[], extra: Record<string, unknown> = {}) {
  const wf = await createWorkflow(env.client, [inApp('{{payload.text}}', extra)]);
  for (const text of bodies) await trigger(env.client, wf, subscriberId, { text });
  return vi.waitFor(async () => {
    const page = await feed(c);
    expect(page.data.map((m: any) => m.content)).toEqual(expect.arrayContaining(bodies));
    return { wf, page };
  }, WAIT);
}

describe('@novu/headless 2.6.6 against /v1/widgets', { timeout: 90_000 }, () => {
  it('opens a session whose token is the inbox’s, and reads the feed and the counts', async () => {
    const subscriberId = `sub-${rand()}`;
    const c = await open(subscriberId);
    // The same token opens /v1/inbox: one session for both APIs.
    const inbox = apiClient(api.url, { bearer: c.token });
    expect((await inbox.get('/v1/inbox/notifications')).status).toBe(200);
    expect((await env.client.get(`/v2/subscribers/${subscriberId}`)).status).toBe(200);

    const { wf, page } = await deliver(c, subscriberId, ['first', 'second'], { primaryAction: { label: 'Open' } });
    expect(page).toMatchObject({ page: 0, pageSize: 10, hasMore: false, totalCount: 2 });
    expect(page.data.map((m: any) => m.content)).toEqual(['second', 'first']);
    expect(page.data[0]).toMatchObject({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      channel: 'in_app',
      seen: false,
      read: false,
      templateIdentifier: wf,
      subscriber: { subscriberId },
      actor: { type: 'none' },
      cta: { action: { buttons: [{ type: 'primary', content: 'Open' }] } },
      payload: { text: 'second' },
    });
    expect(await call<any>((cb) => c.service.fetchUnseenCount(cb))).toEqual({ count: 2 });
    expect(await call<any>((cb) => c.service.fetchUnreadCount(cb))).toEqual({ count: 2 });

    // Paging, filtering by state and by payload (base64 JSON, as the client's query sends it).
    const small = await call<any>((cb) => c.service.fetchNotifications({ page: 1, query: { limit: 1 }, ...cb }));
    expect(small).toMatchObject({ page: 1, pageSize: 1, hasMore: false });
    expect(small.data.map((m: any) => m.content)).toEqual(['first']);
    expect((await feed(c, 0, { payload: { text: 'first' } })).data.map((m: any) => m.content)).toEqual(['first']);
    expect((await feed(c, 0, { read: true })).data).toEqual([]);
    expect((await feed(c, 0, { feedIdentifier: 'no-such-feed' })).data).toEqual([]);

    const organization = await call<any>((cb) => c.service.fetchOrganization(cb));
    expect(organization).toMatchObject({ _id: org.id, name: expect.any(String) });
  });

  it('marks, marks all, acts and removes: the other APIs see the same message change', async () => {
    const subscriberId = `sub-${rand()}`;
    const c = await open(subscriberId);
    const inbox = apiClient(api.url, { bearer: c.token });
    const { page } = await deliver(c, subscriberId, ['a', 'b', 'c', 'd'], {
      primaryAction: { label: 'Accept' },
      secondaryAction: { label: 'Decline' },
    });
    const id = (content: string) => page.data.find((m: any) => m.content === content)._id as string;
    const apiView = async (messageId: string) =>
      ((await env.client.get(`/v1/messages?subscriberId=${subscriberId}&limit=100`)).body.data as any[]).find((m) => m._id === messageId);
    const inboxView = async (messageId: string) =>
      ((await inbox.get('/v1/inbox/notifications?limit=100')).body.data as any[]).find((m) => m.id === messageId);

    // Read (the client sends {seen, read}); the answer is the message as it is now.
    const read = await call<any[]>((cb) => c.service.markNotificationsAsRead({ messageId: id('a'), ...cb }));
    expect(read).toEqual([expect.objectContaining({ _id: id('a'), read: true, seen: true })]);
    expect(await apiView(id('a'))).toMatchObject({ read: true, seen: true });
    expect(await inboxView(id('a'))).toMatchObject({ isRead: true, isSeen: true });

    // markAs sets exactly the flags sent: read without seen stays unseen.
    const flags = await call<any[]>((cb) =>
      c.service.markNotificationsAs({ messageId: [id('b')], mark: { read: true, seen: false }, ...cb }),
    );
    expect(flags).toEqual([expect.objectContaining({ _id: id('b'), read: true, seen: false })]);
    // mark-as (the API service's markMessagesAs) follows the read-implies-seen rule.
    const api2 = (c.service as any).api;
    const markedAs = await api2.markMessagesAs({ messageId: [id('b')], markAs: 'read' });
    expect(markedAs).toEqual([expect.objectContaining({ _id: id('b'), read: true, seen: true })]);
    const unread = await api2.markMessagesAs({ messageId: id('b'), markAs: 'unread' });
    expect(unread).toEqual([expect.objectContaining({ read: false, seen: true })]);

    expect(await call<any>((cb) => c.service.fetchUnreadCount(cb))).toEqual({ count: 3 });
    expect(await call<any>((cb) => c.service.fetchUnseenCount(cb))).toEqual({ count: 2 });

    // The action of a message: done with the primary button, as /v1/inbox shows it completed.
    const acted = await call<any>((cb) =>
      c.service.updateAction({ messageId: id('c'), actionButtonType: 'primary' as any, status: 'done' as any, payload: { k: 1 }, ...cb }),
    );
    expect(acted).toMatchObject({ _id: id('c'), cta: { action: { status: 'done', result: { type: 'primary', payload: { k: 1 } } } } });
    expect(await inboxView(id('c'))).toMatchObject({ primaryAction: { isCompleted: true } });

    // Mark all seen, then all read: the answer is how many changed.
    expect(await call<number>((cb) => c.service.markAllMessagesAsSeen({ ...cb }))).toBe(2);
    expect(await call<any>((cb) => c.service.fetchUnseenCount(cb))).toEqual({ count: 0 });
    expect(await call<number>((cb) => c.service.markAllMessagesAsRead({ ...cb }))).toBe(3);
    expect(await call<any>((cb) => c.service.fetchUnreadCount(cb))).toEqual({ count: 0 });
    expect(await inboxView(id('d'))).toMatchObject({ isRead: true });

    // Removing one: gone from every API.
    const removed = await call<any>((cb) => c.service.removeNotification({ messageId: id('a'), ...cb }));
    expect(removed).toMatchObject({ _id: id('a') });
    expect(await apiView(id('a'))).toBeUndefined();
    expect(await inboxView(id('a'))).toBeUndefined();
    await expect(call((cb) => c.service.removeNotification({ messageId: id('a'), ...cb }))).rejects.toThrow(/Status: 404/);

    // Some by id (the widget's bulk delete), then all.
    expect(await api2.removeMessages([id('b')])).toBeUndefined();
    expect(await apiView(id('b'))).toBeUndefined();
    await call<void>((cb) => c.service.removeAllNotifications({ ...cb }));
    expect((await feed(c)).data).toEqual([]);
    expect(await apiView(id('c'))).toBeUndefined();
    expect((await env.client.get(`/v1/messages?subscriberId=${subscriberId}&channel=in_app`)).body.data).toEqual([]);
  });

  it('reads and changes the preferences the other APIs read', async () => {
    const subscriberId = `sub-${rand()}`;
    const c = await open(subscriberId);
    const wf = await createWorkflow(env.client, [
      inApp('hi'),
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 's', body: 'b' } },
    ]);
    const workflow = (await env.client.get(`/v2/workflows/${wf}`)).body.data ?? (await env.client.get(`/v2/workflows/${wf}`)).body;

    const list = await call<any[]>((cb) => c.service.fetchUserPreferences(cb));
    const item = list.find((p) => p.template._id === workflow._id);
    expect(item).toMatchObject({
      template: { name: wf, critical: false },
      preference: { enabled: true, channels: { in_app: true, email: true } },
    });

    const changed = await call<any>((cb) =>
      c.service.updateUserPreferences({ templateId: workflow._id, channelType: 'in_app', checked: false, ...cb }),
    );
    expect(changed).toMatchObject({ template: { _id: workflow._id }, preference: { channels: { in_app: false, email: true } } });
    const v2 = (await env.client.get(`/v2/subscribers/${subscriberId}/preferences`)).body;
    const v2Workflow = (v2.data ?? v2).workflows.find((w: any) => w.workflow.identifier === wf);
    expect(v2Workflow.channels.in_app).toBe(false);

    const global = await call<any[]>((cb) => c.service.fetchUserGlobalPreferences(cb));
    expect(global).toEqual([
      { preference: { enabled: true, channels: expect.objectContaining({ email: true, in_app: true, sms: true }) } },
    ]);
    const globalChanged = await call<any>((cb) =>
      c.service.updateUserGlobalPreferences({ preferences: [{ channelType: 'email' as any, enabled: false }], ...cb }),
    );
    expect(globalChanged).toMatchObject({ preference: { enabled: true, channels: { email: false } } });
    const v2Global = (await env.client.get(`/v2/subscribers/${subscriberId}/preferences`)).body;
    expect((v2Global.data ?? v2Global).global.channels.email).toBe(false);
  });

  it('keeps two subscribers apart: B can neither read, mark nor remove A’s messages', async () => {
    const aId = `a-${rand()}`;
    const a = await open(aId);
    const b = await open(`b-${rand()}`);
    const { page } = await deliver(a, aId, ['for A'], { primaryAction: { label: 'Go' } });
    const victim = page.data[0]._id as string;

    expect((await feed(b)).data).toEqual([]);
    // B's marks answer none of A's messages (the reference answers them) and change nothing.
    expect(await call<any[]>((cb) => b.service.markNotificationsAsRead({ messageId: victim, ...cb }))).toEqual([]);
    expect(await (b.service as any).api.markMessagesAs({ messageId: [victim], markAs: 'read' })).toEqual([]);
    expect(await call<number>((cb) => b.service.markAllMessagesAsRead({ ...cb }))).toBe(0);
    // B cannot remove A's message by id (the reference can), nor act on it.
    await expect(call((cb) => b.service.removeNotification({ messageId: victim, ...cb }))).rejects.toThrow(/Status: 404/);
    await (b.service as any).api.removeMessages([victim]);
    await call<void>((cb) => b.service.removeAllNotifications({ ...cb }));
    await expect(
      call((cb) => b.service.updateAction({ messageId: victim, actionButtonType: 'primary' as any, status: 'done' as any, ...cb })),
    ).rejects.toThrow(/Status: 404/);

    expect((await feed(a)).data).toEqual([
      expect.objectContaining({ _id: victim, read: false, seen: false, cta: expect.objectContaining({}) }),
    ]);
    expect((await feed(a)).data[0].cta.action.status).not.toBe('done');
  });

  it('with HMAC on, refuses a missing or wrong hmacHash and opens with the right one', async () => {
    const target = org.prod;
    const integrations = (await target.client.get('/v1/integrations')).body as { _id: string; channel: string; _environmentId: string }[];
    const inAppIntegration = integrations.find((i) => i.channel === 'in_app' && i._environmentId === target.id)!;
    expect((await target.client.put(`/v1/integrations/${inAppIntegration._id}`, { credentials: { hmac: true } })).status).toBe(200);
    const subscriberId = `hmac-${rand()}`;
    const hash = (message: string, key = target.apiKey) => createHmac('sha256', key).update(message).digest('hex');

    for (const subscriberHash of [undefined, 'deadbeef', hash('someone-else'), hash(subscriberId, env.apiKey)]) {
      await expect(open(subscriberId, target, subscriberHash)).rejects.toThrow(
        'HTTP error! Status: 400, Message: Please provide a valid HMAC hash',
      );
    }
    expect((await target.client.get(`/v2/subscribers/${subscriberId}`)).status).toBe(404);
    const c = await open(subscriberId, target, hash(subscriberId));
    expect(await call<any>((cb) => c.service.fetchUnseenCount(cb))).toEqual({ count: 0 });
  });
});

describe('/v1/widgets on the wire', () => {
  const widgetRoutes = routes.filter((r) => r.path.startsWith('/v1/widgets/') && r.auth === 'subscriber');
  const concrete = (path: string) =>
    path.replace('{messageId}', '0123456789abcdef01234567').replace('{type}', 'primary').replace('{parameter}', 'global');

  // Valid input, so a token that passes the signature check reaches the subscriber check.
  const validBodies: Record<string, unknown> = {
    markWidgetMessageFlags: { messageId: '0123456789abcdef01234567', mark: { seen: true } },
    markWidgetMessagesAs: { messageId: ['0123456789abcdef01234567'], markAs: 'read' },
    removeWidgetMessages: { messageIds: ['0123456789abcdef01234567'] },
    updateWidgetMessageAction: { executedType: 'primary', status: 'done' },
    updateWidgetWorkflowPreference: { channel: { type: 'in_app', enabled: false } },
    logWidgetUsage: { name: '[Widget] - Notification Click', payload: {} },
  };

  it('answers 401 on every route to a forged, expired, other-stage or orphaned token, and to none', async () => {
    const subscriberId = `sub-${rand()}`;
    const c = await open(subscriberId);
    const session = {
      ...env.scope,
      subscriberId,
      subscriberDbId: (await env.client.get(`/v2/subscribers/${subscriberId}`)).body._id,
      contextKeys: [],
    };
    const now = Math.floor(Date.now() / 1000);
    const otherKey = new TextEncoder().encode('another stage’s key, 32 bytes long!');
    const tokens: Record<string, string | undefined> = {
      none: undefined,
      forged: `${c.token.slice(0, -4)}AAAA`,
      expired: await signSessionToken(session, new Date(Date.now() - 16 * 24 * 3600 * 1000)),
      otherStage: await new SignJWT({ ...env.scope, subscriberId, contextKeys: [] })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(session.subscriberDbId)
        .setIssuer('notify')
        .setAudience('widget_user')
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(otherKey),
      // Signed by us, for an environment where this subscriber is not.
      otherEnvironment: await signSessionToken({ ...session, ...org.prod.scope }),
    };
    expect(widgetRoutes).toHaveLength(18);
    for (const [name, token] of Object.entries(tokens)) {
      for (const route of widgetRoutes) {
        const res = await fetch(`${api.url}${concrete(route.path)}`, {
          method: route.method,
          headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
          ...(route.method !== 'GET' && { body: JSON.stringify(validBodies[route.operationId] ?? {}) }),
        });
        expect(res.status, `${name}: ${route.method} ${route.path}`).toBe(401);
        expect(((await res.json()) as { message: string }).message).toEqual(expect.any(String));
      }
    }
    // A subscriber deleted since: its token opens nothing.
    expect((await env.client.delete(`/v2/subscribers/${subscriberId}`)).status).toBe(200);
    await expect(call((cb) => c.service.fetchUnseenCount(cb))).rejects.toThrow(/Status: 401/);
  });

  it('answers the statuses and envelope the clients read, and the browser’s preflights', async () => {
    const c = await open();
    const widget = apiClient(api.url, { bearer: c.token });
    const session = await apiClient(api.url).post('/v1/widgets/session/initialize', {
      applicationIdentifier: env.applicationIdentifier,
      subscriberId: `sub-${rand()}`,
      hmacHash: null,
    });
    expect(session.status).toBe(201);
    expect(session.body.data).toEqual({ token: expect.any(String), profile: expect.objectContaining({ _id: expect.any(String) }) });
    const unknownApp = await apiClient(api.url).post('/v1/widgets/session/initialize', {
      applicationIdentifier: 'nope',
      subscriberId: 'x',
    });
    expect(unknownApp.status).toBe(400);
    expect((await apiClient(api.url).post('/v1/widgets/session/initialize', { subscriberId: 'x' })).status).toBe(422);

    expect((await widget.get('/v1/widgets/notifications/unseen?limit=100')).body).toEqual({ data: { count: 0 } });
    expect((await widget.get('/v1/widgets/notifications/unseen?limit=101')).status).toBe(422);
    expect((await widget.get('/v1/widgets/notifications/count')).body).toEqual({ data: { count: 0 } });
    expect((await widget.get('/v1/widgets/notifications/feed?payload=not-base64!')).status).toBe(422);
    expect((await widget.post('/v1/widgets/messages/read', {})).status).toBe(201);
    expect((await widget.post('/v1/widgets/messages/mark-as', { messageId: [], markAs: 'read' })).status).toBe(422);
    expect((await widget.post('/v1/widgets/messages/mark-as', { messageId: '0123456789abcdef01234567', markAs: 'x' })).status).toBe(422);
    expect((await widget.post('/v1/widgets/usage/log', { name: '[Widget] - Notification Click', payload: {} })).body).toEqual({
      data: { success: true },
    });
    // DELETE with the client's `{}` body and without one.
    const all = await widget.request('DELETE', '/v1/widgets/messages', { body: {} });
    expect(all.status).toBe(204);
    expect(all.body).toBeUndefined();
    expect((await widget.delete('/v1/widgets/messages')).status).toBe(204);
    expect((await widget.request('DELETE', '/v1/widgets/messages/0123456789abcdef01234567', { body: {} })).status).toBe(404);
    expect((await widget.post('/v1/widgets/messages/bulk/delete', { messageIds: ['0123456789abcdef01234567'] })).status).toBe(200);

    const origin = 'https://app.example.com';
    for (const [method, path] of [
      ['DELETE', '/v1/widgets/messages/0123456789abcdef01234567'],
      ['POST', '/v1/widgets/messages/markAs'],
      ['GET', '/v1/widgets/notifications/feed'],
      ['PATCH', '/v1/widgets/preferences'],
      ['POST', '/v1/widgets/session/initialize'],
    ] as const) {
      const preflight = await fetch(`${api.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': method,
          'access-control-request-headers': 'authorization,content-type,user-agent',
        },
      });
      expect(preflight.status, `${method} ${path}`).toBeLessThan(300);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const header of ['authorization', 'content-type', 'user-agent']) expect(allowed).toContain(header);
      expect(preflight.headers.get('access-control-allow-methods')).toContain(method);
    }
    const answered = await fetch(`${api.url}/v1/widgets/notifications/unseen`, { headers: { origin, authorization: `Bearer ${c.token}` } });
    expect(answered.headers.get('access-control-allow-origin')).toBe('*');
  });
});
