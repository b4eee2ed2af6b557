import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import type { EnvScope } from '#lib/scope.ts';
import { createTestOrg, startTestApi, type ApiClient, type ApiResponse } from '../support/api.ts';

// Subscribers end to end: the v2 CRUD and list routes and the v1 credentials routes, through the
// route table and the real handlers, against the emulators. Every test provisions its own
// organization, so it sees only what it did itself.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

// ---- helpers ---------------------------------------------------------------------------------

const newTestOrg = () => createTestOrg(api.url);

async function createSubscriber(client: ApiClient, body: Record<string, unknown>) {
  const res = await client.post('/v2/subscribers', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function getSubscriber(client: ApiClient, subscriberId: string) {
  const res = await client.get(`/v2/subscribers/${encodeURIComponent(subscriberId)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function list(client: ApiClient, query: Record<string, string | number> = {}) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const res = await client.get(`/v2/subscribers${qs ? `?${qs}` : ''}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: any[]; next: string | null; previous: string | null };
}

const ids = (page: { data: any[] }) => page.data.map((s) => s.subscriberId);

async function createIntegration(client: ApiClient, body: Record<string, unknown>) {
  const res = await client.post('/v1/integrations', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const discord = (client: ApiClient, extra: Record<string, unknown> = {}) =>
  createIntegration(client, { providerId: 'discord', channel: 'chat', active: true, ...extra });
const expo = (client: ApiClient, extra: Record<string, unknown> = {}) =>
  createIntegration(client, { providerId: 'expo', channel: 'push', credentials: { apiKey: 'expo-token' }, active: true, ...extra });

const credentialsPath = (subscriberId: string) => `/v1/subscribers/${subscriberId}/credentials`;

function tokensOf(subscriber: any, integrationId: string): string[] | undefined {
  return subscriber.channels.find((c: any) => c._integrationId === integrationId)?.credentials.deviceTokens;
}

function expectError(res: ApiResponse, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, message: expect.any(String), path: expect.any(String) });
}

async function partitionItems(scope: EnvScope, subscriberId: string) {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.subscriberPartition(scope, subscriberId).pk },
      ConsistentRead: true,
    }),
  );
  return Items;
}

// ---- POST /v2/subscribers and GET /v2/subscribers/{id} ----------------------------------------

describe('POST /v2/subscribers', () => {
  it('creates a subscriber with every profile field and reads it back', async () => {
    const { dev } = await newTestOrg();
    const body = {
      subscriberId: 'user-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+441234567890',
      avatar: 'https://example.com/ada.png',
      locale: 'en-GB',
      timezone: 'Europe/London',
      data: { plan: 'pro', tags: ['a', 'b'] },
    };
    const created = await createSubscriber(dev.client, { ...body, unknownField: 'ignored' });

    expect(created).toMatchObject({
      ...body,
      _organizationId: dev.scope.organizationId,
      _environmentId: dev.scope.environmentId,
      channels: [],
      deleted: false,
      isOnline: null,
      lastOnlineAt: null,
    });
    expect(created._id).toMatch(/^[0-9a-f]{24}$/);
    expect(created).not.toHaveProperty('unknownField');
    expect(created.updatedAt).toBe(created.createdAt);
    expect(await getSubscriber(dev.client, 'user-1')).toEqual(created);
  });

  it('accepts an email address as subscriberId and empty strings for free-text fields', async () => {
    const { dev } = await newTestOrg();
    const created = await createSubscriber(dev.client, { subscriberId: 'someone+x@example.com', firstName: '', phone: '' });
    expect(created).toMatchObject({ firstName: '', phone: '' });
    expect((await getSubscriber(dev.client, 'someone+x@example.com')).subscriberId).toBe('someone+x@example.com');
  });

  it('answers 409 for a subscriberId taken in the environment, but not in another environment', async () => {
    const { dev, prod } = await newTestOrg();
    await createSubscriber(dev.client, { subscriberId: 'dup', firstName: 'First' });

    const again = await dev.client.post('/v2/subscribers', { subscriberId: 'dup', firstName: 'Second' });
    expectError(again, 409);
    expect((await getSubscriber(dev.client, 'dup')).firstName).toBe('First');

    await createSubscriber(prod.client, { subscriberId: 'dup' });
  });

  it('answers 422 with one entry per bad field', async () => {
    const { dev } = await newTestOrg();
    const res = await dev.client.post('/v2/subscribers', {
      subscriberId: 'has spaces!',
      email: 'not-an-email',
      locale: 'en_US_!!',
      timezone: 'Mars/Olympus_Mons',
      data: 'not an object',
    });
    expectError(res, 422);
    expect(res.body.message).toBe('Validation Error');
    expect(Object.keys(res.body.errors).sort()).toEqual(['data', 'email', 'locale', 'subscriberId', 'timezone']);
    expect(res.body.errors.subscriberId.value).toBe('has spaces!');
    expect(res.body.errors.timezone.value).toBe('Mars/Olympus_Mons');

    expectError(await dev.client.post('/v2/subscribers', { firstName: 'No id' }), 422);
    const empty = await dev.client.post('/v2/subscribers', { subscriberId: 'e', email: '', locale: '', timezone: '' });
    expectError(empty, 422);
    expect(Object.keys(empty.body.errors).sort()).toEqual(['email', 'locale', 'timezone']);
    expectError(await dev.client.get('/v2/subscribers/e'), 404);
  });
});

