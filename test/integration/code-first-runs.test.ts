import type { Context, SQSEvent } from 'aws-lambda';
import { z as z4 } from 'zod';
import { z } from 'zod/v3';
import { SeverityLevelEnum } from '@novu/framework';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as jobsConsumer } from '#functions/consumers/jobs.ts';
import { jobMessage } from '#lib/pipeline/queue-messages.ts';
import { createTestOrg, startTestApi, type TestApi, type TestEnv } from '../support/api.ts';
import { startBridgeApp, workflow, type BridgeApp } from '../support/bridge-app.ts';
import { sinkRecords } from '../support/fault-run.ts';
import { messagesOf, rand, settledOne, WAIT } from '../support/pipeline.ts';
import { startFakeApi, type FakeApi } from '../support/provider-servers.ts';

// How code-first steps run, beyond what code-first.test.ts shows: a job delivered twice while its
// first delivery waits on the bridge sends once; the outputs of every channel are what is
// delivered (sms, chat and push bodies at their providers, every in-app field, email HTML
// sanitized unless the step opts out, sent in the layout with its CSS inlined); a delay's and a
// digest's outputs (amount/unit, cron, digestKey, lookBackWindow) set the waits; a skipped in-app
// step still has its state; a channel step's `providers` outputs reach the provider as its
// overrides; the severity and preferences the code declares are stored and honoured. The bridge
// is an @novu/framework 2.13.2 app with strict authentication, synced as `npx novu sync` does
// (POST /v1/bridge/sync).

let api: TestApi;
let env: TestEnv;
let bridge: BridgeApp;
let sendgrid: FakeApi;
/** The chat (Slack webhooks) and push (push webhook) providers' stand-in. */
let channels: FakeApi;

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

const channelsFlow = workflow(
  'channels-flow',
  async ({ step, payload }) => {
    await step.sms('text', async () => ({ body: `SMS for ${payload.who}` }));
    await step.chat('chat', async () => ({ body: `Chat for ${payload.who}` }));
    await step.push('push', async () => ({ subject: 'Push title', body: `Push for ${payload.who}` }));
  },
  { payloadSchema: z.object({ who: z.string() }) },
);

const richInApp = workflow('rich-in-app', async ({ step }) => {
  await step.inApp('card', async () => ({
    subject: 'Your <b>report</b>',
    body: 'Ready <img src="x" onerror="alert(1)">',
    avatar: 'https://cdn.acme.test/avatar.png',
    primaryAction: { label: 'Open', redirect: { url: 'https://acme.test/reports/1', target: '_self' } },
    secondaryAction: { label: 'Later' },
    redirect: { url: '/reports/1' },
    data: { reportId: 1 },
  }));
});

// The same HTML twice: once as the code wrote it (the step opts out of sanitization), once sanitized.
const MAIL_BODY = '<style>.note { color: #cc0000; }</style><p class="note" onclick="track()">Hi</p><script>track()</script>';
const styledMail = workflow('styled-mail', async ({ step }) => {
  await step.email('raw', async () => ({ subject: 'Raw', body: MAIL_BODY }), { disableOutputSanitization: true });
  await step.email('clean', async () => ({ subject: 'Clean', body: MAIL_BODY }));
});

const cronDelay = workflow('cron-delay', async ({ step }) => {
  const { duration } = await step.delay('pause', async () => ({ type: 'timed', cron: '*/3 * * * * *' }));
  await step.inApp('after', async () => ({ body: `Waited ${duration} ms` }));
});

const cronDigest = workflow(
  'cron-digest',
  async ({ step }) => {
    const { events } = await step.digest('batch', async () => ({ cron: '*/10 * * * * *' }));
    await step.inApp('summary', async () => ({ body: `${events.length}: ${events.map((e) => String(e.payload.text)).join(', ')}` }));
  },
  { payloadSchema: z.object({ text: z.string() }) },
);

const skippedInApp = workflow('skipped-in-app', async ({ step }) => {
  await step.inApp('maybe', async () => ({ body: 'Never shown' }), { skip: () => true });
  await step.inApp('after', async () => ({ body: 'After the skipped one' }));
});

