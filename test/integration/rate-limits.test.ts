import { Novu } from '@novu/api';
import { HTTPClient } from '@novu/api/lib/http.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ENV, tableName } from '#lib/config.ts';
import { newId } from '#lib/ids.ts';
import { bucketPolicy } from '#lib/rate-limits/policy.ts';
import { takeTokens } from '#lib/rate-limits/take-tokens.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import { provisionOrganization } from '#lib/accounts/provision.ts';
import { apiClient, createTestOrg, inboxClient, startTestApi, type ApiResponse, type TestOrg } from '../support/api.ts';

// Per-environment API rate limits (issue 22, item 1), through the real handlers: the stage's
// limits are set small here (2 global and 40 trigger requests a second: buckets of 11 and 220
// tokens, one back every 0.5 s and 25 ms), the clock is faked (Date only) so no token comes
// back unless a test moves time, and each test uses environments of its own.

const GLOBAL = '/v1/environments/me';
let api: LocalApi;

beforeAll(async () => {
  process.env[ENV.rateLimitGlobalPerSecond] = '2';
  process.env[ENV.rateLimitTriggerPerSecond] = '40';
  api = await startTestApi();
});
afterAll(async () => {
  delete process.env[ENV.rateLimitGlobalPerSecond];
  delete process.env[ENV.rateLimitTriggerPerSecond];
  await api.close();
});
afterEach(() => vi.useRealTimers());

const freezeClock = () => vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
const advanceClock = (ms: number) => vi.setSystemTime(Date.now() + ms);

const limitHeaders = (res: ApiResponse) => ({
  limit: res.headers.get('ratelimit-limit'),
  remaining: res.headers.get('ratelimit-remaining'),
  reset: res.headers.get('ratelimit-reset'),
  policy: res.headers.get('ratelimit-policy'),
  retryAfter: res.headers.get('retry-after'),
});

