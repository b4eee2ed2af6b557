import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { paginate, queryReader, type Page, type PageRequest } from '../store/cursor-page.ts';
import { getItem } from '../store/get-item.ts';
import { insertIfAbsent } from '../store/insert-batch.ts';
import { recordOf } from '../store/index-item.ts';
import { keys } from '../store/keys.ts';
import { ttlAfter } from '../store/retention.ts';
import type { EnvScope } from '../scope.ts';
import type { Attempt, DeadLetter } from './schemas.ts';

// Storage of delivery attempts and dead letters, under their endpoint, each kept RETENTION_DAYS
// (TTL). An attempt item is written once (conditionally; a consumer batch's attempts in one
// request, lib/store/insert-batch.ts): a redelivered queue message finds it and carries on from
// its outcome instead of sending and scheduling again; `followedUp` says the next attempt (or the
// dead letter) is already taken care of, or that a success needs neither.

const RETENTION_DAYS = 30;
const live = (item: Record<string, unknown> | undefined) =>
  item && !(typeof item.ttl === 'number' && item.ttl * 1000 < Date.now()) ? item : undefined;

export interface StoredAttempt extends Attempt {
  followedUp: boolean;
}

/** The record an item holds: what was written, without its keys, item type and ttl. */
const recordOfItem = <T>(item: Record<string, unknown>): T => {
  const { ttl: _ttl, ...record } = recordOf<Record<string, unknown>>(item);
  return record as T;
};
const attemptOf = (item: Record<string, unknown>) => recordOfItem<StoredAttempt>(item);
const publicAttempt = ({ followedUp: _, ...attempt }: StoredAttempt): Attempt => attempt;

export async function getAttempt(
  scope: EnvScope,
  endpointId: string,
  eventId: string,
  attempt: number,
): Promise<StoredAttempt | undefined> {
  const found = live(await getItem(keys.webhookAttempt(scope, endpointId, eventId, attempt), { consistent: true }));
  return found && attemptOf(found);
}

/**
 * Records an attempt; when it was recorded already (a redelivered message), answers that one. A
 * success has nothing to follow up, so it is stored as followed up: no second write per delivery.
 */
export async function recordAttempt(scope: EnvScope, attempt: Attempt): Promise<StoredAttempt> {
  const stored: StoredAttempt = { ...attempt, followedUp: attempt.success };
  const recorded = await insertIfAbsent({
    ...keys.webhookAttempt(scope, attempt.endpointId, attempt.eventId, attempt.attempt),
    type: 'WebhookAttempt',
    ...stored,
    ...ttlAfter(new Date(attempt.timestamp), RETENTION_DAYS),
  });
  if (recorded) return stored;
  return (await getAttempt(scope, attempt.endpointId, attempt.eventId, attempt.attempt)) ?? stored;
}

export async function markFollowedUp(scope: EnvScope, attempt: Pick<Attempt, 'endpointId' | 'eventId' | 'attempt'>): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.webhookAttempt(scope, attempt.endpointId, attempt.eventId, attempt.attempt),
      UpdateExpression: 'SET followedUp = :yes',
      ExpressionAttributeValues: { ':yes': true },
    }),
  );
}

/** An endpoint's attempts, newest event first (its attempts last first), or one event's. */
export async function attemptsPage(
  scope: EnvScope,
  endpointId: string,
  eventId: string | undefined,
  request: PageRequest,
): Promise<Page<Attempt>> {
  const { pk, skPrefix } =
    eventId === undefined ? keys.webhookAttemptsOfEndpoint(scope, endpointId) : keys.webhookAttemptsOfEvent(scope, endpointId, eventId);
  const page = await paginate(
    queryReader({ partitionKey: { name: 'pk', value: pk }, sortKeyName: 'sk', prefix: skPrefix, filter: notExpired() }),
    (item) => item.sk as string,
    request,
  );
  return { ...page, items: page.items.map((item) => publicAttempt(attemptOf(item))) };
}

export async function putDeadLetter(scope: EnvScope, deadLetter: Omit<DeadLetter, 'payload'> & { payload: string }): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.webhookDeadLetter(scope, deadLetter.endpointId, deadLetter.eventId),
        type: 'WebhookDeadLetter',
        ...deadLetter,
        ...ttlAfter(new Date(deadLetter.failedAt), RETENTION_DAYS),
      },
    }),
  );
}

export async function deadLettersPage(scope: EnvScope, endpointId: string, request: PageRequest): Promise<Page<DeadLetter>> {
  const { pk, skPrefix } = keys.webhookDeadLettersOfEndpoint(scope, endpointId);
  const page = await paginate(
    queryReader({ partitionKey: { name: 'pk', value: pk }, sortKeyName: 'sk', prefix: skPrefix, filter: notExpired() }),
    (item) => item.sk as string,
    request,
  );
  return {
    ...page,
    // The payload is stored as the exact text sent; the list shows it parsed.
    items: page.items.map((item) => ({ ...recordOfItem<DeadLetter>(item), payload: JSON.parse(item.payload as string) as unknown })),
  };
}

/** DynamoDB deletes expired items late: lists leave them out themselves. */
const notExpired = () => ({
  expression: 'attribute_not_exists(#ttl) OR #ttl > :now',
  names: { '#ttl': 'ttl' },
  values: { ':now': Math.floor(Date.now() / 1000) },
});
