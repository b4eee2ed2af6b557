import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { routes } from '#infra/routes.ts';
import { apiClient, newOrganization, startTestApi, type ApiClient } from '../support/api.ts';

// What every endpoint shares: authentication, body parsing and limits, validation errors, the
// error body, unknown routes, and the generated OpenAPI document.

let api: LocalApi;
let client: ApiClient;

beforeAll(async () => {
  api = await startTestApi();
  const org = await newOrganization();
  client = apiClient(api.url, org.environments[0]!.apiKey);
});
afterAll(() => api.close());

describe('authentication', () => {
  it('rejects a request without an Authorization header', async () => {
    const res = await apiClient(api.url).get('/v1/integrations');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, message: 'Missing authorization header', error: 'Unauthorized' });
  });

  it('rejects another scheme', async () => {
    const res = await apiClient(api.url).get('/v1/integrations', { authorization: 'Bearer abc' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid authentication scheme: "Bearer"');
  });

  it('rejects an unknown key', async () => {
    const res = await apiClient(api.url, 'not-a-real-key').get('/v1/integrations');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('API Key not found');
  });

  it('rejects a scheme with no key', async () => {
    const res = await apiClient(api.url).get('/v1/integrations', { authorization: 'ApiKey' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('API Key not found');
  });
});

describe('error body', () => {
  it('carries statusCode, timestamp, path with query string, message and reason', async () => {
    const res = await client.put('/v1/integrations/000000000000000000000000?x=1', { name: 'n' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      statusCode: 404,
      timestamp: expect.any(String),
      path: '/v1/integrations/000000000000000000000000?x=1',
      message: 'Entity with id 000000000000000000000000 not found',
      error: 'Not Found',
    });
    expect(Number.isNaN(Date.parse(res.body.timestamp))).toBe(false);
  });
});

describe('request bodies', () => {
  it('answers 422 with one entry per bad field, with the value sent', async () => {
    const res = await client.post('/v1/integrations', { providerId: 7, channel: 'fax', active: 'yes' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation Error');
    expect(Object.keys(res.body.errors).sort()).toEqual(['active', 'channel', 'providerId']);
    expect(res.body.errors.channel.value).toBe('fax');
    expect(res.body.errors.active.messages[0]).toEqual(expect.any(String));
  });

  it('names nested fields by their path', async () => {
    const res = await client.post('/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { apiKey: 12 },
      conditions: [{ isNegated: false, children: [{ field: 'a', value: 'b', operator: 'NOPE', on: 'payload' }] }],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['conditions.0.children.0.operator', 'credentials.apiKey']);
    expect(res.body.errors['credentials.apiKey'].value).toBe(12);
  });

  it('answers 422 when a required body is missing', async () => {
    const res = await client.request('POST', '/v1/integrations');
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('providerId');
  });

  it('answers 400 to a body that is not JSON', async () => {
    const res = await client.request('POST', '/v1/integrations', {
      rawBody: '{"providerId":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid or malformed JSON was provided');
  });

  it('parses JSON sent without a content type', async () => {
    const res = await client.request('POST', '/v1/integrations', { rawBody: '{"providerId":"svc-email"}' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['channel']);
  });

  it('ignores unknown body fields', async () => {
    const res = await client.post('/v1/integrations', { providerId: 'svc-email', channel: 'email', surprise: true });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ providerId: 'svc-email' });
    expect(res.body.data).not.toHaveProperty('surprise');
  });

  it('answers 413 to a body over 512 KB and writes nothing', async () => {
    const before = await client.get('/v1/integrations');
    const res = await client.post('/v1/integrations', {
      providerId: 'svc-email',
      channel: 'email',
      name: 'x'.repeat(600 * 1024),
    });
    expect(res.status).toBe(413);
    expect(res.body.statusCode).toBe(413);
    expect((await client.get('/v1/integrations')).body).toHaveLength(before.body.length);
  });
});

describe('bodies the table could not store (found by bad-input.property.test.ts)', () => {
  const deep = (depth: number): unknown => (depth === 0 ? 'bottom' : { a: deep(depth - 1) });

  it('answers 422 to a body nested deeper than 20 levels, naming the top-level field, and writes nothing', async () => {
    const before = await client.get('/v2/tenants');
    const res = await client.post('/v2/tenants', { identifier: 'deep', name: 'Deep', data: deep(200) });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ data: { messages: ['data must not be nested deeper than 20 levels'], value: null } });
    expect((await client.get('/v2/tenants')).body).toEqual(before.body);
  });

  it('accepts a body nested 20 levels deep', async () => {
    const res = await client.post('/v2/tenants', { identifier: 'nested-20', name: 'Nested', data: deep(18) });
    expect(res.status).toBe(201);
  });

  it('answers 422 to a body nested far deeper than a recursive walk could go', async () => {
    const text = `{"identifier":"deeper","name":"x","data":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const res = await client.request('POST', '/v2/tenants', { rawBody: text, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['data']);
  });

  it('answers 422 to numbers DynamoDB cannot store, naming their path', async () => {
    for (const value of [5.6e221, 2 ** 53, -1e300, 8.8e-278]) {
      const res = await client.patch('/v2/tenants/acme-numbers', { data: { plan: { seats: value } } });
      expect(res.status, String(value)).toBe(422);
      expect(res.body.errors['data.plan.seats']).toEqual({ messages: [expect.stringContaining('must be a number between')], value });
    }
    const ok = await client.post('/v2/tenants', {
      identifier: 'numbers',
      name: 'n',
      data: { big: Number.MAX_SAFE_INTEGER, small: 1e-100, zero: 0 },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toEqual({ big: Number.MAX_SAFE_INTEGER, small: 1e-100, zero: 0 });
  });

  it('answers 422 to a __proto__ key, which would become the prototype of the parsed data', async () => {
    const res = await client.request('POST', '/v2/tenants', {
      rawBody: '{"identifier":"proto","name":"p","data":{"__proto__":[1,2],"toString":2}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['data.__proto__']);
    expect((await client.get('/v2/tenants/proto')).status).toBe(404);
  });
});

describe('records larger than DynamoDB stores', () => {
  it('answers 413 to a body under the limit whose record would exceed 400 KB, and writes nothing', async () => {
    const before = await Promise.all([client.get('/v2/tenants'), client.get('/v2/subscribers'), client.get('/v2/workflows')]);
    const tenant = await client.post('/v2/tenants', {
      identifier: 'big',
      name: 'n',
      data: { a: 'x'.repeat(300_000), b: 'y'.repeat(150_000) },
    });
    expect(tenant.status).toBe(413);
    expect(tenant.body).toMatchObject({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'The data to store is larger than the 400 KB a record may hold',
    });
    const subscriber = await client.post('/v2/subscribers', { subscriberId: 'big', data: { a: 'x'.repeat(450_000) } });
    expect(subscriber.status).toBe(413);
    const workflow = await client.post('/v2/workflows', {
      name: 'Big',
      steps: [{ name: 'Mail', type: 'email', controlValues: { subject: 's', body: 'x'.repeat(1_000_000) } }],
    });
    expect(workflow.status).toBe(413);
    const after = await Promise.all([client.get('/v2/tenants'), client.get('/v2/subscribers'), client.get('/v2/workflows')]);
    expect(after.map((r) => r.body)).toEqual(before.map((r) => r.body));
  });
});

describe('path and body ids longer than a DynamoDB key (found by bad-input.property.test.ts)', () => {
  it('answers 422 to a workflow id or integration id over its bound', async () => {
    expect((await client.delete(`/v2/workflows/${'a'.repeat(2100)}`)).status).toBe(422);
    expect((await client.get(`/v2/workflows/${'a'.repeat(512)}`)).status).toBe(404);
    expect((await client.put(`/v1/integrations/${'a'.repeat(1100)}`, { name: 'n' })).status).toBe(422);
  });

  it('answers 422 to a sync target environment id over its bound', async () => {
    const res = await client.put(`/v2/workflows/${'w'.repeat(10)}/sync`, { targetEnvironmentId: 'e'.repeat(3000) });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['targetEnvironmentId']);
  });

  it('passes on a path segment that is not valid percent-encoding as sent: a 404, not a 500', async () => {
    for (const segment of ['%zz', '%', '%E0%A4%A', '%ED%A0%80']) {
      const res = await client.get(`/v2/subscribers/${segment}`);
      expect(res.status, segment).toBe(404);
      expect(res.body.statusCode).toBe(404);
    }
  });
});

describe('routing', () => {
  it('answers 404 in the one error body for a path no route serves (the $default route), as the reference words it', async () => {
    const res = await client.get('/v2/subscribers//preferences?x=1');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      statusCode: 404,
      timestamp: expect.any(String),
      path: '/v2/subscribers//preferences?x=1',
      message: 'Cannot GET /v2/subscribers//preferences',
      error: 'Not Found',
    });
  });

  it('answers 404 for a method the path does not have, in the same body', async () => {
    const res = await client.request('PATCH', '/v1/integrations');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, message: 'Cannot PATCH /v1/integrations', error: 'Not Found' });
  });
});

describe('GET /openapi.json', () => {
  it('is public and documents every route of the route table', async () => {
    const res = await apiClient(api.url).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    for (const route of routes) {
      const operation = res.body.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation?.operationId, `${route.method} ${route.path}`).toBe(route.operationId);
    }
  });

  it('describes request bodies with the schemas that validate them', async () => {
    const res = await apiClient(api.url).get('/openapi.json');
    const create = res.body.paths['/v1/integrations'].post;
    const schema = create.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['providerId', 'channel']));
    expect(create.parameters.map((p: { name: string }) => p.name)).toContain('idempotency-key');
    expect(res.body.paths['/v1/integrations/{integrationId}'].put.parameters[0]).toMatchObject({
      name: 'integrationId',
      in: 'path',
      required: true,
    });
  });
});
