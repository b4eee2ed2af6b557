import { logger } from '../logger.ts';
import { getMessage } from '../messages/repository.ts';
import type { EnvScope } from '../store/keys.ts';
import { mapConcurrently } from '../store/concurrency.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import type { Subscriber } from '../subscribers/model.ts';
import { upsertSubscriber } from '../subscribers/upsert.ts';
import { getTenant, updateTenant } from '../tenants/repository.ts';
import { getTopic } from '../topics/repository.ts';
import { touchLastTriggered, type VersionedWorkflow } from '../workflows/repository.ts';
import { buildNotification, isChannelStep } from './build-notification.ts';
import type { Channel } from '../integrations/providers.ts';
import type { NotificationTopic, Recipient, StoredJob, StoredNotification, SubscriberDefinition, TriggerEvent } from './model.ts';
import { createNotification, getNotification, getTriggerEvent, type VersionedNotification } from './notification-store.ts';
import { eventMessage, jobMessage, type EventMessage, type JobMessage } from './queue-messages.ts';
import { cachedDefaultIntegration, cachedWorkflow } from './read-cache.ts';
import { decodePosition, encodePosition, isTopic, recipientPage, singleRecipients, type Position } from './recipients.ts';
import { failJob } from './store-decision.ts';
import { messageIdOf } from './message-id.ts';

// The events consumer's work: one accepted trigger → one notification per recipient. Single
// recipients are upserted first (their definitions win); then topic members (or, for a
// broadcast, every subscriber of the environment) a page at a time. When the time budget runs
// out, the rest is handed on as a continuation message with a cursor. Every notification is a
// conditional Put keyed by (transactionId, subscriberId), so a redelivered or overlapping run
// creates nothing twice: it finds the notification and re-queues its first job if still queued
// (or, for an in-app first step, which the events consumer runs itself, runs it again). An
// in-app first step run at once is decided before its notification is stored: the notification's
// create records the decision, one write instead of two (see `notify`).

export interface FanOutResult {
  /** First jobs for the jobs consumer. */
  jobs: JobMessage[];
  /** First jobs the events consumer runs itself (in-app steps: see `notify`), with their notification. */
  runHere: FirstJob[];
  /** Set when the fan-out must continue in another run. */
  continuation?: EventMessage;
}

interface FirstJob {
  message: JobMessage;
  /** Version 0: built, not stored yet (the run stores it with its decision, or the caller as built). */
  loaded: VersionedNotification;
}

const CONCURRENCY = 16;
/** `lastTriggeredAt` is kept to the nearest few minutes, so busy workflows are not rewritten per event. */
const LAST_TRIGGERED_EVERY_MS = 5 * 60_000;

/** `runNow`: the caller runs in-app first steps right after (its message's first receive). */
export async function fanOut(scope: EnvScope, message: EventMessage, deadline: number, runNow: boolean): Promise<FanOutResult> {
  const event = await getTriggerEvent(scope, message.transactionId);
  if (!event || event.canceledAt) return { jobs: [], runHere: [] };
  const workflow = await cachedWorkflow(scope, event.workflowDbId, event.workflowVersion);
  if (!workflow) {
    logger.warn('Trigger dropped: its workflow no longer exists', { transactionId: event.transactionId, workflowId: event.workflowId });
    return { jobs: [], runHere: [] };
  }
  const topics = event.to.filter(isTopic);
  const excluded = new Set(topics.flatMap((t) => t.exclude ?? []));
  if (event.actor) excluded.add(event.actor.subscriberId);

  const jobs: JobMessage[] = [];
  const runHere: FirstJob[] = [];
  const providers = await providersOf(scope, workflow);
  let actor: Subscriber | undefined;
  const deliver = async (definition: SubscriberDefinition | string, to: Recipient, topic?: NotificationTopic) => {
    const first = await notify(scope, { event, workflow, providers, actor, runNow }, definition, to, topic ? [topic] : []);
    if (first?.runHere) runHere.push(first);
    else if (first) jobs.push(first.message);
  };

  let position: Position;
  if (message.cursor) {
    position = decodePosition(message.cursor);
    actor = event.actor && (await getSubscriber(scope, event.actor.subscriberId));
  } else {
    await prepare(scope, event, workflow);
    actor = event.actor && (await getSubscriber(scope, event.actor.subscriberId));
    await mapConcurrently(singleRecipients(event.to), CONCURRENCY, (d) => deliver(d, d));
    position = { source: event.broadcast ? -1 : 0 };
  }

  // Topic members (source = topic index) or the whole environment (source = -1), page by page.
  while (event.broadcast ? position.source === -1 : position.source < topics.length) {
    if (Date.now() > deadline) {
      return { jobs, runHere, continuation: eventMessage(scope, event.transactionId, encodePosition(position)) };
    }
    const topicRecipient = event.broadcast ? undefined : topics[position.source]!;
    const topic = topicRecipient && (await getTopic(scope, topicRecipient.topicKey));
    if (topicRecipient && !topic) {
      logger.warn('Trigger names an unknown topic', { transactionId: event.transactionId, topicKey: topicRecipient.topicKey });
      position = { source: position.source + 1 };
      continue;
    }
    const page = await recipientPage(scope, topicRecipient?.topicKey, position.startKey);
    const members = page.subscriberIds.filter((id) => !excluded.has(id));
    const ref = topic ? { _topicId: topic._id, topicKey: topic.key } : undefined;
    await mapConcurrently(members, CONCURRENCY, (id) => deliver(id, topicRecipient ?? { subscriberId: id }, ref));
    position = page.next ? { source: position.source, startKey: page.next } : { source: event.broadcast ? -2 : position.source + 1 };
  }
  return { jobs, runHere };
}

