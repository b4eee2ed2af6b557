import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { handler as eventsConsumer } from '#functions/consumers/events.ts';
import { handler as jobsConsumer } from '#functions/consumers/jobs.ts';
import { consumeEvent } from '#lib/pipeline/consume-event.ts';
import { claimTransaction } from '#lib/pipeline/trigger-store.ts';
import { eventMessage, jobMessage } from '#lib/pipeline/queue-messages.ts';
import { ENV } from '#lib/config.ts';
import { DEFAULT_WORKFLOW_PREFERENCES } from '#lib/workflows/model.ts';
import { saveWorkflow } from '#lib/workflows/repository.ts';
import { createTestOrg, startTestApi, type ApiClient, type TestEnv, type TestOrg } from '../support/api.ts';
import * as pipeline from '../support/pipeline.ts';
import { rand, WAIT } from '../support/pipeline.ts';
import { step, workflow } from '../support/workflow-builder.ts';

// The delivery pipeline end to end: triggers go through the API, the real `events` and `jobs`
// queues and their consumers (polled by the local runtime the test setup starts), and the
// outcome is checked where a user would look: the subscriber's messages and the activity feed.
// Waits poll with a bound (vi.waitFor), never sleep.

let api: LocalApi;
let org: TestOrg;
let env: TestEnv;
let client: ApiClient;

beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
  env = org.dev;
  client = env.client;
});
afterAll(() => api.close());

