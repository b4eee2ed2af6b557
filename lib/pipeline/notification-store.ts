import { contextKeyOf } from '../context-keys.ts';
import { onIndex, withoutKeys } from '../store/index-keys.ts';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { batchPut } from '../store/batch.ts';
import { db } from '../store/client.ts';
import { atVersion, writeIf } from '../store/conditions.ts';
import { getItem } from '../store/get-item.ts';
import { INDEXES, keys, MAX_UNSHARDED_RECIPIENTS, TRANSACTION_SHARDS } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import { mapConcurrently } from '../concurrency.ts';
import { queryAll } from '../store/query-pages.ts';
import { StaleWriteError } from '../store/stale-write.ts';
import { failedConditions, transact, type TransactItem } from '../store/transact.ts';
import { absentOrExpired, isExpired, presentAndKept, ttlAt } from '../store/retention.ts';
import { timeOfId } from '../ids.ts';
import type { Recipient, StoredNotification, TriggerEvent } from './model.ts';

// Storage of triggers and notifications. A transaction's partition holds its trigger (the claim
// of the transactionId) and one notification per subscriber; a trigger that fans out (a topic, a
// broadcast, many single recipients) spreads its notifications over TRANSACTION_SHARDS
// partitions by subscriberId, and says so on itself (`notificationShards`), as do its
// notifications and their job messages, so that every reader knows where to look. Every change
// of a notification is a whole-item Put conditioned on the version it was read at, optionally in
// one transaction with the items the change writes (a digest event, a throttle count): a
// redelivered SQS message that repeats a step finds the version moved on and does nothing twice.

export interface VersionedNotification {
  notification: StoredNotification;
  version: number;
}

/**
 * The version of a notification built but not stored yet: the fan-out may hand one to the run of
 * its first job, which stores it with its decision; saving at this version is the create.
 */
export const UNSTORED = 0;

/** A notification as built, before anything stored it. */
export interface UnstoredNotification extends VersionedNotification {
  version: typeof UNSTORED;
}

export const unstored = (notification: StoredNotification): UnstoredNotification => ({ notification, version: UNSTORED });
export const isUnstored = (loaded: VersionedNotification): loaded is UnstoredNotification => loaded.version === UNSTORED;

/**
 * What finds a notification: its transaction, its subscriber, and over how many partitions the
 * transaction's notifications are spread (absent: 1). A notification, a job message and a
 * trigger's recipient (with the trigger's count) each are one.
 */
export interface NotificationAddress {
  transactionId: string;
  subscriberId: string;
  notificationShards?: number;
}

/** Notifications of one transaction read at once: its shards' Queries in flight together. */
const SHARD_READ_CONCURRENCY = 16;

/**
 * Over how many partitions a trigger's notifications go (TriggerEvent.notificationShards): one
 * for a few single recipients, TRANSACTION_SHARDS for a topic, a broadcast or more than
 * MAX_UNSHARDED_RECIPIENTS recipients (lib/store/keys.ts has the arithmetic).
 */
export function notificationShardsFor(to: readonly Recipient[], broadcast: boolean): number {
  const topic = to.some((r) => typeof r === 'object' && (r as { type?: unknown }).type === 'Topic');
  return broadcast || topic || to.length > MAX_UNSHARDED_RECIPIENTS ? TRANSACTION_SHARDS : 1;
}

export const scopeOfNotification = (n: Pick<StoredNotification, '_organizationId' | '_environmentId'>): EnvScope => ({
  organizationId: n._organizationId,
  environmentId: n._environmentId,
});

/** The UTC day (yyyy-mm-dd) of an id: the activity feed's index partition. */
export const dayOfId = (id: string): string => timeOfId(id).toISOString().slice(0, 10);

// ---- triggers ---------------------------------------------------------------------------------

/** Claims the event's transactionId in its environment; false when the id was used before. */
export function claimTransaction(event: TriggerEvent): Promise<boolean> {
  return writeIf(() => db().send(new PutCommand(claimPut(event))));
}

/** What one TransactWriteItems may carry: 100 items and 4 MB (kept under, as sizes are estimates). */
const MAX_CLAIMS_PER_TRANSACTION = 100;
const MAX_TRANSACTION_BYTES = 3.5 * 1024 * 1024;
/** Attempts of a claim transaction that lost to a concurrent one or to throttling. */
const CLAIM_ATTEMPTS = 5;

/**
 * Claims the transactionIds of several events (distinct ids, one environment) with one
 * TransactWriteItems per 100 of them instead of one conditional Put each: `result[i]` is false
 * when events[i]'s id was used before. A cancelled transaction names, in its cancellation
 * reasons, the claims whose condition failed: those are taken; the others are claimed again
 * without them (a transaction is all or nothing, so none of them was written).
 */