const quietFlow = workflow(
  'quiet-flow',
  async ({ step }) => {
    await step.inApp('note', async () => ({ body: 'Quiet note' }));
    await step.email('mail', async () => ({ subject: 'Quiet', body: '<p>Quiet</p>' }));
  },
  { severity: SeverityLevelEnum.HIGH, preferences: { all: { readOnly: true }, channels: { email: { enabled: false } } } },
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
  channels = await startFakeApi();
  channels.reply = (request) => (request.path === '/push' ? { status: 200, body: { id: `push-${rand()}` } } : { status: 200, body: 'ok' });
  for (const body of [
    { providerId: 'slack', channel: 'chat', credentials: { applicationId: 'A1', clientId: 'C1', secretKey: 'S1' } },
    { providerId: 'push-webhook', channel: 'push', credentials: { webhookUrl: `${channels.url}/push`, secretKey: 'whsec' } },
  ]) {
    const res = await env.client.post('/v1/integrations', { active: true, identifier: `${body.providerId}-${rand()}`, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  bridge = await startBridgeApp(env.apiKey, [
    onceFlow,
    waitFlow,
    keyedDigest,
    lookBackDigest,
    providerFlow,
    zod4Flow,
    zod4JsonFlow,
    channelsFlow,
    richInApp,
    styledMail,
    cronDelay,
    cronDigest,
    skippedInApp,
    quietFlow,
  ]);
  const synced = await env.client.post('/v1/bridge/sync?source=cli', { bridgeUrl: bridge.url });
  expect(synced.status, JSON.stringify(synced.body)).toBe(201);
}, 90_000);
afterAll(async () => {
  await bridge?.close();
  await sendgrid?.close();
  await channels?.close();
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

describe('the outputs are what is delivered', () => {
  it('sends the sms, chat and push bodies (and the push subject) to their providers', async () => {
    const subscriberId = `channels-${rand()}`;
    const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const token = `tok-${subscriberId}`;
    const res = await env.client.post('/v1/events/trigger', {
      name: 'channels-flow',
      to: {
        subscriberId,
        phone,
        channels: [
          { providerId: 'slack', credentials: { webhookUrl: `${channels.url}/slack/${subscriberId}` } },
          { providerId: 'push-webhook', credentials: { deviceTokens: [token] } },
        ],
      },
      payload: { who: 'Ada' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const notification = await settledOne(env.client, res.body.data.transactionId);
    expect(notification.jobs.map((j: any) => [j.step.name, j.status])).toEqual([
      ['text', 'completed'],
      ['chat', 'completed'],
      ['push', 'completed'],
    ]);
    const sms = (await sinkRecords('sms')).filter((r) => r.to === phone) as unknown as { content: string }[];
    expect(sms.map((r) => r.content)).toEqual(['SMS for Ada']);
    const chat = channels.requests.filter((r) => r.path === `/slack/${subscriberId}`).map((r) => r.json);
    expect(chat).toEqual([{ text: 'Chat for Ada' }]);
    const push = channels.requests.filter((r) => r.path === '/push' && r.json?.target?.[0] === token).map((r) => r.json);
    expect(push).toHaveLength(1);
    expect(push[0]).toMatchObject({ title: 'Push title', content: 'Push for Ada' });
  });

  it('writes every in-app field the bridge returns: subject, body, avatar, both actions, redirect, data (sanitized)', async () => {
    const subscriberId = await subscriber('rich');
    const notification = await settledOne(env.client, await trigger('rich-in-app', subscriberId, {}));
    expect(notification.jobs[0].status).toBe('completed');
    const [message] = await messagesOf(env.client, subscriberId);
    expect(message.subject).toBe('Your <b>report</b>');
    expect(message.content).toBe('Ready <img src="x" />');
    expect(message.avatar).toBe('https://cdn.acme.test/avatar.png');
    expect(message.data).toEqual({ reportId: 1 });
    expect(message.cta).toMatchObject({ type: 'redirect', data: { url: '/reports/1' } });
    expect(message.cta.action.buttons).toEqual([
      { type: 'primary', content: 'Open', url: 'https://acme.test/reports/1', target: '_self' },
      { type: 'secondary', content: 'Later' },
    ]);
  });

  it('keeps an email as written when the step disables sanitization, else sanitizes it; sent in the layout, CSS inlined', async () => {
    const subscriberId = await subscriber('styled');
    const notification = await settledOne(env.client, await trigger('styled-mail', subscriberId, {}));
    expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed']);
    const stored = Object.fromEntries((await messagesOf(env.client, subscriberId, 'email')).map((m: any) => [m.subject, m.content]));
    expect(stored.Raw).toContain('onclick="track()"');
    expect(stored.Raw).toContain('<script>track()</script>');
    expect(stored.Clean).toContain('Hi</p>');
    expect(stored.Clean).not.toContain('onclick');
    expect(stored.Clean).not.toContain('<script');

    const sent = Object.fromEntries(
      sendgrid.requests
        .filter((r) => r.json?.personalizations?.[0]?.to?.[0]?.email === `${subscriberId}@example.test`)
        .map((r) => [r.json.subject, r.json.content.find((c: any) => c.type === 'text/html').value as string]),
    );
    // What the provider got: the <style> rule inlined into the paragraph it styles.
    expect(sent.Raw).toMatch(/<p class="note" onclick="track\(\)" style="color: ?#cc0000;?">Hi<\/p>/);
    expect(sent.Raw).toContain('<script>track()</script>');
    expect(sent.Clean).not.toContain('onclick');
    expect(sent.Clean).not.toContain('<script');
    // Both went out in the environment's default layout, a whole document; the messages keep the body.
    for (const job of notification.jobs) expect(details(job)).toContain('Layout selected');
    for (const subject of ['Raw', 'Clean']) {
      expect(sent[subject]).toMatch(/<html[\s>]/i);
      expect(stored[subject]).not.toMatch(/<html[\s>]/i);
    }
  });
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

  it("waits until its cron's next time, and the next step gets the wait as the delay's duration", async () => {
    const subscriberId = await subscriber('cron-delay');
    const notification = await settledOne(env.client, await trigger('cron-delay', subscriberId, {}));
    expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed']);
    const delayed = notification.jobs[0].executionDetails.find((d: any) => d.detail === 'Step delayed');
    const { delay, untilDate } = JSON.parse(delayed.raw);
    // Every third second: a wait of at most three seconds, ending on a multiple of three.
    expect(delay).toBeGreaterThan(0);
    expect(delay).toBeLessThanOrEqual(3_000);
    expect(new Date(untilDate).getUTCSeconds() % 3).toBe(0);
    const [message] = await messagesOf(env.client, subscriberId);
    expect(message.content).toBe(`Waited ${delay} ms`);
    const after = executes('cron-delay', 'after').find((c) => c.body?.subscriber?.subscriberId === subscriberId);
    expect(after?.body.state).toEqual([{ stepId: 'pause', outputs: { duration: delay }, state: { status: 'completed' } }]);
  }, 60_000);

  it("digests the events until its cron's next time, and the step after gets them all", async () => {
    const subscriberId = await subscriber('cron-digest');
    // Start early in a ten-second period, so the three triggers are surely in one window.
    await vi.waitFor(() => expect(Date.now() % 10_000).toBeLessThan(3_000), { timeout: 12_000, interval: 50 });
    const ids: string[] = [];
    for (const text of ['a', 'b', 'c']) ids.push(await trigger('cron-digest', subscriberId, { text }));
    const [message] = await vi.waitFor(async () => {
      const found = await messagesOf(env.client, subscriberId);
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    expect(message.content).toMatch(/^3: /);
    expect(message.content.slice(3).split(', ').sort()).toEqual(['a', 'b', 'c']);
    const master = (await Promise.all(ids.map((id) => settledOne(env.client, id)))).find((n: any) => n.jobs[1].status === 'completed');
    expect(master.jobs[0].digest).toMatchObject({ type: 'timed', timed: { cronExpression: '*/10 * * * * *' } });
  }, 60_000);
});

describe('the state of a skipped in-app step', () => {
  it('is sent to the next step as unseen and unread', async () => {
    const subscriberId = await subscriber('skipped');
    const notification = await settledOne(env.client, await trigger('skipped-in-app', subscriberId, {}));
    expect(notification.jobs.map((j: any) => j.status)).toEqual(['skipped', 'completed']);
    expect((await messagesOf(env.client, subscriberId)).map((m: any) => m.content)).toEqual(['After the skipped one']);
    const after = executes('skipped-in-app', 'after').find((c) => c.body?.subscriber?.subscriberId === subscriberId);
    expect(after?.status).toBe(200);
    expect(after?.body.state).toEqual([
      {
        stepId: 'maybe',
        outputs: { seen: false, read: false, lastSeenDate: null, lastReadDate: null },
        state: { status: 'skipped' },
      },
    ]);
  });
});

describe('severity and preferences the code declares', () => {
  it('are stored on the workflow, and a channel its preferences turn off is not sent', async () => {
    const stored = (await env.client.get('/v2/workflows/quiet-flow')).body;
    expect(stored.severity).toBe('high');
    expect(stored.preferences.default).toMatchObject({
      all: { enabled: true, readOnly: true },
      channels: { email: { enabled: false }, in_app: { enabled: true } },
    });

    const subscriberId = await subscriber('quiet');
    const notification = await settledOne(env.client, await trigger('quiet-flow', subscriberId, {}));
    expect(notification.jobs.map((j: any) => [j.step.name, j.status])).toEqual([
      ['note', 'completed'],
      ['mail', 'canceled'],
    ]);
    expect(details(notification.jobs[1])).toContain('Step filtered by workflow preferences');
    expect((await messagesOf(env.client, subscriberId)).map((m: any) => m.content)).toEqual(['Quiet note']);
    expect(await messagesOf(env.client, subscriberId, 'email')).toEqual([]);
  });
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
