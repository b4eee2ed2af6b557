import { logger } from '../logger.ts';
import type { OutgoingMessage } from '../queue/send.ts';
import type { EnvScope } from '../store/keys.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import { getWorkflowByDbId } from '../workflows/repository.ts';
import { afterFailure, type Decision, type JobContext } from './decision.ts';
import { DETAILS, detail } from './details.ts';
import { MAX_QUEUE_DELAY_SECONDS } from './durations.ts';
import { FINAL_JOB_STATUSES, type StoredJob, type StoredNotification } from './model.ts';
import { getNotification, saveNotification, type VersionedNotification } from './notification-store.ts';
import { jobMessage, type JobMessage } from './queue-messages.ts';
import { decideStep } from './steps/index.ts';
import { templateVariables } from './variables.ts';

// The jobs consumer's work: run one job of one notification. The notification is read
// consistently, the step decides, and the decision is stored with a write conditioned on the
// version read, so of two deliveries of the same SQS message only one can move the job on; the
// other re-reads, finds the job done and only re-sends the next job's message (harmless to send
// twice, since that job is guarded the same way). Nothing is ever lost: a crash before the write
// leaves the job as it was, and SQS delivers the message again.

/** A send in progress holds the job this long; a redelivery inside it waits. */
const SEND_LEASE_MS = 60_000;

export class RetryLaterError extends Error {}

export interface RunOptions {
  /** This is the last delivery SQS will make: fail the job with the reason instead of throwing. */
  lastAttempt: boolean;
}

export async function runJob(scope: EnvScope, message: JobMessage, options: RunOptions): Promise<OutgoingMessage[]> {
  try {
    return await retryOnStaleWrite(() => runOnce(scope, message));
  } catch (error) {
    if (!options.lastAttempt || error instanceof RetryLaterError) throw error;
    logger.error('Job failed for good', { transactionId: message.transactionId, jobIndex: message.jobIndex, error: error as Error });
    return retryOnStaleWrite(() => failForGood(scope, message, error));
  }
}

async function runOnce(scope: EnvScope, message: JobMessage): Promise<OutgoingMessage[]> {
  const loaded = await getNotification(scope, message.transactionId, message.subscriberId);
  const job = loaded?.notification.jobs[message.jobIndex];
  if (!loaded || !job) return [];
  const now = new Date();

  if (FINAL_JOB_STATUSES.includes(job.status)) return followUp(scope, loaded.notification, job);
  if (job.status === 'pending') return [];
  if (job.status === 'delayed' && job.delayUntil && Date.parse(job.delayUntil) > now.getTime()) {
    // Not due yet: SQS holds a message at most 15 minutes, so long waits are chained.
    return [waitMessage(scope, loaded.notification, job, new Date(job.delayUntil), now)];
  }
  if (job.status === 'running') {
    if (job.leaseUntil && Date.parse(job.leaseUntil) > now.getTime()) throw new RetryLaterError('A send of this job is in progress');
    // The worker that was sending stopped without recording the outcome: never send twice.
    return store(scope, loaded, job, {
      status: 'failed',
      details: [detail(DETAILS.outcomeUnknown, 'Failed', {}, now)],
      job: { error: DETAILS.outcomeUnknown },
      after: { kind: 'next' },
    }, now);
  }

  const context = await contextOf(scope, loaded.notification, job, now);
  if (!context) {
    return store(scope, loaded, job, {
      status: 'canceled',
      details: [detail('Step canceled: its workflow or step no longer exists', 'Warning', {}, now)],
      after: { kind: 'end', rest: 'canceled' },
    }, now);
  }
  const decision = await decideStep(context);
  if (!decision.send) return store(scope, loaded, job, decision, now);

  // An external send: hold the job under a lease, send, then record the outcome.
  const leased = { ...decision, job: { ...decision.job, leaseUntil: new Date(now.getTime() + SEND_LEASE_MS).toISOString() } };
  const { notification: held } = await save(loaded, job, leased, now);
  const outcome = await decision.send();
  return retryOnStaleWrite(async () => {
    const current = await getNotification(scope, message.transactionId, message.subscriberId);
    const running = current?.notification.jobs[message.jobIndex];
    if (!current || running?.status !== 'running') return [];
    const finished = new Date();
    return store(scope, current, running, { ...outcome, job: { ...outcome.job, leaseUntil: undefined } }, finished);
  }).catch((error) => {
    logger.error('Send outcome could not be stored', { transactionId: held.transactionId, error: error as Error });
    throw error;
  });
}

