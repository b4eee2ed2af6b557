import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { ENV } from '#lib/config.ts';
import { newId } from '#lib/ids.ts';
import type { StoredNotification } from '#lib/pipeline/model.ts';
import { db } from '#lib/store/client.ts';
import { createTestOrg, startTestApi, type ApiResponse, type TestEnv } from '../support/api.ts';
import { buildJob, seedNotification, type NotificationSeed } from '../support/notification-builder.ts';
import { seedWorkflow } from '../support/workflow-builder.ts';

// The activity feed (GET /v1/notifications and GET /v1/notifications/{id}) end to end through the
// route table and the real handlers. Notifications are what the pipeline writes; they are stored
// directly here (test/support/notification-builder.ts), placed in time through their ids.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());
afterEach(() => {
  delete process.env[ENV.activityRetentionDays];
  vi.restoreAllMocks();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => Date.now() - ms;

/** An environment made `days` ago, before what its test seeds: the feed reads nothing older than the environment. */
const newTestEnv = async (days = 1): Promise<TestEnv> => (await createTestOrg(api.url, { createdAt: new Date(ago(days * DAY)) })).dev;

type Query = Record<string, string | number | (string | number)[]>;
/** Repeated parameters for arrays, as clients send them. */
const qs = (query: Query = {}) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) params.append(k, String(one));
  const s = params.toString();
  return s ? `?${s}` : '';
};

