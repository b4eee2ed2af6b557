import { createHmac } from 'node:crypto';
import { canonicalize } from '@tufjs/canonical-json';
import { Novu } from '@novu/js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { apiClient, createTestOrg, inboxClient, startTestApi, type TestEnv, type TestOrg } from '../support/api.ts';
import { createWorkflow, messagesOf, rand, trigger, WAIT } from '../support/pipeline.ts';

// The subscriber's inbox (/v1/inbox) as a web app uses it: through the reference's own client,
// `@novu/js`, pointed at the local API, and checked where the server side looks too (the API-key
// message routes). Messages are what the pipeline delivers.

let api: LocalApi;
let org: TestOrg;
let env: TestEnv;

beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
  env = org.dev;
});
afterAll(() => api.close());
afterEach(() => {
  delete process.env.INBOX_MIN_SNOOZE_SECONDS;
});

const novuFor = (subscriber: string | Record<string, unknown>, extra: Record<string, unknown> = {}, target: TestEnv = env) =>
  new Novu({
    applicationIdentifier: target.applicationIdentifier,
    subscriber: typeof subscriber === 'string' ? { subscriberId: subscriber } : subscriber,
    apiUrl: api.url,
    ...extra,
  } as ConstructorParameters<typeof Novu>[0]);

const inAppStep = (controls: Record<string, unknown>) => ({
  name: 'Inbox',
  stepId: `inbox-${rand()}`,
  type: 'in_app',
  controlValues: controls,
});

/** A workflow of one in-app step, its tags and severity; triggered `count` times to a new subscriber. */
async function inboxWith(
  count: number,
  options: {
    tags?: string[];
    severity?: string;
    controls?: Record<string, unknown>;
    payload?: (i: number) => Record<string, unknown>;
    subscriberId?: string;
  } = {},
) {
  const workflowId = await createWorkflow(
    env.client,
    [inAppStep({ subject: 'Hello', body: 'Message {{payload.n}}', ...options.controls })],
    { tags: options.tags ?? [], ...(options.severity && { severity: options.severity }) },
  );
  const subscriberId = options.subscriberId ?? `inbox-${rand()}`;
  const before = options.subscriberId ? (await messagesOf(env.client, subscriberId)).length : 0;
  for (let i = 0; i < count; i++) await trigger(env.client, workflowId, subscriberId, { n: i, ...options.payload?.(i) });
  await vi.waitFor(async () => expect(await messagesOf(env.client, subscriberId)).toHaveLength(before + count), WAIT);
  return { workflowId, subscriberId };
}

async function listed(novu: Novu, args: Record<string, unknown> = {}) {
  const { data, error } = await novu.notifications.list({ useCache: false, ...args } as Parameters<Novu['notifications']['list']>[0]);
  expect(error).toBeUndefined();
  return data!;
}