async function contextOf(scope: EnvScope, notification: StoredNotification, job: StoredJob, now: Date): Promise<JobContext | undefined> {
  const [workflow, subscriber] = await Promise.all([
    getWorkflowByDbId(scope, notification._templateId),
    getSubscriber(scope, notification.subscriberId),
  ]);
  const step = workflow?.steps.find((s) => s._id === job.stepDbId);
  if (!workflow || !step) return undefined;
  const variables = await templateVariables(scope, notification, job, subscriber);
  return { scope, notification, job, step, workflow, subscriber, variables, now };
}

async function store(scope: EnvScope, loaded: VersionedNotification, job: StoredJob, decision: Decision, now: Date): Promise<OutgoingMessage[]> {
  const { notification } = await save(loaded, job, decision, now);
  const after = decision.after;
  if (after.kind === 'wait') return [waitMessage(scope, notification, notification.jobs[job.index]!, after.until, now)];
  return followUp(scope, notification, notification.jobs[job.index]!);
}

/** Applies the decision to the job and the chain after it, and stores it conditionally. */
function save(loaded: VersionedNotification, job: StoredJob, decision: Decision, now: Date): Promise<VersionedNotification> {
  const at = now.toISOString();
  const jobs = loaded.notification.jobs.map((j) => ({ ...j }));
  const changed: StoredJob = {
    ...jobs[job.index]!,
    ...decision.job,
    status: decision.status,
    executionDetails: [...job.executionDetails, ...decision.details],
    updatedAt: at,
  };
  for (const key of Object.keys(changed) as (keyof StoredJob)[]) if (changed[key] === undefined) delete changed[key];
  jobs[job.index] = changed;

  const after = decision.after;
  const successor = jobs[job.index + 1];
  if (after.kind === 'next' && successor?.status === 'pending' && decision.status !== 'running' && decision.status !== 'delayed') {
    jobs[job.index + 1] = { ...successor, status: 'queued', executionDetails: [...successor.executionDetails, detail(DETAILS.stepQueued, 'Pending', {}, now)], updatedAt: at };
  }
  if (after.kind === 'end') {
    for (let i = job.index + 1; i < jobs.length; i++) {
      const later = jobs[i]!;
      if (later.status !== 'pending' && later.status !== 'queued') continue;
      jobs[i] = {
        ...later,
        status: after.rest,
        executionDetails: after.detail ? [...later.executionDetails, detail(after.detail, 'Warning', {}, now)] : later.executionDetails,
        updatedAt: at,
      };
    }
  }
  const notification = { ...loaded.notification, ...decision.notification, jobs, updatedAt: at };
  return saveNotification(notification, loaded.version, decision.also);
}

/** After a final job: the message of the next job, if it is queued (re-sent on redelivery, harmlessly). */
function followUp(scope: EnvScope, notification: StoredNotification, job: StoredJob): OutgoingMessage[] {
  const successor = notification.jobs[job.index + 1];
  if (!FINAL_JOB_STATUSES.includes(job.status) || successor?.status !== 'queued') return [];
  return [{ body: jobMessage(scope, notification.transactionId, notification.subscriberId, successor.index) }];
}

function waitMessage(scope: EnvScope, notification: StoredNotification, job: StoredJob, until: Date, now: Date): OutgoingMessage {
  const seconds = Math.max(0, Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil((until.getTime() - now.getTime()) / 1000)));
  return { body: jobMessage(scope, notification.transactionId, notification.subscriberId, job.index), delaySeconds: seconds };
}

/** The last delivery failed too: the job fails with the reason, visible in the activity feed. */
async function failForGood(scope: EnvScope, message: JobMessage, error: unknown): Promise<OutgoingMessage[]> {
  const loaded = await getNotification(scope, message.transactionId, message.subscriberId);
  const job = loaded?.notification.jobs[message.jobIndex];
  if (!loaded || !job || FINAL_JOB_STATUSES.includes(job.status)) return [];
  const now = new Date();
  const reason = error instanceof Error ? error.message : String(error);
  const workflow = await getWorkflowByDbId(scope, loaded.notification._templateId).catch(() => undefined);
  const step = workflow?.steps.find((s) => s._id === job.stepDbId);
  const isAction = job.type === 'digest' || job.type === 'delay' || job.type === 'throttle';
  return store(scope, loaded, job, {
    status: 'failed',
    details: [detail(DETAILS.failedForGood, 'Failed', { raw: { error: reason } }, now)],
    job: { error: reason, leaseUntil: undefined },
    after: isAction || !step ? { kind: 'end', rest: 'canceled', detail: DETAILS.canceledAfterFailure } : afterFailure(step),
  }, now);
}
