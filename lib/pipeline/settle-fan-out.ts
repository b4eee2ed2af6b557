import { logger } from '../logger.ts';
import type { EnvScope } from '../scope.ts';
import { mapConcurrently } from '../concurrency.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import { notificationOf, openFanOut, segmentAudience, tenantOf } from './fan-out.ts';
import { deliveredBeforeStored, firstJobOwed } from './first-job.ts';
import type { NotificationTopic, Recipient } from './model.ts';
import { createNotification, getNotification } from './notification-store.ts';
import { jobMessage, type EventMessage, type JobMessage } from './queue-messages.ts';
import { singleRecipients } from './recipients.ts';
import { failJob } from './store-decision.ts';

const CONCURRENCY = 16;

interface Owed {
  subscriberId: string;
  to: Recipient;
  topics: NotificationTopic[];
  /** A single recipient the trigger upserts: missing, it is one the fan-out failed to make. */
  mustExist: boolean;
}

/**
 * The last receive of a fan-out message that keeps failing: each recipient it names is settled,
 * so that none is left without a trace — a trigger's single recipients (its first walk message) or
 * a segment's members. A notification already made gets its first job's message (sent again,
 * harmlessly, if it was sent before); a recipient that has none yet but exists as a subscriber
 * gets one, failed at once with the error and the rest of its jobs canceled (the trigger's
 * changes to the subscriber may be what failed, so nothing is sent on the old ones). `complete`
 * is false when something could not be settled: a single recipient that is not a subscriber, the
 * audience a walk had still to hand out (its pages are what failed, or may be), an error while
 * settling; the message then goes to the dead-letter queue.
 */
export async function settleFailedFanOut(
  scope: EnvScope,
  message: EventMessage,
  error: unknown,
): Promise<{ jobs: JobMessage[]; complete: boolean }> {
  const ctx = await openFanOut(scope, message.transactionId, false);
  if (!ctx) return { jobs: [], complete: true };
  const { event, workflow, providers } = ctx;
  let owed: Owed[];
  let complete: boolean;
  if (message.segment) {
    const audience = await segmentAudience(ctx, message.segment.source);
    if (!audience) return { jobs: [], complete: true };
    owed = message.segment.subscriberIds.map((subscriberId) => ({
      subscriberId,
      to: audience.to(subscriberId),
      topics: audience.topics,
      mustExist: false,
    }));
    complete = true;
  } else {
    // A walk's continuation: the single recipients were settled by its first message.
    const singles = message.cursor ? [] : singleRecipients(event.to);
    owed = singles.map((definition) => ({ subscriberId: definition.subscriberId, to: definition, topics: [], mustExist: true }));
    complete = ctx.topics.length === 0 && !event.broadcast;
  }

  const jobs: JobMessage[] = [];
  await mapConcurrently(owed, CONCURRENCY, async ({ subscriberId, to, topics, mustExist }) => {
    try {
      const first = jobMessage(scope, event.transactionId, subscriberId, 0, event.notificationShards);
      const stored = await getNotification(scope, first);
      if (stored) {
        const job = stored.notification.jobs[0];
        if (job && firstJobOwed(job)) jobs.push(first);
        return;
      }
      const subscriber = await getSubscriber(scope, subscriberId);
      if (!subscriber) {
        // A member deleted since the walk is owed nothing (as the fan-out itself would decide).
        if (mustExist) complete = false;
        return;
      }
      const tenant = await tenantOf(ctx);
      const { created, stored: made } = await createNotification(
        notificationOf({ event, workflow, providers, subscriber, to, topics, ...(tenant && { tenant }) }),
      );
      const job = made.notification.jobs[0];
      if (job?.status !== 'queued') return;
      // Made by a run still going on: it goes on; made here: it fails with the error, unless an
      // earlier receive delivered its in-app step before storing it: the jobs consumer records that.
      if (created && !(await deliveredBeforeStored(scope, subscriber.subscriberId, job))) {
        await failJob(scope, first, error, { endChain: true });
      } else jobs.push(first);
    } catch (settling) {
      logger.error('Fan-out recipient could not be settled', {
        transactionId: event.transactionId,
        subscriberId,
        error: settling as Error,
      });
      complete = false;
    }
  });
  return { jobs, complete };
}
