import { logger } from '../logger.ts';
import { parseEventMessage } from './parse-queue-message.ts';
import { deliverSegment, deliverSingles, openFanOut, walkAudience, type FanOutResult } from './fan-out.ts';
import { runFirstJobs } from './first-job.ts';
import { settleFailedFanOut } from './settle-fan-out.ts';
import { handOn } from './hand-on.ts';
import { scopeOfMessage } from './queue-messages.ts';
import { sendFollowUps, sendJobs } from './send-jobs.ts';

/** Which receive of its SQS message this is. */
export interface Receive {
  /** The message's first receive: in-app first steps run here only then (first-job.ts). */
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
    const ranHere = await runFirstJobs(scope, delivered.runHere, deadline, receive.first);
    const queued = delivered.jobs.map((job) => ({ body: job }));
    await sendFollowUps(scope, { jobs: [...queued, ...ranHere.jobs], announcements: ranHere.announcements }, lastAttempt);
    if (delivered.continuation) await handOn(scope, message, delivered.continuation);
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
      if (continuation) await handOn(scope, message, continuation);
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
