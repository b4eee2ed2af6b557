import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { ConflictError } from '../errors.ts';
import { db } from '../store/client.ts';
import { atVersion, conditionalWrite, writeIf } from '../store/conditions.ts';
import { getItem } from '../store/get-item.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { withoutKeys } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { StaleWriteError } from '../store/stale-write.ts';
import type { ChannelSettings, Subscriber } from './model.ts';
import type { SubscriberPatch } from './schemas.ts';

const BY_EMAIL = INDEXES.subscriber.byEmail;

// Storage of subscribers: one item per subscriber, in its own partition, keyed by subscriberId;
// gsi1 lists an environment's subscribers in creation order, gsi2 finds them by email (sparse:
// only subscribers with an email). Items carry a version, and every write derived from a read
// (channels; PATCH, whose nameLower depends on both names) is conditioned on it. nameLower is the
// lower-cased "firstName lastName" that the list's name filter searches.

export interface VersionedSubscriber {
  subscriber: Subscriber;
  version: number;
}

/** Another request changed the subscriber first; redo from a fresh read. */

export const scopeOf = (s: Subscriber): EnvScope => ({ organizationId: s._organizationId, environmentId: s._environmentId });

export async function getSubscriber(scope: EnvScope, subscriberId: string): Promise<Subscriber | undefined> {
  return (await getVersionedSubscriber(scope, subscriberId))?.subscriber;
}

/** Read consistently: callers write back what they read, and clients read right after writing. */
export async function getVersionedSubscriber(scope: EnvScope, subscriberId: string): Promise<VersionedSubscriber | undefined> {
  const Item = await getItem(keys.subscriber(scope, subscriberId), { consistent: true });
  if (!Item || Item.deleted) return undefined;
  return { subscriber: subscriberFromItem(Item), version: (Item.version as number | undefined) ?? 0 };
}

/** Stores a new subscriber; 409 when the subscriberId is taken in the environment. */
export async function insertSubscriber(subscriber: Subscriber): Promise<void> {
  const scope = scopeOf(subscriber);
  const item = {
    ...keys.subscriber(scope, subscriber.subscriberId),
    ...keys.subscriberListIndex(scope, subscriber.createdAt, subscriber._id),
    ...(subscriber.email ? keys.subscriberEmailIndex(scope, subscriber.email, subscriber.subscriberId) : {}),
    type: 'Subscriber',
    ...subscriber,
    nameLower: nameLowerOf(subscriber),
    version: 1,
  };
  if (
    !(await writeIf(() =>
      db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' })),
    ))
  ) {
    throw new ConflictError(`Subscriber ${subscriber.subscriberId} already exists`);
  }
}

/**
 * Sets the given profile fields (null stores null), or the online status, on the subscriber as
 * read, moving the email index entry with the email; StaleWriteError when it changed or went since the read.
 */
export async function updateSubscriberProfile(
  scope: EnvScope,
  { subscriber: current, version }: VersionedSubscriber,
  changes: SubscriberPatch & Partial<Pick<Subscriber, 'isOnline' | 'lastOnlineAt'>>,
  now: string,
): Promise<Subscriber> {
  const { subscriberId } = current;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now, ':next': version + 1, ':nameLower': nameLowerOf({ ...current, ...changes }) };
  const set = ['updatedAt = :now', 'version = :next', 'nameLower = :nameLower'];
  const remove: string[] = [];
  Object.entries(changes).forEach(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:f${i}`] = value;
    set.push(`#f${i} = :f${i}`);
  });
  if ('email' in changes) {
    if (changes.email) {
      const index = keys.subscriberEmailIndex(scope, changes.email, subscriberId);
      Object.assign(values, { ':g2pk': index.gsi2pk, ':g2sk': index.gsi2sk });
      set.push(`${BY_EMAIL.partitionKey} = :g2pk`, `${BY_EMAIL.sortKey} = :g2sk`);
    } else {
      remove.push(BY_EMAIL.partitionKey, BY_EMAIL.sortKey);
    }
  }
  const updated = await update(scope, subscriberId, {
    UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
    ...stillAt(version, values),
    ...(Object.keys(names).length > 0 && { ExpressionAttributeNames: names }),
  });
  if (!updated) throw new StaleWriteError('Subscriber changed concurrently');
  return updated;
}

/** Replaces the channel settings if the subscriber is still at `expectedVersion`. */
export async function writeChannels(
  scope: EnvScope,
  subscriberId: string,
  channels: ChannelSettings[],
  expectedVersion: number,
  now: string,
): Promise<Subscriber> {
  const updated = await update(scope, subscriberId, {
    UpdateExpression: 'SET channels = :channels, updatedAt = :now, version = :next',
    ...stillAt(expectedVersion, { ':channels': channels, ':now': now, ':next': expectedVersion + 1 }),
  });
  if (!updated) throw new StaleWriteError('Subscriber changed concurrently');
  return updated;
}

/** The condition that the item still exists at `expected`; version 0 is an item stored without one. */
function stillAt(expected: number, values: Record<string, unknown>) {
  return expected === 0
    ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(version)', ExpressionAttributeValues: values }
    : atVersion(expected, values);
}

export const nameLowerOf = (s: Pick<Subscriber, 'firstName' | 'lastName'>) => `${s.firstName ?? ''} ${s.lastName ?? ''}`.toLowerCase();

type UpdateInput = Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key' | 'ReturnValues'>;

/** Undefined when the condition failed. */
async function update(scope: EnvScope, subscriberId: string, input: UpdateInput): Promise<Subscriber | undefined> {
  const outcome = await conditionalWrite(() =>
    db().send(new UpdateCommand({ TableName: tableName(), Key: keys.subscriber(scope, subscriberId), ReturnValues: 'ALL_NEW', ...input })),
  );
  return outcome.written && outcome.output.Attributes ? subscriberFromItem(outcome.output.Attributes) : undefined;
}

export function subscriberFromItem(item: Record<string, unknown>): Subscriber {
  // liveUntil: the live sockets' stamp (lib/live/presence.ts), internal.
  const { type: _t, version: _v, nameLower: _n, liveUntil: _l, ...subscriber } = withoutKeys(item, INDEXES.subscriber);
  return subscriber as unknown as Subscriber;
}
