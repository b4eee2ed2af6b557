import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { faultCounts, faults, resetFaults } from '#infra/local/faults.ts';
import { SEGMENT_SIZE } from '#lib/pipeline/recipients.ts';
import type { Subscriber } from '#lib/subscribers/model.ts';
import { drained, readRun, type TableContents } from '../support/fault-run.ts';
import { startFaultStack, type FaultStack } from '../support/fault-stack.ts';
import { seedSubscribers, seedTopicSubscriptions } from '../support/seed-subscribers.ts';
import { rand } from '../support/pipeline.ts';

// Large audiences through the real queues: a trigger to a topic is walked a page at a time and
// handed out as segments that many consumer invocations deliver at once (lib/pipeline/fan-out.ts).
// Whatever the queues and consumers do — messages twice, invocations dying between writes —
// every member gets exactly one notification and one inbox message; a subscriber in two topics
// of one trigger gets one; the actor and `exclude` get none; a cancel stops what has not run.
// Topics are seeded straight into the table (test/support/seed-subscribers.ts).

// Longer than a batch of ten segments takes here (a redelivery while it still runs is not a fault
// this test means to make), short enough that a crashed batch comes back within the test.
const VISIBILITY_S = 30;
const LEASE_MS = 2_000;
// A bound on a hang: the 3,000 members' drain took about 250 s beside the other load files, and
// passed 300 s on a slower day (depth still falling by hundreds a second).
const DRAIN_MS = 600_000;

let f: FaultStack;
beforeAll(async () => {
  f = await startFaultStack({ visibilitySeconds: VISIBILITY_S, leaseMs: LEASE_MS });
}, 60_000);
afterAll(() => f?.stop());
afterEach(() => resetFaults());

