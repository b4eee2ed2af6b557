import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { getTriggerEvent } from '#lib/pipeline/trigger-store.ts';
import { createTestOrg, startTestApi, type ApiResponse, type TestEnv } from '../support/api.ts';
import { seedWorkflow } from '../support/workflow-builder.ts';

// The synchronous part of triggering: every status of the bulk trigger, the single trigger's
// HTTP errors and the broadcast. The events queue has no consumer here, so the tests look at the
// answers and at the stored TriggerEvents (the claims), never at deliveries.

let api: LocalApi;
let env: TestEnv;
beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
}, 60_000);
afterAll(() => api.close());

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}`;

const IN_APP = { name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello {{subscriber.firstName}}' } };

async function createWorkflow(extra: Record<string, unknown> = {}): Promise<string> {
  const workflowId = unique('wf');
  const res = await env.client.post('/v2/workflows', { name: 'Trigger test', workflowId, active: true, steps: [IN_APP], ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return workflowId;
}

async function createTenant(identifier = unique('tenant')): Promise<string> {
  const res = await env.client.post('/v2/tenants', { identifier, name: 'Acme' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return identifier;
}

async function bulk(events: unknown[]): Promise<ApiResponse> {
  return env.client.post('/v1/events/trigger/bulk', { events });
}

async function bulkOk(events: unknown[]): Promise<any[]> {
  const res = await bulk(events);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body).toHaveLength(events.length);
  for (const result of res.body) expect(result.acknowledged).toBe(true);
  return res.body;
}

const stored = (transactionId: string) => getTriggerEvent(env.scope, transactionId);

const TXN = expect.stringMatching(/^txn_[0-9a-f]{8}[0-9a-z]{12}$/);
const DUPLICATE = 'transactionId property is not unique, please make sure all triggers have a unique transactionId';

const PAYLOAD_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    count: { type: 'number', default: 5 },
    options: { type: 'object', properties: { loud: { type: 'boolean', default: false } }, default: {} },
  },
  required: ['name'],
};

let active: string;
let validated: string;
let inactive: string;
let noSteps: string;
let noActiveSteps: string;
let tenant: string;

beforeAll(async () => {
  [active, validated, inactive, tenant] = await Promise.all([
    createWorkflow(),
    createWorkflow({ validatePayload: true, payloadSchema: PAYLOAD_SCHEMA }),
    createWorkflow({ active: false }),
    createTenant(),
  ]);
  noSteps = (await seedWorkflow(env.scope, { workflowId: unique('wf-empty'), steps: [] })).workflowId;
  noActiveSteps = (
    await seedWorkflow(env.scope, {
      workflowId: unique('wf-off'),
      steps: [
        { type: 'in_app', active: false },
        { type: 'email', active: false },
      ],
    })
  ).workflowId;
}, 60_000);

describe('POST /v1/events/trigger/bulk', () => {
  it('answers every status, in input order, all acknowledged', async () => {
    const txid = unique('txn');
    const results = await bulkOk([
      { name: active, to: 'sub-1', payload: { a: 1 }, transactionId: txid },
      { name: 'no-such-workflow', to: 'sub-1', transactionId: unique('txn-missing') },
      { name: validated, to: 'sub-1', payload: { count: 'many' } },
      { name: active, to: 'sub-1', tenant: 'no-such-tenant' },
      { name: inactive, to: 'sub-1' },
      { name: noSteps, to: 'sub-1' },
      { name: noActiveSteps, to: 'sub-1' },
      { name: active, to: ['bad id!', { firstName: 'No id' }] },
      { name: active, to: 'sub-1', transactionId: txid },
      { name: 5, to: 'sub-1' },
      { name: active },
      { name: active, to: 'sub-2' },
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'processed',
      'error',
      'error',
      'no_tenant_found',
      'trigger_not_active',
      'no_workflow_steps_defined',
      'no_workflow_active_steps_defined',
      'invalid_recipients',
      'error',
      'error',
      'error',
      'processed',
    ]);
    expect(results[0]).toEqual({ acknowledged: true, status: 'processed', transactionId: txid });
    expect(results[1]).toEqual({
      acknowledged: true,
      status: 'error',
      error: ['workflow_not_found'],
      transactionId: expect.stringMatching(/^txn-missing/),
    });
    expect(results[2].error).toEqual(["Payload validation failed: name: must have required property 'name'; count: must be number"]);
    expect(results[3]).toEqual({ acknowledged: true, status: 'no_tenant_found' });
    expect(results[7]).toEqual({ acknowledged: true, status: 'invalid_recipients', transactionId: TXN });
    expect(results[8]).toEqual({ acknowledged: true, status: 'error', error: [DUPLICATE], transactionId: txid });
    expect(results[9].error).toEqual(['Validation failed for ParseEventRequestMulticastCommand: name: name must be a string']);
    expect(results[10].error).toEqual(['Validation failed for ParseEventRequestMulticastCommand: to: to should not be null or undefined']);
    expect(results[11]).toEqual({ acknowledged: true, status: 'processed', transactionId: TXN });

    // Only the processed events were stored.
    expect(await stored(results[7].transactionId)).toBeUndefined();
    expect((await stored(txid))?.payload).toEqual({ a: 1 });
    expect((await stored(results[11].transactionId))?.to).toEqual(['sub-2']);
  });

  it('stores the accepted event as the pipeline reads it', async () => {
    const [result] = await bulkOk([
      {
        name: active,
        to: { subscriberId: 'jane', firstName: 'Jane', email: 'jane@example.com', data: { plan: 'pro' }, ignored: true },
        payload: { order: 42 },
        overrides: { email: { from: 'x@example.com' } },
        actor: 'boss',
        tenant,
        context: { workspace: 'ws-1', app: { id: 'jira', data: { region: 'eu' } } },
      },
    ]);
    expect(result).toEqual({ acknowledged: true, status: 'processed', transactionId: TXN });
    const event = await stored(result.transactionId);
    const workflow = (await env.client.get(`/v2/workflows/${active}`)).body;
    expect(event).toEqual({
      _organizationId: env.scope.organizationId,
      _environmentId: env.scope.environmentId,
      transactionId: result.transactionId,
      workflowId: active,
      workflowDbId: workflow._id,
      // The consumers never run an older version of the workflow than this.
      workflowVersion: expect.any(Number),
      payload: { order: 42 },
      overrides: { email: { from: 'x@example.com' } },
      to: [{ subscriberId: 'jane', firstName: 'Jane', email: 'jane@example.com', data: { plan: 'pro' } }],
      actor: { subscriberId: 'boss' },
      tenant: { identifier: tenant },
      contextKeys: ['app:jira', 'workspace:ws-1'],
      context: { workspace: { id: 'ws-1' }, app: { id: 'jira', data: { region: 'eu' } } },
      userId: expect.any(String),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('defaults payload and overrides to {} and generates transactionIds', async () => {
    const [a, b] = await bulkOk([
      { name: active, to: 'sub-1' },
      { name: active, to: 'sub-1', transactionId: '' },
    ]);
    expect(a.transactionId).toEqual(TXN);
    expect(b.transactionId).toEqual(TXN);
    expect(a.transactionId).not.toBe(b.transactionId);
    const event = await stored(a.transactionId);
    expect(event).toMatchObject({ payload: {}, overrides: {}, contextKeys: [] });
    expect(event).not.toHaveProperty('tenant');
    expect(event).not.toHaveProperty('actor');
    expect(event).not.toHaveProperty('broadcast');
  });

  it('refuses a transactionId used by an earlier request, or earlier in the same request', async () => {
    const txid = unique('txn');
    expect((await bulkOk([{ name: active, to: 'sub-1', transactionId: txid }]))[0].status).toBe('processed');
    const again = await bulkOk([
      { name: active, to: 'sub-1', transactionId: txid },
      { name: active, to: 'sub-1', transactionId: `${txid}-b` },
      { name: active, to: 'sub-2', transactionId: `${txid}-b` },
      { name: active, to: 'sub-3', transactionId: `${txid}-b` },
    ]);
    expect(again.map((r) => [r.status, r.transactionId, r.error])).toEqual([
      ['error', txid, [DUPLICATE]],
      ['processed', `${txid}-b`, undefined],
      ['error', `${txid}-b`, [DUPLICATE]],
      ['error', `${txid}-b`, [DUPLICATE]],
    ]);
    // The first claim stands: the later events changed nothing.
    expect((await stored(`${txid}-b`))?.to).toEqual(['sub-1']);
  });

  it('claims given transactionIds and stores generated ones in one request', async () => {
    // Given ids are claimed with conditional writes; generated ones (nobody else can hold them)
    // are stored with plain batch writes.
    const txid = unique('txn-mixed');
    const results = await bulkOk([
      { name: active, to: 'sub-1', transactionId: txid },
      { name: active, to: 'sub-2' },
      { name: active, to: 'sub-3', transactionId: txid },
      { name: active, to: 'sub-4' },
    ]);
    expect(results.map((r) => [r.status, r.error])).toEqual([
      ['processed', undefined],
      ['processed', undefined],
      ['error', [DUPLICATE]],
      ['processed', undefined],
    ]);
    expect(results.map((r) => r.transactionId)).toEqual([txid, TXN, txid, TXN]);
    expect((await stored(txid))?.to).toEqual(['sub-1']);
    expect((await stored(results[1].transactionId))?.to).toEqual(['sub-2']);
    expect((await stored(results[3].transactionId))?.to).toEqual(['sub-4']);
  });

  it('lets a later event use a transactionId an earlier one did not get to claim', async () => {
    const txid = unique('txn');
    const results = await bulkOk([
      { name: 'no-such-workflow', to: 'sub-1', transactionId: txid },
      { name: inactive, to: 'sub-1', transactionId: txid },
      { name: active, to: 'sub-1', transactionId: txid },
    ]);
    expect(results.map((r) => r.status)).toEqual(['error', 'trigger_not_active', 'processed']);
  });

  it('checks the tenant, given as a string or an object', async () => {
    const results = await bulkOk([
      { name: active, to: 'sub-1', tenant },
      { name: active, to: 'sub-1', tenant: { identifier: tenant, name: 'Acme Renamed', data: { tier: 'gold' } } },
      { name: active, to: 'sub-1', tenant: 'unknown-tenant' },
      { name: active, to: 'sub-1', tenant: { identifier: 'unknown-tenant', name: 'Ghost' } },
      { name: active, to: 'sub-1', tenant: { identifier: 'é'.repeat(1000) } }, // too long for a key: not looked up
      { name: active, to: 'sub-1', tenant: 42 },
      // The tenant is checked before the workflow's state, as in the reference.
      { name: inactive, to: 'sub-1', tenant: 'unknown-tenant' },
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'processed',
      'processed',
      'no_tenant_found',
      'no_tenant_found',
      'no_tenant_found',
      'error',
      'no_tenant_found',
    ]);
    expect((await stored(results[0].transactionId))?.tenant).toEqual({ identifier: tenant });
    expect((await stored(results[1].transactionId))?.tenant).toEqual({ identifier: tenant, name: 'Acme Renamed', data: { tier: 'gold' } });
    expect(results[5].error[0]).toMatch(/^Validation failed for .*: tenant: /);
  });

  it('validates context per event', async () => {
    const big = 'x'.repeat(65 * 1024);
    const results = await bulkOk([
      { name: active, to: 'sub-1', context: { b: 'two', a: 'one' } },
      { name: active, to: 'sub-1', context: {} },
      { name: active, to: 'sub-1', context: { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' } },
      { name: active, to: 'sub-1', context: { a: 'has space' } },
      { name: active, to: 'sub-1', context: { a: 'y'.repeat(101) } },
      { name: active, to: 'sub-1', context: { a: { id: 'ok', data: { big } } } },
      { name: active, to: 'sub-1', context: { a: { data: {} } } },
      { name: active, to: 'sub-1', context: 'tenant:acme' },
    ]);
    expect(results.map((r) => r.status)).toEqual(['processed', 'error', 'error', 'error', 'error', 'error', 'error', 'error']);
    expect((await stored(results[0].transactionId))?.contextKeys).toEqual(['a:one', 'b:two']);
    const messages = results.slice(1).map((r) => r.error[0]);
    expect(messages).toEqual([
      expect.stringContaining('context: context must not be empty'),
      expect.stringContaining('context: context must have at most 5 keys'),
      expect.stringContaining('context.a.id: context id may only contain letters, digits, - and _'),
      expect.stringContaining('context.a.id: context id must be at most 100 characters'),
      expect.stringContaining('context.a.data: context data must be at most 64 KB'),
      expect.stringContaining('context.a.id: context id must be a string'),
      expect.stringContaining('context: context must be an object'),
    ]);
  });

  it('keeps the valid recipients, once each, and refuses an event with none', async () => {
    const results = await bulkOk([
      {
        name: active,
        to: [
          'alice',
          { subscriberId: 'bob', firstName: 'Bob' },
          'not valid!',
          { firstName: 'no id' },
          { subscriberId: 'carol', email: 'not-an-email' },
          { type: 'Topic', topicKey: 'news', exclude: ['alice'] },
          { topicKey: 'no-type' },
          { type: 'Topic', topicKey: 'too-many', exclude: Array.from({ length: 101 }, (_, i) => `s${i}`) },
          { subscriberId: 'alice', lastName: 'Last wins' },
          'dave@example.com',
          42,
          null,
        ],
      },
      { name: active, to: { type: 'Topic', topicKey: 'news' } },
      { name: active, to: [] },
      { name: active, to: 'bad id' },
      { name: active, to: [{ type: 'Topic', topicKey: 'bad key!' }] },
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'processed',
      'processed',
      'invalid_recipients',
      'invalid_recipients',
      'invalid_recipients',
    ]);
    expect((await stored(results[0].transactionId))?.to).toEqual([
      { subscriberId: 'alice', lastName: 'Last wins' },
      { subscriberId: 'bob', firstName: 'Bob' },
      { type: 'Topic', topicKey: 'news', exclude: ['alice'] },
      'dave@example.com',
    ]);
    expect((await stored(results[1].transactionId))?.to).toEqual([{ type: 'Topic', topicKey: 'news' }]);
  });

  it('validates the payload against the workflow schema and writes its defaults', async () => {
    const results = await bulkOk([
      { name: validated, to: 'sub-1', payload: { name: 'Ann' } },
      { name: validated, to: 'sub-1', payload: { name: 'Ann', count: 2, options: { loud: true } } },
      { name: validated, to: 'sub-1' },
      { name: validated, to: 'sub-1', payload: { name: 7, options: { loud: 'yes' } } },
      { name: active, to: 'sub-1', payload: { name: 7 } },
    ]);
    expect(results.map((r) => r.status)).toEqual(['processed', 'processed', 'error', 'error', 'processed']);
    expect((await stored(results[0].transactionId))?.payload).toEqual({ name: 'Ann', count: 5, options: { loud: false } });
    expect((await stored(results[1].transactionId))?.payload).toEqual({ name: 'Ann', count: 2, options: { loud: true } });
    expect(results[2].error).toEqual(["Payload validation failed: name: must have required property 'name'"]);
    expect(results[3].error).toEqual(['Payload validation failed: name: must be string; options.loud: must be boolean']);
    // Validation off: the payload is kept as sent.
    expect((await stored(results[4].transactionId))?.payload).toEqual({ name: 7 });
  });

  it('refuses an event too large to store, alone', async () => {
    const results = await bulkOk([
      { name: active, to: 'sub-1', payload: { blob: 'x'.repeat(300 * 1024) }, transactionId: unique('txn-big') },
      { name: active, to: 'sub-1' },
    ]);
    expect(results.map((r) => r.status)).toEqual(['error', 'processed']);
    expect(results[0].error[0]).toMatch(/^The event is too large/);
    expect(await stored(results[0].transactionId)).toBeUndefined();
  });

  it('answers 422 for the whole request when events is empty, too long or not a list', async () => {
    const empty = await bulk([]);
    expect(empty.status).toBe(422);
    expect(empty.body.errors.events.messages).toEqual(['events should not be empty']);

    const tooMany = await bulk(Array.from({ length: 101 }, () => ({ name: active, to: 'sub-1', transactionId: unique('txn-101') })));
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors.events.messages).toEqual(['events must contain no more than 100 elements']);

    for (const body of [{}, { events: 'x' }, { events: { name: active } }]) {
      const res = await env.client.post('/v1/events/trigger/bulk', body);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.errors.events.messages).toEqual(['events must be an array']);
    }
  });

  it('accepts exactly 100 events and answers each in order', async () => {
    const events = Array.from({ length: 100 }, (_, i) => ({
      name: i % 7 === 0 ? 'missing' : active,
      to: `sub-${i}`,
      transactionId: unique(`order-${i}`),
    }));
    const results = await bulkOk(events);
    results.forEach((r, i) => {
      expect(r.transactionId).toBe(events[i]!.transactionId);
      expect(r.status).toBe(i % 7 === 0 ? 'error' : 'processed');
    });
  });

  it('answers 503 and releases the claims when the events cannot be queued, so a retry is accepted', async () => {
    const events = Array.from({ length: 12 }, (_, i) => ({ name: active, to: 'sub-1', transactionId: unique(`txn-queue-${i}`) }));
    // Bulk requests go to the `bulk` queue (infra/queues.ts).
    const queueUrl = process.env.BULK_QUEUE_URL!;
    process.env.BULK_QUEUE_URL = `${queueUrl}-missing`;
    try {
      const res = await bulk(events);
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
    } finally {
      process.env.BULK_QUEUE_URL = queueUrl;
    }
    for (const e of events) expect(await stored(e.transactionId)).toBeUndefined();
    expect((await bulkOk(events)).map((r) => r.status)).toEqual(events.map(() => 'processed'));
  });

  it('gives a non-object event an error of its own', async () => {
    const results = await bulkOk([1, null, 'event', [], { name: active, to: 'sub-1' }]);
    expect(results.map((r) => r.status)).toEqual(['error', 'error', 'error', 'error', 'processed']);
    expect(results[0].error).toEqual(['Validation failed for ParseEventRequestMulticastCommand: event: event must be an object']);
  });
});

describe('POST /v1/events/trigger', () => {
  it('answers 201 with the result of the one event', async () => {
    const res = await env.client.post('/v1/events/trigger', { name: active, to: ['sub-1'], payload: { x: 1 } });
    expect(res.status).toBe(201);
    // The reference's envelope (what @novu/node apps read as res.data.data).
    expect(res.body).toEqual({ data: { acknowledged: true, status: 'processed', transactionId: TXN } });
    expect((await stored(res.body.data.transactionId))?.payload).toEqual({ x: 1 });

    const inactiveRes = await env.client.post('/v1/events/trigger', { name: inactive, to: 'sub-1' });
    expect(inactiveRes.status).toBe(201);
    expect(inactiveRes.body).toEqual({ data: { acknowledged: true, status: 'trigger_not_active' } });

    const none = await env.client.post('/v1/events/trigger', { name: active, to: ['bad id'] });
    expect(none.status).toBe(201);
    expect(none.body).toEqual({ data: { acknowledged: true, status: 'invalid_recipients', transactionId: TXN } });

    const again = await env.client.post('/v1/events/trigger', { name: active, to: 'sub-1', transactionId: res.body.data.transactionId });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({
      data: { acknowledged: true, status: 'error', error: [DUPLICATE], transactionId: res.body.data.transactionId },
    });
  });

  it('answers 422 workflow_not_found for an unknown workflow', async () => {
    const res = await env.client.post('/v1/events/trigger', { name: 'no-such-workflow', to: 'sub-1' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      statusCode: 422,
      message: 'workflow_not_found',
      error: 'Unprocessable Entity',
      path: '/v1/events/trigger',
      // Every 422 names the field at fault: the SDKs require `errors` on a 422.
      errors: { name: { messages: ['No workflow with the identifier "no-such-workflow"'], value: 'no-such-workflow' } },
    });
  });

  it('answers 400 for a payload the workflow schema refuses', async () => {
    const res = await env.client.post('/v1/events/trigger', {
      name: validated,
      to: 'sub-1',
      payload: { count: 'x', options: { loud: 1 } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      message: "Payload validation failed: name: must have required property 'name'; count: must be number; options.loud: must be boolean",
      errors: {
        'payload.name': { messages: ["must have required property 'name'"], value: null },
        'payload.count': { messages: ['must be number'], value: 'x' },
        'payload.options.loud': { messages: ['must be boolean'], value: 1 },
      },
    });
  });

  it('answers 422 for a body that is not an event', async () => {
    const res = await env.client.post('/v1/events/trigger', { name: 5, context: {} });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation Error');
    expect(Object.keys(res.body.errors).sort()).toEqual(['context', 'name', 'to']);
    expect(res.body.errors.to.messages).toEqual(['to should not be null or undefined']);
  });

  it('answers 413 for an event too large to store', async () => {
    const res = await env.client.post('/v1/events/trigger', { name: active, to: 'sub-1', payload: { blob: 'x'.repeat(300 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/^The event is too large/);
  });
});

describe('POST /v1/events/trigger/broadcast', () => {
  it('accepts an event for every subscriber of the environment', async () => {
    const res = await env.client.post('/v1/events/trigger/broadcast', {
      name: validated,
      payload: { name: 'All' },
      tenant,
      actor: { subscriberId: 'boss', firstName: 'Boss' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { acknowledged: true, status: 'processed', transactionId: TXN } });
    expect(await stored(res.body.data.transactionId)).toMatchObject({
      workflowId: validated,
      broadcast: true,
      to: [],
      payload: { name: 'All', count: 5, options: { loud: false } },
      tenant: { identifier: tenant },
      actor: { subscriberId: 'boss', firstName: 'Boss' },
    });
  });

  it('answers the same refusals as the single trigger', async () => {
    expect((await env.client.post('/v1/events/trigger/broadcast', { name: 'no-such-workflow' })).status).toBe(422);
    expect((await env.client.post('/v1/events/trigger/broadcast', { name: validated, payload: {} })).status).toBe(400);
    expect((await env.client.post('/v1/events/trigger/broadcast', { payload: {} })).status).toBe(422);
    const statuses = [];
    for (const body of [{ name: active, tenant: 'unknown-tenant' }, { name: inactive }, { name: noSteps }, { name: noActiveSteps }]) {
      const res = await env.client.post('/v1/events/trigger/broadcast', body);
      expect(res.status).toBe(201);
      statuses.push(res.body.data.status);
    }
    expect(statuses).toEqual(['no_tenant_found', 'trigger_not_active', 'no_workflow_steps_defined', 'no_workflow_active_steps_defined']);

    const txid = unique('txn-broadcast');
    expect((await env.client.post('/v1/events/trigger/broadcast', { name: active, transactionId: txid })).body.data.status).toBe(
      'processed',
    );
    expect((await env.client.post('/v1/events/trigger/broadcast', { name: active, transactionId: txid })).body).toEqual({
      data: { acknowledged: true, status: 'error', error: [DUPLICATE], transactionId: txid },
    });
  });
});
