import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { getTenant } from '#lib/tenants/repository.ts';
import { createTestOrg, startTestApi, type ApiResponse, type TestEnv } from '../support/api.ts';

// Tenants end to end through the route table and the real handlers against the emulators.
// Every test provisions its own organization.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const newTestEnv = async (): Promise<TestEnv> => (await createTestOrg(api.url)).dev;

const qs = (query: Record<string, string | number | boolean> = {}) => {
  const s = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return s ? `?${s}` : '';
};

async function createTenant(env: TestEnv, identifier: string, extra: Record<string, unknown> = {}) {
  const res = await env.client.post('/v2/tenants', { identifier, name: `Tenant ${identifier}`, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

function expectError(res: ApiResponse, status: number, error: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, error, path: expect.any(String), message: expect.any(String) });
}

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const ID = expect.stringMatching(/^[0-9a-f]{24}$/);

describe('tenants', () => {
  it('creates, gets, patches only the sent fields and deletes a tenant', async () => {
    const env = await newTestEnv();
    const created = await env.client.post('/v2/tenants', { identifier: 'acme', name: 'Acme', data: { plan: 'pro', seats: 5 } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      _id: ID,
      identifier: 'acme',
      name: 'Acme',
      data: { plan: 'pro', seats: 5 },
      _environmentId: env.id,
      _organizationId: env.scope.organizationId,
      createdAt: ISO,
      updatedAt: ISO,
    });
    expect((await createTenant(env, 'team@example.com')).data).toEqual({});

    const got = await env.client.get('/v2/tenants/acme');
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    expect(await getTenant(env.scope, 'acme')).toEqual(created.body);

    const renamed = await env.client.patch('/v2/tenants/acme', { name: 'Acme Inc' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      _id: created.body._id,
      name: 'Acme Inc',
      data: { plan: 'pro', seats: 5 },
      createdAt: created.body.createdAt,
    });
    const redata = await env.client.patch('/v2/tenants/acme', { data: { region: 'eu' } });
    expect(redata.body).toMatchObject({ name: 'Acme Inc', data: { region: 'eu' } });
    expect((await env.client.patch('/v2/tenants/acme', {})).body).toEqual(redata.body);
    expect((await env.client.get('/v2/tenants/acme')).body).toEqual(redata.body);

    const deleted = await env.client.delete('/v2/tenants/acme');
    expect(deleted.status).toBe(204);
    expect(await getTenant(env.scope, 'acme')).toBeUndefined();
    expectError(await env.client.get('/v2/tenants/acme'), 404, 'Not Found');
  });

  it('answers 409 for a taken identifier and 404 for unknown ones', async () => {
    const env = await newTestEnv();
    await createTenant(env, 'acme');
    const taken = await env.client.post('/v2/tenants', { identifier: 'acme', name: 'Other' });
    expectError(taken, 409, 'Conflict');
    expect((await env.client.get('/v2/tenants/acme')).body.name).toBe('Tenant acme');

    const missing = await env.client.get('/v2/tenants/nope');
    expectError(missing, 404, 'Not Found');
    expect(missing.body.message).toBe('Tenant with identifier nope not found');
    expectError(await env.client.patch('/v2/tenants/nope', { name: 'x' }), 404, 'Not Found');
    expectError(await env.client.patch('/v2/tenants/nope', {}), 404, 'Not Found');
    expectError(await env.client.delete('/v2/tenants/nope'), 404, 'Not Found');
    // A PATCH of a missing tenant must not create one.
    expect(await getTenant(env.scope, 'nope')).toBeUndefined();
  });

  it('refuses bad fields with a 422 naming the field', async () => {
    const env = await newTestEnv();
    const cases: [Record<string, unknown>, string][] = [
      [{ identifier: 'has space', name: 'x' }, 'identifier'],
      [{ identifier: '', name: 'x' }, 'identifier'],
      [{ name: 'x' }, 'identifier'],
      [{ identifier: 'ok', name: '' }, 'name'],
      [{ identifier: 'ok' }, 'name'],
      [{ identifier: 'ok', name: 'x', data: 'text' }, 'data'],
      [{ identifier: 'ok', name: 'x', data: [1, 2] }, 'data'],
      [{ identifier: 'ok', name: 'x', data: null }, 'data'],
    ];
    for (const [body, field] of cases) {
      const res = await env.client.post('/v2/tenants', body);
      expectError(res, 422, 'Unprocessable Entity');
      expect(Object.keys(res.body.errors), JSON.stringify(body)).toEqual([field]);
    }
    expect((await env.client.post('/v2/tenants', { identifier: 'has space', name: 'x' })).body.errors.identifier.value).toBe('has space');

    await createTenant(env, 'acme');
    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ data: 'text' }, 'data'],
      [{ data: [1] }, 'data'],
    ] as const) {
      const res = await env.client.patch('/v2/tenants/acme', body);
      expectError(res, 422, 'Unprocessable Entity');
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    expect((await env.client.get('/v2/tenants')).body.data.map((t: any) => t.identifier)).toEqual(['acme']);
    expect((await env.client.get('/v2/tenants/acme')).body.name).toBe('Tenant acme');
  });

  it('pages through the environment tenants forward and back without gaps', async () => {
    const env = await newTestEnv();
    const all: string[] = [];
    for (let i = 0; i < 16; i++) all.push((await createTenant(env, `t${String(i).padStart(2, '0')}`)).identifier);
    const newestFirst = [...all].reverse();
    const list = async (query: Record<string, string | number | boolean>) => {
      const res = await env.client.get(`/v2/tenants${qs(query)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { data: any[]; next: string | null; previous: string | null };
    };
    const idsOf = (p: { data: any[] }) => p.data.map((t) => t.identifier);

    const first = await list({});
    expect(idsOf(first)).toEqual(newestFirst.slice(0, 10));
    expect(first.previous).toBeNull();
    expect(idsOf(await list({ orderDirection: 'ASC', limit: 3 }))).toEqual(all.slice(0, 3));

    // Forward by 5: every tenant exactly once, in order.
    const pages: { data: any[]; next: string | null; previous: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const p = await list({ limit: 5, ...(cursor && { after: cursor }) });
      pages.push(p);
      cursor = p.next;
    } while (cursor);
    expect(pages.flatMap(idsOf)).toEqual(newestFirst);
    expect(pages.map((p) => p.data.length)).toEqual([5, 5, 5, 1]);
    expect(pages.at(-1)!.next).toBeNull();

    // Back from the last page: the same pages in reverse.
    const back: string[][] = [];
    cursor = pages.at(-1)!.previous;
    while (cursor) {
      const p = await list({ limit: 5, before: cursor });
      back.unshift(idsOf(p));
      cursor = p.previous;
    }
    expect(back).toEqual(pages.slice(0, -1).map(idsOf));

    const withCursor = await list({ limit: 2, after: pages[0]!.next!, includeCursor: true });
    expect(idsOf(withCursor)).toEqual(newestFirst.slice(4, 6));

    expectError(await env.client.get(`/v2/tenants${qs({ after: first.next!, before: first.next! })}`), 400, 'Bad Request');
    expectError(await env.client.get('/v2/tenants?after=not*a*cursor'), 422, 'Unprocessable Entity');
    expectError(await env.client.get(`/v2/tenants${qs({ after: Buffer.from('x').toString('base64url') })}`), 422, 'Unprocessable Entity');
    expectError(await env.client.get('/v2/tenants?limit=0'), 422, 'Unprocessable Entity');
    expectError(await env.client.get('/v2/tenants?limit=101'), 422, 'Unprocessable Entity');
  });

  it('keeps environments and organizations apart: another key sees and changes nothing', async () => {
    const org = await createTestOrg(api.url);
    const other = await newTestEnv();
    await createTenant(org.dev, 'acme', { data: { a: 1 } });

    for (const env of [other, org.prod]) {
      expect((await env.client.get('/v2/tenants')).body).toEqual({ data: [], next: null, previous: null });
      expectError(await env.client.get('/v2/tenants/acme'), 404, 'Not Found');
      expectError(await env.client.patch('/v2/tenants/acme', { name: 'Hijacked' }), 404, 'Not Found');
      expectError(await env.client.delete('/v2/tenants/acme'), 404, 'Not Found');
    }
    // The same identifier is free in another organization.
    expect((await createTenant(other, 'acme')).name).toBe('Tenant acme');

    const mine = await org.dev.client.get('/v2/tenants/acme');
    expect(mine.body).toMatchObject({ name: 'Tenant acme', data: { a: 1 } });
    // A cursor from this environment names nothing in another one.
    await createTenant(org.dev, 'beta');
    const { next } = (await org.dev.client.get('/v2/tenants?limit=1')).body;
    expect((await other.client.get(`/v2/tenants${qs({ after: next })}`)).body).toEqual({ data: [], next: null, previous: null });
    expect((await other.client.get('/v2/tenants')).body.data.map((t: any) => t._id)).not.toContain(mine.body._id);
  });
});