/** An in-app workflow (the events consumer delivers it itself, segment by segment). */
async function inAppWorkflow(): Promise<string> {
  const workflowId = `wf-${rand()}`;
  const steps = [{ name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hello {{subscriber.firstName}}' } }];
  const res = await f.client.post('/v2/workflows', { name: workflowId, workflowId, active: true, steps });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return workflowId;
}

/** A topic of `subscriberIds` (subscribers made as needed, kept in `known`), seeded straight into the table. */
async function topicOf(subscriberIds: string[], known: Map<string, Subscriber> = new Map()): Promise<string> {
  const key = `topic-${rand()}`;
  const res = await f.client.post('/v2/topics', { key, name: key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  for (const made of await seedSubscribers(
    f.scope,
    subscriberIds.filter((id) => !known.has(id)),
  ))
    known.set(made.subscriberId, made);
  await seedTopicSubscriptions(
    f.scope,
    { _id: res.body._id, key },
    subscriberIds.map((id) => known.get(id)!),
  );
  return key;
}

async function triggerTo(workflowId: string, to: unknown[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await f.client.post('/v1/events/trigger', { name: workflowId, to, payload: {}, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.data.status).toBe('processed');
  return res.body.data.transactionId as string;
}

/** How many notifications and in-app messages each subscriber has in the run. */
function perSubscriber({ notifications, messages }: TableContents): { notifications: Map<string, number>; messages: Map<string, number> } {
  const count = (ids: string[]) => ids.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string, number>());
  return {
    notifications: count(notifications.map((n) => n.subscriberId)),
    messages: count(messages.filter((m) => m.channel === 'in_app').map((m) => m.subscriberId)),
  };
}

const ids = (prefix: string, n: number, from = 0) => Array.from({ length: n }, (_, i) => `${prefix}-${from + i}`);

describe('a trigger to a large topic', () => {
  it(
    'delivers exactly one message to each of 3,000 members while messages arrive twice and consumers die between writes',
    async () => {
      const prefix = rand();
      const members = ids(prefix, 3_000);
      const topicKey = await topicOf(members);
      const workflowId = await inAppWorkflow();
      faults.duplicates = true;
      // Per write: a batch of ten segments makes about 2,000 writes, so about half the batches die
      // somewhere (the walk's too). Spared from the fourth receive on: what is tested is recovery,
      // not the dead-letter queue.
      faults.crash = { probability: 0.0003, when: 'either', throughReceive: 3 };
      const transactionId = await triggerTo(workflowId, [{ type: 'Topic', topicKey }]);
      await drained(f.queueUrls, DRAIN_MS);

      const run = await readRun(workflowId);
      const { notifications, messages } = perSubscriber(run);
      expect(notifications.size).toBe(members.length);
      expect(messages.size).toBe(members.length);
      expect([...notifications.values()].every((n) => n === 1)).toBe(true);
      expect([...messages.values()].every((n) => n === 1)).toBe(true);
      expect(run.notifications.every((n) => n.jobs.every((j) => j.status === 'completed'))).toBe(true);
      // The faults did happen: segments were handed out twice, and invocations died.
      expect(faultCounts.concurrentDuplicates + faultCounts.laterDuplicates).toBeGreaterThan(0);
      expect(faultCounts.crashesBeforeWrite + faultCounts.crashesAfterWrite).toBeGreaterThan(0);
      expect(await f.deadLetters([{ transactionId }])).toEqual([]);
    },
    DRAIN_MS + 60_000,
  );

  it(
    'gives a subscriber in two topics of one trigger one message, and the actor and excluded members none',
    async () => {
      const prefix = rand();
      const known = new Map<string, Subscriber>();
      // Two topics of several segments each, sharing 150 members.
      const first = await topicOf(ids(prefix, 2 * SEGMENT_SIZE + 50), known);
      const second = await topicOf(ids(prefix, 2 * SEGMENT_SIZE + 50, 2 * SEGMENT_SIZE + 50 - 150), known);
      const everyone = [...known.keys()];
      const [actor, excluded] = [`${prefix}-3`, `${prefix}-${2 * SEGMENT_SIZE + 10}`];
      const workflowId = await inAppWorkflow();
      faults.duplicates = true;
      await triggerTo(
        workflowId,
        [
          { type: 'Topic', topicKey: first },
          { type: 'Topic', topicKey: second, exclude: [excluded] },
        ],
        { actor },
      );
      await drained(f.queueUrls, DRAIN_MS);

      const { notifications, messages } = perSubscriber(await readRun(workflowId));
      // The excluded member is in both topics: `exclude` of one topic leaves them out of the trigger.
      const expected = everyone.filter((id) => id !== actor && id !== excluded).sort();
      expect([...messages.keys()].sort()).toEqual(expected);
      expect([...notifications.keys()].sort()).toEqual(expected);
      expect([...messages.values()].every((n) => n === 1)).toBe(true);
    },
    DRAIN_MS + 60_000,
  );

  it(
    'stops the segments not yet run when the trigger is canceled during the fan-out',
    async () => {
      const prefix = rand();
      const members = ids(prefix, 5_000);
      const topicKey = await topicOf(members);
      const workflowId = await inAppWorkflow();
      const transactionId = await triggerTo(workflowId, [{ type: 'Topic', topicKey }]);
      // Canceled once the first members have their message.
      await vi.waitFor(
        async () => {
          const res = await f.client.get(`/v1/notifications?transactionId=${transactionId}&limit=1`);
          expect(res.body.data.length).toBeGreaterThan(0);
        },
        { timeout: 60_000, interval: 50 },
      );
      const canceled = await f.client.delete(`/v1/events/trigger/${transactionId}`);
      expect(canceled.status).toBe(200);
      await drained(f.queueUrls, DRAIN_MS);

      const run = await readRun(workflowId);
      const { notifications, messages } = perSubscriber(run);
      // Some were reached before the cancel; the rest of the audience never was.
      expect(notifications.size).toBeGreaterThan(0);
      expect(notifications.size).toBeLessThan(members.length);
      expect([...messages.values()].every((n) => n === 1)).toBe(true);
      // Nothing is left waiting: every job made ran or was canceled.
      expect(run.notifications.flatMap((n) => n.jobs.map((j) => j.status)).every((s) => s === 'completed' || s === 'canceled')).toBe(true);
      // What is canceled stays so: a second look after the queues are empty finds the same.
      expect((await readRun(workflowId)).notifications).toHaveLength(run.notifications.length);
    },
    DRAIN_MS + 60_000,
  );
});
