import type { Context, SQSEvent } from 'aws-lambda';
import { z as z4 } from 'zod';
import { z } from 'zod/v3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as jobsConsumer } from '#functions/consumers/jobs.ts';
import { jobMessage } from '#lib/pipeline/queue-messages.ts';
import { createTestOrg, startTestApi, type TestApi, type TestEnv } from '../support/api.ts';
import { startBridgeApp, workflow, type BridgeApp } from '../support/bridge-app.ts';
import { messagesOf, rand, settledOne, WAIT } from '../support/pipeline.ts';
import { startFakeApi, type FakeApi } from '../support/provider-servers.ts';

// How code-first steps run, beyond what code-first.test.ts shows: a job delivered twice while its
// first delivery waits on the bridge sends once; a delay's and a digest's outputs (amount/unit,
// digestKey, lookBackWindow) set the waits; a channel step's `providers` outputs reach the
// provider as its overrides. The bridge is an @novu/framework 2.13.2 app with strict
// authentication, synced as `npx novu sync` does (POST /v1/bridge/sync).

let api: TestApi;
let env: TestEnv;
let bridge: BridgeApp;
let sendgrid: FakeApi;

const onceFlow = workflow(
  'once-flow',
  async ({ step, payload }) => {
    await step.email('mail', async () => ({ subject: 'Once', body: `<p>Only once for ${payload.who}</p>` }));
  },
  // Without a schema the framework strips every payload field (its default schema allows none).
  { payloadSchema: z.object({ who: z.string() }) },
);

const waitFlow = workflow(
  'wait-flow',
  async ({ step, payload }) => {
    await step.delay('pause', async () => ({ amount: payload.seconds, unit: 'seconds' }));
    await step.inApp('after', async () => ({ body: `Waited ${payload.seconds} s` }));
  },
  { payloadSchema: z.object({ seconds: z.number() }) },
);

const keyedDigest = workflow(
  'keyed-digest',
  async ({ step, payload }) => {
    const { events } = await step.digest('batch', async () => ({ amount: 4, unit: 'seconds', digestKey: 'postId' }));
    await step.inApp('summary', async () => ({
      body: `${events.length} on ${payload.postId}: ${events.map((e) => String(e.payload.text)).join(', ')}`,
    }));
  },
  { payloadSchema: z.object({ postId: z.string(), text: z.string() }) },
);

const lookBackDigest = workflow(
  'look-back-digest',
  async ({ step }) => {
    const { events } = await step.digest('batch', async () => ({
      amount: 4,
      unit: 'seconds',
      lookBackWindow: { amount: 60, unit: 'seconds' },
    }));
    await step.inApp('summary', async () => ({ body: `${events.length}: ${events.map((e) => String(e.payload.text)).join(', ')}` }));
  },
  { payloadSchema: z.object({ text: z.string() }) },
);

const providerFlow = workflow('provider-flow', async ({ step }) => {
  await step.email('mail', async () => ({ subject: 'With overrides', body: '<p>Tagged</p>' }), {
    providers: {
      sendgrid: async ({ outputs }) => ({ categories: ['code-first'], _passthrough: { headers: { 'x-subject': outputs.subject } } }),
    },
  });
});

// The same workflow with zod 4 schemas: the framework describes them with zod-to-json-schema,
// which reads zod 3 schemas only, so its discover reports them empty; and with zod 4's own JSON
// Schema handed to the framework instead (docs/code-first.md, "Known limits").
const greetingControls = z4.object({ greeting: z4.string().default('Hello') });
const namePayload = z4.object({ name: z4.string() });
const zod4Flow = workflow(
  'zod4-flow',
  async ({ step, payload }) => {
    await step.inApp('hi', async (controls) => ({ body: `${String(controls.greeting)} ${String(payload.name)}` }), {
      controlSchema: greetingControls,
    });
  },
  { payloadSchema: namePayload },
);
/** What a customer hands the framework for a zod 4 schema: the JSON Schema of its input (defaulted fields optional). */
const jsonSchemaOf = (schema: z4.ZodType) =>
  z4.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as { type: 'object'; properties: Record<string, object> };
const zod4JsonFlow = workflow(
  'zod4-json-flow',
  async ({ step, payload }) => {
    await step.inApp('hi', async (controls) => ({ body: `${String(controls.greeting)} ${String(payload.name)}` }), {
      controlSchema: jsonSchemaOf(greetingControls),
    });
  },
  { payloadSchema: jsonSchemaOf(namePayload) },
);

const jobsContext = { getRemainingTimeInMillis: () => 30_000, functionName: 'test', awsRequestId: 'r' } as unknown as Context;
const sqsEvent = (body: unknown): SQSEvent => ({
  Records: [
    {
      messageId: `m-${rand()}`,
      receiptHandle: 'r',
      body: JSON.stringify(body),
      attributes: { ApproximateReceiveCount: '2' } as SQSEvent['Records'][number]['attributes'],
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test',
      awsRegion: 'us-east-1',
    },
  ],
});

