import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { tableName } from '#lib/config.ts';
import type { Integration } from '#lib/integrations/schemas.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import { createTestOrg, startTestApi, type ApiClient, type ApiResponse } from '../support/api.ts';

// End to end through the route table and the real handlers, against the emulators. Every test
// provisions its own organization(s), so it sees only what it did itself.

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

// ---- helpers ---------------------------------------------------------------------------------

const newTestOrg = () => createTestOrg(api.url);

/** Complete SendGrid credentials (apiKey, from and senderName are required). */
const SENDGRID = { apiKey: 'SG.key', from: 'no-reply@example.com', senderName: 'Example' } as const;

const CONDITIONS = [
  {
    isNegated: false,
    type: 'GROUP',
    value: 'AND',
    children: [{ field: 'tenant', value: 'acme', operator: 'EQUAL', on: 'payload' }],
  },
];

const UNKNOWN_ID = '000000000000000000000000';

// Create, delete and set-primary answer in the reference's `{data}` envelope (what @novu/node apps
// read); the list and the update are the interface's own endpoints and are not wrapped.
async function createIntegration(client: ApiClient, body: Record<string, unknown>): Promise<Integration> {
  const res = await client.post('/v1/integrations', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** An active SendGrid integration in the client's environment (or `_environmentId`). */
function createSendgrid(client: ApiClient, extra: Record<string, unknown> = {}): Promise<Integration> {
  return createIntegration(client, { providerId: 'sendgrid', channel: 'email', credentials: SENDGRID, active: true, ...extra });
}

async function listIntegrations(client: ApiClient): Promise<Integration[]> {
  const res = await client.get<Integration[]>('/v1/integrations');
  expect(res.status).toBe(200);
  return res.body;
}

function updateIntegration(client: ApiClient, id: string, body: unknown, headers?: Record<string, string>) {
  return client.put<any>(`/v1/integrations/${id}`, body, headers);
}

async function getIntegration(client: ApiClient, id: string): Promise<Integration | undefined> {
  return (await listIntegrations(client)).find((i) => i._id === id);
}

function starter(list: Integration[], environmentId: string, providerId: string): Integration {
  const found = list.find((i) => i._environmentId === environmentId && i.providerId === providerId);
  if (!found) throw new Error(`No ${providerId} in ${environmentId}`);
  return found;
}

/**
 * The order of a channel in one environment as a user sees it: the active integrations, highest
 * priority first, as [id, priority, primary].
 */
async function channelOrder(client: ApiClient, environmentId: string, channel = 'email') {
  return (await listIntegrations(client))
    .filter((i) => i._environmentId === environmentId && i.channel === channel && i.active)
    .sort((a, b) => b.priority - a.priority)
    .map((i) => [i._id, i.priority, i.primary] as const);
}

function expectErrorBody(res: ApiResponse, status: number, path: string, error: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, path, error, message: expect.any(String) });
  expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
}

async function rawItem(organizationId: string, integrationId: string) {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.integration(organizationId, integrationId) }));
  return Item;
}

// ---- GET /v1/integrations --------------------------------------------------------------------