describe('GET /v2/subscribers/{subscriberId}', () => {
  it('answers 404 for an unknown subscriber', async () => {
    const { dev } = await newTestOrg();
    const res = await dev.client.get('/v2/subscribers/nobody');
    expectError(res, 404);
    expect(res.body).toMatchObject({ error: 'Not Found', path: '/v2/subscribers/nobody' });
  });
});

// ---- PATCH /v2/subscribers/{id} --------------------------------------------------------------

describe('PATCH /v2/subscribers/{subscriberId}', () => {
  it('changes only the sent fields and moves updatedAt', async () => {
    const { dev } = await newTestOrg();
    const created = await createSubscriber(dev.client, {
      subscriberId: 'p1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      locale: 'en',
      data: { keep: true },
    });

    const res = await dev.client.patch('/v2/subscribers/p1', { lastName: 'Byron', timezone: 'America/New_York' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ...created, lastName: 'Byron', timezone: 'America/New_York', updatedAt: res.body.updatedAt });
    expect(res.body.updatedAt > created.updatedAt).toBe(true);
    expect(res.body.createdAt).toBe(created.createdAt);
    expect(await getSubscriber(dev.client, 'p1')).toEqual(res.body);
  });

  it('clears fields sent as null and replaces data whole', async () => {
    const { dev } = await newTestOrg();
    await createSubscriber(dev.client, {
      subscriberId: 'p2',
      firstName: 'Ada',
      phone: '+15550100',
      email: 'ada@example.com',
      data: { a: 1, nested: { b: 2 } },
    });

    const res = await dev.client.patch('/v2/subscribers/p2', { firstName: null, email: null, data: { c: 3 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: null, email: null, phone: '+15550100', data: { c: 3 } });
    expect(res.body.data).toEqual({ c: 3 });
    expect(await getSubscriber(dev.client, 'p2')).toEqual(res.body);
    // The cleared email left the email index.
    expect(ids(await list(dev.client, { email: 'ada@example.com' }))).toEqual([]);

    const cleared = await dev.client.patch('/v2/subscribers/p2', { data: null });
    expect(cleared.body.data).toBeNull();
  });

  it('writes nothing when nothing changes', async () => {
    const { dev } = await newTestOrg();
    const created = await createSubscriber(dev.client, { subscriberId: 'p3', firstName: 'Ada', data: { a: [1, 2] } });
    const res = await dev.client.patch('/v2/subscribers/p3', { firstName: 'Ada', data: { a: [1, 2] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it('answers 422 per bad field and changes nothing', async () => {
    const { dev } = await newTestOrg();
    const created = await createSubscriber(dev.client, { subscriberId: 'p4', email: 'ok@example.com' });

    const res = await dev.client.patch('/v2/subscribers/p4', {
      email: 'nope',
      locale: 'not a locale',
      timezone: 'Nowhere/City',
      firstName: 'Changed',
    });
    expectError(res, 422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'locale', 'timezone']);
    expect(res.body.errors.email).toEqual({ messages: [expect.any(String)], value: 'nope' });

    for (const field of ['email', 'locale', 'timezone']) {
      const empty = await dev.client.patch('/v2/subscribers/p4', { [field]: '' });
      expectError(empty, 422);
      expect(Object.keys(empty.body.errors)).toEqual([field]);
    }
    expect(await getSubscriber(dev.client, 'p4')).toEqual(created);
  });

  it('accepts BCP 47 locales and IANA time zones', async () => {
    const { dev } = await newTestOrg();
    await createSubscriber(dev.client, { subscriberId: 'p5' });
    for (const [locale, timezone] of [
      ['zh-Hant-TW', 'Asia/Taipei'],
      ['de', 'UTC'],
      ['pt-BR', 'America/Sao_Paulo'],
    ]) {
      const res = await dev.client.patch('/v2/subscribers/p5', { locale, timezone });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ locale, timezone });
    }
    expectError(await dev.client.patch('/v2/subscribers/p5', { timezone: '+01:00' }), 422);
  });

  it('answers 404 for an unknown subscriber', async () => {
    const { dev } = await newTestOrg();
    expectError(await dev.client.patch('/v2/subscribers/nobody', { firstName: 'x' }), 404);
  });
});

// ---- GET /v2/subscribers ---------------------------------------------------------------------

describe('GET /v2/subscribers', () => {
  it('pages forward and back without gaps or repeats, in both orders', async () => {
    const { dev } = await newTestOrg();
    const total = 27;
    for (let i = 0; i < total; i++) await createSubscriber(dev.client, { subscriberId: `s-${String(i).padStart(2, '0')}` });
    const created = Array.from({ length: total }, (_, i) => `s-${String(i).padStart(2, '0')}`);

    const all = await list(dev.client, { limit: 100 });
    expect(ids(all)).toEqual([...created].reverse()); // newest first by default
    expect(all).toMatchObject({ next: null, previous: null });
    expect(ids(await list(dev.client, { limit: 100, orderDirection: 'ASC' }))).toEqual(created);

    for (const orderDirection of ['DESC', 'ASC']) {
      const expected = orderDirection === 'ASC' ? created : [...created].reverse();
      // Forward with `after`.
      const forward: any[] = [];
      let page = await list(dev.client, { limit: 10, orderDirection });
      expect(page.previous).toBeNull();
      forward.push(page);
      while (page.next) {
        page = await list(dev.client, { limit: 10, orderDirection, after: page.next });
        forward.push(page);
      }
      expect(forward.map((p) => p.data.length)).toEqual([10, 10, 7]);
      expect(forward.flatMap(ids)).toEqual(expected);
      expect(forward.slice(1).every((p) => p.previous !== null)).toBe(true);

      // Back with `before`, from the last page.
      const backward: any[] = [page];
      while (page.previous) {
        page = await list(dev.client, { limit: 10, orderDirection, before: page.previous });
        backward.unshift(page);
      }
      expect(backward.map((p) => p.data.length)).toEqual([10, 10, 7]);
      expect(backward.flatMap(ids)).toEqual(expected);
      expect(backward[0].previous).toBeNull();
      expect(backward[0].next).not.toBeNull();
    }
  });

  it('gives an empty page for a cursor whose subscriber was deleted, as the reference does', async () => {
    const { dev } = await newTestOrg();
    for (let i = 0; i < 6; i++) await createSubscriber(dev.client, { subscriberId: `d-${i}` });
    const first = await list(dev.client, { limit: 3, orderDirection: 'ASC' });
    expect(ids(first)).toEqual(['d-0', 'd-1', 'd-2']);
    expect((await dev.client.delete('/v2/subscribers/d-2')).status).toBe(200);
    for (const side of ['after', 'before']) {
      const page = await list(dev.client, { limit: 3, orderDirection: 'ASC', [side]: first.next! });
      expect(page).toMatchObject({ data: [], next: null, previous: null });
    }
  });

  it('filters by name (case-insensitive part) and phone (exact), paging through matches only', async () => {
    const { dev } = await newTestOrg();
    const matching: string[] = [];
    for (let i = 0; i < 24; i++) {
      const target = i % 2 === 0;
      const subscriberId = `f-${String(i).padStart(2, '0')}`;
      if (target) matching.push(subscriberId);
      await createSubscriber(dev.client, {
        subscriberId,
        firstName: target ? 'Grace' : 'Alan',
        lastName: target ? 'Hopper' : 'Turing',
        phone: target ? '+15550001' : '+15550002',
      });
    }

    const byName: string[] = [];
    let page = await list(dev.client, { name: 'ce hop', limit: 5, orderDirection: 'ASC' });
    byName.push(...ids(page));
    while (page.next) {
      page = await list(dev.client, { name: 'ce hop', limit: 5, orderDirection: 'ASC', after: page.next });
      byName.push(...ids(page));
    }
    expect(byName).toEqual(matching);
    const back = await list(dev.client, { name: 'GRACE', limit: 5, orderDirection: 'ASC', before: page.previous! });
    expect(ids(back)).toEqual(matching.slice(5, 10));

    expect(ids(await list(dev.client, { phone: '+15550001', limit: 100, orderDirection: 'ASC' }))).toEqual(matching);
    // The total counts what the filters match, not the page.
    expect(await list(dev.client, { name: 'ce hop', limit: 5 })).toMatchObject({ totalCount: matching.length, totalCountCapped: false });
    expect(await list(dev.client, { phone: '+15550002', limit: 1 })).toMatchObject({ totalCount: 24 - matching.length });
    expect(ids(await list(dev.client, { phone: '+1555000', limit: 100 }))).toEqual([]);
    expect(ids(await list(dev.client, { name: 'turing', phone: '+15550001' }))).toEqual([]);
  });

  it('filters by name as PATCH changes it, concurrent changes of both names included', async () => {
    const { dev } = await newTestOrg();
    await createSubscriber(dev.client, { subscriberId: 'n-1', firstName: 'Ada', lastName: 'Byron' });
    const [first, last] = await Promise.all([
      dev.client.patch('/v2/subscribers/n-1', { firstName: 'Grace' }),
      dev.client.patch('/v2/subscribers/n-1', { lastName: 'Hopper' }),
    ]);
    expect([first.status, last.status]).toEqual([200, 200]);
    expect(ids(await list(dev.client, { name: 'grace hopper' }))).toEqual(['n-1']);
    expect(ids(await list(dev.client, { name: 'ada' }))).toEqual([]);
    expect((await dev.client.patch('/v2/subscribers/n-1', { firstName: null })).status).toBe(200);
    expect(ids(await list(dev.client, { name: 'grace' }))).toEqual([]);
    expect(ids(await list(dev.client, { name: ' hopper' }))).toEqual(['n-1']);
    expect((await list(dev.client)).data[0]).not.toHaveProperty('nameLower');
  });

  it('filters by exact email through the email index, following email changes', async () => {
    const { dev } = await newTestOrg();
    await createSubscriber(dev.client, { subscriberId: 'e1', email: 'shared@example.com' });
    await createSubscriber(dev.client, { subscriberId: 'e2', email: 'shared@example.com' });
    await createSubscriber(dev.client, { subscriberId: 'e3', email: 'other@example.com' });

    expect(ids(await list(dev.client, { email: 'shared@example.com' })).sort()).toEqual(['e1', 'e2']);
    expect(await list(dev.client, { email: 'shared@example.com' })).toMatchObject({ totalCount: 2, totalCountCapped: false });
    expect(await list(dev.client)).toMatchObject({ totalCount: 3, totalCountCapped: false });
    expect(ids(await list(dev.client, { email: 'SHARED@example.com' })).sort()).toEqual(['e1', 'e2']);
    expect(ids(await list(dev.client, { email: 'shared@example' }))).toEqual([]);

    await dev.client.patch('/v2/subscribers/e1', { email: 'moved@example.com' });
    expect(ids(await list(dev.client, { email: 'shared@example.com' }))).toEqual(['e2']);
    expect(ids(await list(dev.client, { email: 'moved@example.com' }))).toEqual(['e1']);

    // Paging within the email's entries.
    await createSubscriber(dev.client, { subscriberId: 'e4', email: 'shared@example.com' });
    const all: string[] = [];
    let page = await list(dev.client, { email: 'shared@example.com', limit: 1 });
    all.push(...ids(page));
    while (page.next) {
      page = await list(dev.client, { email: 'shared@example.com', limit: 1, after: page.next });
      all.push(...ids(page));
    }
    expect(all.sort()).toEqual(['e2', 'e4']);
  });

  it('validates its query', async () => {
    const { dev } = await newTestOrg();
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'orderDirection=UP']) {
      expectError(await dev.client.get(`/v2/subscribers?${query}`), 422);
    }
    expectError(await dev.client.get('/v2/subscribers?after=garbage'), 422);
    expectError(await dev.client.get('/v2/subscribers?after=WyJhIl0'), 422);
    const both = await dev.client.get('/v2/subscribers?after=x&before=y');
    expectError(both, 400);
    expect((await list(dev.client)).data).toEqual([]);
  });
});

// ---- credentials -----------------------------------------------------------------------------

describe('PUT/PATCH/DELETE /v1/subscribers/{subscriberId}/credentials', () => {
  it('stores chat credentials with every ChannelCredentials field and the chosen integration', async () => {
    const { dev } = await newTestOrg();
    const integration = await discord(dev.client);
    const created = await createSubscriber(dev.client, { subscriberId: 'c1' });
    const credentials = {
      webhookUrl: 'https://discord.example/hook',
      channel: 'general',
      alertUid: 'uid',
      title: 'Title',
      imageUrl: 'https://example.com/i.png',
      state: 'alerting',
      externalUrl: 'https://example.com',
    };

    const res = await dev.client.put(credentialsPath('c1'), { providerId: 'discord', credentials: { ...credentials, unknown: 1 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.channels).toEqual([{ providerId: 'discord', _integrationId: integration._id, credentials }]);
    expect(res.body.updatedAt > created.updatedAt).toBe(true);
    expect(await getSubscriber(dev.client, 'c1')).toEqual(res.body);
  });

  it('replaces device tokens on PUT and appends on PATCH, de-duplicated', async () => {
    const { dev } = await newTestOrg();
    const integration = await expo(dev.client);
    await createSubscriber(dev.client, { subscriberId: 'c2' });
    const put = (body: unknown) => dev.client.put(credentialsPath('c2'), body);
    // PATCH (not one of the interface's endpoints) answers in the reference's `{data}` envelope.
    const patch = async (body: unknown) => {
      const res = await dev.client.patch(credentialsPath('c2'), body);
      return { ...res, body: res.body.data };
    };

    let res = await put({ providerId: 'expo', credentials: { deviceTokens: ['a', 'b', 'a'] } });
    expect(tokensOf(res.body, integration._id)).toEqual(['a', 'b']);
    res = await put({ providerId: 'expo', credentials: { deviceTokens: ['c', 'c'] } });
    expect(tokensOf(res.body, integration._id)).toEqual(['c']);
    res = await patch({ providerId: 'expo', credentials: { deviceTokens: ['c', 'd', 'd'] } });
    expect(res.status).toBe(200);
    expect(tokensOf(res.body, integration._id)).toEqual(['c', 'd']);
    res = await patch({ providerId: 'expo', credentials: {} });
    expect(tokensOf(res.body, integration._id)).toEqual(['c', 'd']);
    expect(res.body.channels).toHaveLength(1);

    // A PUT without deviceTokens keeps none; an empty list clears them too.
    res = await put({ providerId: 'expo', credentials: { title: 'no tokens' } });
    expect(res.body.channels[0].credentials).toEqual({ title: 'no tokens', deviceTokens: [] });
    await patch({ providerId: 'expo', credentials: { deviceTokens: ['x'] } });
    res = await put({ providerId: 'expo', credentials: { deviceTokens: [] } });
    expect(tokensOf(res.body, integration._id)).toEqual([]);
  });

  it('allows at most 100 distinct device tokens (400 beyond, nothing changed)', async () => {
    const { dev } = await newTestOrg();
    const integration = await expo(dev.client);
    await createSubscriber(dev.client, { subscriberId: 'c3' });
    const tokens = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

    let res = await dev.client.put(credentialsPath('c3'), { providerId: 'expo', credentials: { deviceTokens: tokens(101) } });
    expectError(res, 400);
    expect(res.body.message).toBe(
      'Device tokens limit exceeded. Maximum allowed tokens per subscriber channel is 100, but got 101 tokens.',
    );

    res = await dev.client.put(credentialsPath('c3'), {
      providerId: 'expo',
      credentials: { deviceTokens: [...tokens(100), ...tokens(50)] },
    });
    expect(res.status).toBe(200);
    expect(tokensOf(res.body, integration._id)).toHaveLength(100);

    res = await dev.client.patch(credentialsPath('c3'), { providerId: 'expo', credentials: { deviceTokens: ['one-more'] } });
    expectError(res, 400);
    expect(tokensOf(await getSubscriber(dev.client, 'c3'), integration._id)).toEqual(tokens(100));
  });

  it('needs an active integration of the provider in the caller environment (400 otherwise)', async () => {
    const { dev, prod } = await newTestOrg();
    await createSubscriber(dev.client, { subscriberId: 'c4' });
    const body = { providerId: 'expo', credentials: { deviceTokens: ['a'] } };

    const res = await dev.client.put(credentialsPath('c4'), body);
    expectError(res, 400);
    expect(res.body.message).toBe(`Subscribers environment (${dev.scope.environmentId}) do not have active expo integration.`);

    await expo(dev.client, { active: false });
    await expo(prod.client);
    expectError(await dev.client.put(credentialsPath('c4'), body), 400);
    expectError(await dev.client.patch(credentialsPath('c4'), body), 400);
    expect((await getSubscriber(dev.client, 'c4')).channels).toEqual([]);
  });

  it('selects the integration by integrationIdentifier, else the newest', async () => {
    const { dev } = await newTestOrg();
    const older = await expo(dev.client, { identifier: 'expo-older' });
    const newer = await expo(dev.client, { identifier: 'expo-newer' });
    await createSubscriber(dev.client, { subscriberId: 'c5' });

    let res = await dev.client.put(credentialsPath('c5'), {
      providerId: 'expo',
      integrationIdentifier: 'expo-older',
      credentials: { deviceTokens: ['for-older'] },
    });
    expect(res.body.channels.map((c: any) => c._integrationId)).toEqual([older._id]);

    res = await dev.client.put(credentialsPath('c5'), { providerId: 'expo', credentials: { deviceTokens: ['for-newer'] } });
    expect(tokensOf(res.body, older._id)).toEqual(['for-older']);
    expect(tokensOf(res.body, newer._id)).toEqual(['for-newer']);

    res = await dev.client.put(credentialsPath('c5'), {
      providerId: 'expo',
      integrationIdentifier: 'no-such-identifier',
      credentials: { deviceTokens: ['x'] },
    });
    expectError(res, 400);
  });

  it('DELETE removes one provider’s channel settings (204), keeping the others', async () => {
    const { dev } = await newTestOrg();
    const chat = await discord(dev.client);
    await expo(dev.client, { identifier: 'expo-1' });
    await expo(dev.client, { identifier: 'expo-2' });
    await createSubscriber(dev.client, { subscriberId: 'c6' });
    await dev.client.put(credentialsPath('c6'), { providerId: 'discord', credentials: { webhookUrl: 'https://d.example' } });
    await dev.client.put(credentialsPath('c6'), {
      providerId: 'expo',
      integrationIdentifier: 'expo-1',
      credentials: { deviceTokens: ['1'] },
    });
    await dev.client.put(credentialsPath('c6'), {
      providerId: 'expo',
      integrationIdentifier: 'expo-2',
      credentials: { deviceTokens: ['2'] },
    });
    const before = await getSubscriber(dev.client, 'c6');
    expect(before.channels).toHaveLength(3);

    const res = await dev.client.delete(`${credentialsPath('c6')}/expo`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const after = await getSubscriber(dev.client, 'c6');
    expect(after.channels).toEqual([{ providerId: 'discord', _integrationId: chat._id, credentials: { webhookUrl: 'https://d.example' } }]);
    expect(after.updatedAt > before.updatedAt).toBe(true);

    expect((await dev.client.delete(`${credentialsPath('c6')}/expo`)).status).toBe(204);
  });

  it('answers 404 for an unknown subscriber and 422 for a provider that is not chat or push', async () => {
    const { dev } = await newTestOrg();
    await expo(dev.client);
    const body = { providerId: 'expo', credentials: { deviceTokens: ['a'] } };
    expectError(await dev.client.put(credentialsPath('nobody'), body), 404);
    expectError(await dev.client.patch(credentialsPath('nobody'), body), 404);
    expectError(await dev.client.delete(`${credentialsPath('nobody')}/expo`), 404);

    await createSubscriber(dev.client, { subscriberId: 'c7' });
    const res = await dev.client.put(credentialsPath('c7'), { providerId: 'sendgrid', credentials: {} });
    expectError(res, 422);
    expect(res.body.errors.providerId.messages).toEqual(['providerId must be a valid provider ID']);
    expectError(await dev.client.put(credentialsPath('c7'), { providerId: 'expo' }), 422);
  });
});

// ---- DELETE /v2/subscribers/{id} -------------------------------------------------------------

describe('DELETE /v2/subscribers/{subscriberId}', () => {
  it('removes the subscriber and everything under it; the subscriberId then starts afresh', async () => {
    const { dev } = await newTestOrg();
    await expo(dev.client);
    await createSubscriber(dev.client, { subscriberId: 'gone', firstName: 'Old', email: 'gone@example.com', data: { a: 1 } });
    await createSubscriber(dev.client, { subscriberId: 'stays' });
    await dev.client.put(credentialsPath('gone'), { providerId: 'expo', credentials: { deviceTokens: ['t'] } });
    // Other items of the subscriber's partition, as preferences and messages will write them.
    for (const key of [
      keys.subscriberGlobalPreference(dev.scope, 'gone'),
      { ...keys.subscriberPartition(dev.scope, 'gone'), sk: 'MSG#1' },
    ]) {
      await db().send(new PutCommand({ TableName: tableName(), Item: { ...key, type: 'Test' } }));
    }
    expect(await partitionItems(dev.scope, 'gone')).toHaveLength(3);

    const res = await dev.client.delete('/v2/subscribers/gone');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ acknowledged: true, status: 'deleted' });

    expect(await partitionItems(dev.scope, 'gone')).toEqual([]);
    expectError(await dev.client.get('/v2/subscribers/gone'), 404);
    expect(ids(await list(dev.client))).toEqual(['stays']);
    expect(ids(await list(dev.client, { email: 'gone@example.com' }))).toEqual([]);
    expectError(await dev.client.delete('/v2/subscribers/gone'), 404);

    const reborn = await createSubscriber(dev.client, { subscriberId: 'gone' });
    expect(reborn).not.toHaveProperty('firstName');
    expect(reborn).not.toHaveProperty('data');
    expect(reborn.channels).toEqual([]);
    expect(await partitionItems(dev.scope, 'gone')).toHaveLength(1);
  });

  it("removes the subscriber's topic subscriptions, which a new subscriber of that id does not inherit", async () => {
    const { dev } = await newTestOrg();
    await createSubscriber(dev.client, { subscriberId: 'gone' });
    await createSubscriber(dev.client, { subscriberId: 'stays' });
    const subscribed = await dev.client.post('/v2/topics/news/subscriptions', { subscriberIds: ['gone', 'stays'] });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);
    const topicSubscribers = async () =>
      (await dev.client.get('/v2/topics/news/subscriptions?limit=100')).body.data.map((s: any) => s.subscriber.subscriberId).sort();
    expect(await topicSubscribers()).toEqual(['gone', 'stays']);

    expect((await dev.client.delete('/v2/subscribers/gone')).status).toBe(200);
    expect(await topicSubscribers()).toEqual(['stays']);
    expect(await partitionItems(dev.scope, 'gone')).toEqual([]);

    // Neither the subscriber's subscription index entries nor its counter are left.
    const { Items = [] } = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.subscriptionsOfSubscriber(dev.scope, 'gone').gsi1pk },
      }),
    );
    expect(Items).toEqual([]);
    await createSubscriber(dev.client, { subscriberId: 'gone' });
    expect((await partitionItems(dev.scope, 'gone')).map((i) => i.sk)).toEqual(['PROFILE']);
  });

  it('answers 404 for an unknown subscriber', async () => {
    const { dev } = await newTestOrg();
    expectError(await dev.client.delete('/v2/subscribers/nobody'), 404);
  });
});

