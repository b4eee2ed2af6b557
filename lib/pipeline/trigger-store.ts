import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { batchPut } from '../store/batch.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { getItem } from '../store/get-item.ts';
import { keys, MAX_UNSHARDED_RECIPIENTS, TRANSACTION_SHARDS } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import { failedConditions, transact } from '../store/transact.ts';
import { absentOrExpired, presentAndKept, ttlAt } from '../store/retention.ts';
import type { Recipient, TriggerEvent } from './model.ts';

// Storage of triggers. A trigger is the claim of its transactionId in its environment (a
// conditional create: a transactionId used before is refused until its trigger expires), the
// event its fan-out reads, and the place that says over how many partitions the transaction's
// notifications are spread (`notificationShards`; their storage: notification-store.ts).

const scopeOfTrigger = (event: TriggerEvent): EnvScope => ({ organizationId: event._organizationId, environmentId: event._environmentId });

/**
 * Over how many partitions a trigger's notifications go (TriggerEvent.notificationShards): one
 * for a few single recipients, TRANSACTION_SHARDS for a topic, a broadcast or more than
 * MAX_UNSHARDED_RECIPIENTS recipients (lib/store/keys.ts has the arithmetic).
 */
export function notificationShardsFor(to: readonly Recipient[], broadcast: boolean): number {
  const topic = to.some((r) => typeof r === 'object' && (r as { type?: unknown }).type === 'Topic');
  return broadcast || topic || to.length > MAX_UNSHARDED_RECIPIENTS ? TRANSACTION_SHARDS : 1;
}

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
      events.flatMap((event, i) => (claimed[i] ? [releaseTransaction(scopeOfTrigger(event), event.transactionId)] : [])),
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
  const { pk, sk } = keys.triggerEvent(scopeOfTrigger(event), event.transactionId);
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
