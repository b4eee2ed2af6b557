import { upsertContexts } from '../contexts/upsert.ts';
import { logger } from '../logger.ts';
import type { EnvScope } from '../scope.ts';
import { mapConcurrently } from '../concurrency.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import type { Subscriber, SubscriberDefinition } from '../subscribers/model.ts';
import type { Tenant } from '../tenants/schemas.ts';
import { upsertSubscriber } from '../subscribers/upsert.ts';
import { getTopic } from '../topics/repository.ts';
import { touchLastTriggered, type VersionedWorkflow } from '../workflows/repository.ts';
import { buildNotification, isChannelStep } from './build-notification.ts';
import type { Channel } from '../integrations/catalogue.ts';
import { firstJobOf, type FirstJob } from './first-job.ts';
import type { NotificationTopic, Recipient, StoredNotification, TenantSnapshot, TopicRecipient, TriggerEvent } from './model.ts';
import { getTriggerEvent } from './trigger-store.ts';
import { sendMessages } from '../queue/send.ts';
import { eventMessage, HANDED_ON, jobMessage, segmentMessage, type EventMessage, type JobMessage, type Segment } from './queue-messages.ts';
import { cachedDefaultIntegration, cachedTriggerTenant, cachedWorkflow } from './read-cache.ts';
import { applyTriggerTenant, keptSnapshot, snapshotOf } from './tenant-snapshot.ts';
import { decodePosition, encodePosition, isTopic, recipientPage, SEGMENT_SIZE, singleRecipients, type Position } from './recipients.ts';

// The events consumer's work: one accepted trigger → one notification per recipient. Single
// recipients are upserted and delivered first (their definitions win). The audience — topic
// members or, for a broadcast, every subscriber of the environment — is walked a page at a time
// and handed out as segments, one queue message each, so that many consumers deliver it at once
// while the walk goes on; a walk that runs out of time hands its cursor to its next message. The
// trigger's first segment is delivered by the walk itself before the next page is read, so the
// first members wait for no queue. Every notification is a conditional Put keyed by
// (transactionId, subscriberId), so a redelivered walk or segment, or a subscriber in two topics,
// creates nothing twice: it finds the notification and re-queues its first job if still queued
// (or, for an in-app first step, which the events consumer runs itself, runs it again). An
// in-app first step run at once is decided before its notification is stored: the notification's
// create records the decision, one write instead of two (first-job.ts).

export interface FanOutResult {
  /** First jobs for the jobs consumer. */
  jobs: JobMessage[];
  /** First jobs the events consumer runs itself (in-app steps: first-job.ts), with their notification. */
  runHere: FirstJob[];
  /** Set when the work must continue in another message (a walk's cursor, a segment's members left). */
  continuation?: EventMessage;
}

/** What every part of one trigger's fan-out reads once: the event, its workflow, the providers. */
export interface FanOutContext {
  scope: EnvScope;
  event: TriggerEvent;
  workflow: VersionedWorkflow;
  providers: Providers;
  topics: TopicRecipient[];
  /** The caller runs in-app first steps right after (its message's first receive). */
  runNow: boolean;
  /** The stored tenant the trigger names as its notifications keep it, once read (`tenantOf`). */
  tenant?: Promise<TenantSnapshot | undefined>;
}

const CONCURRENCY = 16;
/**
 * Pages one walk message reads before handing its cursor on: a walk redelivered after a crash
 * sends again only the segments of its own pages (up to 10,000 members), never a whole audience's.
 */
const WALK_PAGES_PER_MESSAGE = 10;
/** `lastTriggeredAt` is kept to the nearest few minutes, so busy workflows are not rewritten per event. */
const LAST_TRIGGERED_EVERY_MS = 5 * 60_000;

/** The trigger's fan-out, unless it was canceled or its workflow is gone (nothing to do). */
export async function openFanOut(scope: EnvScope, transactionId: string, runNow: boolean): Promise<FanOutContext | undefined> {
  const event = await getTriggerEvent(scope, transactionId);
  if (!event || event.canceledAt) return undefined;
  const workflow = await cachedWorkflow(scope, event.workflowDbId, event.workflowVersion);
  if (!workflow) {
    logger.warn('Trigger dropped: its workflow no longer exists', { transactionId: event.transactionId, workflowId: event.workflowId });
    return undefined;
  }
  return { scope, event, workflow, providers: await providersOf(scope, workflow), topics: event.to.filter(isTopic), runNow };
}

