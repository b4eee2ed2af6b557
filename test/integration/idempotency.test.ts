import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { lambdaContext } from '#infra/local/lambda-context.ts';
import { tableName } from '#lib/config.ts';
import { AppError } from '#lib/errors.ts';
import { runIdempotently } from '#lib/http/idempotency.ts';
import { jsonResponse } from '#lib/http/responses.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import { apiClient, newOrganization, startTestApi, type ApiClient } from '../support/api.ts';

// The idempotency-key header (docs/reliability.md): replay, body mismatch, key length, organization
// scope, stored 4xx answers, two calls at once, expiry after 24 hours; and, on the mechanism
// itself, the in-progress conflict and the release of a key whose request crashed.

let api: LocalApi;
let client: ApiClient;
let otherOrgClient: ApiClient;
let organizationIdOfClient: string;

beforeAll(async () => {
  api = await startTestApi();
  const [org, other] = await Promise.all([newOrganization(), newOrganization()]);
  organizationIdOfClient = org.organization._id;
  client = apiClient(api.url, org.environments[0]!.apiKey);
  otherOrgClient = apiClient(api.url, other.environments[0]!.apiKey);
});
afterAll(() => api.close());

const emailIntegration = (name: string) => ({ providerId: 'svc-email', channel: 'email', name });

describe('idempotency-key over HTTP', () => {
  it('replays a finished request: same status and body, marked as a replay, nothing done twice', async () => {
    const key = randomUUID();
    const first = await client.post('/v1/integrations', emailIntegration('once'), { 'idempotency-key': key });
    const again = await client.post('/v1/integrations', emailIntegration('once'), { 'idempotency-key': key });

    expect(first.status).toBe(201);
    expect(first.headers.get('idempotency-replay')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.headers.get('idempotency-key')).toBe(key);
    const named = (await client.get('/v1/integrations')).body.filter((i: { name: string }) => i.name === 'once');
    expect(named).toHaveLength(1);
  });

  it('refuses the same key with another body (422)', async () => {
    const key = randomUUID();
    await client.post('/v1/integrations', emailIntegration('first body'), { 'idempotency-key': key });
    const res = await client.post('/v1/integrations', emailIntegration('second body'), { 'idempotency-key': key });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(`Request with key "${key}" is being reused for a different body`);
    expect(res.body.errors).toEqual({ 'Idempotency-Key': { messages: [res.body.message], value: key } });
  });

  it('refuses a key over 255 characters (400)', async () => {
    const res = await client.post('/v1/integrations', emailIntegration('long key'), { 'idempotency-key': 'k'.repeat(256) });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('maximum allowed length of 255');
  });

  it('scopes keys to the organization', async () => {
    const key = randomUUID();
    const mine = await client.post('/v1/integrations', emailIntegration('scoped'), { 'idempotency-key': key });
    const theirs = await otherOrgClient.post('/v1/integrations', emailIntegration('scoped'), { 'idempotency-key': key });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotency-replay')).toBeNull();
    expect(theirs.body.data._id).not.toBe(mine.body.data._id);
    expect(theirs.body.data._organizationId).not.toBe(mine.body.data._organizationId);
  });

  it('replays a refused request as the original error, even once it would succeed', async () => {
    const taken = await client.post('/v1/integrations', { ...emailIntegration('holder'), identifier: `held-${randomUUID()}` });
    const key = randomUUID();
    const body = { ...emailIntegration('claimant'), identifier: taken.body.data.identifier };
    const refused = await client.post('/v1/integrations', body, { 'idempotency-key': key });
    expect(refused.status).toBe(409);

    await client.delete(`/v1/integrations/${taken.body.data._id}`);
    const replay = await client.post('/v1/integrations', body, { 'idempotency-key': key });
    expect(replay.status).toBe(409);
    expect(replay.body.message).toBe(refused.body.message);
    expect(replay.headers.get('idempotency-replay')).toBe('true');

    const fresh = await client.post('/v1/integrations', body, { 'idempotency-key': randomUUID() });
    expect(fresh.status).toBe(201);
  });

  it('runs two calls with the same key at once only once: the other is told to retry or gets the replay', async () => {
    const key = randomUUID();
    const name = `parallel-${key}`;
    const answers = await Promise.all(
      [0, 1].map(() => client.post('/v1/integrations', emailIntegration(name), { 'idempotency-key': key })),
    );
    const fresh = answers.filter((a) => a.status === 201 && a.headers.get('idempotency-replay') === null);
    expect(fresh).toHaveLength(1);
    const other = answers.find((a) => a !== fresh[0])!;
    if (other.status === 409) {
      expect(other.headers.get('retry-after')).toBe('1');
      expect(other.body.message).toBe(`Request with key "${key}" is currently being processed. Please retry after 1 second`);
      // The retry the answer asks for gets the replay.
      const retried = await client.post('/v1/integrations', emailIntegration(name), { 'idempotency-key': key });
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotency-replay')).toBe('true');
      expect(retried.body).toEqual(fresh[0]!.body);
    } else {
      expect(other.status).toBe(201);
      expect(other.headers.get('idempotency-replay')).toBe('true');
      expect(other.body).toEqual(fresh[0]!.body);
    }
    const named = (await client.get('/v1/integrations')).body.filter((i: { name: string }) => i.name === name);
    expect(named).toHaveLength(1);
  });

  it('ignores the header on GET', async () => {
    const key = randomUUID();
    const a = await client.get('/v1/integrations', { 'idempotency-key': key });
    await client.post('/v1/integrations', emailIntegration('between'));
    const b = await client.get('/v1/integrations', { 'idempotency-key': key });
    expect(b.body.length).toBe(a.body.length + 1);
    expect(b.headers.get('idempotency-replay')).toBeNull();
  });
});