/** What happens once per trigger: the workflow's lastTriggeredAt, the tenant's name and data follow the trigger, the actor is upserted. */
async function prepare(scope: EnvScope, event: TriggerEvent, workflow: VersionedWorkflow): Promise<void> {
  const now = new Date();
  if (!workflow.lastTriggeredAt || Date.parse(workflow.lastTriggeredAt) < now.getTime() - LAST_TRIGGERED_EVERY_MS) {
    // The kept copy (read-cache.ts) learns it before the write: a batch's records fan out at once,
    // and without this each of them wrote (a conditional write that fails still costs a unit).
    const previous = workflow.lastTriggeredAt;
    workflow.lastTriggeredAt = now.toISOString();
    try {
      await touchLastTriggered(scope, workflow.workflowId, now, LAST_TRIGGERED_EVERY_MS);
    } catch (error) {
      workflow.lastTriggeredAt = previous;
      throw error;
    }
  }
  if (event.actor) await upsertSubscriber(scope, event.actor);
  const tenant = event.tenant;
  if (tenant && (tenant.name !== undefined || tenant.data !== undefined)) {
    const stored = await getTenant(scope, tenant.identifier);
    const changed =
      stored &&
      ((tenant.name !== undefined && tenant.name !== stored.name) ||
        (tenant.data !== undefined && JSON.stringify(tenant.data) !== JSON.stringify(stored.data)));
    if (changed) {
      await updateTenant(scope, tenant.identifier, { ...(tenant.name !== undefined && { name: tenant.name }), ...(tenant.data !== undefined && { data: tenant.data }) }, new Date().toISOString());
    }
  }
}

/**
 * Creates the subscriber's notification (once); its first job, if it is to run. An in-app first
 * step runs in the events consumer (a queue hop less: it only writes to the table), whatever its
 * status: runJob is made to be repeated, and on a fan-out delivered again it moves on a job a
 * crashed run left, or sends again the next job's message that run may not have sent. Any other
 * first step is queued for the jobs consumer if it still waits to run.
 * When the in-app step runs now, the notification is handed over unstored (version 0): the run
 * writes the message, then creates the notification with the job decided. A run that dies between
 * the two leaves the message; the next builds the same ids (build-notification.ts) and finds it.
 */
async function notify(
  scope: EnvScope,
  { event, workflow, providers, actor, runNow }: { event: TriggerEvent; workflow: VersionedWorkflow; providers: Providers; actor: Subscriber | undefined; runNow: boolean },
  recipient: SubscriberDefinition | string,
  to: Recipient,
  topics: NotificationTopic[],
): Promise<(FirstJob & { runHere: boolean }) | undefined> {
  let subscriber: Subscriber | undefined;
  if (typeof recipient === 'string') {
    // A topic member exists already; if it was deleted since, it gets nothing.
    subscriber = await getSubscriber(scope, recipient);
    if (!subscriber) return undefined;
  } else {
    subscriber = await upsertSubscriber(scope, recipient);
  }
  const built = notificationOf({ event, workflow, providers, subscriber, to, topics, ...(actor && { actor }) });
  const message = jobMessage(scope, event.transactionId, subscriber.subscriberId, 0, event.notificationShards);
  if (runNow && built.jobs[0] && runsHere(built.jobs[0])) return { message, loaded: { notification: built, version: 0 }, runHere: true };
  const { stored } = await createNotification(built);
  const first = stored.notification.jobs[0];
  if (first && runsHere(first)) return { message, loaded: stored, runHere: true };
  return first?.status === 'queued' ? { message, loaded: stored, runHere: false } : undefined;
}

