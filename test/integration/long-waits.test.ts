import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENV } from '#lib/config.ts';
import { dueWakes, TableWakeScheduler, type StoredWake } from '#lib/queue/table-scheduler.ts';
import { wakeOf } from '#lib/queue/wake-scheduler.ts';
import { createTestOrg, type ApiClient } from '../support/api.ts';
import { queueDepth } from '../support/fault-run.ts';
import { startOwnStack, type OwnStack } from '../support/own-stack.ts';
import * as pipeline from '../support/pipeline.ts';
import { rand, WAIT } from '../support/pipeline.ts';

// Long waits through the real handlers: a delay longer than the stack's long-wait threshold is
// scheduled once as a wake (locally an item of the table, which the local runtime's wake poller
// sends to the jobs queue when due; EventBridge Scheduler in AWS), not sent on every 15 minutes.
// This file runs a local stack of its own (the global setup's emulators, its own table, queues,
// pollers and API) whose threshold is 2 seconds instead of 900, so a "long" wait takes seconds.
// Also the maximum defer duration: flagged when a workflow is read, failed when the step runs.

const THRESHOLD_SECONDS = 2;
let own: OwnStack;
let client: ApiClient;

beforeAll(async () => {
  own = await startOwnStack('waits', { longWaitSeconds: THRESHOLD_SECONDS });
  client = (await createTestOrg(own.stack.apiUrl!)).dev.client;
}, 120_000);
afterAll(async () => {
  await own?.stop();
  delete process.env[ENV.longWaitSeconds];
});