describe('GET /v1/integrations', () => {
  it('lists the starter integrations of both environments of a new organization', async () => {
    const org = await newTestOrg();
    const list = await listIntegrations(org.dev.client);

    expect(list).toHaveLength(6);
    for (const env of [org.dev, org.prod]) {
      const ofEnv = list.filter((i) => i._environmentId === env.id);
      expect(ofEnv.map((i) => [i.providerId, i.channel]).sort()).toEqual([
        ['svc', 'in_app'],
        ['svc-email', 'email'],
        ['svc-sms', 'sms'],
      ]);
      for (const i of ofEnv) {
        expect(i).toMatchObject({ _organizationId: org.id, active: true, deleted: false });
        expect(i._id).toMatch(/^[0-9a-f]{24}$/);
      }
      expect(starter(list, env.id, 'svc-email')).toMatchObject({ primary: true, priority: 1 });
      expect(starter(list, env.id, 'svc-sms')).toMatchObject({ primary: true, priority: 1 });
      expect(starter(list, env.id, 'svc')).toMatchObject({ primary: false, priority: 0 });
    }
    // Identifiers are unique in the organization.
    expect(new Set(list.map((i) => i.identifier)).size).toBe(6);
  });

  it('gives the same organization-wide list to the API key of either environment', async () => {
    const org = await newTestOrg();
    const created = await createSendgrid(org.prod.client);

    const fromDev = await listIntegrations(org.dev.client);
    const fromProd = await listIntegrations(org.prod.client);
    expect(fromDev.map((i) => i._id).sort()).toEqual(fromProd.map((i) => i._id).sort());
    expect(fromDev.find((i) => i._id === created._id)?._environmentId).toBe(org.prod.id);
  });

  it("never shows another organization's integrations", async () => {
    const mine = await newTestOrg();
    const theirs = await newTestOrg();
    const foreign = await createSendgrid(theirs.dev.client, { identifier: 'theirs-only' });

    const list = await listIntegrations(mine.dev.client);
    expect(list).toHaveLength(6);
    expect(list.every((i) => i._organizationId === mine.id)).toBe(true);
    expect(list.map((i) => i._id)).not.toContain(foreign._id);
  });

  it('leaves out soft-deleted integrations', async () => {
    const org = await newTestOrg();
    const created = await createSendgrid(org.dev.client);
    expect((await org.dev.client.delete(`/v1/integrations/${created._id}`)).status).toBe(200);

    const list = await listIntegrations(org.dev.client);
    expect(list.map((i) => i._id)).not.toContain(created._id);
    expect(list.every((i) => i.deleted === false)).toBe(true);
  });

  it('returns secrets decrypted while they are stored encrypted', async () => {
    const org = await newTestOrg();
    const created = await createIntegration(org.dev.client, {
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { ...SENDGRID, apiKey: 'SG.secret' },
      configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: 'whsec-signing' },
    });
    expect(created.credentials.apiKey).toBe('SG.secret');

    const listed = await getIntegration(org.dev.client, created._id);
    expect(listed?.credentials).toEqual({ ...SENDGRID, apiKey: 'SG.secret' });
    expect(listed?.configurations).toEqual({ inboundWebhookEnabled: true, inboundWebhookSigningKey: 'whsec-signing' });

    const item = await rawItem(org.id, created._id);
    expect(item?.credentials.apiKey).toMatch(/^enc:v1:/);
    expect(JSON.stringify(item)).not.toContain('SG.secret');
    expect(JSON.stringify(item)).not.toContain('whsec-signing');
    expect(item?.configurations.inboundWebhookSigningKey).toMatch(/^enc:v1:/);
    expect(item?.credentials.from).toBe(SENDGRID.from);
    expect(item?.credentials.senderName).toBe(SENDGRID.senderName);
  });

  it('keeps secrets encrypted and readable across updates', async () => {
    const org = await newTestOrg();
    const created = await createIntegration(org.dev.client, {
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { ...SENDGRID, apiKey: 'SG.secret' },
    });

    expect((await updateIntegration(org.dev.client, created._id, { name: 'Renamed' })).body.credentials.apiKey).toBe('SG.secret');
    expect((await getIntegration(org.dev.client, created._id))?.credentials.apiKey).toBe('SG.secret');
    expect((await rawItem(org.id, created._id))?.credentials.apiKey).toMatch(/^enc:v1:/);

    await updateIntegration(org.dev.client, created._id, { credentials: { ...SENDGRID, apiKey: 'SG.rotated' } });
    expect((await getIntegration(org.dev.client, created._id))?.credentials.apiKey).toBe('SG.rotated');
    const item = await rawItem(org.id, created._id);
    expect(item?.credentials.apiKey).toMatch(/^enc:v1:/);
    expect(JSON.stringify(item)).not.toContain('SG.rotated');
  });
});

// ---- POST /v1/integrations -------------------------------------------------------------------

