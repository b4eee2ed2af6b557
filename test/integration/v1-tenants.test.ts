import { Novu } from '@novu/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { getTenant } from '#lib/tenants/repository.ts';
import { createTestOrg, startTestApi, type TestEnv } from '../support/api.ts';
import { expectError, ID, ISO, sdkError } from '../support/legacy-sdk.ts';

// The older tenants API (/v1/tenants) as an app written against `@novu/node` 2.x calls it: the
// SDK's every tenants call against the real handlers, plus status codes and error bodies over
// HTTP. The tenants are the ones /v2/tenants serves.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

async function setup(): Promise<{ env: TestEnv; novu: Novu }> {
  const env = (await createTestOrg(api.url)).dev;
  return { env, novu: new Novu(env.apiKey, { backendUrl: api.url }) };
}

describe('tenants through @novu/node 2.6.6', () => {
  it('creates, gets, updates, lists and deletes a tenant, in the reference’s envelope', async () => {
    const { env, novu } = await setup();
    const created = await novu.tenants.create('acme', { name: 'Acme', data: { plan: 'pro' } });
    expect(created.status).toBe(201);
    const tenant = {
      _id: ID,
      identifier: 'acme',
      name: 'Acme',
      data: { plan: 'pro' },
      _environmentId: env.id,
      _organizationId: env.scope.organizationId,
      createdAt: ISO,
      updatedAt: ISO,
    };
    expect(created.data).toEqual({ data: tenant });

    const got = await novu.tenants.get('acme');
    expect(got.status).toBe(200);
    expect(got.data).toEqual(created.data);
    // The same tenant through the newer API, unwrapped.
    expect((await env.client.get('/v2/tenants/acme')).body).toEqual(created.data.data);

    const renamed = await novu.tenants.update('acme', { name: 'Acme Inc' });
    expect(renamed.status).toBe(200);
    expect(renamed.data.data).toMatchObject({ _id: created.data.data._id, identifier: 'acme', name: 'Acme Inc', data: { plan: 'pro' } });
    const redata = await novu.tenants.update('acme', { data: { region: 'eu' } });
    expect(redata.data.data).toMatchObject({ name: 'Acme Inc', data: { region: 'eu' } });

    const listed = await novu.tenants.list({});
    expect(listed.status).toBe(200);
    expect(listed.data).toEqual({ data: [redata.data.data], page: 0, pageSize: 10, hasMore: false });

    const deleted = await novu.tenants.delete('acme');
    expect(deleted.status).toBe(204);
    expect(deleted.data).toBe('');
    expectError(await sdkError(novu.tenants.get('acme')), 404, 'Not Found');
    expect(await getTenant(env.scope, 'acme')).toBeUndefined();
  });

  it('gives a tenant a new identifier, keeping its id, creation time and place in the list', async () => {
    const { env, novu } = await setup();
    const first = (await novu.tenants.create('first', { name: 'First' })).data.data;
    const acme = (await novu.tenants.create('acme', { name: 'Acme', data: { seats: 5 } })).data.data;
    await novu.tenants.create('last', { name: 'Last' });

    const moved = await novu.tenants.update('acme', { identifier: 'acme-eu', name: 'Acme EU' });
    expect(moved.status).toBe(200);
    expect(moved.data.data).toEqual({ ...acme, identifier: 'acme-eu', name: 'Acme EU', updatedAt: ISO });
    expectError(await sdkError(novu.tenants.get('acme')), 404, 'Not Found');
    expect((await novu.tenants.get('acme-eu')).data.data).toEqual(moved.data.data);
    expect((await novu.tenants.list({})).data.data.map((t: { identifier: string }) => t.identifier)).toEqual(['last', 'acme-eu', 'first']);

    // A taken identifier: 409, and nothing changes.
    expectError(await sdkError(novu.tenants.update('acme-eu', { identifier: 'first', name: 'Clash' })), 409, 'Conflict');
    expect((await novu.tenants.get('acme-eu')).data.data).toEqual(moved.data.data);
    expect((await novu.tenants.get('first')).data.data).toEqual(first);
    // Its own identifier is no change of identifier.
    expect((await novu.tenants.update('acme-eu', { identifier: 'acme-eu', name: 'Same' })).data.data).toMatchObject({
      identifier: 'acme-eu',
      name: 'Same',
    });

    // A trigger names the tenant by its new identifier.
    const workflow = await env.client.post('/v2/workflows', {
      name: 'w',
      workflowId: 'w',
      active: true,
      steps: [{ name: 'In', type: 'in_app', controlValues: { body: 'x' } }],
    });
    expect(workflow.status).toBe(201);
    const bulk = await env.client.post('/v1/events/trigger/bulk', {
      events: [
        { name: 'w', to: 'sub', tenant: 'acme-eu' },
        { name: 'w', to: 'sub', tenant: 'acme' },
      ],
    });
    // (Unwrapped or in the reference's envelope: either way the same results.)
    const results: { status: string }[] = Array.isArray(bulk.body) ? bulk.body : bulk.body.data;
    expect(results.map((r) => r.status)).toEqual(['processed', 'no_tenant_found']);
  });

  it('pages tenants by number, newest first, with an exact hasMore', async () => {
    const { env, novu } = await setup();
    const identifiers = Array.from({ length: 7 }, (_, i) => `t-${i}`);
    for (const identifier of identifiers) await novu.tenants.create(identifier, { name: identifier });
    const newestFirst = [...identifiers].reverse();

    const page = async (p: number, limit: number) => (await novu.tenants.list({ page: p, limit })).data;
    const names = (body: { data: { identifier: string }[] }) => body.data.map((t) => t.identifier);
    expect(await page(0, 3)).toMatchObject({ page: 0, pageSize: 3, hasMore: true });
    expect(names(await page(0, 3))).toEqual(newestFirst.slice(0, 3));
    expect(names(await page(1, 3))).toEqual(newestFirst.slice(3, 6));
    expect(await page(2, 3)).toMatchObject({ hasMore: false, data: [{ identifier: 't-0' }] });
    expect(await page(3, 3)).toEqual({ data: [], page: 3, pageSize: 3, hasMore: false });
    // A full last page: the reference would say hasMore, here it is exact.
    expect(await page(0, 7)).toMatchObject({ hasMore: false });
    expect(names(await page(0, 7))).toEqual(newestFirst);

    const bad = await env.client.get('/v1/tenants?page=-1&limit=101');
    expectError(bad, 422, 'Unprocessable Entity');
    expect(Object.keys(bad.body.errors).sort()).toEqual(['limit', 'page']);
  });
});