/** What happens once per trigger (see `prepare`), then its single recipients. */
export async function deliverSingles(ctx: FanOutContext): Promise<FanOutResult> {
  const tenant = await prepare(ctx.scope, ctx.event, ctx.workflow);
  ctx.tenant = Promise.resolve(tenant && keptSnapshot(snapshotOf(tenant)));
  const actor = await actorOf(ctx);
  const result: FanOutResult = { jobs: [], runHere: [] };
  await mapConcurrently(singleRecipients(ctx.event.to), CONCURRENCY, async (definition) =>
    collect(result, await notify(ctx, actor, definition, definition, [])),
  );
  return result;
}

/**
 * Walks the audience from `cursor` (the start without one) and hands it out as segment messages,
 * until the walk ends, or `deadline` passes or the message's pages are read (then the answer is
 * the message that continues it).
 * `keepFirst`, on the trigger's first walk, receives its first segment instead of the queue.
 */
export async function walkAudience(
  ctx: FanOutContext,
  cursor: string | undefined,
  deadline: number,
  keepFirst?: (segment: Segment) => Promise<void>,
): Promise<EventMessage | undefined> {
  const { scope, event, topics } = ctx;
  const excluded = new Set(topics.flatMap((t) => t.exclude ?? []));
  if (event.actor) excluded.add(event.actor.subscriberId);
  let position: Position = cursor ? decodePosition(cursor) : { source: event.broadcast ? -1 : 0 };
  let kept = keepFirst === undefined;
  let pages = 0;
  while (event.broadcast ? position.source === -1 : position.source < topics.length) {
    // A page at least, however late: a message handed on unchanged would be taken for a copy of its sender (hand-on.ts).
    if (pages > 0 && (Date.now() > deadline || pages === WALK_PAGES_PER_MESSAGE))
      return eventMessage(scope, event.transactionId, encodePosition(position));
    const topicKey = event.broadcast ? undefined : topics[position.source]!.topicKey;
    // Once per topic, at its first page: a cursor inside a topic was made from that topic's pages.
    if (topicKey !== undefined && position.startKey === undefined && !(await getTopic(scope, topicKey))) {
      logger.warn('Trigger names an unknown topic', { transactionId: event.transactionId, topicKey });
      position = { source: position.source + 1 };
      continue;
    }
    const page = await recipientPage(scope, topicKey, position.startKey);
    pages++;
    const members = page.subscriberIds.filter((id) => !excluded.has(id));
    const segments = chunks(members, SEGMENT_SIZE).map((subscriberIds) => ({ source: position.source, subscriberIds }));
    const first = kept ? undefined : segments.shift();
    await sendMessages(
      HANDED_ON,
      segments.map((segment) => ({ body: segmentMessage(scope, event.transactionId, segment) })),
    );
    if (first) {
      kept = true;
      await keepFirst!(first);
    }
    position = page.next ? { source: position.source, startKey: page.next } : { source: event.broadcast ? -2 : position.source + 1 };
  }
  return undefined;
}

/** Delivers one segment of the audience; members left when `deadline` passes go on in a message of their own. */
export async function deliverSegment(ctx: FanOutContext, segment: Segment, deadline: number): Promise<FanOutResult> {
  const { scope, event } = ctx;
  const result: FanOutResult = { jobs: [], runHere: [] };
  const audience = await segmentAudience(ctx, segment.source);
  if (!audience) return result;
  const actor = await actorOf(ctx);
  const left: string[] = [];
  let begun = 0;
  await mapConcurrently(segment.subscriberIds, CONCURRENCY, async (subscriberId) => {
    // A member at least, however late: a rest equal to the segment would be taken for a copy of it (hand-on.ts).
    if (begun > 0 && Date.now() > deadline) return void left.push(subscriberId);
    begun++;
    collect(result, await notify(ctx, actor, subscriberId, audience.to(subscriberId), audience.topics));
  });
  if (left.length > 0) result.continuation = segmentMessage(scope, event.transactionId, { source: segment.source, subscriberIds: left });
  return result;
}

/**
 * What a segment's members get as their recipient and topics: the topic named by `source` (or,
 * for a broadcast's -1, each member itself); undefined for a source the trigger has not.
 */