export async function claimTransactions(events: readonly TriggerEvent[], size: (event: TriggerEvent) => number): Promise<boolean[]> {
  const claimed = new Array<boolean>(events.length).fill(false);
  // Chunks by count and by bytes; indexes into `events`.
  const chunks: number[][] = [];
  let bytes = 0;
  events.forEach((event, i) => {
    const last = chunks[chunks.length - 1];
    const itemBytes = size(event);
    if (!last || last.length >= MAX_CLAIMS_PER_TRANSACTION || bytes + itemBytes > MAX_TRANSACTION_BYTES) {
      chunks.push([i]);
      bytes = itemBytes;
    } else {
      last.push(i);
      bytes += itemBytes;
    }
  });
  try {
    for (const chunk of chunks) await claimChunk(events, chunk, claimed);
  } catch (error) {
    // Claims no message will ever process: released, so a retry of the request is accepted.
    await Promise.allSettled(
      events.flatMap((event, i) => (claimed[i] ? [releaseTransaction(scopeOfNotification(event), event.transactionId)] : [])),
    );
    throw error;
  }
  return claimed;
}

/** Claims `chunk` (indexes into `events`) in one transaction, again without the taken ones until done. */
async function claimChunk(events: readonly TriggerEvent[], chunk: number[], claimed: boolean[]): Promise<void> {
  let pending = chunk;
  while (pending.length > 0) {
    if (pending.length === 1) {
      claimed[pending[0]!] = await claimTransaction(events[pending[0]!]!);
      return;
    }
    // A transaction that lost a race or was throttled, with no claim taken, is tried again.
    const refused = await transact(
      pending.map((i) => ({ Put: claimPut(events[i]!) })),
      { answers: ['ConditionalCheckFailed'], attempts: CLAIM_ATTEMPTS },
    );
    if (!refused) {
      for (const i of pending) claimed[i] = true;
      return;
    }
    const taken = new Set(failedConditions(refused).map((j) => pending[j]!));
    pending = pending.filter((i) => !taken.has(i));
  }
}

/**
 * Stores the triggers of transactionIds the service generated (newTransactionId: its second and
 * 62 random bits), which no other trigger holds: they need no conditional claim, and go as plain
 * BatchWriteItem requests, all at once. On a failure any of them may be written; the caller
 * releases them all.
 */
export async function storeGeneratedTriggers(events: readonly TriggerEvent[]): Promise<void> {
  await batchPut(events.map(triggerEventItem), { concurrency: Infinity });
}

/** A trigger as its table item. */
export function triggerEventItem(event: TriggerEvent): Record<string, unknown> {
  const scope = { organizationId: event._organizationId, environmentId: event._environmentId };
  const { pk, sk } = keys.triggerEvent(scope, event.transactionId);
  // The key named rather than spread: two spreads in one literal take V8's slow path (~20 µs an
  // item, 2 ms of a bulk request's 100), one is copied fast. Kept as long as the activity (the
  // claim with it: once it expires the transactionId may be used again).
  return { pk, sk, type: 'TriggerEvent', ...event, ...ttlAt('activity', new Date(event.createdAt)) };
}

function claimPut(event: TriggerEvent) {
  return {
    TableName: tableName(),
    Item: triggerEventItem(event),
    ...absentOrExpired(),
  };
}

/** Releases claims whose events could not be queued, so the caller can retry them. */
export async function releaseTransaction(scope: EnvScope, transactionId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.triggerEvent(scope, transactionId) }));
}

/**
 * Over how many partitions the transaction's notifications are spread: its trigger says (1 when
 * it does not, or when there is no trigger: notifications without one are in the transaction's
 * own partition). Read consistently, as the trigger is, but only the one attribute is sent back.
 */
export async function notificationShardsOf(scope: EnvScope, transactionId: string): Promise<number> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.triggerEvent(scope, transactionId),
      ConsistentRead: true,
      ProjectionExpression: 'notificationShards',
    }),
  );
  return (Item?.notificationShards as number | undefined) ?? 1;
}

export async function getTriggerEvent(scope: EnvScope, transactionId: string): Promise<TriggerEvent | undefined> {
  const Item = await getItem(keys.triggerEvent(scope, transactionId), { consistent: true });
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, type: _t, ttl: _ttl, ...event } = Item;
  return event as unknown as TriggerEvent;
}

/** Marks the trigger canceled (fan-out stops creating notifications); false when unknown or expired. */
export function markTriggerCanceled(scope: EnvScope, transactionId: string, now: string): Promise<boolean> {
  const kept = presentAndKept(new Date(now));
  return writeIf(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.triggerEvent(scope, transactionId),
        UpdateExpression: 'SET canceledAt = if_not_exists(canceledAt, :now)',
        ...kept,
        ExpressionAttributeValues: { ...kept.ExpressionAttributeValues, ':now': now },
      }),
    ),
  );
}

// ---- notifications ----------------------------------------------------------------------------

