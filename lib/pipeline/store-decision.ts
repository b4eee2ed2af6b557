import { liveMessage, type LiveMessage } from '../live/announce.ts';
import type { OutgoingMessage } from '../queue/send.ts';
import type { EnvScope } from '../scope.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { createMessageOnce } from '../messages/repository.ts';
import { getWorkflowByDbId } from '../workflows/repository.ts';
import { afterFailure, type Decision } from './decision.ts';
import { DETAILS, detail } from './details.ts';
import { channelOfStep, FINAL_JOB_STATUSES, type StoredJob, type StoredNotification } from './model.ts';
import { getNotification, saveNotification, type VersionedNotification } from './notification-store.ts';
import { recordDelivery } from '../observability/metrics.ts';
import { delaySecondsUntil } from '../queue/delay.ts';
import { jobMessage, type JobMessage } from './queue-messages.ts';

// How a job's decision is stored (lib/pipeline/run-job.ts decides): the message it records
// first, as a create of the job's own message id (a repeated run finds it and adds nothing);
// then the decision applied to the job and the chain after it, written with one write
// conditioned on the version read (with the items the decision changes, in one transaction);
// then the message of what comes next on the queue, and for an in-app message the announcement
// that tells the subscriber's open sockets, when it may have some (the live queue): the two are
// returned apart (`FollowUps`), and send-jobs.ts sends both. A run that dies between the two
// writes leaves the message and the job as it was: SQS runs the job again, its message is found
// made (and announced again: a socket may see it twice, never not at all because of the crash).
// Apart from the runner, so that the events consumer can fail a job it cannot start (see
// send-jobs.ts) without bundling the steps and the providers.

/** What a stored decision leaves to send: job messages (the jobs queue) and live announcements (the live queue). */
export interface FollowUps {
  jobs: OutgoingMessage[];
  announcements: { body: LiveMessage }[];
}

/** Follow-ups that are job messages only. */
export const jobsOnly = (jobs: OutgoingMessage[] = []): FollowUps => ({ jobs, announcements: [] });

export async function storeDecision(
  scope: EnvScope,
  loaded: VersionedNotification,
  job: StoredJob,
  decision: Decision,
  now: Date,
): Promise<FollowUps> {
  const { notification } = await saveDecision(loaded, job, decision, now);
  const stored = notification.jobs[job.index]!;
  recordOutcome(scope, notification, stored, now);
  const after = decision.after;
  const next = after.kind === 'wait' ? [waitMessage(scope, notification, stored, after.until, now)] : followUp(scope, notification, stored);
  return { jobs: next, announcements: announcement(scope, decision) };
}

/**
 * A channel job that ended is counted once: only the run whose conditional write moved it on gets
 * here (a redelivery finds it final and only follows up).
 */
function recordOutcome(scope: EnvScope, notification: StoredNotification, job: StoredJob, now: Date): void {
  const channel = channelOfStep(job.type);
  if (!channel || (job.status !== 'completed' && job.status !== 'failed')) return;
  recordDelivery(scope, {
    channel,
    providerId: job.providerId,
    delivered: job.status === 'completed',
    acceptedAt: notification.createdAt,
    deliveredAt: now,
  });
}

/** Once stored, an in-app message is announced to the subscriber's sockets (lib/live/), if it may have some. */
function announcement(scope: EnvScope, decision: Decision): FollowUps['announcements'] {
  const { message } = decision;
  if (!decision.announce || message?.channel !== 'in_app') return [];
  return [{ body: liveMessage(scope, message.subscriberId, { kind: 'received', messageId: message._id }) }];
}

/** Applies the decision to the job and the chain after it, and stores it conditionally. */
export async function saveDecision(
  loaded: VersionedNotification,
  job: StoredJob,
  decision: Decision,
  now: Date,
): Promise<VersionedNotification> {
  if (decision.message) await createMessageOnce(decision.message);
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
    jobs[job.index + 1] = {
      ...successor,
      status: 'queued',
      executionDetails: [...successor.executionDetails, detail(DETAILS.stepQueued, 'Pending', {}, now)],
      updatedAt: at,
    };
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
export function followUp(scope: EnvScope, notification: StoredNotification, job: StoredJob): OutgoingMessage[] {
  const successor = notification.jobs[job.index + 1];
  if (!FINAL_JOB_STATUSES.includes(job.status) || successor?.status !== 'queued') return [];
  return [
    { body: jobMessage(scope, notification.transactionId, notification.subscriberId, successor.index, notification.notificationShards) },
  ];
}

export function waitMessage(scope: EnvScope, notification: StoredNotification, job: StoredJob, until: Date, now: Date): OutgoingMessage {
  return {
    body: jobMessage(scope, notification.transactionId, notification.subscriberId, job.index, notification.notificationShards),
    delaySeconds: delaySecondsUntil(until, now.getTime()),
    // A wait longer than SQS holds is scheduled once for this time (lib/queue/wake-scheduler.ts).
    dueAt: until,
  };
}

/**
 * Stores the job failed for good with `error` as its reason (its last receive failed, or its
 * message could not be sent), unless it already ended; returns the messages of what comes next
 * (job messages only: a failure stores no message to announce).
 * `endChain`: the jobs after it are canceled instead of going on.
 */
export function failJob(scope: EnvScope, message: JobMessage, error: unknown, options: { endChain?: boolean } = {}): Promise<FollowUps> {
  return retryOnStaleWrite(() => failForGood(scope, message, error, options.endChain ?? false));
}

/** The last delivery failed too: the job fails with the reason, visible in the activity feed. */
async function failForGood(scope: EnvScope, message: JobMessage, error: unknown, endChain: boolean): Promise<FollowUps> {
  const loaded = await getNotification(scope, message);
  const job = loaded?.notification.jobs[message.jobIndex];
  if (!loaded || !job || FINAL_JOB_STATUSES.includes(job.status)) return jobsOnly();
  const now = new Date();
  const reason = error instanceof Error ? error.message : String(error);
  const workflow = await getWorkflowByDbId(scope, loaded.notification._templateId).catch(() => undefined);
  const step = workflow?.steps.find((s) => s._id === job.stepDbId);
  const isAction = job.type === 'digest' || job.type === 'delay' || job.type === 'throttle';
  return storeDecision(
    scope,
    loaded,
    job,
    {
      status: 'failed',
      details: [detail(DETAILS.failedForGood, 'Failed', { raw: { error: reason } }, now)],
      job: { error: reason, leaseUntil: undefined },
      after: endChain || isAction || !step ? { kind: 'end', rest: 'canceled', detail: DETAILS.canceledAfterFailure } : afterFailure(step),
    },
    now,
  );
}
