import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_QUEUE_DELAY_SECONDS } from '#lib/queue/delay.ts';
import { wakeScheduler } from '#lib/queue/wake-scheduler.ts';
import { startBench, type Bench, type Difference } from './harness.ts';
import { writeResults } from './results-path.ts';
import { CONSUMER_CONCURRENCY, log, SIZES } from './settings.ts';
import { bulkBody, costOf, countMessages, createInAppWorkflow, expectStatus, type Cost } from './scenarios.ts';
import { benchOrganization, seedSubscribers, type BenchEnv } from './seed.ts';
import { n, table } from './table.ts';

// What a long delay costs (issue 22 item 5): a 30-day delay is scheduled once and woken once.
// Measured in two parts, since no run can wait 30 days: (a) 30-day delays triggered until each
// one's wake is scheduled, which is all that happens for 30 days; (b) the whole life of delays
// long enough to be scheduled (the bench stack's threshold is BENCH_LONG_WAIT_SECONDS, 3 s; the
// delays wait 10 s), from the trigger to the in-app message after the wait. What a scheduled wait
// costs does not depend on how long it is, so (b) is a 30-day delay's cost, and (a) its part
// before the wake. Before, a wait was sent on every 15 minutes: one jobs consumer run per hop,
// each a consistent read of the notification and one message sent, received and deleted.
// Nothing here reads the table while a part is counted: schedules are counted as the consumers
// ask for them, wakes as the local scheduler fires them.

export const BENCH_LONG_WAIT_SECONDS = 3;
/** Well past the threshold, so that a consumer slowed by the load still schedules every one. */
const SHORT_DELAY_SECONDS = 10;
const DAY_S = 86_400;

export interface PerDelay {
  jobsConsumerRuns: number;
  /** CreateSchedule calls in AWS (the local scheduler's conditional Put). */
  schedulesCreated: number;
  wakesFired: number;
  sqsMessagesSent: number;
  dynamo: Cost;
}

export interface LongWaitResult {
  delays: number;
  /** Each 30-day delay, from its trigger until its wake is scheduled. */
  thirtyDaysUntilScheduled: PerDelay;
  /** Each scheduled delay's whole life: trigger, scheduling, wake, the in-app step after it. */
  scheduledDelayWholeLife: PerDelay;
  /** The wait alone before this change: hops of 15 minutes over 30 days, one jobs consumer run each. */
  before: { hops: number; jobsConsumerRuns: number; consistentReads: number; sqsMessagesSent: number };
}

async function until(what: string, check: () => boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`long waits: ${what} did not happen`);
    await sleep(50);
  }
}

const perDelay = (diff: Difference, delays: number, schedules: number): PerDelay => ({
  jobsConsumerRuns: (diff.consumers.jobs?.records ?? 0) / delays,
  schedulesCreated: schedules / delays,
  wakesFired: diff.wakesFired / delays,
  sqsMessagesSent: diff.sqs.messagesSent / delays,
  dynamo: costOf(diff.dynamo, delays),
});