export function notificationItem(n: StoredNotification, version: number): Record<string, unknown> {
  const scope = scopeOfNotification(n);
  return {
    ...keys.notification(scope, n.transactionId, n.subscriberId, n.notificationShards ?? 1),
    ...keys.activityDayIndex(scope, dayOfId(n._id), n._id),
    ...keys.activityOfSubscriberIndex(scope, n.subscriberId, n._id),
    type: 'Notification',
    ...n,
    // Filter attributes of the activity feed (FilterExpressions need flat values).
    topicKeys: n.topics.map((t) => t.topicKey),
    contextKey: contextKeyOf(n.contextKeys),
    version,
    ...notificationTtl(n),
  };
}

/**
 * Kept the activity's retention after its creation (the id's time), or after the end of its
 * longest wait when a delay or digest of its jobs waits past that (the runner still finds it when
 * the wait ends; reads show it only within the retention of its creation). Every rewrite of the
 * same notification writes the same, unless it schedules a longer wait.
 */
function notificationTtl(n: StoredNotification) {
  const waits = n.jobs.flatMap((job) => (job.delayUntil ? [Date.parse(job.delayUntil)] : []));
  return ttlAt('activity', new Date(Math.max(timeOfId(n._id).getTime(), ...waits.filter(Number.isFinite))));
}

export function notificationFromItem(item: Record<string, unknown>): VersionedNotification {
  const { type: _t, topicKeys: _k, contextKey: _ck, version, ttl: _ttl, ...notification } = withoutKeys(item, INDEXES.notification);
  return { notification: notification as unknown as StoredNotification, version: version as number };
}

export async function getNotification(scope: EnvScope, at: NotificationAddress): Promise<VersionedNotification | undefined> {
  const Item = await getItem(keys.notification(scope, at.transactionId, at.subscriberId, at.notificationShards ?? 1), { consistent: true });
  return Item ? notificationFromItem(Item) : undefined;
}

/** Every notification of the transaction (each of its partitions, as its trigger counts them), in no order. */
export async function notificationsOfTransaction(scope: EnvScope, transactionId: string): Promise<VersionedNotification[]> {
  const shards = keys.notificationsOfTransaction(scope, transactionId, await notificationShardsOf(scope, transactionId));
  const found = await mapConcurrently(shards, SHARD_READ_CONCURRENCY, (key) =>
    queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': key.pk, ':prefix': key.skPrefix },
      ConsistentRead: true,
    }),
  );
  return found.flat().map(notificationFromItem);
}

/**
 * A notification by its id: its id names its day and its shard of the day, and that activity
 * index partition has its key (the index holds no more than the filter attributes), then the
 * item itself. An entry written before the day was sharded is in shard 0: looked for there next.
 */
export async function findNotificationById(
  scope: EnvScope,
  notificationId: string,
  options: { consistent?: boolean } = {},
): Promise<VersionedNotification | undefined> {
  // Past its retention it is gone, whether or not DynamoDB deleted it yet.
  if (isExpired('activity', notificationId)) return undefined;
  for (const index of keys.activityDayLookup(scope, dayOfId(notificationId), notificationId)) {
    const { Items } = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: INDEXES.notification.byDay.name,
        KeyConditionExpression: onIndex(INDEXES.notification.byDay, '= :sk'),
        ExpressionAttributeValues: { ':pk': index.gsi3pk, ':sk': index.gsi3sk },
        ProjectionExpression: 'pk, sk',
      }),
    );
    const found = Items?.[0];
    if (!found) continue;
    const item = await getItem({ pk: found.pk as string, sk: found.sk as string }, options);
    return item ? notificationFromItem(item) : undefined;
  }
  return undefined;
}

/**
 * Creates the notification unless it exists; returns what is stored either way (a redelivered
 * fan-out finds the first one and carries on from it).
 */
export async function createNotification(n: StoredNotification): Promise<{ created: boolean; stored: VersionedNotification }> {
  try {
    return { created: true, stored: await saveNotification(n, UNSTORED) };
  } catch (error) {
    if (!(error instanceof StaleWriteError)) throw error;
    const stored = await getNotification(scopeOfNotification(n), n);
    if (!stored) throw error;
    return { created: false, stored };
  }
}

/**
 * Stores the notification as changed, if it is still at `expectedVersion`, together with `also`
 * in one transaction. At UNSTORED (a notification not stored yet) the write is its create.
 * StaleWriteError when another run changed (or created) it first, or when one of `also`'s own
 * conditions failed: the caller re-reads and decides again.
 */
export async function saveNotification(
  n: StoredNotification,
  expectedVersion: number,
  also: readonly TransactItem[] = [],
): Promise<VersionedNotification> {
  const next = expectedVersion + 1;
  const put = {
    TableName: tableName(),
    Item: notificationItem(n, next),
    // An expired notification of an earlier use of the transactionId, not yet deleted, is not one.
    ...(expectedVersion === UNSTORED ? absentOrExpired() : atVersion(expectedVersion)),
  };
  const written =
    also.length === 0
      ? await writeIf(() => db().send(new PutCommand(put)))
      : !(await transact([{ Put: put }, ...also], { answers: ['ConditionalCheckFailed'] }));
  if (!written) throw new StaleWriteError('Notification changed concurrently');
  return { notification: n, version: next };
}