describe('session', () => {
  it('opens a session with the application identifier, makes the subscriber, and answers what the client reads', async () => {
    const subscriberId = `sess-${rand()}`;
    const res = await apiClient(api.url).post('/v1/inbox/session', {
      applicationIdentifier: env.applicationIdentifier,
      subscriber: { subscriberId, firstName: 'Ada', timezone: 'Europe/Berlin' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual({
      token: expect.any(String),
      totalUnreadCount: 0,
      unreadCount: { total: 0, severity: { high: 0, medium: 0, low: 0, none: 0 } },
      removeNovuBranding: true,
      isDevelopmentMode: true,
      maxSnoozeDurationHours: expect.any(Number),
      applicationIdentifier: env.applicationIdentifier,
      contextKeys: [],
    });
    expect(res.body.data.maxSnoozeDurationHours).toBeGreaterThan(0);
    const stored = await env.client.get(`/v2/subscribers/${subscriberId}`);
    expect(stored.body).toMatchObject({ subscriberId, firstName: 'Ada', timezone: 'Europe/Berlin' });

    // Unsigned, an existing subscriber's profile is not changed by what a page claims.
    const again = await apiClient(api.url).post('/v1/inbox/session', {
      applicationIdentifier: env.applicationIdentifier,
      subscriber: { subscriberId, firstName: 'Mallory' },
    });
    expect(again.status).toBe(201);
    expect((await env.client.get(`/v2/subscribers/${subscriberId}`)).body.firstName).toBe('Ada');
    // The production environment is not in development mode.
    const prod = await apiClient(api.url).post('/v1/inbox/session', {
      applicationIdentifier: org.prod.applicationIdentifier,
      subscriber: subscriberId,
    });
    expect(prod.body.data.isDevelopmentMode).toBe(false);
  });

  it('refuses what cannot open a session, with the message the client shows', async () => {
    const open = (body: unknown) => apiClient(api.url).post('/v1/inbox/session', body);
    const unknown = await open({ applicationIdentifier: 'no-such-app', subscriber: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Please provide a valid application identifier');
    expect((await open({ applicationIdentifier: env.applicationIdentifier })).status).toBe(422);
    expect((await open({ subscriber: 'x' })).status).toBe(422);
    expect(
      (await open({ applicationIdentifier: env.applicationIdentifier, subscriber: { subscriberId: 'x', email: 'not an email' } })).status,
    ).toBe(422);
    // A token that is not one of ours opens nothing.
    const forged = await apiClient(api.url, { bearer: 'eyJhbGciOiJIUzI1NiJ9.e30.x' }).get('/v1/inbox/notifications');
    expect(forged.status).toBe(401);
    expect(forged.body.message).toEqual(expect.any(String));
    expect((await apiClient(api.url).get('/v1/inbox/notifications')).status).toBe(401);
    // An API key is not a session.
    expect((await env.client.get('/v1/inbox/notifications')).status).toBe(401);
  });

  it('with HMAC on, needs the subscriber hash made with one of the API keys, and the context hash', async () => {
    const hmacOrg = await createTestOrg(api.url);
    const target = hmacOrg.dev;
    const integrations = (await target.client.get('/v1/integrations')).body as { _id: string; channel: string; _environmentId: string }[];
    const inApp = integrations.find((i) => i.channel === 'in_app' && i._environmentId === target.id)!;
    expect((await target.client.put(`/v1/integrations/${inApp._id}`, { credentials: { hmac: true } })).status).toBe(200);
    const hash = (message: string, key = target.apiKey) => createHmac('sha256', key).update(message).digest('hex');
    const open = (body: Record<string, unknown>) =>
      apiClient(api.url).post('/v1/inbox/session', { applicationIdentifier: target.applicationIdentifier, ...body });

    const subscriberId = `hmac-${rand()}`;
    for (const subscriberHash of [undefined, 'deadbeef', hash('someone-else'), hash(subscriberId, org.dev.apiKey)]) {
      const res = await open({ subscriber: { subscriberId, firstName: 'Eve' }, ...(subscriberHash && { subscriberHash }) });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toBe('Please provide a valid HMAC hash');
    }
    // Refused sessions wrote nothing.
    expect((await target.client.get(`/v2/subscribers/${subscriberId}`)).status).toBe(404);

    const ok = await open({ subscriber: { subscriberId, firstName: 'Ada' }, subscriberHash: hash(subscriberId) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    // Signed, the profile is the page's.
    expect(
      (await open({ subscriber: { subscriberId, firstName: 'Grace' }, subscriberHash: hash(subscriberId).toUpperCase() })).status,
    ).toBe(201);
    expect((await target.client.get(`/v2/subscribers/${subscriberId}`)).body.firstName).toBe('Grace');

    const context = { tenant: 'acme', project: { id: 'p1', data: { plan: 'pro' } } };
    const withContext = (contextHash?: string) =>
      open({ subscriber: subscriberId, subscriberHash: hash(subscriberId), context, ...(contextHash && { contextHash }) });
    expect((await withContext()).body.message).toBe('Please provide a valid context HMAC hash');
    expect((await withContext(hash(JSON.stringify(context)))).status).toBe(400);
    const signed = await withContext(hash(canonicalize(context)));
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    expect(signed.body.data.contextKeys).toEqual(['project:p1', 'tenant:acme']);
  });
});

describe('from a browser page', () => {
  it('answers preflights and every call with the CORS headers the client needs', async () => {
    const origin = 'https://app.example.com';
    const preflight = await fetch(`${api.url}/v1/inbox/notifications/count`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization,novu-api-version,novu-client-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase().split(',');
    expect(allowed).toEqual(
      expect.arrayContaining([
        'authorization',
        'content-type',
        'novu-api-version',
        'novu-client-version',
        'novu-application-identifier',
        'novu-user-agent',
        'user-agent',
      ]),
    );
    expect(preflight.headers.get('access-control-allow-methods')!.split(',')).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS']),
    );

    const session = await fetch(`${api.url}/v1/inbox/session`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ applicationIdentifier: env.applicationIdentifier, subscriber: `cors-${rand()}` }),
    });
    expect(session.status).toBe(201);
    expect(session.headers.get('access-control-allow-origin')).toBe('*');
    // Errors carry them too, so the page can read the message.
    const refused = await fetch(`${api.url}/v1/inbox/notifications`, { headers: { origin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('notifications through @novu/js', () => {
  it('lists the inbox newest first with the mapped fields, pages by cursor, and counts unread by severity', async () => {
    const { subscriberId, workflowId } = await inboxWith(3, {
      tags: ['billing'],
      severity: 'high',
      controls: {
        avatar: 'https://example.com/a.png',
        primaryAction: { label: 'Pay', redirect: { url: 'https://example.com/pay', target: '_blank' } },
        secondaryAction: { label: 'Later' },
        redirect: { url: '/invoices/{{payload.n}}' },
        data: { invoice: '{{payload.n}}' },
      },
    });
    const novu = novuFor({ subscriberId, firstName: 'Ada' });
    const first = await listed(novu, { limit: 2, archived: false, snoozed: false });
    expect(first.hasMore).toBe(true);
    expect(first.notifications.map((n) => n.body)).toEqual(['Message 2', 'Message 1']);
    const [n] = first.notifications;
    expect(n).toMatchObject({
      subject: 'Hello',
      isRead: false,
      isSeen: false,
      isArchived: false,
      isSnoozed: false,
      channelType: 'in_app',
      tags: ['billing'],
      severity: 'high',
      avatar: 'https://example.com/a.png',
      primaryAction: { label: 'Pay', isCompleted: false, redirect: { url: 'https://example.com/pay', target: '_blank' } },
      secondaryAction: { label: 'Later', isCompleted: false },
      redirect: { url: '/invoices/2' },
      data: { invoice: '2' },
      to: { subscriberId },
      workflow: { identifier: workflowId, name: workflowId, critical: false, severity: 'high', tags: ['billing'] },
    });
    expect(n!.deliveredAt).toHaveLength(1);
    const rest = await listed(novu, { limit: 2, after: first.notifications[1]!.id, archived: false, snoozed: false });
    expect(rest.notifications.map((x) => x.body)).toEqual(['Message 0']);
    expect(rest.hasMore).toBe(false);

    const { data: counts } = await novu.notifications.count({
      filters: [
        { read: false, archived: false, snoozed: false, severity: 'high' },
        { read: false, archived: false, snoozed: false, severity: 'low' },
        { tags: ['billing'] },
        { tags: ['other'] },
      ],
    } as never);
    expect((counts as unknown as { counts: { count: number; filter: unknown }[] }).counts).toEqual([
      { count: 3, filter: { read: false, archived: false, snoozed: false, severity: 'high' } },
      { count: 0, filter: { read: false, archived: false, snoozed: false, severity: 'low' } },
      { count: 3, filter: { tags: ['billing'] } },
      { count: 0, filter: { tags: ['other'] } },
    ]);
  });

  it('filters by tags (any, and groups), data, severity, read, seen and creation time', async () => {
    const subscriberId = `filters-${rand()}`;
    await inboxWith(2, {
      subscriberId,
      tags: ['a', 'x'],
      severity: 'low',
      payload: (i) => ({ team: i === 0 ? 'red' : 'blue' }),
      controls: { data: { team: '{{payload.team}}', nested: { level: 'deep' } } },
    });
    await inboxWith(1, { subscriberId, tags: ['b'], severity: 'medium' });
    const novu = novuFor(subscriberId);
    const bodies = async (args: Record<string, unknown>) =>
      (await listed(novu, args)).notifications.map((n) => `${n.tags?.join('')}:${n.body}`);

    expect(await bodies({ tags: ['a', 'b'] })).toHaveLength(3);
    expect(await bodies({ tags: { and: [{ or: ['a'] }, { or: ['x'] }] } })).toEqual(['ax:Message 1', 'ax:Message 0']);
    expect(await bodies({ tags: { and: [{ or: ['a'] }, { or: ['b'] }] } })).toEqual([]);
    expect(await bodies({ data: { team: 'red' } })).toEqual(['ax:Message 0']);
    expect(await bodies({ data: { team: ['red', 'blue'] } })).toHaveLength(2);
    expect(await bodies({ data: { nested: { level: 'deep' } } })).toHaveLength(2);
    expect(await bodies({ data: { nested: { level: 'shallow' } } })).toEqual([]);
    expect(await bodies({ severity: 'medium' })).toEqual(['b:Message 0']);
    expect(await bodies({ severity: ['medium', 'low'] })).toHaveLength(3);
    expect(await bodies({ seen: true })).toEqual([]);
    expect(await bodies({ createdGte: Date.now() + 60_000 })).toEqual([]);
    expect(await bodies({ createdLte: Date.now() + 60_000 })).toHaveLength(3);

    const refused = await apiClient(api.url, { bearer: (await inboxClient(api.url, env, subscriberId)).token }).get(
      '/v1/inbox/notifications?read=false&archived=true',
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Filtering for unread and archived notifications is not supported.');
  });

  it('reads, archives, snoozes and acts on a notification, and the API-key routes see the same state', async () => {
    const { subscriberId } = await inboxWith(1, {
      controls: { primaryAction: { label: 'Accept' }, secondaryAction: { label: 'Decline' } },
    });
    const novu = novuFor(subscriberId);
    const [n] = (await listed(novu)).notifications;
    const stored = async () => (await messagesOf(env.client, subscriberId))[0];

    const read = await n!.read();
    expect(read.data).toMatchObject({ isRead: true, isSeen: true, readAt: expect.any(String), firstSeenAt: expect.any(String) });
    expect(await stored()).toMatchObject({ read: true, seen: true, lastReadDate: expect.any(String), firstSeenDate: expect.any(String) });

    const archived = await n!.archive();
    expect(archived.data).toMatchObject({ isArchived: true, isRead: true, archivedAt: expect.any(String) });
    expect(await stored()).toMatchObject({ archived: true, archivedAt: expect.any(String) });
    expect((await listed(novu, { archived: false })).notifications).toHaveLength(0);
    expect((await listed(novu, { archived: true })).notifications).toHaveLength(1);

    const unread = await n!.unread();
    // Making it unread brings it out of the archive.
    expect(unread.data).toMatchObject({ isRead: false, isArchived: false, archivedAt: null, readAt: null });
    expect(await stored()).toMatchObject({ read: false, archived: false });
    expect((await stored()).archivedAt).toBeUndefined();

    const completed = await n!.completePrimary();
    expect(completed.data).toMatchObject({
      isRead: true,
      primaryAction: { label: 'Accept', isCompleted: true },
      secondaryAction: { isCompleted: false },
    });
    expect((await stored()).cta.action).toMatchObject({ status: 'done', result: { type: 'primary' } });
    const reverted = await n!.revertPrimary();
    expect(reverted.data?.primaryAction?.isCompleted).toBe(false);
    expect((await stored()).cta.action).toMatchObject({ status: 'pending', result: { type: 'primary' } });

    const until = new Date(Date.now() + 3_600_000).toISOString();
    const snoozed = await n!.snooze(until);
    expect(snoozed.data).toMatchObject({ isSnoozed: true, snoozedUntil: until });
    expect((await listed(novu)).notifications).toHaveLength(0);
    expect((await listed(novu, { snoozed: true })).notifications.map((x) => x.id)).toEqual([n!.id]);
    const back = await n!.unsnooze();
    expect(back.data).toMatchObject({ isSnoozed: false, snoozedUntil: null });
    expect(back.data!.deliveredAt).toHaveLength(2);

    // A snooze must end at least a minute ahead, and no later than the stage allows.
    const tooSoon = await n!.snooze(new Date(Date.now() + 5_000).toISOString());
    expect(tooSoon.error?.message).toBe('Failed to snooze notification');
    expect(String(tooSoon.error?.originalError)).toContain('Status: 400');
    expect((await stored()).snoozedUntil).toBeUndefined();

    expect((await n!.delete()).error).toBeUndefined();
    expect(await messagesOf(env.client, subscriberId)).toEqual([]);
  });

  it('brings a snoozed notification back by itself when its time comes, delivered again', async () => {
    process.env.INBOX_MIN_SNOOZE_SECONDS = '1';
    const { subscriberId } = await inboxWith(1);
    const novu = novuFor(subscriberId);
    const [n] = (await listed(novu)).notifications;
    const until = new Date(Date.now() + 2_000).toISOString();
    expect((await n!.snooze(until)).data?.isSnoozed).toBe(true);
    expect((await novu.notifications.count({ read: false } as never)).data).toMatchObject({ count: 0 });
    const back = await vi.waitFor(async () => {
      const [m] = (await listed(novu)).notifications;
      expect(m?.isSnoozed).toBe(false);
      return m!;
    }, WAIT);
    expect(back.deliveredAt).toHaveLength(2);
    expect(Date.parse(back.deliveredAt![1]!)).toBeGreaterThanOrEqual(Date.parse(until));
    expect((await novu.notifications.count({ read: false } as never)).data).toMatchObject({ count: 1 });
  });

  it('keeps the counts right under concurrent marks of the same messages', async () => {
    const { subscriberId } = await inboxWith(4, { severity: 'medium' });
    const novu = novuFor(subscriberId);
    const sessions = await Promise.all([0, 1].map(() => inboxClient(api.url, env, subscriberId)));
    const ids = (await listed(novu)).notifications.map((n) => n.id);
    const actions = ['read', 'unread', 'archive', 'unarchive'];
    // Both sessions mark every message, each in another order, all at once.
    const answers = await Promise.all(
      sessions.flatMap((session, s) =>
        ids.flatMap((id, i) =>
          actions.map((_, a) => session.patch(`/v1/inbox/notifications/${id}/${actions[(a + s + i) % actions.length]}`)),
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const messages = await messagesOf(env.client, subscriberId);
    const unread = messages.filter((m) => !m.read && !m.archived && !m.snoozedUntil).length;
    const { data } = await novu.notifications.count({
      filters: [{ read: false, archived: false, snoozed: false, severity: 'medium' }, { read: false }, { archived: true }],
    } as never);
    const counts = (data as unknown as { counts: { count: number }[] }).counts.map((c) => c.count);
    expect(counts).toEqual([unread, unread, messages.filter((m) => m.archived).length]);
    // The unread list says the same as the counts.
    expect((await listed(novu, { read: false, archived: false })).notifications).toHaveLength(unread);
  }, 120_000);

  it('marks every notification read, seen, archived or deleted, by tags', async () => {
    const subscriberId = `bulk-${rand()}`;
    await inboxWith(2, { subscriberId, tags: ['alpha'] });
    await inboxWith(1, { subscriberId, tags: ['beta'] });
    const novu = novuFor(subscriberId);
    const state = async () =>
      (await listed(novu, { limit: 10, archived: false })).notifications
        .map((n) => `${n.tags?.[0]}:${n.isSeen ? 'seen' : 'unseen'}:${n.isRead ? 'read' : 'unread'}`)
        .sort();

    expect((await novu.notifications.seenAll({ tags: ['beta'] } as never)).error).toBeUndefined();
    expect(await state()).toEqual(['alpha:unseen:unread', 'alpha:unseen:unread', 'beta:seen:unread']);
    expect((await novu.notifications.readAll({ tags: ['alpha'] })).error).toBeUndefined();
    expect(await state()).toEqual(['alpha:seen:read', 'alpha:seen:read', 'beta:seen:unread']);
    expect((await novu.notifications.archiveAllRead()).error).toBeUndefined();
    expect(await state()).toEqual(['beta:seen:unread']);
    expect((await listed(novu, { archived: true })).notifications).toHaveLength(2);
    const [beta] = (await listed(novu)).notifications;
    expect((await novu.notifications.seenAll({ notificationIds: [beta!.id] } as never)).error).toBeUndefined();
    expect((await novu.notifications.archiveAll()).error).toBeUndefined();
    expect((await listed(novu, { archived: true })).notifications).toHaveLength(3);
    expect((await novu.notifications.deleteAll({ tags: ['alpha'] } as never)).error).toBeUndefined();
    expect((await messagesOf(env.client, subscriberId)).map((m) => m.tags[0])).toEqual(['beta']);
  });

  it('shows a session only its own subscriber and context', async () => {
    const { subscriberId } = await inboxWith(1);
    const other = novuFor(`someone-${rand()}`);
    expect((await listed(other)).notifications).toEqual([]);
    const [mine] = (await listed(novuFor(subscriberId))).notifications;
    // Another subscriber's session cannot act on it.
    const stranger = await inboxClient(api.url, env, `stranger-${rand()}`);
    expect((await stranger.patch(`/v1/inbox/notifications/${mine!.id}/read`)).status).toBe(404);
    // A session of a context sees only messages of exactly that context.
    const inContext = await inboxClient(api.url, env, subscriberId, { context: { tenant: 'acme' } });
    expect((await inContext.get('/v1/inbox/notifications')).body.data).toEqual([]);
    expect((await inContext.patch(`/v1/inbox/notifications/${mine!.id}/read`)).status).toBe(404);
    // Another environment's session with the same subscriberId is another subscriber.
    expect((await listed(novuFor(subscriberId, {}, org.prod))).notifications).toEqual([]);
  });

  it('opens nothing with the token of a subscriber deleted since, even one made again under the same id', async () => {
    const { subscriberId } = await inboxWith(1);
    const session = await inboxClient(api.url, env, subscriberId);
    expect((await env.client.delete(`/v2/subscribers/${subscriberId}`)).status).toBe(200);
    expect((await env.client.post('/v2/subscribers', { subscriberId })).status).toBe(201);
    await trigger(env.client, await createWorkflow(env.client, [inAppStep({ body: 'For the new one' })]), subscriberId);
    await vi.waitFor(async () => expect(await messagesOf(env.client, subscriberId)).toHaveLength(1), WAIT);
    const count = `/v1/inbox/notifications/count?filters=${encodeURIComponent(JSON.stringify([{ read: false }]))}`;
    for (const res of [
      await session.get('/v1/inbox/notifications'),
      await session.get(count),
      await session.post('/v1/inbox/notifications/read', {}),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(404);
    }
    expect((await messagesOf(env.client, subscriberId))[0].read).toBe(false);
  });

  it(
    'answers an empty page for a range that ends before it starts, ' + 'and 422 for an empty cursor (found by the bad-input test: 500s)',
    async () => {
      const inbox = await inboxClient(api.url, env, `ranges-${rand()}`);
      const now = Date.now();
      for (const query of [`createdGte=${now}&after=0`, `createdGte=${now}&createdLte=${now - 5000}`]) {
        const res = await inbox.get(`/v1/inbox/notifications?${query}`);
        expect(res.status, query).toBe(200);
        expect(res.body.data).toEqual([]);
      }
      const filters = encodeURIComponent(JSON.stringify([{ createdGte: now, createdLte: now - 5000 }]));
      expect((await inbox.get(`/v1/inbox/notifications/count?filters=${filters}`)).body.data[0].count).toBe(0);
      for (const query of ['after', 'after=']) expect((await inbox.get(`/v1/inbox/notifications?${query}`)).status, query).toBe(422);
    },
  );
});
