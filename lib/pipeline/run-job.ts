import { ENV, positiveNumber } from '../config.ts';
import { logger } from '../logger.ts';
import type { EnvScope } from '../scope.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { getSubscriberForWorkflow } from '../preferences/repository.ts';
import type { JobContext } from './decision.ts';
import { detail } from './details.ts';
import { hasHappened } from './engagement.ts';
import { messageIdOf } from './message-id.ts';
import { FINAL_JOB_STATUSES, type StoredJob, type StoredNotification } from './model.ts';
import { getNotification, type VersionedNotification } from './notification-store.ts';
import { MAX_QUEUE_DELAY_SECONDS } from '../queue/delay.ts';
import type { JobMessage } from './queue-messages.ts';
import { cachedEnvironmentVariables, cachedWorkflow } from './read-cache.ts';
import type { DecideStep } from './steps/decide.ts';
import { decideStoppedSend } from './stopped-send.ts';
import { failJob, followUp, jobsOnly, saveDecision, storeDecision, waitMessage, type FollowUps } from './store-decision.ts';
import { templateVariables } from './variables.ts';
import { payloadAtTopLevel, templateVariables as stepTemplateVariables } from '../workflows/model.ts';

// Running one job of one notification: the jobs consumer's work, and the events consumer's for an
// in-app first step (first-job.ts). The notification is read consistently (or handed over
// just written), the step decides, and the decision is stored with a write conditioned on the
// version read, so of two deliveries of the same SQS message only one can move the job on; the
// other re-reads, finds the job done and only re-sends the next job's message (harmless to send
// twice, since that job is guarded the same way). Nothing is ever lost: a crash before the write
// leaves the job as it was, and SQS delivers the message again. How a decision is stored is in
// store-decision.ts.

/**
 * A send in progress holds the job this long; a redelivery inside it waits. It must stay shorter
 * than the jobs queue's visibility timeout (infra/queues.ts), so that the redelivery after a crash
 * finds it expired. Tests that shorten the visibility timeout shorten it too (ENV.sendLeaseMs).
 */
const SEND_LEASE_MS = 60_000;
const sendLeaseMs = (): number => positiveNumber(ENV.sendLeaseMs, SEND_LEASE_MS);

/** The job is held by a send in progress until `until`: its message should come back later. */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly until?: Date,
  ) {
    super(message);
  }
}

export interface RunOptions {
  /** This is the last delivery SQS will make: fail the job with the reason instead of throwing. */
  lastAttempt: boolean;
  /** The steps this consumer runs (steps/index.ts: all of them). */
  decide: DecideStep;
  /** The notification as just written or read consistently by the caller: the first look needs no read. */
  loaded?: VersionedNotification;
}

export async function runJob(scope: EnvScope, message: JobMessage, options: RunOptions): Promise<FollowUps> {
  let given = options.loaded;
  try {
    return await retryOnStaleWrite(() => {
      // A retry after a stale write reads the notification again.
      const loaded = given;
      given = undefined;
      return runOnce(scope, message, options.decide, loaded);
    });
  } catch (error) {
    if (options.lastAttempt && error instanceof RetryLaterError && error.until) {
      // A send holds the job past this message's last receive. Dead-lettering the message would
      // strand the job `running` should that sender die: look again once its lease is over, in a
      // new message (no new lease is ever taken on a running job, so this ends).
      const seconds = Math.ceil((error.until.getTime() - Date.now()) / 1000) + 1;
      return jobsOnly([{ body: message, delaySeconds: Math.max(1, Math.min(MAX_QUEUE_DELAY_SECONDS, seconds)) }]);
    }
    if (!options.lastAttempt || error instanceof RetryLaterError) throw error;
    logger.error('Job failed for good', { transactionId: message.transactionId, jobIndex: message.jobIndex, error: error as Error });
    return failJob(scope, message, error);
  }
}