describe('/v1/tenants over HTTP: status codes and error bodies', () => {
  it('answers 409 for a taken identifier, 422 for bad input, 404 for unknown tenants, and writes nothing when refusing', async () => {
    const { env } = await setup();
    expect((await env.client.post('/v1/tenants', { identifier: 'acme', name: 'Acme' })).status).toBe(201);
    expectError(await env.client.post('/v1/tenants', { identifier: 'acme', name: 'Other' }), 409, 'Conflict');

    const invalid = await env.client.post('/v1/tenants', { identifier: '', name: 7, data: [] });
    expectError(invalid, 422, 'Unprocessable Entity');
    expect(invalid.body).toMatchObject({
      message: 'Validation Error',
      errors: { identifier: { value: '' }, name: { value: 7 }, data: { value: [] } },
    });
    const badPatch = await env.client.patch('/v1/tenants/acme', { identifier: 'bad id!', name: '' });
    expectError(badPatch, 422, 'Unprocessable Entity');
    expect(Object.keys(badPatch.body.errors).sort()).toEqual(['identifier', 'name']);
    expect((await env.client.get('/v1/tenants/acme')).body.data).toMatchObject({ identifier: 'acme', name: 'Acme' });

    const missing = await env.client.get('/v1/tenants/nope');
    expectError(missing, 404, 'Not Found');
    expect(missing.body.path).toBe('/v1/tenants/nope');
    expectError(await env.client.patch('/v1/tenants/nope', { name: 'X' }), 404, 'Not Found');
    expectError(await env.client.patch('/v1/tenants/nope', { identifier: 'other' }), 404, 'Not Found');
    expectError(await env.client.delete('/v1/tenants/nope'), 404, 'Not Found');
    expect((await env.client.get('/v1/tenants')).body.data.map((t: { identifier: string }) => t.identifier)).toEqual(['acme']);
  });
});