const createWorkflow = (steps: Record<string, unknown>[]) => pipeline.createWorkflow(client, steps);
const trigger = (name: string, to: unknown, payload: Record<string, unknown> = {}) => pipeline.trigger(client, name, to, payload);
const activity = (transactionId: string) => pipeline.activity(client, transactionId);
const messagesOf = (subscriberId: string) => pipeline.messagesOf(client, subscriberId);
const inApp = { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Hello' } };
const delayOf = (controlValues: Record<string, unknown>) => ({
  name: 'Wait',
  stepId: 'wait',
  type: 'delay',
  controlValues: { type: 'regular', ...controlValues },
});

/** The wakes scheduled for a transaction's jobs (any due time). */
async function wakesOf(transactionId: string): Promise<StoredWake[]> {
  const all = await dueWakes(new Date(Date.now() + 10 * 365 * 86_400_000), 1000);
  return all.filter((w) => (w.body as { transactionId?: string }).transactionId === transactionId);
}

/** The transaction's one notification, once its wait is scheduled: its wake. */
async function scheduledWake(transactionId: string): Promise<StoredWake> {
  return vi.waitFor(async () => {
    const [item] = await activity(transactionId);
    expect(item?.jobs[0].status).toBe('delayed');
    const wakes = await wakesOf(transactionId);
    expect(wakes).toHaveLength(1);
    return wakes[0]!;
  }, WAIT);
}

/** The jobs queue holds nothing, waiting or in flight: every message sent to it has been handled. */
async function jobsQueueDrained(): Promise<void> {
  await vi.waitFor(async () => expect(await queueDepth([own.stack.queueUrls.jobs!])).toBe(0), WAIT);
}

describe('a wait longer than SQS holds', () => {
  let transactionId: string;
  let subscriberId: string;
  let wake: StoredWake;

  it('is scheduled once, wakes its job once when due, and the chain goes on', async () => {
    const wf = await createWorkflow([delayOf({ amount: 5, unit: 'seconds' }), inApp]);
    subscriberId = `sub-${rand()}`;
    transactionId = await trigger(wf, subscriberId);
    wake = await scheduledWake(transactionId);
    const [item] = await activity(transactionId);
    // Due when the delay ends (to the second), carrying the job's own queue message.
    const until = item.jobs[0].executionDetails.find((d: any) => d.detail === 'Step delayed');
    const untilDate = new Date(JSON.parse(until.raw).untilDate as string);
    expect(wake.sk.startsWith(new Date(Math.ceil(untilDate.getTime() / 1000) * 1000).toISOString())).toBe(true);
    expect(wake).toMatchObject({ queue: 'jobs', body: { kind: 'job', transactionId, subscriberId, jobIndex: 0 } });

    const [done] = await pipeline.settled(client, transactionId);
    expect(done.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed']);
    expect(await messagesOf(subscriberId)).toHaveLength(1);
    // Fired, then deleted.
    expect(await wakesOf(transactionId)).toEqual([]);
  });

  it('does nothing twice when its wake fires again (scheduling it again finds it scheduled)', async () => {
    const before = (await activity(transactionId))[0];
    const scheduler = new TableWakeScheduler();
    const again = wakeOf('jobs', { body: wake.body, dueAt: new Date() });
    await scheduler.schedule(again);
    await scheduler.schedule(again);
    expect(await wakesOf(transactionId)).toHaveLength(1);
    await vi.waitFor(async () => expect(await wakesOf(transactionId)).toEqual([]), WAIT);
    await jobsQueueDrained();
    const after = (await activity(transactionId))[0];
    expect(after.jobs.map((j: any) => [j.status, j.executionDetails.length])).toEqual(
      before.jobs.map((j: any) => [j.status, j.executionDetails.length]),
    );
    expect(await messagesOf(subscriberId)).toHaveLength(1);
  });

  it('keeps short waits on SQS: a wait under the threshold schedules nothing', async () => {
    const wf = await createWorkflow([delayOf({ amount: 1, unit: 'seconds' }), inApp]);
    const shortTx = await trigger(wf, `sub-${rand()}`);
    await vi.waitFor(async () => expect((await activity(shortTx))[0]?.jobs[0].status).toMatch(/delayed|completed/), WAIT);
    expect(await wakesOf(shortTx)).toEqual([]);
    const [done] = await pipeline.settled(client, shortTx);
    expect(done.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed']);
  });

  it('lets the wake of a canceled trigger fire into its canceled job, which does nothing', async () => {
    const wf = await createWorkflow([delayOf({ amount: 4, unit: 'seconds' }), inApp]);
    const canceledSubscriber = `sub-${rand()}`;
    const canceledTx = await trigger(wf, canceledSubscriber);
    await scheduledWake(canceledTx);
    expect((await client.delete(`/v1/events/trigger/${canceledTx}`)).body).toEqual({ data: true });
    // The wake stays scheduled, fires when due and is deleted; its job message finds the job canceled.
    expect(await wakesOf(canceledTx)).toHaveLength(1);
    await vi.waitFor(async () => expect(await wakesOf(canceledTx)).toEqual([]), WAIT);
    await jobsQueueDrained();
    const [item] = await activity(canceledTx);
    expect(item.jobs.map((j: any) => j.status)).toEqual(['canceled', 'canceled']);
    expect(item.jobs[0].executionDetails.map((d: any) => d.detail)).toEqual([
      'Step queued',
      'Step delayed',
      'Step was canceled by request (DELETE /v1/events/trigger)',
    ]);
    expect(await messagesOf(canceledSubscriber)).toEqual([]);
  });
});

describe('the maximum defer duration (180 days)', () => {
  const LIMIT_MESSAGE =
    'The maximum delay allowed is 180 days. Please contact our support team to discuss extending this limit for your use case.';

  it(
    'flags a delay or digest step that waits longer, as the reference ' +
      'does (TIER_LIMIT_EXCEEDED), and not one that waits exactly as long',
    async () => {
      const res = await client.post('/v2/workflows', {
        name: 'Long',
        workflowId: `wf-${rand()}`,
        active: true,
        steps: [
          delayOf({ amount: 181, unit: 'days' }),
          { name: 'Collect', stepId: 'collect', type: 'digest', controlValues: { type: 'timed', cron: '0 0 1 1 *' } },
          { name: 'Wait more', stepId: 'wait-more', type: 'delay', controlValues: { type: 'regular', amount: 6, unit: 'months' } },
          inApp,
        ],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      // What the workflow's readers see (the v2 API answers unwrapped).
      const workflow = (await client.get(`/v2/workflows/${res.body.workflowId}`)).body;
      expect(workflow.status).toBe('ERROR');
      const [delay, digest, sixMonths] = workflow.steps;
      const issue = [{ issueType: 'TIER_LIMIT_EXCEEDED', message: LIMIT_MESSAGE }];
      expect(delay.issues.controls).toEqual({ amount: issue, unit: issue });
      expect(digest.issues.controls).toEqual({ cron: issue });
      // 6 months are 180 days: the limit itself is allowed.
      expect(sixMonths.issues?.controls).toBeUndefined();
    },
  );

  it(
    'fails a delay, a dynamic delay and a digest that would wait longer ' +
      'when they run, with the reference detail, and schedules nothing',
    async () => {
      const delayed = await createWorkflow([delayOf({ amount: 181, unit: 'days' }), inApp]);
      const dynamic = await createWorkflow([
        { name: 'Wait', stepId: 'wait', type: 'delay', controlValues: { type: 'dynamic', dynamicKey: 'payload.sendAt' } },
        inApp,
      ]);
      const digested = await createWorkflow([
        { name: 'Collect', stepId: 'collect', type: 'digest', controlValues: { amount: 7, unit: 'months' } },
        inApp,
      ]);
      const subscriberId = `sub-${rand()}`;
      const sendAt = new Date(Date.now() + 200 * 86_400_000).toISOString();
      const transactions = [
        await trigger(delayed, subscriberId),
        await trigger(dynamic, subscriberId, { sendAt }),
        await trigger(digested, subscriberId),
      ];
      for (const transactionId of transactions) {
        const [item] = await pipeline.settled(client, transactionId);
        expect(item.jobs.map((j: any) => j.status)).toEqual(['failed', 'canceled']);
        const failed = item.jobs[0].executionDetails.at(-1);
        expect(failed).toMatchObject({ detail: 'Defer duration limit exceeded', status: 'Failed' });
        expect(JSON.parse(failed.raw)).toEqual({ errors: [LIMIT_MESSAGE] });
        expect(await wakesOf(transactionId)).toEqual([]);
      }
      expect(await messagesOf(subscriberId)).toEqual([]);
    },
  );
});