export async function longWaits(bench: Bench, env: BenchEnv, subscriberIds: readonly string[]): Promise<LongWaitResult> {
  const call = bench.api(env.apiKey);
  const delays = subscriberIds.length;
  const inApp = { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { body: 'Your trial ends soon' } };
  const month = await createInAppWorkflow(call, 'trial-reminder', [
    { name: 'Wait', stepId: 'wait', type: 'delay', controlValues: { type: 'regular', amount: 30, unit: 'days' } },
    inApp,
  ]);
  const short = await createInAppWorkflow(call, 'short-reminder', [
    { name: 'Wait', stepId: 'wait', type: 'delay', controlValues: { type: 'regular', amount: SHORT_DELAY_SECONDS, unit: 'seconds' } },
    inApp,
  ]);
  await bench.idle();

  // The consumers run in this process: their scheduler is this one, counted.
  const scheduler = await wakeScheduler();
  const schedule = scheduler.schedule.bind(scheduler);
  let scheduled = 0;
  scheduler.schedule = (wake) => {
    scheduled++;
    return schedule(wake);
  };
  try {
    // (a) 30-day delays, until scheduled.
    let before = bench.snapshot();
    let scheduledBefore = scheduled;
    await expectStatus(call('POST', '/v1/events/trigger/bulk', bulkBody(month.workflowId, subscriberIds, 'month')), 201, '30-day delays');
    await until('30-day wakes', () => scheduled - scheduledBefore >= delays);
    await bench.idle();
    const thirtyDaysUntilScheduled = perDelay(bench.since(before), delays, scheduled - scheduledBefore);

    // (b) scheduled delays, their whole life: until every wake has fired and the queues are idle.
    const messagesBefore = await countMessages(env);
    before = bench.snapshot();
    scheduledBefore = scheduled;
    await expectStatus(
      call('POST', '/v1/events/trigger/bulk', bulkBody(short.workflowId, subscriberIds, 'short')),
      201,
      'scheduled delays',
    );
    // Every wake scheduled has fired (a wake fires 10 s after it is made: all are made by then).
    await until(
      'the wakes',
      () => scheduled > scheduledBefore && bench.snapshot().wakesFired - before.wakesFired >= scheduled - scheduledBefore,
    );
    await bench.idle();
    const whole = bench.since(before);
    const delivered = (await countMessages(env)) - messagesBefore;
    if (delivered !== delays) throw new Error(`long waits: ${delivered} messages after ${delays} scheduled delays`);
    const scheduledDelayWholeLife = perDelay(whole, delays, scheduled - scheduledBefore);

    const hops = Math.ceil((30 * DAY_S) / MAX_QUEUE_DELAY_SECONDS);
    return {
      delays,
      thirtyDaysUntilScheduled,
      scheduledDelayWholeLife,
      before: { hops, jobsConsumerRuns: hops, consistentReads: hops, sqsMessagesSent: hops },
    };
  } finally {
    scheduler.schedule = schedule;
  }
}

/** The section: SIZES.longWaits subscribers of their own, each a 30-day delay and a scheduled one. */
export async function longWaitSection(bench: Bench, dev: BenchEnv): Promise<LongWaitResult> {
  log(`long waits: ${SIZES.longWaits} 30-day delays, and as many scheduled delays through their wake`);
  const waiting = await seedSubscribers(
    dev.scope,
    Array.from({ length: SIZES.longWaits }, (_, i) => `waiting-${i}`),
  );
  return longWaits(
    bench,
    dev,
    waiting.map((s) => s.subscriberId),
  );
}

/** BENCH_ONLY=waits: the cost of a 30-day delay alone (bench/results-waits.json). */
export async function waitsOnly(): Promise<void> {
  const startedAt = new Date();
  const bench = await startBench({ consumerConcurrency: CONSUMER_CONCURRENCY, longWaitSeconds: BENCH_LONG_WAIT_SECONDS });
  try {
    const { dev } = await benchOrganization();
    const waits = await longWaitSection(bench, dev);
    writeResults('results-waits.json', { startedAt: startedAt.toISOString(), longWaits: waits });
    printLongWaits(waits);
  } finally {
    await bench.stop();
  }
}

export function printLongWaits(w: LongWaitResult): void {
  const ops = (c: Cost) =>
    Object.entries(c.byOperation)
      .map(([k, v]) => `${k} ${n(v, 2)}`)
      .join(', ');
  const row = (what: string, p: PerDelay) => [
    what,
    p.jobsConsumerRuns,
    p.schedulesCreated,
    p.wakesFired,
    p.sqsMessagesSent,
    p.dynamo.requests,
    ops(p.dynamo),
  ];
  table(
    `A 30-day delay (${w.delays} delays, per delay)`,
    ['part', 'jobs consumer runs', 'schedules created', 'wakes', 'SQS messages sent', 'DynamoDB requests', 'by operation'],
    [
      row('30-day delay → in-app, until its wake is scheduled', w.thirtyDaysUntilScheduled),
      row('a scheduled delay → in-app, whole life (trigger → wake → in-app)', w.scheduledDelayWholeLife),
      [
        'before: the 30-day wait alone, re-queued every 15 min',
        w.before.jobsConsumerRuns,
        0,
        '',
        w.before.sqsMessagesSent,
        w.before.consistentReads,
        `GetItem ${n(w.before.consistentReads)}`,
      ],
    ],
  );
}