async function list(env: TestEnv, query: Query = {}) {
  const res = await env.client.get(`/v1/notifications${qs(query)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { page: number; hasMore: boolean; pageSize: number; data: any[] };
}

/** Ids of the listed notifications, in the order listed. */
const ids = async (env: TestEnv, query: Query = {}) => (await list(env, query)).data.map((n) => n._id);

/** Ids newest first, as the feed must list them. */
const newestFirst = (...notifications: StoredNotification[]) =>
  [...notifications].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id)).map((n) => n._id);

function expectError(res: ApiResponse, status: number, message?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, path: expect.any(String), message: message ?? expect.any(String) });
}

const seed = (env: TestEnv, s: NotificationSeed = {}) => seedNotification(env.scope, s);

/** Spies on the DynamoDB client: the days of the activity partitions its Queries read from then on, in order, one per partition read. */
function activityDaysRead(): () => string[] {
  const send = vi.spyOn(db(), 'send');
  return () =>
    send.mock.calls
      .map(([command]) => command as unknown)
      .filter((c): c is QueryCommand => c instanceof QueryCommand)
      .map((c) => String(c.input.ExpressionAttributeValues?.[':pk'] ?? ''))
      // `…#ACT#<day>`, or `…#ACT#<day>#<shard>` for the day's other shards.
      .flatMap((pk) => /#ACT#(\d{4}-\d{2}-\d{2})(#\d+)?$/.exec(pk)?.[1] ?? []);
}

async function createSubscriber(env: TestEnv, subscriberId: string, extra: Record<string, unknown> = {}) {
  const res = await env.client.post('/v2/subscribers', { subscriberId, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { subscriberId, _id: res.body._id as string, ...extra } as { subscriberId: string; _id: string; email?: string };
}

describe('activity feed: item shape and GET by id', () => {
  it('shows each notification with its jobs, details, the current subscriber and workflow', async () => {
    const env = await newTestEnv();
    const workflow = await seedWorkflow(env.scope, {
      name: 'Order shipped',
      workflowId: 'order-shipped',
      steps: [{ type: 'digest' }, { type: 'email' }, { type: 'in_app', active: false }],
    });
    const subscriber = await createSubscriber(env, 'ada', {
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+15550100',
    });
    const at = ago(HOUR);
    const jobs = workflow.steps.filter((s) => s.active).map((step, i) => buildJob(step, i, new Date(at)));
    const stored = await seed(env, {
      at,
      workflow,
      subscriber,
      // Stored out of order: the feed sorts jobs by their index.
      jobs: [...jobs].reverse(),
      severity: 'high',
      critical: true,
      tags: ['orders'],
      topics: [{ _topicId: newId(), topicKey: 'shipping' }],
      contextKeys: ['tenant:acme'],
      payload: { orderId: 42 },
      overrides: { email: { subject: 'Hi' } },
      _digestedNotificationId: newId(),
    });

    const page = await list(env);
    expect(page).toMatchObject({ page: 0, hasMore: false, pageSize: 10 });
    expect(page.data).toHaveLength(1);
    const item = page.data[0];
    expect(item).toEqual({
      _id: stored._id,
      _environmentId: env.id,
      _organizationId: env.scope.organizationId,
      _subscriberId: subscriber._id,
      _templateId: workflow._id,
      _digestedNotificationId: stored._digestedNotificationId,
      transactionId: stored.transactionId,
      topics: [{ _topicId: stored.topics[0]!._topicId, topicKey: 'shipping' }],
      channels: ['digest', 'email'],
      createdAt: new Date(at).toISOString(),
      updatedAt: new Date(at).toISOString(),
      tags: ['orders'],
      controls: {},
      payload: { orderId: 42 },
      to: 'ada',
      subscriber: {
        _id: subscriber._id,
        subscriberId: 'ada',
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        phone: '+15550100',
      },
      template: {
        _id: workflow._id,
        name: 'Order shipped',
        origin: 'svc-cloud',
        triggers: [{ type: 'event', identifier: 'order-shipped', variables: [], subscriberVariables: [] }],
      },
      severity: 'high',
      critical: true,
      contextKeys: ['tenant:acme'],
      jobs: expect.any(Array),
    });

    const [digest, email] = item.jobs;
    expect(item.jobs.map((j: any) => j._id)).toEqual(jobs.map((j) => j._id));
    expect(digest).toEqual({
      _id: jobs[0]!._id,
      type: 'digest',
      // The digest value the window was keyed by is internal.
      digest: { type: 'regular', amount: 5, unit: 'minutes', digestKey: 'postId', events: [{ n: 1 }] },
      executionDetails: [expect.objectContaining({ detail: 'Step queued', status: 'Pending' })],
      step: {
        _id: workflow.steps[0]!._id,
        active: true,
        filters: [],
        _templateId: workflow.steps[0]!._id,
        name: 'step-0',
        _parentId: null,
        metadata: { type: 'regular', backoff: false },
        replyCallback: {},
        variants: [],
      },
      overrides: { email: { subject: 'Hi' } },
      payload: { orderId: 42 },
      // A digest is the service's own step: it names the service.
      providerId: 'svc',
      status: 'completed',
      updatedAt: new Date(at).toISOString(),
    });
    expect(email).toMatchObject({
      type: 'email',
      providerId: 'sendgrid',
      step: { _id: workflow.steps[1]!._id, name: 'step-1', _parentId: workflow.steps[0]!._id },
    });
    // Details in time order, as stored but without the internal message id.
    expect(email.executionDetails.map((d: any) => d.detail)).toEqual(['Step queued', 'Message created', 'Message sent']);
    const sent = jobs[1]!.executionDetails.find((d) => d.detail === 'Message sent')!;
    expect(email.executionDetails[2]).toEqual({
      _id: sent._id,
      createdAt: sent.createdAt,
      detail: 'Message sent',
      status: 'Success',
      source: 'Internal',
      isRetry: false,
      isTest: false,
      providerId: 'sendgrid',
      raw: '{"ok":true}',
    });

    const got = await env.client.get(`/v1/notifications/${stored._id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(item);
  });

  it('leaves out the subscriber and the workflow once deleted, and still shows which step ran', async () => {
    const env = await newTestEnv();
    const workflow = await seedWorkflow(env.scope, { workflowId: 'gone', steps: [{ type: 'in_app' }] });
    const subscriber = await createSubscriber(env, 'leaving', { email: 'leaving@example.com' });
    const stored = await seed(env, { workflow, subscriber });
    expect((await list(env)).data[0]).toMatchObject({ subscriber: { subscriberId: 'leaving' }, template: { _id: workflow._id } });

    expect((await env.client.delete('/v2/subscribers/leaving')).status).toBe(200);
    expect((await env.client.delete('/v2/workflows/gone')).status).toBe(204);
    const item = (await list(env)).data[0];
    expect(item._id).toBe(stored._id);
    expect(item).not.toHaveProperty('subscriber');
    expect(item).not.toHaveProperty('template');
    expect(item._subscriberId).toBe(subscriber._id);
    expect(item.jobs[0].step).toEqual({
      _id: workflow.steps[0]!._id,
      active: true,
      filters: [],
      _templateId: workflow.steps[0]!._id,
      name: 'step-0',
      _parentId: null,
    });

    // A new subscriber with the same subscriberId is another subscriber.
    await createSubscriber(env, 'leaving');
    expect((await list(env)).data[0]).not.toHaveProperty('subscriber');
    expect((await env.client.get(`/v1/notifications/${stored._id}`)).body).not.toHaveProperty('subscriber');
  });

  it('answers 404 for an id that is unknown, malformed or of another environment', async () => {
    const org = await createTestOrg(api.url);
    const theirs = await seed(org.prod);
    for (const id of [newId(), 'nope', 'ZZZZZZZZZZZZZZZZZZZZZZZZ', theirs._id, 'f'.repeat(24)]) {
      const res = await org.dev.client.get(`/v1/notifications/${id}`);
      expectError(res, 404, `Notification with id ${id} not found`);
      expect(res.body.error).toBe('Not Found');
    }
    expect((await org.prod.client.get(`/v1/notifications/${theirs._id}`)).status).toBe(200);
    expect(await ids(org.dev)).toEqual([]);
    expect(await ids(org.prod)).toEqual([theirs._id]);
  });
});

describe('activity feed: paging', () => {
  it('pages newest first over several days, with hasMore exact on a full last page', async () => {
    const env = await newTestEnv(10);
    const seeded = [];
    for (const at of [ago(HOUR), ago(2 * HOUR), ago(DAY + HOUR), ago(3 * DAY), ago(3 * DAY + 1000), ago(9 * DAY)])
      seeded.push(await seed(env, { at }));
    const all = newestFirst(...seeded);

    const pages = [];
    for (let page = 0; page < 3; page++) pages.push(await list(env, { limit: 2, page }));
    expect(pages.map((p) => p.data.map((n) => n._id))).toEqual([all.slice(0, 2), all.slice(2, 4), all.slice(4, 6)]);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    expect(pages.map((p) => [p.page, p.pageSize])).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);

    const beyond = await list(env, { limit: 2, page: 3 });
    expect(beyond).toEqual({ page: 3, hasMore: false, pageSize: 2, data: [] });

    const uneven = await list(env, { limit: 4, page: 1 });
    expect(uneven.data.map((n) => n._id)).toEqual(all.slice(4));
    expect(uneven.hasMore).toBe(false);
    expect(await ids(env, { limit: 50 })).toEqual(all);
    expect((await list(env, { limit: 6 })).hasMore).toBe(false);
    expect((await list(env, { limit: 5 })).hasMore).toBe(true);
  });

  it('reads only the days a page needs', async () => {
    const env = await newTestEnv(6);
    for (let i = 0; i < 4; i++) await seed(env, { at: ago(i * 1000) });
    for (let i = 0; i < 3; i++) await seed(env, { at: ago(5 * DAY + i * 1000) });

    const dayReads = activityDaysRead();

    // Three of today's four, and one more to know there are more: today is enough.
    const first = await list(env, { limit: 3 });
    expect(first.hasMore).toBe(true);
    expect(new Set(dayReads())).toEqual(new Set([new Date(ago(0)).toISOString().slice(0, 10)]));

    vi.mocked(db().send).mockClear();
    const second = await list(env, { limit: 3, page: 1 });
    expect(second.hasMore).toBe(true);
    // Reaches five days back, no further.
    const days = dayReads();
    expect(days.at(-1)).toBe(new Date(ago(5 * DAY + 2000)).toISOString().slice(0, 10));
    expect(new Set(days).size).toBeLessThanOrEqual(7);
  });

  it('reads no day before the environment was made', async () => {
    const env = (await createTestOrg(api.url)).dev;
    const made = await seed(env, { at: ago(0) });
    const dayReads = activityDaysRead();

    // A page it cannot fill: without the bound, every day of the 30-day retention (8 partitions each).
    expect(await ids(env, { limit: 10 })).toEqual([made._id]);
    // Today's, and yesterday's when the environment was made in today's first minute.
    expect(dayReads()).toContain(new Date(made.createdAt).toISOString().slice(0, 10));
    expect(dayReads().every((day) => day >= new Date(ago(DAY)).toISOString().slice(0, 10))).toBe(true);
    expect(dayReads().length).toBeLessThanOrEqual(16);

    vi.mocked(db().send).mockClear();
    expect(await ids(env, { before: new Date(ago(2 * DAY)).toISOString() })).toEqual([]);
    expect(dayReads()).toEqual([]);
  });

  it('validates page and limit', async () => {
    const env = await newTestEnv();
    for (const limit of ['0', '51', '-1', '1.5', 'ten']) {
      const res = await env.client.get(`/v1/notifications?limit=${limit}`);
      expectError(res, 422, 'Validation Error');
      expect(Object.keys(res.body.errors)).toEqual(['limit']);
    }
    for (const page of ['-1', '0.5', 'x']) expectError(await env.client.get(`/v1/notifications?page=${page}`), 422, 'Validation Error');
    expectError(await env.client.get('/v1/notifications?severity=urgent'), 422, 'Validation Error');
    expect(await list(env, { limit: 50 })).toEqual({ page: 0, hasMore: false, pageSize: 50, data: [] });
    expect(await list(env)).toEqual({ page: 0, hasMore: false, pageSize: 10, data: [] });
  });
});

describe('activity feed: filters', () => {
  it('filters by channels, templates, severity, topicKey and transactionId, AND-ed', async () => {
    const env = await newTestEnv();
    const [wfA, wfB] = [newId(), newId()];
    const a = await seed(env, {
      at: ago(5 * HOUR),
      _templateId: wfA,
      stepTypes: ['email', 'sms'],
      severity: 'high',
      topics: [{ _topicId: newId(), topicKey: 'news' }],
    });
    const b = await seed(env, { at: ago(4 * HOUR), _templateId: wfB, stepTypes: ['in_app'], severity: 'low' });
    const c = await seed(env, {
      at: ago(3 * HOUR),
      _templateId: wfA,
      stepTypes: ['push', 'digest'],
      severity: 'none',
      topics: [
        { _topicId: newId(), topicKey: 'alerts' },
        { _topicId: newId(), topicKey: 'news' },
      ],
    });
    // Stored without a severity: 'none' matches it too.
    const d = await seed(env, { at: ago(2 * HOUR), _templateId: wfB, stepTypes: ['email'], severity: undefined });

    expect(await ids(env)).toEqual(newestFirst(a, b, c, d));
    expect(await ids(env, { channels: 'email' })).toEqual(newestFirst(a, d));
    expect(await ids(env, { channels: ['sms', 'push'] })).toEqual(newestFirst(a, c));
    expect(await ids(env, { channels: 'sms,in_app' })).toEqual(newestFirst(a, b));
    expect(await ids(env, { channels: 'chat' })).toEqual([]);
    expect(await ids(env, { templates: wfA })).toEqual(newestFirst(a, c));
    expect(await ids(env, { templates: [wfA, wfB] })).toEqual(newestFirst(a, b, c, d));
    expect(await ids(env, { templates: 'not-an-id' })).toEqual([]);
    expect(await ids(env, { severity: 'high' })).toEqual([a._id]);
    expect(await ids(env, { severity: 'none' })).toEqual(newestFirst(c, d));
    expect(await ids(env, { severity: ['low', 'none'] })).toEqual(newestFirst(b, c, d));
    expect(await ids(env, { topicKey: 'news' })).toEqual(newestFirst(a, c));
    expect(await ids(env, { topicKey: 'alerts' })).toEqual([c._id]);
    expect(await ids(env, { topicKey: 'nobody' })).toEqual([]);
    expect(await ids(env, { transactionId: b.transactionId })).toEqual([b._id]);
    expect(await ids(env, { transactionId: [d.transactionId, a.transactionId, 'unknown'] })).toEqual(newestFirst(a, d));
    expect(await ids(env, { transactionId: `${a.transactionId},${c.transactionId}` })).toEqual(newestFirst(a, c));

    // AND-ed.
    expect(await ids(env, { templates: wfA, channels: 'email' })).toEqual([a._id]);
    expect(await ids(env, { templates: wfA, severity: 'none', topicKey: 'news' })).toEqual([c._id]);
    expect(await ids(env, { transactionId: [a.transactionId, c.transactionId], severity: 'high' })).toEqual([a._id]);
    expect(await ids(env, { channels: 'in_app', severity: 'high' })).toEqual([]);

    // Paging applies after filtering, hasMore exact.
    const first = await list(env, { templates: [wfA, wfB], severity: ['none', 'high'], limit: 2 });
    expect(first.data.map((n) => n._id)).toEqual(newestFirst(a, c, d).slice(0, 2));
    expect(first.hasMore).toBe(true);
    const last = await list(env, { templates: [wfA, wfB], severity: ['none', 'high'], limit: 2, page: 1 });
    expect(last.data.map((n) => n._id)).toEqual([a._id]);
    expect(last.hasMore).toBe(false);
    const txnPage = await list(env, { transactionId: [a.transactionId, b.transactionId, c.transactionId], limit: 3 });
    expect(txnPage.hasMore).toBe(false);
    expect(txnPage.data.map((n) => n._id)).toEqual(newestFirst(a, b, c));
  });

  it('filters by context keys: absent, empty (no context) or the exact set in any order', async () => {
    const env = await newTestEnv();
    const none = await seed(env, { at: ago(3 * HOUR), contextKeys: [] });
    const one = await seed(env, { at: ago(2 * HOUR), contextKeys: ['tenant:acme'] });
    const two = await seed(env, { at: ago(HOUR), contextKeys: ['region:eu', 'tenant:acme'] });

    expect(await ids(env)).toEqual(newestFirst(none, one, two));
    expect(await env.client.get('/v1/notifications?contextKeys=').then((r) => r.body.data.map((n: any) => n._id))).toEqual([none._id]);
    expect(await ids(env, { contextKeys: 'tenant:acme' })).toEqual([one._id]);
    expect(await ids(env, { contextKeys: ['tenant:acme', 'region:eu'] })).toEqual([two._id]);
    expect(await ids(env, { contextKeys: 'region:eu,tenant:acme' })).toEqual([two._id]);
    expect(await ids(env, { contextKeys: 'region:eu' })).toEqual([]);
    expect(await ids(env, { contextKeys: ['tenant:acme', 'region:eu', 'x:y'] })).toEqual([]);
  });

  it('OR-s subscriberIds and emails, AND-s them with the rest, and answers page 0 when they name nobody', async () => {
    const env = await newTestEnv(7);
    const ann = await createSubscriber(env, 'ann', { email: 'Ann@Example.com' });
    const bob = await createSubscriber(env, 'bob', { email: 'bob@example.com' });
    const cat = await createSubscriber(env, 'cat', { email: 'shared@example.com' });
    const dan = await createSubscriber(env, 'dan', { email: 'shared@example.com' });
    const n = {
      ann1: await seed(env, { at: ago(6 * DAY), subscriber: ann, stepTypes: ['email'] }),
      bob1: await seed(env, { at: ago(5 * DAY), subscriber: bob, stepTypes: ['sms'] }),
      ann2: await seed(env, { at: ago(2 * DAY), subscriber: ann, stepTypes: ['sms'] }),
      cat1: await seed(env, { at: ago(DAY), subscriber: cat }),
      dan1: await seed(env, { at: ago(HOUR), subscriber: dan }),
      bob2: await seed(env, { at: ago(30 * 60_000), subscriber: bob, stepTypes: ['email'] }),
      // Activity of a subscriberId that has no subscriber (any more) is still found by that id.
      ghost: await seed(env, { at: ago(10 * 60_000), subscriber: { subscriberId: 'ghost', _id: newId() } }),
    };

    expect(await ids(env, { subscriberIds: 'ann' })).toEqual(newestFirst(n.ann1, n.ann2));
    expect(await ids(env, { subscriberIds: ['bob', 'ann'] })).toEqual(newestFirst(n.ann1, n.ann2, n.bob1, n.bob2));
    expect(await ids(env, { subscriberIds: 'bob,ghost' })).toEqual(newestFirst(n.bob1, n.bob2, n.ghost));
    expect(await ids(env, { emails: 'bob@example.com' })).toEqual(newestFirst(n.bob1, n.bob2));
    expect(await ids(env, { emails: 'ann@example.com' })).toEqual(newestFirst(n.ann1, n.ann2));
    expect(await ids(env, { emails: 'shared@example.com' })).toEqual(newestFirst(n.cat1, n.dan1));
    // OR-ed: either list.
    expect(await ids(env, { subscriberIds: 'ann', emails: ['shared@example.com', 'nobody@example.com'] })).toEqual(
      newestFirst(n.ann1, n.ann2, n.cat1, n.dan1),
    );
    expect(await ids(env, { subscriberIds: 'bob', emails: 'bob@example.com' })).toEqual(newestFirst(n.bob1, n.bob2));
    // The deprecated search: an exact subscriberId or email.
    expect(await ids(env, { search: 'cat' })).toEqual([n.cat1._id]);
    expect(await ids(env, { search: 'bob@example.com' })).toEqual(newestFirst(n.bob1, n.bob2));
    // AND-ed with the other filters, and with the time window.
    expect(await ids(env, { subscriberIds: ['ann', 'bob'], channels: 'email' })).toEqual(newestFirst(n.ann1, n.bob2));
    expect(await ids(env, { subscriberIds: ['ann', 'bob'], after: new Date(ago(3 * DAY)).toISOString() })).toEqual(
      newestFirst(n.ann2, n.bob2),
    );
    expect(await ids(env, { emails: 'bob@example.com', transactionId: [n.bob1.transactionId, n.ann1.transactionId] })).toEqual([
      n.bob1._id,
    ]);

    // Merged newest first across subscribers, paged with hasMore exact.
    const query = { subscriberIds: ['ann', 'bob', 'cat', 'dan'], limit: 3 };
    const first = await list(env, query);
    const second = await list(env, { ...query, page: 1 });
    const expected = newestFirst(n.ann1, n.ann2, n.bob1, n.bob2, n.cat1, n.dan1);
    expect([...first.data, ...second.data].map((x) => x._id)).toEqual(expected);
    expect([first.hasMore, second.hasMore]).toEqual([true, false]);

    // Emails that name nobody: the first page, empty, whatever page was asked.
    expect(await list(env, { emails: 'nobody@example.com', page: 2, limit: 5 })).toEqual({
      page: 0,
      hasMore: false,
      pageSize: 5,
      data: [],
    });
    // A subscriberId without activity is simply an empty page.
    expect(await list(env, { subscriberIds: 'nobody', page: 1 })).toEqual({ page: 1, hasMore: false, pageSize: 10, data: [] });
  });
});

describe('activity feed: dates', () => {
  it('lists between after and before, to the millisecond', async () => {
    const env = await newTestEnv(3);
    const base = Math.floor(ago(2 * DAY) / 1000) * 1000;
    const early = await seed(env, { at: base + 100 });
    const late = await seed(env, { at: base + 900 });
    const next = await seed(env, { at: base + 5_000 });

    const iso = (ms: number) => new Date(ms).toISOString();
    expect(await ids(env, { after: iso(base + 100), before: iso(base + 900) })).toEqual(newestFirst(early, late));
    expect(await ids(env, { after: iso(base + 101) })).toEqual(newestFirst(late, next));
    expect(await ids(env, { before: iso(base + 899) })).toEqual([early._id]);
    expect(await ids(env, { after: iso(base + 100), before: iso(base + 100) })).toEqual([early._id]);
    // Any date string Date understands.
    expect(await ids(env, { after: new Date(base + 1000).toUTCString() })).toEqual([next._id]);
    expect(await ids(env, { before: iso(ago(3 * DAY)) })).toEqual([]);
    // A `before` in the future is now.
    expect(await ids(env, { before: '2999-01-01' })).toEqual(newestFirst(early, late, next));
  });

  it('answers 400 for dates it cannot read and for a reversed range', async () => {
    const env = await newTestEnv();
    for (const [param, value] of [
      ['after', 'yesterday'],
      ['before', 'not-a-date'],
      ['after', ''],
      ['before', '2024-13-45'],
    ] as const) {
      const res = await env.client.get(`/v1/notifications?${param}=${encodeURIComponent(value)}`);
      expectError(res, 400, `Invalid date format for parameter '${param}': ${value}. Please provide a valid ISO 8601 date string.`);
      expect(res.body.error).toBe('Bad Request');
    }
    const reversed = 'Invalid date range: start date (after) must be earlier than end date (before)';
    expectError(
      await env.client.get(`/v1/notifications${qs({ after: '2026-02-02T00:00:00Z', before: '2026-02-01T00:00:00Z' })}`),
      400,
      reversed,
    );
    // `before` defaults to now.
    expectError(await env.client.get(`/v1/notifications${qs({ after: new Date(Date.now() + DAY).toISOString() })}`), 400, reversed);
  });

  it('reaches back as far as the retention: 30 days unless configured', async () => {
    const env = await newTestEnv(60);
    const recent = await seed(env, { at: ago(29 * DAY) });
    const old = await seed(env, { at: ago(40 * DAY) });

    expect(await ids(env)).toEqual([recent._id]);
    // An earlier `after` does not reach past the retention either.
    expect(await ids(env, { after: new Date(ago(60 * DAY)).toISOString() })).toEqual([recent._id]);
    // Past the retention it has expired (DynamoDB deletes it by TTL): not found by id either.
    expect((await env.client.get(`/v1/notifications/${old._id}`)).status).toBe(404);
    expect((await env.client.get(`/v1/notifications/${recent._id}`)).status).toBe(200);

    process.env[ENV.activityRetentionDays] = '45';
    expect(await ids(env)).toEqual(newestFirst(recent, old));
    expect(await ids(env, { before: new Date(ago(35 * DAY)).toISOString() })).toEqual([old._id]);
    process.env[ENV.activityRetentionDays] = '7';
    expect(await ids(env)).toEqual([]);
  });
});