describe('API rate limits', () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    [org, other] = await Promise.all([createTestOrg(api.url), createTestOrg(api.url)]);
  });

  it('counts down the environment’s bucket in the headers, then answers 429 with Retry-After and the error body', async () => {
    freezeClock();
    const seen: ApiResponse[] = [];
    for (let i = 0; i < 11; i++) seen.push(await org.dev.client.get(GLOBAL));
    expect(seen.map((r) => r.status)).toEqual(Array(11).fill(200));
    expect(seen.map((r) => Number(r.headers.get('ratelimit-remaining')))).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(limitHeaders(seen[0]!)).toEqual({
      limit: '10',
      remaining: '10',
      reset: '1',
      policy: '10;w=5;burst=11;comment="token bucket";category="global";cost="single";serviceLevel="unlimited"',
      retryAfter: null,
    });

    const refused = await org.dev.client.get(GLOBAL);
    expect(refused.status).toBe(429);
    expect(limitHeaders(refused)).toMatchObject({ limit: '10', remaining: '0', reset: '1', retryAfter: '1' });
    expect(refused.body).toEqual({
      statusCode: 429,
      timestamp: expect.any(String),
      path: GLOBAL,
      message: 'API rate limit exceeded',
      error: 'Too Many Requests',
    });

    // Half a second later one token is back: one request passes, the next is refused again.
    advanceClock(500);
    expect((await org.dev.client.get(GLOBAL)).status).toBe(200);
    expect((await org.dev.client.get(GLOBAL)).status).toBe(429);
  });

  it('lets exactly a bucket’s worth of concurrent requests through', async () => {
    freezeClock();
    const { dev } = await createTestOrg(api.url);
    const statuses = await Promise.all(Array.from({ length: 25 }, async () => (await dev.client.get(GLOBAL)).status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(11);
    expect(statuses.filter((s) => s === 429)).toHaveLength(14);
  });

  it('limits each environment alone: one environment’s burst leaves the others’ buckets full', async () => {
    freezeClock();
    let status = 200;
    for (let i = 0; i < 20 && status !== 429; i++) status = (await other.dev.client.get(GLOBAL)).status;
    expect(status).toBe(429);

    for (const env of [other.prod, org.prod]) {
      const res = await env.client.get(GLOBAL);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBe('10');
    }
    // The same environment's other categories have buckets of their own.
    const trigger = await other.dev.client.delete('/v1/events/trigger/no-such-transaction');
    expect(trigger.status).not.toBe(429);
    expect(limitHeaders(trigger)).toMatchObject({ limit: '200', remaining: '219' });
    expect(trigger.headers.get('ratelimit-policy')).toContain('category="trigger";cost="single"');
  });

  it('charges a bulk trigger 100 tokens of the trigger bucket', async () => {
    freezeClock();
    const { prod } = await createTestOrg(api.url);
    const bulk = () => prod.client.post('/v1/events/trigger/bulk', { events: [{ name: 'no-such-workflow', to: 'subscriber-1' }] });

    const first = await bulk();
    expect(first.status).not.toBe(429);
    expect(limitHeaders(first)).toMatchObject({ limit: '200', remaining: '120' });
    expect(first.headers.get('ratelimit-policy')).toBe(
      '200;w=5;burst=220;comment="token bucket";category="trigger";cost="bulk";serviceLevel="unlimited"',
    );
    expect((await bulk()).headers.get('ratelimit-remaining')).toBe('20');

    // 20 tokens left: a third bulk trigger waits for 80 more (80 × 25 ms = 2 s); a single one passes.
    const refused = await bulk();
    expect(refused.status).toBe(429);
    expect(limitHeaders(refused)).toMatchObject({ remaining: '0', retryAfter: '2', reset: '2' });
    const single = await prod.client.delete('/v1/events/trigger/no-such-transaction');
    expect(single.status).not.toBe(429);
    expect(single.headers.get('ratelimit-remaining')).toBe('19');
  });

  it('applies an organization’s own limits to each of its environments', async () => {
    freezeClock();
    const created = await provisionOrganization('Custom limits', { apiRateLimits: { global: 1 } });
    const [dev, prod] = created.environments.map((e) => apiClient(api.url, e.apiKey));
    const first = await dev!.get(GLOBAL);
    expect(limitHeaders(first)).toMatchObject({
      limit: '5',
      remaining: '4',
      policy: '5;w=5;burst=5;comment="token bucket";category="global";cost="single";serviceLevel="custom"',
    });
    for (let i = 0; i < 4; i++) expect((await dev!.get(GLOBAL)).status).toBe(200);
    expect((await dev!.get(GLOBAL)).status).toBe(429);
    expect((await prod!.get(GLOBAL)).headers.get('ratelimit-remaining')).toBe('4');
    // Categories it does not name keep the stage's limit.
    expect((await dev!.delete('/v1/events/trigger/no-such-transaction')).headers.get('ratelimit-limit')).toBe('200');
  });

  it('leaves routes without an API key unlimited', async () => {
    const inbox = await inboxClient(api.url, org.dev, `limits-${Date.now()}`);
    for (const res of [await inbox.get('/v1/inbox/notifications'), await apiClient(api.url).get('/openapi.json')]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });
});

describe('the bucket item, changed by another container', () => {
  // takeTokens guesses the bucket's state from what this container saw last; here the item is
  // changed behind its back, as another container (or DynamoDB's TTL) would.
  const SECOND = 1_000_000;
  const policy = bucketPolicy('global', 2, 'free'); // 11 tokens, 0.5 s each
  const scope = () => ({ organizationId: newId(), environmentId: newId() });
  const stored = async (s: ReturnType<typeof scope>) =>
    (await db().send(new GetCommand({ TableName: tableName(), Key: keys.rateLimitBucket(s, 'global'), ConsistentRead: true }))).Item
      ?.fullAt as number | undefined;

  it('refuses when another container emptied the bucket this one saw nearly full', async () => {
    const s = scope();
    const t0 = Date.now() * 1000;
    expect(await takeTokens(s, policy, 'single', t0)).toMatchObject({ allowed: true, remaining: 10 });
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.rateLimitBucket(s, 'global'), fullAt: t0 + 5.5 * SECOND } }));
    expect(await takeTokens(s, policy, 'single', t0)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    expect(await stored(s)).toBe(t0 + 5.5 * SECOND);
  });

  it('takes from a full bucket when the item this one saw draining is gone', async () => {
    const s = scope();
    const t0 = Date.now() * 1000;
    for (let i = 0; i < 5; i++) await takeTokens(s, policy, 'single', t0);
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.rateLimitBucket(s, 'global') }));
    expect(await takeTokens(s, policy, 'single', t0 + SECOND)).toMatchObject({ allowed: true, remaining: 10 });
    expect(await stored(s)).toBe(t0 + 1.5 * SECOND);
  });

  it('adds to a bucket another container started draining while this one saw it full', async () => {
    const s = scope();
    const t0 = Date.now() * 1000;
    expect(await takeTokens(s, policy, 'single', t0)).toMatchObject({ remaining: 10 });
    // Six seconds on this container's last view is a full bucket; another took 4 tokens meanwhile.
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.rateLimitBucket(s, 'global'), fullAt: t0 + 8 * SECOND } }));
    expect(await takeTokens(s, policy, 'single', t0 + 6 * SECOND)).toMatchObject({ allowed: true, remaining: 6 });
    expect(await stored(s)).toBe(t0 + 8.5 * SECOND);
  });
});

