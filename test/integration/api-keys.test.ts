import { Novu } from '@novu/api';
import { Novu as LegacyNovu } from '@novu/node';
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { hashApiKey } from '#lib/auth/api-keys.ts';
import { ENV } from '#lib/config.ts';
import { apiClient, createTestOrg, startTestApi, type TestOrg } from '../support/api.ts';
import { expectError } from '../support/legacy-sdk.ts';

// Environments and API keys by API (issue 22, item 2): the organization's environments with the
// application identifier an inbox session needs, the caller's environment's keys (masked), a
// regenerated key that replaces the old one after the stage's grace period, and a revoked key
// that stops at once. The grace period is crossed with a faked clock (Date only), never waited.

const GRACE_SECONDS = 3600;
let api: LocalApi;

beforeAll(async () => {
  process.env[ENV.apiKeyGraceSeconds] = String(GRACE_SECONDS);
  api = await startTestApi();
});
afterAll(async () => {
  delete process.env[ENV.apiKeyGraceSeconds];
  await api.close();
});
afterEach(() => vi.useRealTimers());

const works = async (key: string) => (await apiClient(api.url, key).get('/v1/environments/me')).status;

async function regenerate(key: string): Promise<string> {
  const res = await apiClient(api.url, key).post('/v1/environments/api-keys/regenerate');
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.data).toEqual([{ _userId: expect.any(String), key: expect.stringMatching(/^[0-9a-f]{48}$/) }]);
  return res.body.data[0].key as string;
}

describe('environments', () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    [org, other] = await Promise.all([createTestOrg(api.url), createTestOrg(api.url)]);
  });

  it('lists the organization’s environments through @novu/api, the caller’s own keys only', async () => {
    const novu = new Novu({ secretKey: org.prod.apiKey, serverURL: api.url });
    const { result: environments } = await novu.environments.list();
    expect(environments.map((e) => e.name)).toEqual(['Development', 'Production']);
    const [dev, prod] = environments;
    expect(dev).toMatchObject({
      id: org.dev.id,
      organizationId: org.id,
      identifier: org.dev.applicationIdentifier,
      type: 'dev',
      apiKeys: [],
    });
    expect(prod).toMatchObject({
      id: org.prod.id,
      organizationId: org.id,
      identifier: org.prod.applicationIdentifier,
      type: 'prod',
      parentId: org.dev.id,
    });
    // The caller's key, masked: its hash names it, the key itself is never shown.
    expect(prod!.apiKeys).toEqual([
      { key: `********${org.prod.apiKey.slice(-4)}`, userId: expect.any(String), hash: hashApiKey(org.prod.apiKey) },
    ]);
    const text = JSON.stringify(environments);
    for (const secret of [org.prod.apiKey, org.dev.apiKey, hashApiKey(org.dev.apiKey), other.id, other.dev.id, other.prod.id]) {
      expect(text).not.toContain(secret);
    }
  });

  it('gives the application identifier an inbox session is opened with', async () => {
    const res = await org.dev.client.get('/v1/environments');
    const identifier = (res.body.data as { _id: string; identifier: string }[]).find((e) => e._id === org.dev.id)!.identifier;
    const session = await apiClient(api.url).post('/v1/inbox/session', {
      applicationIdentifier: identifier,
      subscriber: { subscriberId: 'from-the-list' },
    });
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    expect(session.body.data.token).toEqual(expect.any(String));
  });

  it('answers @novu/node 2.x getAll, getCurrent and getApiKeys', async () => {
    const node = new LegacyNovu(org.dev.apiKey, { backendUrl: api.url });
    const all = (await node.environments.getAll()).data.data as { _id: string }[];
    expect(all.map((e) => e._id)).toEqual([org.dev.id, org.prod.id]);
    expect((await node.environments.getCurrent()).data.data).toMatchObject({ _id: org.dev.id, identifier: org.dev.applicationIdentifier });
    const keys = (await node.environments.getApiKeys()).data.data as { hash: string }[];
    expect(keys.map((k) => k.hash)).toEqual([hashApiKey(org.dev.apiKey)]);
  });
});