describe('idempotency-key expiry (24 hours)', () => {
  // The clock is moved, not waited for: only Date is faked, so timers and I/O run as usual.
  afterEach(() => vi.useRealTimers());
  const later = (ms: number) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + ms);
  };
  const HOUR = 60 * 60 * 1000;

  async function firstCall(name: string, key: string) {
    const first = await client.post('/v1/integrations', emailIntegration(name), { 'idempotency-key': key });
    expect(first.status).toBe(201);
    return first;
  }

  it('still replays a key just under 24 hours old', async () => {
    const key = randomUUID();
    const first = await firstCall(`young-${key}`, key);
    later(24 * HOUR - 60_000);
    const again = await client.post('/v1/integrations', emailIntegration(`young-${key}`), { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('runs a request again once its key is older than 24 hours, though the record is still stored', async () => {
    const key = randomUUID();
    const first = await firstCall(`expired-${key}`, key);
    later(24 * HOUR + 60_000);
    // DynamoDB deletes expired items late (TTL): the record is still there, past its expiry.
    const hash = createHash('md5')
      .update(JSON.stringify([organizationIdOfClient, key]))
      .digest('base64');
    const recordKey = { pk: `${keys.idempotency.prefix}#${hash}`, sk: keys.idempotency.recordSortKey };
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: recordKey }));
    expect(Item).toMatchObject({ status: 'COMPLETED' });
    expect(Item!.ttl * 1000).toBeLessThan(Date.now());

    const again = await client.post('/v1/integrations', emailIntegration(`expired-${key}`), { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replay')).toBeNull();
    expect(again.body.data._id).not.toBe(first.body.data._id);
    // A new record, kept 24 hours from now, replays from then on.
    const replay = await client.post('/v1/integrations', emailIntegration(`expired-${key}`), { 'idempotency-key': key });
    expect(replay.headers.get('idempotency-replay')).toBe('true');
    expect(replay.body.data._id).toBe(again.body.data._id);
    vi.useRealTimers();
    const named = (await client.get('/v1/integrations')).body.filter((i: { name: string }) => i.name === `expired-${key}`);
    expect(named).toHaveLength(2);
  });
});

describe('idempotency mechanism', () => {
  const organizationId = `org-${randomUUID()}`;

  it('answers 409 with Retry-After while the first request with the key still runs', async () => {
    const key = randomUUID();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));

    const first = runIdempotently({ organizationId, key, body: { n: 1 } }, lambdaContext('test'), async () => {
      started();
      await gate;
      return jsonResponse(201, { done: true });
    });
    await running;
    const second = runIdempotently({ organizationId, key, body: { n: 1 } }, lambdaContext('test'), async () =>
      jsonResponse(201, { done: 'twice' }),
    );
    await expect(second).rejects.toMatchObject({ status: 409, details: { headers: { 'Retry-After': '1' } } });
    await expect(second).rejects.toBeInstanceOf(AppError);

    release();
    expect(JSON.parse((await first).body as string)).toEqual({ done: true });
  });

  it('releases the key of a request that crashed, so a retry runs again', async () => {
    const key = randomUUID();
    let runs = 0;
    const crash = runIdempotently({ organizationId, key, body: {} }, lambdaContext('test'), async () => {
      runs++;
      throw new Error('boom');
    });
    await expect(crash).rejects.toThrow('boom');

    const retry = await runIdempotently({ organizationId, key, body: {} }, lambdaContext('test'), async () => {
      runs++;
      return jsonResponse(201, { ok: true });
    });
    expect(runs).toBe(2);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['Idempotency-Replay']).toBeUndefined();
  });

  it('sends an answer too large to keep for replay instead of a 500, and releases its key', async () => {
    // Found by bad-input.property.test.ts: a 4xx echoing a 300 KB path could not be stored.
    const key = randomUUID();
    let runs = 0;
    const huge = () => {
      runs++;
      return Promise.resolve(jsonResponse(422, { echoed: 'x'.repeat(450 * 1024) }));
    };
    const first = await runIdempotently({ organizationId, key, body: {} }, lambdaContext('test'), huge);
    expect(first.statusCode).toBe(422);
    expect(first.headers['Idempotency-Key']).toBe(key);
    expect(JSON.parse(first.body as string).echoed).toHaveLength(450 * 1024);

    const retry = await runIdempotently({ organizationId, key, body: {} }, lambdaContext('test'), huge);
    expect(runs).toBe(2);
    expect(retry.statusCode).toBe(422);
    expect(retry.headers['Idempotency-Replay']).toBeUndefined();
  });
});

describe('idempotency-key with a large refused body', () => {
  it('answers the 422 that echoes a 450 KB value, not a 500', async () => {
    const res = await client.post(
      '/v1/integrations',
      { providerId: 'svc-email', channel: 'email', active: 'x'.repeat(450 * 1024) },
      { 'idempotency-key': randomUUID() },
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.active.value).toHaveLength(450 * 1024);
  });
});