/** A first job the events consumer runs itself: until a run of its fan-out ends, its next job's message may be owed. */
const runsHere = (job: StoredJob): boolean => job.type === 'in_app';

/**
 * The last receive of a fan-out that keeps failing: each single recipient is settled, so that
 * none is left without a trace. A notification already made gets its first job's message (sent
 * again, harmlessly, if it was sent before); a recipient that has none yet but exists as a
 * subscriber gets one, failed at once with the error and the rest of its jobs canceled (the
 * trigger's changes to the subscriber may be what failed, so nothing is sent on the old ones).
 * `complete` is false when something could not be settled: a recipient that is not a subscriber,
 * a topic's or the environment's members (their pages are what failed, or may be), an error
 * while settling; the message then goes to the dead-letter queue.
 */
export async function settleFailedFanOut(scope: EnvScope, message: EventMessage, error: unknown): Promise<{ jobs: JobMessage[]; complete: boolean }> {
  const event = await getTriggerEvent(scope, message.transactionId);
  if (!event || event.canceledAt) return { jobs: [], complete: true };
  const workflow = await cachedWorkflow(scope, event.workflowDbId, event.workflowVersion);
  if (!workflow) return { jobs: [], complete: true };
  const jobs: JobMessage[] = [];
  const providers = await providersOf(scope, workflow);
  let complete = !event.broadcast && !event.to.some(isTopic);
  // A continuation message: the single recipients were settled by the first run.
  const singles = message.cursor ? [] : singleRecipients(event.to);
  await mapConcurrently(singles, CONCURRENCY, async (definition) => {
    try {
      const first = jobMessage(scope, event.transactionId, definition.subscriberId, 0, event.notificationShards);
      const stored = await getNotification(scope, first);
      if (stored) {
        const job = stored.notification.jobs[0];
        // One run here by an earlier receive may have ended without sending its next job's message.
        if (job && (job.status === 'queued' || runsHere(job))) jobs.push(first);
        return;
      }
      const subscriber = await getSubscriber(scope, definition.subscriberId);
      if (!subscriber) {
        complete = false;
        return;
      }
      const { created, stored: made } = await createNotification(notificationOf({ event, workflow, providers, subscriber, to: definition, topics: [] }));
      const job = made.notification.jobs[0];
      if (job?.status !== 'queued') return;
      // Made by a run still going on: it goes on; made here: it fails with the error, unless an
      // earlier receive delivered its in-app step before storing it: the jobs consumer records that.
      if (created && !(runsHere(job) && (await getMessage(scope, subscriber.subscriberId, messageIdOf(job))))) {
        await failJob(scope, first, error, { endChain: true });
      } else jobs.push(first);
    } catch (settling) {
      logger.error('Fan-out recipient could not be settled', { transactionId: event.transactionId, subscriberId: definition.subscriberId, error: settling as Error });
      complete = false;
    }
  });
  return { jobs, complete };
}

type Providers = Parameters<typeof buildNotification>[0]['providers'];

/** The provider each channel step of the workflow would use now (kept per container for a few seconds). */
async function providersOf(scope: EnvScope, workflow: VersionedWorkflow): Promise<Providers> {
  const channels = [...new Set(workflow.steps.filter((s) => s.active && isChannelStep(s.type)).map((s) => s.type as Channel))];
  const found = await Promise.all(channels.map(async (channel) => [channel, (await cachedDefaultIntegration(scope, channel))?.providerId] as const));
  return Object.fromEntries(found.filter(([, providerId]) => providerId !== undefined));
}

/**
 * The subscriber's notification, with the workflow version its jobs may not run older than. It
 * is stamped with the trigger's time, not the fan-out's: every run builds it the same.
 */
function notificationOf(input: Omit<Parameters<typeof buildNotification>[0], 'workflow' | 'now'> & { workflow: VersionedWorkflow }): StoredNotification {
  return { ...buildNotification({ ...input, now: new Date(input.event.createdAt) }), workflowVersion: input.workflow.version };
}