describe('POST /v1/integrations', () => {
  it('creates an integration with the defaults', async () => {
    const org = await newTestOrg();
    const res = await org.dev.client.post('/v1/integrations', { providerId: 'sendgrid', channel: 'email' });

    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toMatchObject({
      _environmentId: org.dev.id,
      _organizationId: org.id,
      name: 'SendGrid',
      providerId: 'sendgrid',
      channel: 'email',
      credentials: {},
      active: false,
      primary: false,
      priority: 0,
      deleted: false,
    });
    expect(res.body.data.identifier).toEqual(expect.any(String));
    expect(res.body.data.identifier.length).toBeGreaterThan(0);

    const listed = await getIntegration(org.dev.client, res.body.data._id);
    expect(listed).toEqual(res.body.data);
  });

  it('keeps the given name, identifier, credentials, conditions and configurations', async () => {
    const org = await newTestOrg();
    const created = await createIntegration(org.dev.client, {
      providerId: 'sendgrid',
      channel: 'email',
      name: 'Marketing mail',
      identifier: 'marketing-mail',
      credentials: SENDGRID,
      conditions: CONDITIONS,
      configurations: { inboundWebhookEnabled: false },
    });
    expect(created).toMatchObject({
      name: 'Marketing mail',
      identifier: 'marketing-mail',
      credentials: SENDGRID,
      conditions: CONDITIONS,
      configurations: { inboundWebhookEnabled: false },
    });
    expect(await getIntegration(org.dev.client, created._id)).toEqual(created);
  });

  it('creates in another environment of the organization with _environmentId', async () => {
    const org = await newTestOrg();
    const created = await createSendgrid(org.dev.client, { _environmentId: org.prod.id });
    expect(created._environmentId).toBe(org.prod.id);
    expect(await channelOrder(org.dev.client, org.prod.id)).toEqual([
      [starter(await listIntegrations(org.dev.client), org.prod.id, 'svc-email')._id, 2, true],
      [created._id, 1, false],
    ]);
  });

  it('rejects an unknown providerId with 422', async () => {
    const org = await newTestOrg();
    const res = await org.dev.client.post('/v1/integrations', { providerId: 'carrier-pigeon', channel: 'email' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation Error');
    expect(res.body.errors.providerId).toMatchObject({ value: 'carrier-pigeon' });
  });

  it('rejects a channel that does not match the provider with 422', async () => {
    const org = await newTestOrg();
    const res = await org.dev.client.post('/v1/integrations', { providerId: 'sendgrid', channel: 'sms' });
    expect(res.status).toBe(422);
    expect(res.body.errors.channel).toMatchObject({ value: 'sms' });
  });

  it('rejects a missing providerId with 422', async () => {
    const org = await newTestOrg();
    const res = await org.dev.client.post('/v1/integrations', { channel: 'email' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['providerId']);
  });

  it('rejects an active integration without its required credentials, listing each one', async () => {
    const org = await newTestOrg();
    const res = await org.dev.client.post('/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      active: true,
      credentials: { from: 'no-reply@example.com', senderName: '  ' },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['credentials.apiKey', 'credentials.senderName']);
    expect(res.body.errors['credentials.apiKey'].messages).toHaveLength(1);
  });

  it('accepts an inactive integration without credentials', async () => {
    const org = await newTestOrg();
    const created = await createIntegration(org.dev.client, { providerId: 'twilio', channel: 'sms', active: false });
    expect(created).toMatchObject({ active: false, credentials: {} });
  });

  it('puts a new active email integration just below the existing primary', async () => {
    const org = await newTestOrg();
    const primary = starter(await listIntegrations(org.dev.client), org.dev.id, 'svc-email');

    const first = await createSendgrid(org.dev.client);
    expect(first).toMatchObject({ active: true, primary: false, priority: 1 });
    const second = await createSendgrid(org.dev.client);
    expect(second).toMatchObject({ active: true, primary: false, priority: 2 });

    expect(await channelOrder(org.dev.client, org.dev.id)).toEqual([
      [primary._id, 3, true],
      [second._id, 2, false],
      [first._id, 1, false],
    ]);
    // The other environment's email order is untouched.
    expect((await channelOrder(org.dev.client, org.prod.id)).map(([, p, pr]) => [p, pr])).toEqual([[1, true]]);
  });

  it('rejects an identifier already used in the organization with 409, in either environment', async () => {
    const org = await newTestOrg();
    await createSendgrid(org.dev.client, { identifier: 'shared-id' });

    const sameEnv = await org.dev.client.post('/v1/integrations', { providerId: 'mailjet', channel: 'email', identifier: 'shared-id' });
    expect(sameEnv.status).toBe(409);
    expect(sameEnv.body).toMatchObject({ statusCode: 409, error: 'Conflict' });

    const otherEnv = await org.prod.client.post('/v1/integrations', { providerId: 'mailjet', channel: 'email', identifier: 'shared-id' });
    expect(otherEnv.status).toBe(409);

    const viaEnvironmentId = await org.dev.client.post('/v1/integrations', {
      providerId: 'mailjet',
      channel: 'email',
      identifier: 'shared-id',
      _environmentId: org.prod.id,
    });
    expect(viaEnvironmentId.status).toBe(409);

    expect((await listIntegrations(org.dev.client)).filter((i) => i.identifier === 'shared-id')).toHaveLength(1);
  });

  it('allows the same identifier in two organizations', async () => {
    const a = await newTestOrg();
    const b = await newTestOrg();
    await createSendgrid(a.dev.client, { identifier: 'per-org-id' });
    await createSendgrid(b.dev.client, { identifier: 'per-org-id' });
  });

  it("answers 404 for another organization's _environmentId", async () => {
    const org = await newTestOrg();
    const other = await newTestOrg();
    const res = await org.dev.client.post('/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      _environmentId: other.dev.id,
    });
    expectErrorBody(res, 404, '/v1/integrations', 'Not Found');
    expect(await listIntegrations(other.dev.client)).toHaveLength(6);
  });

  it('writes nothing when the request fails', async () => {
    const org = await newTestOrg();
    await createSendgrid(org.dev.client, { identifier: 'taken' });
    const before = await listIntegrations(org.dev.client);

    const failures: [Record<string, unknown>, number][] = [
      [{ providerId: 'nope', channel: 'email' }, 422],
      [{ providerId: 'sendgrid', channel: 'push' }, 422],
      [{ providerId: 'sendgrid', channel: 'email', active: true }, 422],
      [{ providerId: 'sendgrid', channel: 'email', active: 'yes' }, 422],
      [{ providerId: 'sendgrid', channel: 'email', credentials: SENDGRID, identifier: 'taken' }, 409],
      [{ providerId: 'sendgrid', channel: 'email', credentials: SENDGRID, _environmentId: UNKNOWN_ID }, 404],
      [
        {
          providerId: 'nodemailer',
          channel: 'email',
          credentials: { host: '127.0.0.1', port: '1', from: 'a@example.com', senderName: 'A' },
          check: true,
        },
        400,
      ],
    ];
    for (const [body, status] of failures) {
      const res = await org.dev.client.post('/v1/integrations', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
    expect(await listIntegrations(org.dev.client)).toEqual(before);
  });
});

// ---- PUT /v1/integrations/{id} ---------------------------------------------------------------

describe('PUT /v1/integrations/{integrationId}', () => {
  it('answers 404 with the error body for an unknown id', async () => {
    const org = await newTestOrg();
    const res = await updateIntegration(org.dev.client, UNKNOWN_ID, { name: 'x' });
    expectErrorBody(res, 404, `/v1/integrations/${UNKNOWN_ID}`, 'Not Found');
    expect(Object.keys(res.body).sort()).toEqual(['error', 'message', 'path', 'statusCode', 'timestamp']);

    const malformed = await updateIntegration(org.dev.client, 'not-an-id', { name: 'x' });
    expect(malformed.status).toBe(404);
  });

  it("answers 404 for another organization's integration and leaves it unchanged", async () => {
    const org = await newTestOrg();
    const other = await newTestOrg();
    const foreign = await createSendgrid(other.dev.client);

    const res = await updateIntegration(org.dev.client, foreign._id, { name: 'Hijacked', active: false, credentials: {} });
    expectErrorBody(res, 404, `/v1/integrations/${foreign._id}`, 'Not Found');
    expect(await getIntegration(other.dev.client, foreign._id)).toEqual(foreign);
  });

  it('answers 400 for a body without any property to update', async () => {
    const org = await newTestOrg();
    const created = await createSendgrid(org.dev.client);
    for (const body of [{}, { unknownField: 1 }, { check: true }]) {
      const res = await updateIntegration(org.dev.client, created._id, body);
      expectErrorBody(res, 400, `/v1/integrations/${created._id}`, 'Bad Request');
      expect(res.body.message).toBe('No properties found for update');
    }
  });

  it('answers 422 with one entry per field of the wrong type', async () => {
    const org = await newTestOrg();
    const created = await createSendgrid(org.dev.client);

    const res = await updateIntegration(org.dev.client, created._id, {
      active: 'yes',
      name: 5,
      credentials: { port: 587 },
      conditions: [{ isNegated: 'no', children: [] }],
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation Error');
    expect(res.body.errors.active).toMatchObject({ value: 'yes' });
    expect(res.body.errors.name).toMatchObject({ value: 5 });
    expect(res.body.errors['credentials.port']).toMatchObject({ value: 587 });
    expect(res.body.errors['conditions.0.isNegated']).toMatchObject({ value: 'no' });
    expect(await getIntegration(org.dev.client, created._id)).toEqual(created);
  });

  it('changes the name', async () => {
    const org = await newTestOrg();
    const created = await createSendgrid(org.dev.client);

    const res = await updateIntegration(org.dev.client, created._id, { name: 'Transactional' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: created._id, name: 'Transactional', credentials: SENDGRID, active: true });
    expect(await getIntegration(org.dev.client, created._id)).toEqual(res.body);
  });

  it('replaces the stored credentials instead of merging them', async () => {
    const org = await newTestOrg();
    const created = await createIntegration(org.dev.client, {
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { ...SENDGRID, region: 'eu', ipPoolName: 'pool' },
    });

    const replacement = { apiKey: 'SG.other', from: 'other@example.com', senderName: 'Other' };
    const res = await updateIntegration(org.dev.client, created._id, { credentials: replacement });
    expect(res.status).toBe(200);
    expect(res.body.credentials).toEqual(replacement);
    expect((await getIntegration(org.dev.client, created._id))?.credentials).toEqual(replacement);
  });

  it('replaces conditions and configurations', async () => {
    const org = await newTestOrg();
    const created = await createIntegration(org.dev.client, {
      providerId: 'sendgrid',
      channel: 'email',
      conditions: CONDITIONS,
      configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: 'key-1' },
    });

    const conditions = [
      {
        isNegated: true,
        type: 'GROUP',
        value: 'OR',
        children: [{ field: 'plan', value: 'free', operator: 'NOT_EQUAL', on: 'subscriber' }],
      },
    ];
    const res = await updateIntegration(org.dev.client, created._id, {
      conditions,
      configurations: { inboundWebhookEnabled: false },
    });
    expect(res.status).toBe(200);
    const listed = await getIntegration(org.dev.client, created._id);
    expect(listed?.conditions).toEqual(conditions);
    expect(listed?.configurations).toEqual({ inboundWebhookEnabled: false });

    await updateIntegration(org.dev.client, created._id, { conditions: [] });
    expect((await getIntegration(org.dev.client, created._id))?.conditions).toEqual([]);
  });

  it('refuses to activate without the required credentials and changes nothing', async () => {
    const org = await newTestOrg();
    const created = await createIntegration(org.dev.client, {
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { from: 'no-reply@example.com' },
    });

    const res = await updateIntegration(org.dev.client, created._id, { active: true, name: 'Should not stick' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['credentials.apiKey', 'credentials.senderName']);
    expect(await getIntegration(org.dev.client, created._id)).toEqual(created);

    // New credentials on an active integration are checked as well.
    const active = await createSendgrid(org.dev.client);
    const incomplete = await updateIntegration(org.dev.client, active._id, { credentials: { apiKey: 'SG.only' } });
    expect(incomplete.status).toBe(422);
    expect(Object.keys(incomplete.body.errors).sort()).toEqual(['credentials.from', 'credentials.senderName']);
    expect(await getIntegration(org.dev.client, active._id)).toEqual(active);
  });

  it('rejects an identifier used in the organization with 409, and frees the old one on change', async () => {
    const org = await newTestOrg();
    const a = await createSendgrid(org.dev.client, { identifier: 'ident-a' });
    const b = await createSendgrid(org.prod.client, { identifier: 'ident-b' });

    const clash = await updateIntegration(org.dev.client, a._id, { identifier: 'ident-b', name: 'Not saved' });
    expect(clash.status).toBe(409);
    expect(await getIntegration(org.dev.client, a._id)).toEqual(a);

    const renamed = await updateIntegration(org.dev.client, a._id, { identifier: 'ident-a2' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.identifier).toBe('ident-a2');

    // The old identifier can now be taken, by an update or by a new integration.
    expect((await updateIntegration(org.prod.client, b._id, { identifier: 'ident-a' })).status).toBe(200);
    const c = await createSendgrid(org.dev.client, { identifier: 'ident-b' });
    expect(c.identifier).toBe('ident-b');
    // And the new one is taken.
    expect(
      (await org.dev.client.post('/v1/integrations', { providerId: 'mailjet', channel: 'email', identifier: 'ident-a2' })).status,
    ).toBe(409);

    // Keeping its own identifier is not a conflict.
    expect((await updateIntegration(org.dev.client, a._id, { identifier: 'ident-a2', name: 'Same' })).status).toBe(200);
  });

  it('moves the integration to another environment of the organization', async () => {
    const org = await newTestOrg();
    const list = await listIntegrations(org.dev.client);
    const devPrimary = starter(list, org.dev.id, 'svc-email');
    const prodPrimary = starter(list, org.prod.id, 'svc-email');
    const created = await createSendgrid(org.dev.client);

    const res = await updateIntegration(org.dev.client, created._id, { _environmentId: org.prod.id });
    expect(res.status).toBe(200);
    expect(res.body._environmentId).toBe(org.prod.id);
    expect((await getIntegration(org.dev.client, created._id))?._environmentId).toBe(org.prod.id);

    // It left the order of Development and joined the one of Production below its primary.
    expect(await channelOrder(org.dev.client, org.dev.id)).toEqual([[devPrimary._id, 1, true]]);
    expect(await channelOrder(org.dev.client, org.prod.id)).toEqual([
      [prodPrimary._id, 2, true],
      [created._id, 1, false],
    ]);
  });

  it('moving the primary leaves its old channel without primary and joins the new one below its primary', async () => {
    const org = await newTestOrg();
    const list = await listIntegrations(org.dev.client);
    const devPrimary = starter(list, org.dev.id, 'svc-email');
    const prodPrimary = starter(list, org.prod.id, 'svc-email');
    const devOther = await createSendgrid(org.dev.client);

    const res = await updateIntegration(org.dev.client, devPrimary._id, { _environmentId: org.prod.id });
    expect(res.body).toMatchObject({ _environmentId: org.prod.id, active: true, primary: false, priority: 1 });
    expect(await channelOrder(org.dev.client, org.dev.id)).toEqual([[devOther._id, 1, false]]);
    expect(await channelOrder(org.dev.client, org.prod.id)).toEqual([
      [prodPrimary._id, 2, true],
      [devPrimary._id, 1, false],
    ]);
  });

  it('answers 404 for an unknown or foreign _environmentId and changes nothing', async () => {
    const org = await newTestOrg();
    const other = await newTestOrg();
    const created = await createSendgrid(org.dev.client);

    for (const environmentId of [UNKNOWN_ID, other.prod.id]) {
      const res = await updateIntegration(org.dev.client, created._id, { _environmentId: environmentId, name: 'Moved' });
      expectErrorBody(res, 404, `/v1/integrations/${created._id}`, 'Not Found');
    }
    expect(await getIntegration(org.dev.client, created._id)).toEqual(created);
  });

  it('answers 400 when check: true fails to connect, and saves nothing', async () => {
    const org = await newTestOrg();
    const created = await createIntegration(org.dev.client, {
      providerId: 'nodemailer',
      channel: 'email',
      credentials: { host: '127.0.0.1', port: '1', from: 'smtp@example.com', senderName: 'SMTP' },
    });

    const res = await updateIntegration(org.dev.client, created._id, { name: 'Checked', check: true });
    expectErrorBody(res, 400, `/v1/integrations/${created._id}`, 'Bad Request');
    expect(res.body.message.length).toBeGreaterThan(0);
    expect(await getIntegration(org.dev.client, created._id)).toEqual(created);

    // Without check the same change is saved.
    expect((await updateIntegration(org.dev.client, created._id, { name: 'Checked' })).status).toBe(200);
  });

  it('ignores the idempotency-key header', async () => {
    const org = await newTestOrg();
    const created = await createSendgrid(org.dev.client);
    const headers = { 'idempotency-key': `put-${created._id}` };

    const first = await updateIntegration(org.dev.client, created._id, { name: 'First' }, headers);
    const second = await updateIntegration(org.dev.client, created._id, { name: 'Second' }, headers);
    expect(first.status).toBe(200);
    expect(first.body.name).toBe('First');
    expect(second.status).toBe(200);
    expect(second.body.name).toBe('Second');
    expect(second.headers.get('idempotency-replay')).toBeNull();
    expect((await getIntegration(org.dev.client, created._id))?.name).toBe('Second');
  });

  describe('primary and priority of email and sms', () => {
    it('deactivating the primary zeroes it and renumbers the others', async () => {
      const org = await newTestOrg();
      const primary = starter(await listIntegrations(org.dev.client), org.dev.id, 'svc-email');
      const a = await createSendgrid(org.dev.client);
      const b = await createSendgrid(org.dev.client);

      const res = await updateIntegration(org.dev.client, primary._id, { active: false });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ active: false, primary: false, priority: 0 });
      expect(await channelOrder(org.dev.client, org.dev.id)).toEqual([
        [b._id, 2, false],
        [a._id, 1, false],
      ]);
      expect(await getIntegration(org.dev.client, primary._id)).toMatchObject({ active: false, primary: false, priority: 0 });
    });

    it('activating an integration makes it primary when the channel has none', async () => {
      const org = await newTestOrg();
      const primary = starter(await listIntegrations(org.dev.client), org.dev.id, 'svc-email');
      const a = await createSendgrid(org.dev.client);
      await updateIntegration(org.dev.client, primary._id, { active: false });
      const b = await createIntegration(org.dev.client, { providerId: 'sendgrid', channel: 'email', credentials: SENDGRID });

      const res = await updateIntegration(org.dev.client, b._id, { active: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ active: true, primary: true, priority: 2 });
      expect(await channelOrder(org.dev.client, org.dev.id)).toEqual([
        [b._id, 2, true],
        [a._id, 1, false],
      ]);

      // While the channel has a primary, an activated one goes just below it.
      const res2 = await updateIntegration(org.dev.client, primary._id, { active: true });
      expect(res2.body).toMatchObject({ active: true, primary: false, priority: 2 });
      expect(await channelOrder(org.dev.client, org.dev.id)).toEqual([
        [b._id, 3, true],
        [primary._id, 2, false],
        [a._id, 1, false],
      ]);
    });

    it('activating an sms integration in a channel without primary makes it primary', async () => {
      const org = await newTestOrg();
      const smsStarter = starter(await listIntegrations(org.dev.client), org.dev.id, 'svc-sms');
      await updateIntegration(org.dev.client, smsStarter._id, { active: false });
      const twilio = await createIntegration(org.dev.client, {
        providerId: 'twilio',
        channel: 'sms',
        credentials: { accountSid: 'AC1', token: 'tok', from: '+15550001' },
      });

      const res = await updateIntegration(org.dev.client, twilio._id, { active: true });
      expect(res.body).toMatchObject({ active: true, primary: true, priority: 1 });
      expect(await channelOrder(org.dev.client, org.dev.id, 'sms')).toEqual([[twilio._id, 1, true]]);
    });

    it('saving non-empty conditions on the primary takes its primary role away', async () => {
      const org = await newTestOrg();
      const primary = starter(await listIntegrations(org.dev.client), org.dev.id, 'svc-email');
      const a = await createSendgrid(org.dev.client);

      // Empty conditions change nothing.
      const empty = await updateIntegration(org.dev.client, primary._id, { conditions: [] });
      expect(empty.body).toMatchObject({ primary: true, priority: 2 });

      const res = await updateIntegration(org.dev.client, primary._id, { conditions: CONDITIONS });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ active: true, primary: false, conditions: CONDITIONS });
      const order = await channelOrder(org.dev.client, org.dev.id);
      expect(order.every(([, , isPrimary]) => !isPrimary)).toBe(true);
      expect(order.map(([id]) => id)).toEqual([primary._id, a._id]);
    });

    it('concurrent activations in a channel without primary leave exactly one primary', async () => {
      const org = await newTestOrg();
      const primary = starter(await listIntegrations(org.dev.client), org.dev.id, 'svc-email');
      await updateIntegration(org.dev.client, primary._id, { active: false });
      const inactive: Integration[] = [];
      for (let i = 0; i < 3; i++) {
        inactive.push(await createIntegration(org.dev.client, { providerId: 'sendgrid', channel: 'email', credentials: SENDGRID }));
      }

      const results = await Promise.all(inactive.map((i) => updateIntegration(org.dev.client, i._id, { active: true })));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      const order = await channelOrder(org.dev.client, org.dev.id);
      expect(order.map(([, priority, isPrimary]) => [priority, isPrimary])).toEqual([
        [3, true],
        [2, false],
        [1, false],
      ]);
    });

    it('concurrent creations of active integrations in a channel without primary leave exactly one primary', async () => {
      const org = await newTestOrg();
      const primary = starter(await listIntegrations(org.dev.client), org.dev.id, 'svc-email');
      await updateIntegration(org.dev.client, primary._id, { active: false });

      const results = await Promise.all(
        [1, 2, 3, 4].map(() =>
          org.dev.client.post('/v1/integrations', { providerId: 'sendgrid', channel: 'email', credentials: SENDGRID, active: true }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
      const order = await channelOrder(org.dev.client, org.dev.id);
      expect(order.map(([, priority, isPrimary]) => [priority, isPrimary])).toEqual([
        [4, true],
        [3, false],
        [2, false],
        [1, false],
      ]);
    });

    it('leaves in_app, chat and push at priority 0 and never primary', async () => {
      const org = await newTestOrg();
      const inbox = starter(await listIntegrations(org.dev.client), org.dev.id, 'svc');

      const off = await updateIntegration(org.dev.client, inbox._id, { active: false });
      expect(off.body).toMatchObject({ active: false, priority: 0, primary: false });
      const on = await updateIntegration(org.dev.client, inbox._id, { active: true });
      expect(on.body).toMatchObject({ active: true, priority: 0, primary: false });

      const chat = await createIntegration(org.dev.client, { providerId: 'discord', channel: 'chat' });
      const push = await createIntegration(org.dev.client, { providerId: 'expo', channel: 'push', credentials: { apiKey: 'expo-token' } });
      for (const created of [chat, push]) {
        const res = await updateIntegration(org.dev.client, created._id, { active: true });
        expect(res.body).toMatchObject({ active: true, priority: 0, primary: false });
      }
      const activeOnCreate = await createIntegration(org.dev.client, { providerId: 'discord', channel: 'chat', active: true });
      expect(activeOnCreate).toMatchObject({ active: true, priority: 0, primary: false });

      for (const i of await listIntegrations(org.dev.client)) {
        if (['in_app', 'chat', 'push'].includes(i.channel)) expect(i).toMatchObject({ priority: 0, primary: false });
      }
    });
  });
});

// ---- DELETE /v1/integrations/{id} ------------------------------------------------------------

describe('DELETE /v1/integrations/{integrationId}', () => {
  it('soft-deletes and returns the remaining integrations of the organization', async () => {
    const org = await newTestOrg();
    const keep = await createSendgrid(org.prod.client);
    const gone = await createSendgrid(org.dev.client, { identifier: 'reusable' });

    const res = await org.dev.client.delete<{ data: Integration[] }>(`/v1/integrations/${gone._id}`);
    expect(res.status).toBe(200);
    const ids = res.body.data.map((i) => i._id);
    expect(ids).toHaveLength(7);
    expect(ids).toContain(keep._id);
    expect(ids).not.toContain(gone._id);
    expect(res.body.data.every((i) => i._organizationId === org.id && !i.deleted)).toBe(true);
    expect((await listIntegrations(org.dev.client)).map((i) => i._id).sort()).toEqual([...ids].sort());

    // Gone for every later call.
    expect((await updateIntegration(org.dev.client, gone._id, { name: 'Back' })).status).toBe(404);
    expect((await org.dev.client.post(`/v1/integrations/${gone._id}/set-primary`)).status).toBe(404);
    expect((await org.dev.client.delete(`/v1/integrations/${gone._id}`)).status).toBe(404);

    // Its identifier is free again.
    const reuse = await createSendgrid(org.dev.client, { identifier: 'reusable' });
    expect(reuse.identifier).toBe('reusable');
  });

  it('deleting the email primary renumbers the other active email integrations', async () => {
    const org = await newTestOrg();
    const primary = starter(await listIntegrations(org.dev.client), org.dev.id, 'svc-email');
    const a = await createSendgrid(org.dev.client);
    const b = await createSendgrid(org.dev.client);
    expect(await channelOrder(org.dev.client, org.dev.id)).toEqual([
      [primary._id, 3, true],
      [b._id, 2, false],
      [a._id, 1, false],
    ]);

    expect((await org.dev.client.delete(`/v1/integrations/${primary._id}`)).status).toBe(200);
    expect(await channelOrder(org.dev.client, org.dev.id)).toEqual([
      [b._id, 2, false],
      [a._id, 1, false],
    ]);
  });

  it('answers 404 for an unknown id', async () => {
    const org = await newTestOrg();
    const res = await org.dev.client.delete(`/v1/integrations/${UNKNOWN_ID}`);
    expectErrorBody(res, 404, `/v1/integrations/${UNKNOWN_ID}`, 'Not Found');
    expect(await listIntegrations(org.dev.client)).toHaveLength(6);
  });

  it("answers 404 for another organization's integration and leaves it in place", async () => {
    const org = await newTestOrg();
    const other = await newTestOrg();
    const foreign = await createSendgrid(other.dev.client);

    const res = await org.dev.client.delete(`/v1/integrations/${foreign._id}`);
    expect(res.status).toBe(404);
    expect(await getIntegration(other.dev.client, foreign._id)).toEqual(foreign);
  });
});

// ---- POST /v1/integrations/{id}/set-primary --------------------------------------------------

describe('POST /v1/integrations/{integrationId}/set-primary', () => {
  it('makes an email integration the active primary with the highest priority', async () => {
    const org = await newTestOrg();
    const previous = starter(await listIntegrations(org.dev.client), org.dev.id, 'svc-email');
    const a = await createSendgrid(org.dev.client);
    const inactive = await createIntegration(org.dev.client, { providerId: 'sendgrid', channel: 'email', credentials: SENDGRID });

    const res = await org.dev.client.post(`/v1/integrations/${a._id}/set-primary`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ _id: a._id, active: true, primary: true, priority: 2 });
    expect(await channelOrder(org.dev.client, org.dev.id)).toEqual([
      [a._id, 2, true],
      [previous._id, 1, false],
    ]);

    // An inactive one is activated on the way.
    const res2 = await org.dev.client.post(`/v1/integrations/${inactive._id}/set-primary`);
    expect(res2.status).toBe(200);
    expect(res2.body.data).toMatchObject({ active: true, primary: true, priority: 3 });
    expect(await channelOrder(org.dev.client, org.dev.id)).toEqual([
      [inactive._id, 3, true],
      [a._id, 2, false],
      [previous._id, 1, false],
    ]);
    // Production is untouched.
    expect((await channelOrder(org.dev.client, org.prod.id)).map(([, p, pr]) => [p, pr])).toEqual([[1, true]]);
  });

  it('refuses an inactive integration without its required credentials', async () => {
    const org = await newTestOrg();
    const bare = await createIntegration(org.dev.client, { providerId: 'sendgrid', channel: 'email' });
    const res = await org.dev.client.post(`/v1/integrations/${bare._id}/set-primary`);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['credentials.apiKey', 'credentials.from', 'credentials.senderName']);
    expect(await getIntegration(org.dev.client, bare._id)).toEqual(bare);
  });

  it('answers 400 for an in_app integration', async () => {
    const org = await newTestOrg();
    const inbox = starter(await listIntegrations(org.dev.client), org.dev.id, 'svc');
    const res = await org.dev.client.post(`/v1/integrations/${inbox._id}/set-primary`);
    expectErrorBody(res, 400, `/v1/integrations/${inbox._id}/set-primary`, 'Bad Request');
    expect(await getIntegration(org.dev.client, inbox._id)).toEqual(inbox);
  });

  it("answers 404 for an unknown id or another organization's integration", async () => {
    const org = await newTestOrg();
    const other = await newTestOrg();
    const foreign = starter(await listIntegrations(other.dev.client), other.dev.id, 'svc-email');
    expect((await org.dev.client.post(`/v1/integrations/${UNKNOWN_ID}/set-primary`)).status).toBe(404);
    expect((await org.dev.client.post(`/v1/integrations/${foreign._id}/set-primary`)).status).toBe(404);
  });
});