// ---- tenancy ---------------------------------------------------------------------------------

describe('tenancy', () => {
  it("never shows or changes another organization's subscribers", async () => {
    const a = await newTestOrg();
    const b = await newTestOrg();
    await expo(a.dev.client);
    await expo(b.dev.client);
    const original = await createSubscriber(a.dev.client, { subscriberId: 'mine', firstName: 'A', email: 'mine@example.com' });
    const other = b.dev.client;

    expectError(await other.get('/v2/subscribers/mine'), 404);
    expectError(await other.patch('/v2/subscribers/mine', { firstName: 'B' }), 404);
    expectError(await other.put(credentialsPath('mine'), { providerId: 'expo', credentials: { deviceTokens: ['x'] } }), 404);
    expectError(await other.patch(credentialsPath('mine'), { providerId: 'expo', credentials: { deviceTokens: ['x'] } }), 404);
    expectError(await other.delete(`${credentialsPath('mine')}/expo`), 404);
    expectError(await other.delete('/v2/subscribers/mine'), 404);
    expect(ids(await list(other))).toEqual([]);
    expect(ids(await list(other, { email: 'mine@example.com' }))).toEqual([]);
    // The production environment of the same organization is another scope too.
    expectError(await a.prod.client.get('/v2/subscribers/mine'), 404);

    // The same subscriberId in B is B's own subscriber.
    await createSubscriber(other, { subscriberId: 'mine', firstName: 'B' });
    expect(await getSubscriber(a.dev.client, 'mine')).toEqual(original);

    // A cursor from A's list names no item of B's list: an empty page, nothing of A's.
    await createSubscriber(a.dev.client, { subscriberId: 'mine-2' });
    const cursor = (await list(a.dev.client, { limit: 1, orderDirection: 'ASC' })).next!;
    expect(await list(other, { after: cursor, orderDirection: 'ASC' })).toMatchObject({ data: [], next: null, previous: null });
  });
});