export async function segmentAudience(
  { scope, event, topics }: FanOutContext,
  source: number,
): Promise<{ to: (subscriberId: string) => Recipient; topics: NotificationTopic[] } | undefined> {
  if (source === -1) return { to: (subscriberId) => ({ subscriberId }), topics: [] };
  const topicRecipient = topics[source];
  if (!topicRecipient) {
    logger.error('Segment names no topic of its trigger', { transactionId: event.transactionId, source });
    return undefined;
  }
  // A topic deleted since the walk: its members were in it when the trigger was walked.
  const topic = await getTopic(scope, topicRecipient.topicKey);
  return { to: () => topicRecipient, topics: topic ? [{ _topicId: topic._id, topicKey: topic.key }] : [] };
}

function collect(result: FanOutResult, first: (FirstJob & { runHere: boolean }) | undefined): void {
  if (first?.runHere) result.runHere.push(first);
  else if (first) result.jobs.push(first.message);
}

const actorOf = async ({ scope, event }: FanOutContext): Promise<Subscriber | undefined> =>
  event.actor && (await getSubscriber(scope, event.actor.subscriberId));

/**
 * The stored tenant the trigger names, as its notifications keep it (undefined when too large to
 * keep): read by its first message's `prepare`, else once per trigger and container; sized once
 * per message here, not once per recipient.
 */
export function tenantOf(ctx: FanOutContext): Promise<TenantSnapshot | undefined> {
  const { scope, event } = ctx;
  ctx.tenant ??= event.tenant
    ? cachedTriggerTenant(scope, event.transactionId, event.tenant.identifier).then(keptSnapshot)
    : Promise.resolve(undefined);
  return ctx.tenant;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

/**
 * What happens once per trigger: the workflow's lastTriggeredAt, the tenant's name and data follow
 * the trigger (answers the tenant as stored after), the actor is upserted, the contexts it names
 * are created if new (lib/contexts/upsert.ts).
 */
async function prepare(scope: EnvScope, event: TriggerEvent, workflow: VersionedWorkflow): Promise<Tenant | undefined> {
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
  await upsertContexts(scope, event.context, now);
  return event.tenant && applyTriggerTenant(scope, event.tenant);
}

/** Creates the subscriber's notification (once); its first job, if it is to run (first-job.ts). */
async function notify(
  ctx: FanOutContext,
  actor: Subscriber | undefined,
  recipient: SubscriberDefinition | string,
  to: Recipient,
  topics: NotificationTopic[],
): Promise<(FirstJob & { runHere: boolean }) | undefined> {
  const { scope, event, workflow, providers, runNow } = ctx;
  let subscriber: Subscriber | undefined;
  if (typeof recipient === 'string') {
    // A topic member exists already; if it was deleted since, it gets nothing.
    subscriber = await getSubscriber(scope, recipient);
    if (!subscriber) return undefined;
  } else {
    subscriber = await upsertSubscriber(scope, recipient);
  }
  const tenant = await tenantOf(ctx);
  const built = notificationOf({ event, workflow, providers, subscriber, to, topics, ...(tenant && { tenant }), ...(actor && { actor }) });
  const message = jobMessage(scope, event.transactionId, subscriber.subscriberId, 0, event.notificationShards);
  return firstJobOf(built, message, runNow);
}

type Providers = Parameters<typeof buildNotification>[0]['providers'];

/** The provider each channel step of the workflow would use now (kept per container for a few seconds). */
async function providersOf(scope: EnvScope, workflow: VersionedWorkflow): Promise<Providers> {
  const channels = [...new Set(workflow.steps.filter((s) => s.active && isChannelStep(s.type)).map((s) => s.type as Channel))];
  const found = await Promise.all(
    channels.map(async (channel) => [channel, (await cachedDefaultIntegration(scope, channel))?.providerId] as const),
  );
  return Object.fromEntries(found.filter(([, providerId]) => providerId !== undefined));
}

/**
 * The subscriber's notification, with the workflow version its jobs may not run older than. It
 * is stamped with the trigger's time, not the fan-out's: every run builds it the same.
 */
export function notificationOf(
  input: Omit<Parameters<typeof buildNotification>[0], 'workflow' | 'now'> & { workflow: VersionedWorkflow },
): StoredNotification {
  return { ...buildNotification({ ...input, now: new Date(input.event.createdAt) }), workflowVersion: input.workflow.version };
}