const executes = (workflowId: string, stepId: string) =>
  bridge.calls.filter((c) => c.action === 'execute' && c.workflowId === workflowId && c.stepId === stepId);
const details = (job: any): string[] => job.executionDetails.map((d: any) => d.detail);

async function subscriber(prefix: string): Promise<string> {
  const subscriberId = `${prefix}-${rand()}`;
  const res = await env.client.post('/v1/subscribers', { subscriberId, email: `${subscriberId}@example.test` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return subscriberId;
}

async function trigger(name: string, to: string, payload: Record<string, unknown>): Promise<string> {
  const res = await env.client.post('/v1/events/trigger', { name, to, payload });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.transactionId;
}

beforeAll(async () => {
  api = await startTestApi();
  env = (await createTestOrg(api.url)).dev;
  sendgrid = await startFakeApi();
  sendgrid.reply = (request) => ({
    status: 202,
    headers: { 'x-message-id': `sg-${request.json?.personalizations?.[0]?.to?.[0]?.email}` },
    body: '',
  });
  const integration = await env.client.post('/v1/integrations', {
    providerId: 'sendgrid',
    channel: 'email',
    identifier: `sg-${rand()}`,
    active: true,
    credentials: { apiKey: 'SG.code-first', from: 'team@acme.test', senderName: 'Acme', baseUrl: sendgrid.url },
  });
  expect(integration.status, JSON.stringify(integration.body)).toBe(201);
  const primary = await env.client.post(`/v1/integrations/${integration.body.data._id}/set-primary`, {});
  expect(primary.status).toBeLessThan(300);
  bridge = await startBridgeApp(env.apiKey, [onceFlow, waitFlow, keyedDigest, lookBackDigest, providerFlow, zod4Flow, zod4JsonFlow]);
  const synced = await env.client.post('/v1/bridge/sync?source=cli', { bridgeUrl: bridge.url });
  expect(synced.status, JSON.stringify(synced.body)).toBe(201);
}, 90_000);
afterAll(async () => {
  await bridge?.close();
  await sendgrid?.close();
  await api?.close();
});

describe('a redelivered job of a code-first step', () => {
  it('sends once when a copy arrives while the first delivery waits on the bridge; both may call it', async () => {
    // Hold the first execute of once-flow until the copy has run its course.
    let arrived!: () => void;
    const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    bridge.setFault(async (req) => {
      if (req.query.action !== 'execute' || req.query.workflowId !== 'once-flow' || held) return false;
      held = true;
      arrived();
      await released;
      return false;
    });
    try {
      const subscriberId = await subscriber('once');
      const transactionId = await trigger('once-flow', subscriberId, { who: subscriberId });
      await vi.waitFor(() => firstArrived, WAIT);

      // The copy SQS may deliver (at least once): it runs while the first is still waiting.
      const copy = jobMessage(env.scope, transactionId, subscriberId, 0);
      expect(await jobsConsumer(sqsEvent(copy), jobsContext)).toEqual({ batchItemFailures: [] });
      const [sent] = await messagesOf(env.client, subscriberId, 'email');
      expect(sent.content).toContain(`Only once for ${subscriberId}`);
      release();

      const notification = await settledOne(env.client, transactionId);
      expect(notification.jobs[0].status).toBe('completed');
      // The first delivery came back from the bridge to find the job done: nothing more.
      await vi.waitFor(() => expect(executes('once-flow', 'mail').filter((c) => c.status === 200).length).toBeGreaterThanOrEqual(2), WAIT);
      const after = await settledOne(env.client, transactionId);
      expect(details(after.jobs[0]).filter((d) => d === 'Message sent')).toHaveLength(1);
      expect(await messagesOf(env.client, subscriberId, 'email')).toHaveLength(1);
      expect(
        sendgrid.requests.filter((r) => r.json?.personalizations?.[0]?.to?.[0]?.email === `${subscriberId}@example.test`),
      ).toHaveLength(1);

      // A copy arriving after the send finds the job done and does not even ask the bridge.
      const calls = executes('once-flow', 'mail').length;
      expect(await jobsConsumer(sqsEvent(copy), jobsContext)).toEqual({ batchItemFailures: [] });
      expect(executes('once-flow', 'mail')).toHaveLength(calls);
      expect(await messagesOf(env.client, subscriberId, 'email')).toHaveLength(1);
    } finally {
      release();
      bridge.setFault(undefined);
    }
  }, 60_000);
});

// Each case triggers a workflow of its own for a subscriber of its own, and waits out a delay or
// a digest's window: they run at once.
describe.concurrent("a delay's and a digest's outputs set the wait", () => {
  it("waits the delay's amount and unit, and the resumed job does not ask the bridge again", async () => {
    const subscriberId = await subscriber('delay');
    const transactionId = await trigger('wait-flow', subscriberId, { seconds: 3 });
    const notification = await settledOne(env.client, transactionId);
    expect(notification.jobs.map((j: any) => [j.step.name, j.status])).toEqual([
      ['pause', 'completed'],
      ['after', 'completed'],
    ]);
    const [message] = await messagesOf(env.client, subscriberId);
    expect(message.content).toBe('Waited 3 s');
    expect(Date.parse(message.createdAt) - Date.parse(notification.createdAt)).toBeGreaterThanOrEqual(3_000);
    expect(executes('wait-flow', 'pause')).toHaveLength(1);
    // The step after the delay got its `{duration}` state: the framework would refuse it otherwise.
    expect(executes('wait-flow', 'after').every((c) => c.status === 200)).toBe(true);
  }, 60_000);

  it('digests by the digestKey it returns: one message per key, each with its own events', async () => {
    const subscriberId = await subscriber('keyed');
    for (const [postId, text] of [
      ['p1', 'a'],
      ['p2', 'b'],
      ['p1', 'c'],
      ['p2', 'd'],
    ]) {
      await trigger('keyed-digest', subscriberId, { postId, text });
    }
    const messages = await vi.waitFor(async () => {
      const found = await messagesOf(env.client, subscriberId);
      expect(found).toHaveLength(2);
      return found;
    }, WAIT);
    const bodies = messages.map((m: any) => m.content as string).sort();
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatch(/^2 on p1: (a, c|c, a)$/);
    expect(bodies[1]).toMatch(/^2 on p2: (b, d|d, b)$/);
  }, 60_000);

  it('sends at once when its lookBackWindow saw no earlier event, and digests the events that follow', async () => {
    const subscriberId = await subscriber('lookback');
    const first = await trigger('look-back-digest', subscriberId, { text: 'first' });
    const alone = await settledOne(env.client, first);
    expect(alone.jobs.map((j: any) => j.status)).toEqual(['skipped', 'completed']);
    expect((await messagesOf(env.client, subscriberId)).map((m: any) => m.content)).toEqual(['1: first']);

    await trigger('look-back-digest', subscriberId, { text: 'second' });
    await trigger('look-back-digest', subscriberId, { text: 'third' });
    const messages = await vi.waitFor(async () => {
      const found = await messagesOf(env.client, subscriberId);
      expect(found).toHaveLength(2);
      return found;
    }, WAIT);
    expect(messages[0].content).toMatch(/^2: (second, third|third, second)$/);
  }, 60_000);
});

describe("a channel step's providers outputs", () => {
  it('reach the provider as its overrides', async () => {
    const subscriberId = await subscriber('providers');
    const notification = await settledOne(env.client, await trigger('provider-flow', subscriberId, {}));
    expect(notification.jobs[0].status).toBe('completed');
    const request = sendgrid.requests.find((r) => r.json?.personalizations?.[0]?.to?.[0]?.email === `${subscriberId}@example.test`);
    expect(request).toBeDefined();
    expect(request!.json).toMatchObject({ subject: 'With overrides', categories: ['code-first'] });
    expect(request!.headers['x-subject']).toBe('With overrides');
  });
});

describe('schemas and step kinds the service cannot take as they are', () => {
  it("stores a zod 4 schema as the framework reports it (empty), and zod 4's own JSON Schema whole", async () => {
    const plain = (await env.client.get('/v2/workflows/zod4-flow')).body;
    expect(plain.payloadSchema).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#' });
    expect(plain.steps[0].controls.dataSchema).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#' });

    const described = (await env.client.get('/v2/workflows/zod4-json-flow')).body;
    expect(described.payloadSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    expect(described.steps[0].controls.dataSchema).toMatchObject({ properties: { greeting: { type: 'string', default: 'Hello' } } });

    // Both run: the framework validates with the zod schema itself, or with the JSON Schema.
    for (const name of ['zod4-flow', 'zod4-json-flow']) {
      const subscriberId = await subscriber('zod4');
      const notification = await settledOne(env.client, await trigger(name, subscriberId, { name: 'Ada' }));
      expect(notification.jobs[0].status).toBe('completed');
      expect((await messagesOf(env.client, subscriberId))[0].content).toBe('Hello Ada');
    }
  }, 60_000);

  it('refuses a sync of a bridge declaring a tool step with a 400 naming the step, writing nothing', async () => {
    const paging = workflow('paging-flow', async ({ step }) => {
      await step.tool('page-oncall', async () => ({ body: 'Disk full' }));
    });
    const other = await startBridgeApp(env.apiKey, [paging]);
    try {
      const refused = await env.client.post('/v1/bridge/sync?source=cli', { bridgeUrl: other.url });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Workflow paging-flow: step page-oncall is of type tool, which is not supported here');
      expect((await env.client.get('/v2/workflows/paging-flow')).status).toBe(404);
      expect((await env.client.get('/v2/workflows/once-flow')).status).toBe(200);
      expect((await env.client.get('/v1/environments/me')).body.data.bridge).toEqual({ url: bridge.url });
    } finally {
      await other.close();
    }
  });
});
