import { logger } from '../logger.ts';
import { sendMessages, type OutgoingMessage } from '../queue/send.ts';
import type { EnvScope } from '../scope.ts';
import { mapConcurrently } from '../concurrency.ts';
import { parseEventMessage } from './parse-queue-message.ts';
import { deliverSegment, deliverSingles, openFanOut, walkAudience, type FanOutResult } from './fan-out.ts';
import { settleFailedFanOut } from './settle-fan-out.ts';
import { FINAL_JOB_STATUSES } from './model.ts';
import { createNotification, isUnstored } from './notification-store.ts';
import { HANDED_ON, scopeOfMessage } from './queue-messages.ts';
import { runJob } from './run-job.ts';
import { sendFollowUps, sendJobs } from './send-jobs.ts';
import { stepDecider } from './steps/decide.ts';
import { decideInApp } from './steps/in-app.ts';

/** The events consumer runs in-app first steps only: the providers' code is not loaded here. */
const decideInAppStep = stepDecider({ in_app: decideInApp });
const RUN_HERE_CONCURRENCY = 16;

/** Which receive of its SQS message this is. */
export interface Receive {
  /** The message's first receive: in-app first steps run here only then (see `runFirstJobs`). */
  first: boolean;
  /** The last receive before the dead-letter queue. */
  last: boolean;
}

/**
 * One message of the events queue: a trigger's walk (its single recipients first, then the
 * audience handed out as segments, until `deadline`) or one segment of it. On the last receive a
 * message that still fails settles its recipients (`settleFailedFanOut`) instead of vanishing.
 */
export async function consumeEvent(body: string, deadline: number, receive: Receive = { first: true, last: false }): Promise<void> {
  const lastAttempt = receive.last;
  const message = parseEventMessage(body);
  if (!message) return;
  const scope = scopeOfMessage(message);
  /** Delivered recipients' first jobs run (or queued), their follow-ups sent, what is left handed on. */
  const finish = async (delivered: FanOutResult) => {
    const ranHere = await runFirstJobs(scope, delivered, receive.first ? deadline : 0);
    await sendFollowUps(scope, [...delivered.jobs.map((job) => ({ body: job })), ...ranHere], lastAttempt);
    if (delivered.continuation) await sendMessages(HANDED_ON, [{ body: delivered.continuation }]);
  };
  // A segment's deliveries are finished after the try, as a walk's are not: a failure to run or
  // send them is retried as such, not settled as a failed fan-out.
  let segmentDelivered: FanOutResult | undefined;
  try {
    const ctx = await openFanOut(scope, message.transactionId, receive.first);
    if (!ctx) return;
    const { segment, cursor } = message;
    if (segment) segmentDelivered = await deliverSegment(ctx, segment, deadline);
    else {
      // The single recipients' deliveries go out before the walk: they wait for no audience.
      if (!cursor) await finish(await deliverSingles(ctx));
      const continuation = await walkAudience(
        ctx,
        cursor,
        deadline,
        cursor ? undefined : async (first) => finish(await deliverSegment(ctx, first, deadline)),
      );
      if (continuation) await sendMessages(HANDED_ON, [{ body: continuation }]);
    }
  } catch (error) {
    if (!lastAttempt) throw error;
    logger.error('Fan-out failed for good', { transactionId: message.transactionId, error: error as Error });
    const settled = await settleFailedFanOut(scope, message, error);
    await sendJobs(
      scope,
      settled.jobs.map((job) => ({ body: job })),
      true,
    );
    // Recipients nothing could be stored for: the message goes to the dead-letter queue.
    if (!settled.complete) throw error;
    return;
  }
  if (segmentDelivered) await finish(segmentDelivered);
}

/**
 * Runs the fan-out's in-app first jobs; answers the messages to send: their next jobs, and the
 * job itself for one that failed here, which the jobs consumer then retries with its own receives
 * (the run is repeatable, so one that got part-way cannot deliver twice). Past the deadline the
 * rest are queued too: the time kept back is for sending, not for running. Running here is for
 * the message's first receive: a receive after it (the deadline is then 0) queues every job still
 * to run, so a batch whose invocation died does not carry ten deliveries' writes into each of its
 * retries, and those jobs get receives of their own. A notification not stored yet (UNSTORED:
 * its run was to store it with the decision) is stored as built before its job is queued.
 */
async function runFirstJobs(scope: EnvScope, result: FanOutResult, deadline: number): Promise<OutgoingMessage[]> {
  const messages: OutgoingMessage[] = [];
  const queue = async ({ message, loaded }: FanOutResult['runHere'][number]) => {
    if (isUnstored(loaded)) await createNotification(loaded.notification);
    messages.push({ body: message });
  };
  await mapConcurrently(result.runHere, RUN_HERE_CONCURRENCY, async (first) => {
    const { message, loaded } = first;
    const done = FINAL_JOB_STATUSES.includes(loaded.notification.jobs[message.jobIndex]!.status);
    // A job already done only has its next job's message to give, which takes no time.
    if (!done && Date.now() > deadline) return queue(first);
    try {
      messages.push(...(await runJob(scope, message, { lastAttempt: false, decide: decideInAppStep, loaded })));
    } catch (error) {
      logger.warn('First job queued after failing in the events consumer', {
        transactionId: message.transactionId,
        subscriberId: message.subscriberId,
        error: error as Error,
      });
      await queue(first);
    }
  });
  return messages;
}
