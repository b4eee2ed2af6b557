import { logger } from '../logger.ts';
import { SEND_BATCH, sendMessages, type OutgoingMessage } from '../queue/send.ts';
import type { EnvScope } from '../scope.ts';
import type { JobMessage } from './queue-messages.ts';
import { failJob, type FollowUps } from './store-decision.ts';

// Sending job messages, for both consumers. On the last receive before the dead-letter queue, a
// job whose message cannot be sent would wait for ever (`queued` in the activity feed, never run):
// it is failed for good with the reason instead, and so is each job after it whose message cannot
// be sent either.

/**
 * What a run leaves to send: job messages, and the live announcements of the in-app messages it
 * stored (store-decision.ts). Both go out together, through the consumer's outbox. An
 * announcement SQS will not take (after sendBatch's retries) is logged and dropped rather than
 * failing the record: the message is stored, and a redelivery would not announce it again (its
 * job is done); the inbox shows it at its next fetch.
 */
export async function sendFollowUps(scope: EnvScope, { jobs, announcements }: FollowUps, lastAttempt: boolean): Promise<void> {
  const announced =
    announcements.length === 0
      ? undefined
      : sendMessages('live', announcements).catch((error: unknown) =>
          logger.warn('Live announcement not sent', { count: announcements.length, error: error as Error }),
        );
  await Promise.all([sendJobs(scope, jobs, lastAttempt), announced]);
}

export async function sendJobs(scope: EnvScope, messages: readonly OutgoingMessage[], lastAttempt: boolean): Promise<void> {
  if (!lastAttempt) return sendMessages('jobs', messages);
  let pending = [...messages];
  while (pending.length > 0) {
    const unsent: { message: OutgoingMessage; error: unknown }[] = [];
    // A batch's worth at a time: what fails together.
    for (let i = 0; i < pending.length; i += SEND_BATCH) {
      const batch = pending.slice(i, i + SEND_BATCH);
      await sendMessages('jobs', batch).catch((error: unknown) => unsent.push(...batch.map((message) => ({ message, error }))));
    }
    pending = [];
    for (const { message, error } of unsent) {
      const job = message.body as JobMessage;
      logger.error('Job message could not be sent on the last attempt', {
        transactionId: job.transactionId,
        jobIndex: job.jobIndex,
        error: error as Error,
      });
      pending.push(...(await failJob(scope, job, error)).jobs);
    }
  }
}
