import { contextKeyOf } from '../context-keys.ts';
import { onIndex, withoutKeys } from '../store/index-keys.ts';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { atVersion, writeIf } from '../store/conditions.ts';
import { getItem } from '../store/get-item.ts';
import { INDEXES, keys } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import { mapConcurrently } from '../concurrency.ts';
import { queryAll } from '../store/query-pages.ts';
import { StaleWriteError } from '../store/stale-write.ts';
import { transact, type TransactItem } from '../store/transact.ts';
import { absentOrExpired, isExpired, ttlAt } from '../store/retention.ts';
import { timeOfId } from '../ids.ts';
import type { ExecutionDetail, StoredJob, StoredNotification } from './model.ts';
import { notificationShardsOf } from './trigger-store.ts';

// Storage of notifications. A transaction's partition holds its trigger (trigger-store.ts) and
// one notification per subscriber; a trigger that fans out (a topic, a broadcast, many single
// recipients) spreads its notifications over TRANSACTION_SHARDS partitions by subscriberId, and
// says so on itself (`notificationShards`), as do its notifications and their job messages, so
// that every reader knows where to look. Every change of a notification is a whole-item Put
// conditioned on the version it was read at, optionally in one transaction with the items the
// change writes (a digest event, a throttle count): a redelivered SQS message that repeats a step
// finds the version moved on and does nothing twice.

export interface VersionedNotification {
  notification: StoredNotification;
  version: number;
}

/**
 * The version of a notification built but not stored yet: saving at this version is the create
 * (the fan-out hands such a notification to the run of an in-app first job, which stores it with
 * its decision: first-job.ts).
 */
export const UNSTORED = 0;

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

export const scopeOfNotification = (n: Pick<StoredNotification, '_organizationId' | '_environmentId'>): EnvScope => ({
  organizationId: n._organizationId,
  environmentId: n._environmentId,
});

/** The UTC day (yyyy-mm-dd) of an id: the activity feed's index partition. */
export const dayOfId = (id: string): string => timeOfId(id).toISOString().slice(0, 10);

// ---- notifications ----------------------------------------------------------------------------

export function notificationItem(n: StoredNotification, version: number): Record<string, unknown> {
  const scope = scopeOfNotification(n);
  return {
    ...keys.notification(scope, n.transactionId, n.subscriberId, n.notificationShards ?? 1),
    ...keys.activityDayIndex(scope, dayOfId(n._id), n._id),
    ...keys.activityOfSubscriberIndex(scope, n.subscriberId, n._id),
    type: 'Notification',
    ...n,
    jobs: n.jobs.map(storedJob),
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
  const { type: _t, topicKeys: _k, contextKey: _ck, version, ttl: _ttl, ...stored } = withoutKeys(item, INDEXES.notification);
  const notification = stored as unknown as StoredNotification;
  return { notification: { ...notification, jobs: notification.jobs.map(jobFromStored) }, version: version as number };
}

// Execution details are stored without the values most of them have (`isRetry` and `isTest`
// false, `raw` null, `source` Internal), which reading puts back: a write unit is 1 KB of the
// item, and these are about 35 bytes a detail, 140 of a one-step in-app notification's four
// (2,075 bytes with them in the bench: 3 units; 1,935 without: 2). Items stored with them read the same.
const DETAIL_DEFAULTS = { isRetry: false, isTest: false, raw: null, source: 'Internal' } as const satisfies Partial<ExecutionDetail>;
type Defaulted = keyof typeof DETAIL_DEFAULTS;
type StoredDetail = Omit<ExecutionDetail, Defaulted> & Partial<Pick<ExecutionDetail, Defaulted>>;

function storedJob(job: StoredJob): StoredJob {
  return { ...job, executionDetails: job.executionDetails.map(storedDetail) as ExecutionDetail[] };
}

function storedDetail(detail: ExecutionDetail): StoredDetail {
  const stored: StoredDetail = { ...detail };
  for (const key of Object.keys(DETAIL_DEFAULTS) as Defaulted[]) if (stored[key] === DETAIL_DEFAULTS[key]) delete stored[key];
  return stored;
}

function jobFromStored(job: StoredJob): StoredJob {
  return { ...job, executionDetails: (job.executionDetails as StoredDetail[]).map(detailFromStored) };
}

// A stored item never holds an undefined attribute: what the detail has overrides its default.
const detailFromStored = (d: StoredDetail): ExecutionDetail => ({ ...DETAIL_DEFAULTS, ...d });

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
