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
    expect(res.body).not.toHaveProperty('surprise');
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

describe('routing', () => {
  it('answers 404 for a path no route serves, as API Gateway does', async () => {
    const res = await client.get('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not Found' });
  });

  it('answers 404 for a method the path does not have', async () => {
    expect((await client.request('PATCH', '/v1/integrations')).status).toBe(404);
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