async function runOnce(
  scope: EnvScope,
  message: JobMessage,
  decideStep: DecideStep,
  given: VersionedNotification | undefined,
): Promise<FollowUps> {
  const loaded = given ?? (await getNotification(scope, message));
  const job = loaded?.notification.jobs[message.jobIndex];
  if (!loaded || !job) return jobsOnly();
  const now = new Date();

  if (FINAL_JOB_STATUSES.includes(job.status)) return jobsOnly(followUp(scope, loaded.notification, job));
  if (job.status === 'pending') return jobsOnly();
  if (
    job.status === 'delayed' &&
    job.delayUntil &&
    Date.parse(job.delayUntil) > now.getTime() &&
    !(await engagedEarly(scope, loaded.notification, job))
  ) {
    // Not due yet (a wake that came early, or a wait SQS chains): wait again for the rest.
    return jobsOnly([waitMessage(scope, loaded.notification, job, new Date(job.delayUntil), now)]);
  }
  if (job.status === 'running') {
    if (job.leaseUntil && Date.parse(job.leaseUntil) > now.getTime())
      throw new RetryLaterError('A send of this job is in progress', new Date(job.leaseUntil));
    // The worker that was sending stopped without recording the job: never send twice.
    return storeDecision(scope, loaded, job, await decideStoppedSend(scope, loaded.notification, job, now), now);
  }

  const context = await contextOf(scope, loaded.notification, job, now);
  if (!context) {
    return storeDecision(
      scope,
      loaded,
      job,
      {
        status: 'canceled',
        details: [detail('Step canceled: its workflow or step no longer exists', 'Warning', {}, now)],
        after: { kind: 'end', rest: 'canceled' },
      },
      now,
    );
  }
  const decision = await decideStep(context);
  if (!decision.send) return storeDecision(scope, loaded, job, decision, now);

  // An external send: hold the job under a lease, send, then record the outcome. The lease notes
  // the id of the message the send will record, so that should the worker stop after writing it,
  // the next look at the job finds how the send ended (stopped-send.ts).
  const lease = { leaseUntil: new Date(now.getTime() + sendLeaseMs()).toISOString(), messageId: messageIdOf(job) };
  const leased = { ...decision, job: { ...decision.job, ...lease } };
  const { notification: held } = await saveDecision(loaded, job, leased, now);
  const outcome = await decision.send(new Date(lease.leaseUntil));
  return retryOnStaleWrite(async () => {
    const current = await getNotification(scope, message);
    const running = current?.notification.jobs[message.jobIndex];
    if (!current || running?.status !== 'running') return jobsOnly();
    const finished = new Date();
    return storeDecision(scope, current, running, { ...outcome, job: { ...outcome.job, leaseUntil: undefined } }, finished);
  }).catch((error) => {
    logger.error('Send outcome could not be stored', { transactionId: held.transactionId, error: error as Error });
    throw error;
  });
}

/** A delay waiting for engagement whose event has happened: it goes on before its time (steps/engagement-delay.ts). */
function engagedEarly(scope: EnvScope, notification: StoredNotification, job: StoredJob): Promise<boolean> | boolean {
  const wait = job.engagementWait;
  return wait !== undefined && hasHappened(scope, notification.subscriberId, wait.messageId, wait.event);
}

async function contextOf(scope: EnvScope, notification: StoredNotification, job: StoredJob, now: Date): Promise<JobContext | undefined> {
  const [workflow, { subscriber, choices, liveUntil }] = await Promise.all([
    cachedWorkflow(scope, notification._templateId, notification.workflowVersion),
    getSubscriberForWorkflow(scope, notification.subscriberId, notification._templateId),
  ]);
  const step = workflow?.steps.find((s) => s._id === job.stepDbId);
  if (!workflow || !step) return undefined;
  // Only a step whose templates name `env` reads the environment's variables.
  const readsEnv = stepTemplateVariables(step).some((path) => path[0] === 'env');
  const env = readsEnv ? await cachedEnvironmentVariables(scope, Date.parse(notification.createdAt)) : undefined;
  const variables = await templateVariables(scope, notification, job, subscriber, {
    payloadAtTopLevel: payloadAtTopLevel(workflow.origin),
    ...(env && { env }),
  });
  return { scope, notification, job, step, workflow, subscriber, choices, liveUntil, variables, now };
}