describe('API keys', () => {
  it('regenerates through @novu/node: the new key works, the old one until the grace period ends', async () => {
    const { dev } = await createTestOrg(api.url);
    const node = new LegacyNovu(dev.apiKey, { backendUrl: api.url });
    const answer = (await node.environments.regenerateApiKeys()).data.data as { key: string; _userId: string }[];
    expect(answer).toHaveLength(1);
    const fresh = answer[0]!.key;
    expect(fresh).not.toBe(dev.apiKey);

    expect(await works(fresh)).toBe(200);
    expect(await works(dev.apiKey)).toBe(200);
    const listed = await apiClient(api.url, fresh).get('/v1/environments/api-keys');
    expect(listed.body.data).toEqual([
      expect.objectContaining({ hash: hashApiKey(dev.apiKey), expiresAt: expect.any(String) }),
      expect.objectContaining({ hash: hashApiKey(fresh), key: `********${fresh.slice(-4)}` }),
    ]);
    expect(listed.body.data[1]).not.toHaveProperty('expiresAt');
    const ends = Date.parse(listed.body.data[0].expiresAt as string);
    expect(ends - Date.now()).toBeGreaterThan((GRACE_SECONDS - 60) * 1000);
    expect(ends - Date.now()).toBeLessThanOrEqual(GRACE_SECONDS * 1000);

    // Just before the end it still works; just after, it is refused and no longer listed.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(ends - 1000);
    expect(await works(dev.apiKey)).toBe(200);
    vi.setSystemTime(ends + 1000);
    const refused = await apiClient(api.url, dev.apiKey).get('/v1/environments/me');
    expectError(refused, 401, 'Unauthorized');
    expect(await works(fresh)).toBe(200);
    const after = await apiClient(api.url, fresh).get('/v1/environments/api-keys');
    expect(after.body.data.map((k: { hash: string }) => k.hash)).toEqual([hashApiKey(fresh)]);
  });

  it('gives a replaced key 24 hours when the stage sets no grace period', async () => {
    const { dev } = await createTestOrg(api.url);
    delete process.env[ENV.apiKeyGraceSeconds];
    try {
      const fresh = await regenerate(dev.apiKey);
      const { expiresAt } = (await apiClient(api.url, fresh).get('/v1/environments/api-keys')).body.data[0] as { expiresAt: string };
      const left = Date.parse(expiresAt) - Date.now();
      expect(left).toBeGreaterThan(24 * 3600_000 - 60_000);
      expect(left).toBeLessThanOrEqual(24 * 3600_000);
    } finally {
      process.env[ENV.apiKeyGraceSeconds] = String(GRACE_SECONDS);
    }
  });

  it('keeps the earlier end of a key already replaced when regenerating again', async () => {
    const { dev } = await createTestOrg(api.url);
    const second = await regenerate(dev.apiKey);
    const first = (await apiClient(api.url, second).get('/v1/environments/api-keys')).body.data[0].expiresAt as string;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(first) - 10_000);
    const third = await regenerate(second);
    const listed = (await apiClient(api.url, third).get('/v1/environments/api-keys')).body.data as { hash: string; expiresAt?: string }[];
    expect(listed.map((k) => [k.hash, k.expiresAt])).toEqual([
      [hashApiKey(dev.apiKey), first],
      [hashApiKey(second), expect.any(String)],
      [hashApiKey(third), undefined],
    ]);
    expect(Date.parse(listed[1]!.expiresAt!)).toBeGreaterThan(Date.parse(first));
  });

  it('revokes a key at once, the key in use included, but never the last one without an end', async () => {
    const { dev, prod } = await createTestOrg(api.url);
    const fresh = await regenerate(dev.apiKey);

    // The last key without an end cannot go: 400 in the reference's words.
    const last = await apiClient(api.url, fresh).delete(`/v1/environments/api-keys/${hashApiKey(fresh)}`);
    expectError(last, 400, 'Bad Request');
    expect(last.body.message).toBe('Cannot delete the last remaining API key. Create a new key first.');
    expect(await works(fresh)).toBe(200);

    // The replaced key, still in its grace period, revoked with itself: it stops at once.
    const revoked = await apiClient(api.url, dev.apiKey).delete(`/v1/environments/api-keys/${hashApiKey(dev.apiKey)}`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.data.map((k: { hash: string }) => k.hash)).toEqual([hashApiKey(fresh)]);
    expectError(await apiClient(api.url, dev.apiKey).get('/v1/environments/me'), 401, 'Unauthorized');
    expect(await works(fresh)).toBe(200);

    // Gone, another environment's, never a key: 404; not a hash: 422.
    for (const hash of [hashApiKey(dev.apiKey), hashApiKey(prod.apiKey), 'f'.repeat(64)]) {
      expectError(await apiClient(api.url, fresh).delete(`/v1/environments/api-keys/${hash}`), 404, 'Not Found');
    }
    expect(await works(prod.apiKey)).toBe(200);
    const malformed = await apiClient(api.url, fresh).delete('/v1/environments/api-keys/not-a-hash');
    expectError(malformed, 422, 'Unprocessable Entity');
    expect(malformed.body).toMatchObject({ message: 'Validation Error', errors: { hash: expect.anything() } });
  });

  it('lets an inbox HMAC made with a replaced key pass only while the key works', async () => {
    const { dev } = await createTestOrg(api.url);
    const integrations = (await dev.client.get('/v1/integrations')).body as { _id: string; channel: string; _environmentId: string }[];
    const inApp = integrations.find((i) => i.channel === 'in_app' && i._environmentId === dev.id)!;
    expect((await dev.client.put(`/v1/integrations/${inApp._id}`, { credentials: { hmac: true } })).status).toBe(200);
    const fresh = await regenerate(dev.apiKey);
    const open = (key: string) =>
      apiClient(api.url).post('/v1/inbox/session', {
        applicationIdentifier: dev.applicationIdentifier,
        subscriber: { subscriberId: 'hmac-sub' },
        subscriberHash: createHmac('sha256', key).update('hmac-sub').digest('hex'),
      });
    expect((await open(fresh)).status).toBe(201);
    expect((await open(dev.apiKey)).status).toBe(201);
    const { expiresAt } = (await apiClient(api.url, fresh).get('/v1/environments/api-keys')).body.data[0] as { expiresAt: string };
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(expiresAt) + 1000);
    expectError(await open(dev.apiKey), 400, 'Bad Request');
    expect((await open(fresh)).status).toBe(201);
  });
});
