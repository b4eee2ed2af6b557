import { logger } from '../logger.ts';
import { getMessage } from '../messages/repository.ts';
import type { OutgoingMessage } from '../queue/send.ts';
import type { EnvScope } from '../scope.ts';
import { mapConcurrently } from '../concurrency.ts';
import { messageIdOf } from './message-id.ts';
import { FINAL_JOB_STATUSES, type StoredJob, type StoredNotification } from './model.ts';
import { createNotification, UNSTORED, type VersionedNotification } from './notification-store.ts';
import type { JobMessage } from './queue-messages.ts';
import { runJob } from './run-job.ts';
import type { FollowUps } from './store-decision.ts';
import { stepDecider } from './steps/decide.ts';
import { decideInApp } from './steps/in-app.ts';

// The pipeline's shortcut: an in-app first step runs in the events consumer, right after the
// fan-out that made its notification, instead of in the jobs consumer (it only writes to the
// table: a queue hop less). On the message's first receive it is decided before its notification
// is stored, and the notification's create records the decision (UNSTORED: one write instead of
// two). Everything that knows this is here: which first jobs run here (`runsHere`), the hand-over
// of a built notification (`firstJobOf`), the run (`runFirstJobs`), and what the settling of a
// failed fan-out (settle-fan-out.ts) must allow for (`firstJobOwed`, `deliveredBeforeStored`).

/** The events consumer runs in-app first steps only: the providers' code is not loaded here. */
const decideInAppStep = stepDecider({ in_app: decideInApp });
const RUN_HERE_CONCURRENCY = 16;

/** A first job the events consumer runs itself: until a run of its fan-out ends, its next job's message may be owed. */
export const runsHere = (job: StoredJob): boolean => job.type === 'in_app';

export interface FirstJob {
  message: JobMessage;
  /** As stored, or unstored (`isUnstored`) when its first step runs here: the run stores it with its decision, or the caller as built. */
  loaded: VersionedNotification;
}

/** A notification as built, before anything stored it: the run of its first job creates it. */
interface UnstoredNotification extends VersionedNotification {
  version: typeof UNSTORED;
}

const unstored = (notification: StoredNotification): UnstoredNotification => ({ notification, version: UNSTORED });
const isUnstored = (loaded: VersionedNotification): loaded is UnstoredNotification => loaded.version === UNSTORED;

/**
 * A recipient's first job, from its notification as built (`message` is that job's). An in-app
 * first step runs in the events consumer whatever its status: runJob is made to be repeated, and
 * on a fan-out delivered again it moves on a job a crashed run left, or sends again the next job's
 * message that run may not have sent. Any other first step is queued for the jobs consumer if it
 * still waits to run. When the in-app step runs now (`runNow`: the message's first receive), the
 * notification is handed over unstored: the run writes the message, then creates the notification
 * with the job decided. A run that dies between the two leaves the message; the next builds the
 * same ids (build-notification.ts) and finds it. Otherwise the notification is created here (once).
 */
export async function firstJobOf(
  built: StoredNotification,
  message: JobMessage,
  runNow: boolean,
): Promise<(FirstJob & { runHere: boolean }) | undefined> {
  if (runNow && built.jobs[0] && runsHere(built.jobs[0])) return { message, loaded: unstored(built), runHere: true };
  const { stored } = await createNotification(built);
  const first = stored.notification.jobs[0];
  if (first && runsHere(first)) return { message, loaded: stored, runHere: true };
  return first?.status === 'queued' ? { message, loaded: stored, runHere: false } : undefined;
}

/**
 * Runs the fan-out's in-app first jobs; answers what to send: their next jobs' messages and
 * announcements, and the job itself for one that failed here, which the jobs consumer then
 * retries with its own receives (the run is repeatable, so one that got part-way cannot deliver
 * twice). Past the deadline the rest are queued too: the time kept back is for sending, not for
 * running. Running here is for the message's first receive: a receive after it queues every job
 * still to run, so a batch whose invocation died does not carry ten deliveries' writes into each
 * of its retries, and those jobs get receives of their own. A notification not stored yet (its
 * run was to store it with the decision) is stored as built before its job is queued.
 */
export async function runFirstJobs(
  scope: EnvScope,
  firstJobs: readonly FirstJob[],
  deadline: number,
  firstReceive: boolean,
): Promise<FollowUps> {
  const until = firstReceive ? deadline : 0;
  const jobs: OutgoingMessage[] = [];
  const announcements: FollowUps['announcements'] = [];
  const queue = async ({ message, loaded }: FirstJob) => {
    if (isUnstored(loaded)) await createNotification(loaded.notification);
    jobs.push({ body: message });
  };
  await mapConcurrently(firstJobs, RUN_HERE_CONCURRENCY, async (first) => {
    const { message, loaded } = first;
    const done = FINAL_JOB_STATUSES.includes(loaded.notification.jobs[message.jobIndex]!.status);
    // A job already done only has its next job's message to give, which takes no time.
    if (!done && Date.now() > until) return queue(first);
    try {
      const ran = await runJob(scope, message, { lastAttempt: false, decide: decideInAppStep, loaded });
      jobs.push(...ran.jobs);
      announcements.push(...ran.announcements);
    } catch (error) {
      logger.warn('First job queued after failing in the events consumer', {
        transactionId: message.transactionId,
        subscriberId: message.subscriberId,
        error: error as Error,
      });
      await queue(first);
    }
  });
  return { jobs, announcements };
}

/**
 * Settling: a stored notification's first job whose message may still be owed — queued, or run
 * here by an earlier receive that may have ended without sending its next job's message.
 */
export const firstJobOwed = (job: StoredJob): boolean => job.status === 'queued' || runsHere(job);

/**
 * Settling: whether an earlier receive delivered the job's in-app step before storing its
 * notification (the run writes the message first): the job is then not failed, and the jobs
 * consumer records the delivery.
 */
export async function deliveredBeforeStored(scope: EnvScope, subscriberId: string, job: StoredJob): Promise<boolean> {
  return runsHere(job) && (await getMessage(scope, subscriberId, messageIdOf(job))) !== undefined;
}