describe('the OpenAPI document', () => {
  it('names each API-key route’s category and cost, and the headers of its answers', async () => {
    const { paths } = (await apiClient(api.url).get('/openapi.json')).body;
    const operation = (path: string, method: string) => paths[path][method];
    expect(operation('/v1/events/trigger/bulk', 'post')).toMatchObject({ 'x-rate-limit-category': 'trigger', 'x-rate-limit-cost': 'bulk' });
    expect(operation('/v1/subscribers/bulk', 'post')).toMatchObject({
      'x-rate-limit-category': 'configuration',
      'x-rate-limit-cost': 'bulk',
    });
    expect(operation('/v2/topics', 'get')).toMatchObject({ 'x-rate-limit-category': 'configuration', 'x-rate-limit-cost': 'single' });
    expect(operation('/v1/messages', 'get')).toMatchObject({ 'x-rate-limit-category': 'global', 'x-rate-limit-cost': 'single' });
    expect(operation('/v1/inbox/notifications', 'get')).not.toHaveProperty('x-rate-limit-category');
    const trigger = operation('/v1/events/trigger', 'post');
    expect(Object.keys(trigger.responses['201'].headers)).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'RateLimit-Policy',
    ]);
    expect(Object.keys(trigger.responses['429'].headers)).toContain('Retry-After');
  });
});

describe('@novu/api and a 429', () => {
  it('waits the Retry-After and sends the request again, as the SDK does by default', async () => {
    freezeClock();
    const { dev } = await createTestOrg(api.url);
    for (let i = 0; i < 11; i++) expect((await dev.client.get(GLOBAL)).status).toBe(200);

    // The SDK waits Retry-After (1 s) in real time; the faked clock is moved on as it waits.
    const statuses: number[] = [];
    const httpClient = new HTTPClient().addHook('response', (res) => {
      statuses.push(res.status);
      if (res.status === 429) advanceClock(Number(res.headers.get('retry-after')) * 1000);
    });
    const novu = new Novu({ secretKey: dev.apiKey, serverURL: api.url, httpClient });
    const { headers, result } = await novu.environments.list();
    expect(statuses).toEqual([429, 200]);
    expect(result.map((e) => e.name)).toEqual(['Development', 'Production']);
    // A second later two tokens are back; the retry took one.
    expect(headers['ratelimit-remaining']).toEqual(['1']);
  });

  it('without retries, hands the 429 to the caller', async () => {
    freezeClock();
    const { dev } = await createTestOrg(api.url);
    for (let i = 0; i < 11; i++) await dev.client.get(GLOBAL);
    const novu = new Novu({ secretKey: dev.apiKey, serverURL: api.url, retryConfig: { strategy: 'none' } });
    const error = await novu.environments.list().then(
      () => undefined,
      (e: unknown) => e as { statusCode: number; body: string; headers: Headers },
    );
    expect(error?.statusCode).toBe(429);
    expect(JSON.parse(error!.body)).toMatchObject({ statusCode: 429, message: 'API rate limit exceeded' });
    expect(error!.headers.get('retry-after')).toBe('1');
  });
});