// The shared pipeline helpers (test/support/pipeline.ts), bound to this file's client.
const createWorkflow = (steps: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
  pipeline.createWorkflow(client, steps, extra);
const trigger = (name: string, to: unknown, payload: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  pipeline.trigger(client, name, to, payload, extra);
const messagesOf = (subscriberId: string, channel = 'in_app') => pipeline.messagesOf(client, subscriberId, channel);
const activity = (transactionId: string) => pipeline.activity(client, transactionId);
const settled = (transactionId: string, count = 1) => pipeline.settled(client, transactionId, count);

const inApp = (body: string, extra: Record<string, unknown> = {}) => ({
  name: 'Inbox',
  stepId: `inbox-${rand()}`,
  type: 'in_app',
  controlValues: { body, ...extra },
});

const details = (job: any): string[] => job.executionDetails.map((d: any) => d.detail);

describe('one event to one subscriber', () => {
  it('delivers a rendered in-app message and records every decision', async () => {
    const wf = await createWorkflow([
      inApp('Hi {{subscriber.firstName}}, {{payload.who}} commented', { subject: 'New comment in {{context.team.data.name}}' }),
    ]);
    const subscriberId = `sub-${rand()}`;
    const txid = await trigger(
      wf,
      { subscriberId, firstName: 'Ada', email: 'ada@example.com' },
      { who: 'Bob' },
      { context: { team: { id: 'blue', data: { name: 'Blue team' } } } },
    );

    const [message] = await vi.waitFor(async () => {
      const found = await messagesOf(subscriberId);
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    expect(message).toMatchObject({
      content: 'Hi Ada, Bob commented',
      subject: 'New comment in Blue team',
      contextKeys: ['team:blue'],
      channel: 'in_app',
      transactionId: txid,
      read: false,
      seen: false,
      status: 'sent',
      templateIdentifier: wf,
    });

    const [item] = await settled(txid);
    expect(item).toMatchObject({ transactionId: txid, channels: ['in_app'], payload: { who: 'Bob' } });
    expect(item.jobs).toHaveLength(1);
    expect(item.jobs[0].status).toBe('completed');
    expect(details(item.jobs[0])).toEqual(['Step queued', 'Inbox provider was selected', 'Message created', 'Message sent']);

    // The recipient definition was upserted.
    const subscriber = await client.get(`/v2/subscribers/${subscriberId}`);
    expect(subscriber.body).toMatchObject({ subscriberId, firstName: 'Ada', email: 'ada@example.com' });
  });

  it('runs a changed workflow for a trigger sent right after the change', async () => {
    // The consumers keep workflows for a few seconds; a trigger records the version it was
    // accepted with, and they never run an older one.
    const step = inApp('Version one');
    const wf = await createWorkflow([step]);
    const subscriberId = `sub-${rand()}`;
    const contents = async (count: number) =>
      vi.waitFor(async () => {
        const found = await messagesOf(subscriberId);
        expect(found).toHaveLength(count);
        return found.map((m) => m.content);
      }, WAIT);
    await trigger(wf, subscriberId);
    expect(await contents(1)).toEqual(['Version one']);
    const changed = await client.put(`/v2/workflows/${wf}`, { name: wf, steps: [{ ...step, controlValues: { body: 'Version two' } }] });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await trigger(wf, subscriberId);
    expect(await contents(2)).toEqual(['Version two', 'Version one']);
  });

  it('sends email through the demo provider to the sink', async () => {
    const wf = await createWorkflow([
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hello {{payload.name}}', body: '<p>Welcome</p>' } },
    ]);
    const subscriberId = `sub-${rand()}`;
    const email = `${subscriberId}@example.com`;
    const txid = await trigger(wf, { subscriberId, email }, { name: 'Ada' });
    const [item] = await settled(txid);
    expect(item.jobs[0].status).toBe('completed');
    expect(details(item.jobs[0])).toEqual([
      'Step queued',
      'Demo Email provider was selected',
      'Layout selected',
      'Message created',
      'Message sent',
    ]);
    const [message] = await messagesOf(subscriberId, 'email');
    expect(message).toMatchObject({
      channel: 'email',
      email,
      subject: 'Hello Ada',
      content: '<p>Welcome</p>',
      status: 'sent',
      providerId: 'svc-email',
    });
    const sink = await readFile(join(process.env[ENV.deliverySinkDir]!, 'email.jsonl'), 'utf8');
    const sent = sink
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((r) => r.to === email);
    expect(sent).toHaveLength(1);
    // The provider gets the body inside the default email layout; the message keeps the body.
    expect(sent[0]).toMatchObject({ subject: 'Hello Ada', id: message.identifier });
    expect(sent[0].content).toMatch(/^<!DOCTYPE html>[\s\S]*<p>Welcome<\/p>/);
  });

  it('ends an email step without an address as a warning, and the workflow goes on', async () => {
    const wf = await createWorkflow([
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'S', body: 'B' } },
      inApp('after mail'),
    ]);
    const subscriberId = `sub-${rand()}`;
    const txid = await trigger(wf, subscriberId);
    const [item] = await settled(txid);
    expect(item.jobs.map((j: any) => j.status)).toEqual(['canceled', 'completed']);
    expect(details(item.jobs[0])).toContain('Subscriber missing email address');
    const [warning] = await messagesOf(subscriberId, 'email');
    expect(warning).toMatchObject({
      status: 'warning',
      errorId: 'mail_unexpected_error',
      errorText: 'Subscriber does not have an email address',
    });
  });
});

describe('fan-out', () => {
  it("sets the workflow's lastTriggeredAt", async () => {
    const workflowId = await createWorkflow([inApp('Hello')]);
    const before = new Date().toISOString();
    const sent = await client.post('/v1/events/trigger/bulk', {
      events: Array.from({ length: 30 }, (_, i) => ({ name: workflowId, to: `sub-${rand()}-${i}`, payload: {} })),
    });
    expect(sent.status).toBe(201);
    await vi.waitFor(async () => {
      const res = await client.get(`/v2/workflows/${workflowId}`);
      expect(res.body.lastTriggeredAt >= before).toBe(true);
    }, WAIT);
    const res = await client.get(`/v2/workflows/${workflowId}`);
    expect(res.body.lastTriggeredAt <= new Date().toISOString()).toBe(true);
  });

  it('delivers once to every member of a topic, minus the excluded and the actor', async () => {
    const wf = await createWorkflow([inApp('Topic news')]);
    const topicKey = `topic-${rand()}`;
    const members = Array.from({ length: 25 }, (_, i) => `m-${rand()}-${i}`);
    for (const id of members) expect((await client.post('/v2/subscribers', { subscriberId: id })).status).toBe(201);
    expect((await client.post(`/v2/topics/${topicKey}/subscriptions`, { subscriberIds: members })).status).toBeLessThan(300);

    const txid = await trigger(wf, [{ type: 'Topic', topicKey, exclude: [members[0]] }, members[2]!], {}, { actor: members[1] });
    const expected = members.filter((_, i) => i !== 0 && i !== 1);
    await vi.waitFor(async () => {
      const res = await client.get(`/v1/messages?transactionId=${txid}&limit=100`);
      expect(res.body.data).toHaveLength(expected.length);
      expect(res.body.data.map((m: any) => m.subscriberId).sort()).toEqual([...expected].sort());
    }, WAIT);
    const items = await settled(txid, expected.length);
    const viaTopic = items.find((i: any) => i.subscriber?.subscriberId === members[3]);
    expect(viaTopic.topics).toEqual([expect.objectContaining({ topicKey })]);
  });

  it('broadcasts to every subscriber of the environment', async () => {
    const other = await createTestOrg(api.url);
    const ids = ['b1', 'b2', 'b3'];
    for (const id of ids) await other.dev.client.post('/v2/subscribers', { subscriberId: id });
    const workflowId = `wf-${rand()}`;
    await other.dev.client.post('/v2/workflows', { name: workflowId, workflowId, active: true, steps: [inApp('To all')] });
    const res = await other.dev.client.post('/v1/events/trigger/broadcast', { name: workflowId, payload: {} });
    expect(res.body.data.status).toBe('processed');
    await vi.waitFor(async () => {
      const list = await other.dev.client.get(`/v1/messages?transactionId=${res.body.data.transactionId}&limit=100`);
      expect(list.body.data.map((m: any) => m.subscriberId).sort()).toEqual(ids);
    }, WAIT);
  });
});

// Each case has its own workflow and subscriber, and most wait on a digest window or a delay: they
// run at once, and so share the consumers (90 s each, where one alone needs seconds).
describe.concurrent('action steps', { timeout: 90_000 }, () => {
  it('digests three events into one message that lists them', async () => {
    const wf = await createWorkflow([
      { name: 'Digest', stepId: 'digest', type: 'digest', controlValues: { amount: 4, unit: 'seconds' } },
      inApp('{{step.total_count}} new: {% for e in step.events %}{{e.n}};{% endfor %}'),
    ]);
    const subscriberId = `sub-${rand()}`;
    const res = await client.post('/v1/events/trigger/bulk', {
      events: [1, 2, 3].map((n) => ({ name: wf, to: subscriberId, payload: { n } })),
    });
    expect(res.body.map((r: any) => r.status)).toEqual(['processed', 'processed', 'processed']);
    const [message] = await vi.waitFor(async () => {
      const found = await messagesOf(subscriberId);
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    expect(message.content).toMatch(/^3 new: /);
    expect(message.content.split(': ')[1].split(';').filter(Boolean).sort()).toEqual(['1', '2', '3']);

    const items = await Promise.all(res.body.map((r: any) => settled(r.transactionId)));
    const statuses = items.map(([i]) => i.jobs.map((j: any) => j.status).join(','));
    expect(statuses.filter((s) => s === 'completed,completed')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'merged,merged')).toHaveLength(2);
    const master = items.map(([i]) => i).find((i) => i.jobs[0].status === 'completed');
    expect(details(master.jobs[0])).toEqual(['Step queued', 'Step digested', 'Digest triggered events']);
    expect(master.jobs[0].digest.events).toHaveLength(3);
    const follower = items.map(([i]) => i).find((i) => i.jobs[0].status === 'merged');
    expect(follower._digestedNotificationId).toBe(master._id);
    expect(details(follower.jobs[0])).toContain('Digest was merged with other digest');
  });

  it('sends the first event of a look-back digest at once and digests the ones that follow it', async () => {
    const wf = await createWorkflow([
      {
        name: 'Digest',
        stepId: 'digest',
        type: 'digest',
        controlValues: { amount: 3, unit: 'seconds', lookBackWindow: { amount: 5, unit: 'minutes' } },
      },
      inApp('{{step.total_count}} events'),
    ]);
    const subscriberId = `sub-${rand()}`;
    const first = await trigger(wf, subscriberId);
    const [firstItem] = await settled(first);
    expect(firstItem.jobs.map((j: any) => j.status)).toEqual(['skipped', 'completed']);
    expect(details(firstItem.jobs[0])).toContain('Digest was skipped, first backoff event');
    expect(firstItem.jobs[0].digest).toMatchObject({ type: 'backoff', backoff: true, backoffAmount: 5, backoffUnit: 'minutes' });

    const res = await client.post('/v1/events/trigger/bulk', { events: [1, 2].map(() => ({ name: wf, to: subscriberId })) });
    await Promise.all(res.body.map((r: any) => settled(r.transactionId)));
    const contents = (await messagesOf(subscriberId)).map((m) => m.content).sort();
    expect(contents).toEqual(['1 events', '2 events']);
  });

  it('names a digest by its step in later templates (steps.<stepId>.events)', async () => {
    const wf = await createWorkflow([
      { name: 'Collect', stepId: 'collect', type: 'digest', controlValues: { amount: 3, unit: 'seconds' } },
      {
        name: 'Summary',
        stepId: 'summary',
        type: 'email',
        controlValues: {
          subject: '{{steps.collect.eventCount}} new comments',
          body: '{% for e in steps.collect.events %}[{{ e.payload.c }}]{% endfor %}',
        },
      },
    ]);
    const subscriberId = `sub-${rand()}`;
    const email = `${subscriberId}@example.com`;
    const res = await client.post('/v1/events/trigger/bulk', {
      events: ['a', 'b'].map((c) => ({ name: wf, to: { subscriberId, email }, payload: { c } })),
    });
    expect(res.body.map((r: any) => r.status)).toEqual(['processed', 'processed']);
    const [message] = await vi.waitFor(async () => {
      const found = await messagesOf(subscriberId, 'email');
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    expect(message.subject).toBe('2 new comments');
    expect([...message.content.matchAll(/\[(\w)\]/g)].map((m) => m[1]).sort()).toEqual(['a', 'b']);
  });

  it('summarises a digest with the reference filters: pluralize, toSentence and digest over steps.<stepId>.events', async () => {
    const wf = await createWorkflow([
      { name: 'Collect', stepId: 'collect', type: 'digest', controlValues: { amount: 3, unit: 'seconds' } },
      inApp("{{ steps.collect.events | toSentence: 'payload.name' }} left {{ steps.collect.eventCount | pluralize: 'reply', 'replies' }}", {
        subject: "{{ steps.collect.events | pluralize: 'person' }}",
      }),
      {
        name: 'Summary',
        stepId: 'summary',
        type: 'email',
        controlValues: {
          subject: "{{ steps.collect.eventCount | pluralize: 'new comment' }}",
          body:
            "<p>{{ steps.collect.events | digest: 1, 'payload.name' }} commented</p>" +
            "<p>{{ steps.collect.eventCount | minus: 1 | pluralize: 'other comment', '', false }}</p>",
        },
      },
    ]);
    const subscriberId = `sub-${rand()}`;
    const names = ['Ann', 'Bob', 'Cy'];
    const res = await client.post('/v1/events/trigger/bulk', {
      events: names.map((name) => ({ name: wf, to: { subscriberId, email: `${subscriberId}@example.com` }, payload: { name } })),
    });
    expect(res.body.map((r: any) => r.status)).toEqual(['processed', 'processed', 'processed']);
    const [inbox] = await vi.waitFor(async () => {
      const found = await messagesOf(subscriberId);
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    expect(inbox.subject).toBe('3 people');
    const [first, second] = inbox.content.match(/^(\w+), (\w+), and 1 other left 3 replies$/).slice(1);
    expect(names).toEqual(expect.arrayContaining([first, second]));
    expect(first).not.toBe(second);

    const [email] = await vi.waitFor(async () => {
      const found = await messagesOf(subscriberId, 'email');
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    expect(email.subject).toBe('3 new comments');
    expect(email.content).toMatch(/<p>(Ann|Bob|Cy) and 2 others commented<\/p><p>other comments<\/p>/);
  });

  it('delays delivery by the step amount', async () => {
    const wf = await createWorkflow([
      { name: 'Wait', stepId: 'wait', type: 'delay', controlValues: { type: 'regular', amount: 2, unit: 'seconds' } },
      inApp('later'),
    ]);
    const subscriberId = `sub-${rand()}`;
    const started = Date.now();
    const txid = await trigger(wf, subscriberId);
    const [item] = await settled(txid);
    expect(item.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed']);
    expect(details(item.jobs[0])).toContain('Step delayed');
    const [message] = await messagesOf(subscriberId);
    expect(Date.parse(message.createdAt) - started).toBeGreaterThanOrEqual(1_900);
  });

  it('skips the rest of the workflow over the throttle threshold', async () => {
    const wf = await createWorkflow([
      {
        name: 'Throttle',
        stepId: 'throttle',
        type: 'throttle',
        controlValues: { type: 'fixed', amount: 5, unit: 'minutes', threshold: 2 },
      },
      inApp('throttled'),
    ]);
    const subscriberId = `sub-${rand()}`;
    const txids: string[] = [];
    for (let i = 0; i < 3; i++) {
      txids.push(await trigger(wf, subscriberId));
      await settled(txids[i]!);
    }
    expect(await messagesOf(subscriberId)).toHaveLength(2);
    const [third] = await activity(txids[2]!);
    expect(third.jobs.map((j: any) => j.status)).toEqual(['skipped', 'skipped']);
    expect(details(third.jobs[0])).toContain('Throttle limit exceeded for the given window');
  });

  it('cancels a delayed job on request', async () => {
    const wf = await createWorkflow([
      { name: 'Wait', stepId: 'wait', type: 'delay', controlValues: { type: 'regular', amount: 1, unit: 'hours' } },
      inApp('never'),
    ]);
    const subscriberId = `sub-${rand()}`;
    const txid = await trigger(wf, subscriberId);
    await vi.waitFor(async () => expect((await activity(txid))[0]?.jobs[0].status).toBe('delayed'), WAIT);
    const res = await client.delete(`/v1/events/trigger/${txid}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: true });
    const [item] = await activity(txid);
    expect(item.jobs.map((j: any) => j.status)).toEqual(['canceled', 'canceled']);
    expect((await client.delete(`/v1/events/trigger/${txid}`)).body).toEqual({ data: false });
    expect((await client.delete('/v1/events/trigger/unknown-txn')).body).toEqual({ data: false });
  });
});

describe('gating', () => {
  it("honours the subscriber's preference for the workflow", async () => {
    const wf = await createWorkflow([inApp('muted?')]);
    const subscriberId = `sub-${rand()}`;
    await client.post('/v2/subscribers', { subscriberId });
    const patched = await client.patch(`/v2/subscribers/${subscriberId}/preferences`, { workflowId: wf, channels: { in_app: false } });
    expect(patched.status).toBe(200);
    const txid = await trigger(wf, subscriberId);
    const [item] = await settled(txid);
    expect(item.jobs[0].status).toBe('canceled');
    expect(details(item.jobs[0])).toContain('Step filtered by subscriber workflow preferences');
    expect(await messagesOf(subscriberId)).toHaveLength(0);
  });

  it('runs a step only when its condition on the payload holds', async () => {
    const wf = await createWorkflow([inApp('shown', { skip: { '==': [{ var: 'payload.show' }, true] } })]);
    const subscriberId = `sub-${rand()}`;
    const shown = await trigger(wf, subscriberId, { show: true });
    const hidden = await trigger(wf, subscriberId, { show: false });
    await settled(shown);
    const [skipped] = await settled(hidden);
    expect(skipped.jobs[0].status).toBe('canceled');
    expect(details(skipped.jobs[0])).toContain('Step was skipped based on steps conditions');
    expect(await messagesOf(subscriberId)).toHaveLength(1);
  });
});

describe('failures', () => {
  /** A workflow whose first step (email) fails: this environment gets no email integration. */
  async function failingWorkflow(target: TestEnv, shouldStopOnFail: boolean): Promise<string> {
    const mail = { ...step('email', { subject: 'S', body: 'B' }, 'mail'), shouldStopOnFail };
    const built = workflow([mail, step('in_app', { body: 'after the failure' }, 'inbox')], {
      _organizationId: target.scope.organizationId,
      _environmentId: target.scope.environmentId,
      defaultPreferences: DEFAULT_WORKFLOW_PREFERENCES,
    });
    const saved = await saveWorkflow({ ...built, workflowId: `wf-${rand()}` });
    return saved.workflowId;
  }

  it('goes on after a failed channel step, or stops when the step says so', async () => {
    const target = org.prod;
    const integrations = await target.client.get('/v1/integrations');
    for (const i of integrations.body.filter((i: any) => i._environmentId === target.id && i.channel === 'email')) {
      expect((await target.client.put(`/v1/integrations/${i._id}`, { active: false })).status).toBe(200);
    }
    const run = async (stop: boolean) => {
      const wf = await failingWorkflow(target, stop);
      const res = await target.client.post('/v1/events/trigger', {
        name: wf,
        to: { subscriberId: `sub-${rand()}`, email: 'x@example.com' },
      });
      return vi.waitFor(async () => {
        const [item] = (await target.client.get(`/v1/notifications?transactionId=${res.body.data.transactionId}`)).body.data;
        expect(item?.jobs.every((j: any) => j.status !== 'queued' && j.status !== 'pending' && j.status !== 'running')).toBe(true);
        return item;
      }, WAIT);
    };
    const carriesOn = await run(false);
    expect(carriesOn.jobs.map((j: any) => j.status)).toEqual(['failed', 'completed']);
    expect(carriesOn.jobs[0].executionDetails.map((d: any) => [d.detail, d.status])).toContainEqual([
      'Subscriber does not have an active integration',
      'Failed',
    ]);
    const stops = await run(true);
    expect(stops.jobs.map((j: any) => j.status)).toEqual(['failed', 'canceled']);
    expect(details(stops.jobs[1])).toContain('Step was canceled because a previous step failed');
  });
});

describe('at-least-once delivery', () => {
  const context = { getRemainingTimeInMillis: () => 30_000, functionName: 'test', awsRequestId: 'r' } as unknown as Context;
  const sqsEvent = (bodies: unknown[]): SQSEvent => ({
    Records: bodies.map((body, i) => ({
      messageId: `m-${i}-${rand()}`,
      receiptHandle: 'r',
      body: JSON.stringify(body),
      attributes: { ApproximateReceiveCount: '1' } as SQSEvent['Records'][number]['attributes'],
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test',
      awsRegion: 'us-east-1',
    })),
  });

  it('creates nothing twice when the same messages arrive again, in one batch and in another', async () => {
    const wf = await createWorkflow([inApp('once')]);
    const subscriberId = `sub-${rand()}`;
    const txid = await trigger(wf, subscriberId);
    await vi.waitFor(async () => expect(await messagesOf(subscriberId)).toHaveLength(1), WAIT);

    const event = eventMessage(env.scope, txid);
    const job = jobMessage(env.scope, txid, subscriberId, 0);
    for (let round = 0; round < 2; round++) {
      expect(await eventsConsumer(sqsEvent([event, event]), context)).toEqual({ batchItemFailures: [] });
      expect(await jobsConsumer(sqsEvent([job, job]), context)).toEqual({ batchItemFailures: [] });
    }
    const [item] = await settled(txid);
    expect(item.jobs[0].status).toBe('completed');
    expect(details(item.jobs[0]).filter((d) => d === 'Message sent')).toHaveLength(1);
    expect(await messagesOf(subscriberId)).toHaveLength(1);
    expect(await activity(txid)).toHaveLength(1);
  });
});

describe("the events consumer's time budget", () => {
  it('stores a notification whose in-app first step it has no time left for, and the jobs consumer delivers it', async () => {
    const wf = await createWorkflow([inApp('late')]);
    const { body: stored } = await client.get(`/v2/workflows/${wf}`);
    const subscriberId = `sub-${rand()}`;
    const transactionId = `tx-${rand()}`;
    // A trigger as the API stores it, with no queue message: this test hands it to the consumer.
    const { organizationId, environmentId } = env.scope;
    const claimed = await claimTransaction({
      _organizationId: organizationId,
      _environmentId: environmentId,
      transactionId,
      workflowId: wf,
      workflowDbId: stored._id,
      payload: {},
      overrides: {},
      to: [{ subscriberId }],
      contextKeys: [],
      userId: 'test',
      createdAt: new Date().toISOString(),
    });
    expect(claimed).toBe(true);
    // First receive, already past its deadline: the in-app step is not run here but queued, and the
    // notification it was to store with the decision is stored as built.
    await consumeEvent(JSON.stringify(eventMessage(env.scope, transactionId)), Date.now() - 1, { first: true, last: false });
    expect(await activity(transactionId)).toHaveLength(1);
    const [item] = await settled(transactionId);
    expect(item.jobs.map((j: any) => j.status)).toEqual(['completed']);
    expect(await messagesOf(subscriberId)).toHaveLength(1);
  });
});
