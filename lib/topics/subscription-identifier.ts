import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import type { EnvScope } from '../scope.ts';
import { db } from '../store/client.ts';
import { conditionalWrite } from '../store/conditions.ts';
import { queryReader } from '../store/cursor-page.ts';
import { keys } from '../store/keys.ts';
import { fromSubscriptionItem, type StoredSubscription } from './subscription-repository.ts';

// A subscription found by its identifier (GET/PATCH /v2/topics/{topicKey}/subscriptions/{identifier}).
// A subscription made without one has the reference's default, `tk_<topicKey>:si_<subscriberId>`
// (`tk=…:si=…` is read the same way): that names its key, one read. An identifier chosen at
// subscribe time is stored on the subscription as `identifier`; it is looked for in the topic's
// partition (a Query filtered on it: its cost grows with the topic's subscribers).

export interface NamedSubscription extends StoredSubscription {
  name?: string;
}

/** The subscriberId a default identifier of this topic names, if it is one. */
function subscriberOfDefault(topicKey: string, identifier: string): string | undefined {
  for (const [tk, si] of [
    ['tk_', ':si_'],
    ['tk=', ':si='],
  ]) {
    const prefix = `${tk}${topicKey}${si}`;
    if (identifier.startsWith(prefix) && identifier.length > prefix.length) return identifier.slice(prefix.length);
  }
  return undefined;
}

const named = (topicKey: string, item: Record<string, unknown>): NamedSubscription => {
  const s = fromSubscriptionItem(item);
  return { ...s, ...(typeof item.name === 'string' && { name: item.name }) };
};

export async function findSubscriptionByIdentifier(
  scope: EnvScope,
  topicKey: string,
  identifier: string,
): Promise<NamedSubscription | undefined> {
  const subscriberId = subscriberOfDefault(topicKey, identifier);
  if (subscriberId !== undefined) {
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.topicSubscription(scope, topicKey, subscriberId), ConsistentRead: true }),
    );
    // A default identifier names a subscription that kept the default, or was given this very one.
    if (Item && (typeof Item.identifier !== 'string' || Item.identifier === identifier || subscriberOfDefault(topicKey, Item.identifier)))
      return named(topicKey, Item);
  }
  const { pk, skPrefix } = keys.subscribersOfTopic(scope, topicKey);
  const read = queryReader({
    partitionKey: { name: 'pk', value: pk },
    sortKeyName: 'sk',
    prefix: skPrefix,
    filter: { expression: '#identifier = :identifier', names: { '#identifier': 'identifier' }, values: { ':identifier': identifier } },
  });
  const [item] = await read(true, undefined, 1);
  return item && named(topicKey, item);
}

/** Sets the subscription's name; undefined when it is gone. */
export async function nameSubscription(
  scope: EnvScope,
  s: StoredSubscription,
  name: string,
  now: string,
): Promise<NamedSubscription | undefined> {
  const outcome = await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.topicSubscription(scope, s.topicKey, s.subscriberId),
        UpdateExpression: 'SET #name = :name, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND #id = :id',
        ExpressionAttributeNames: { '#name': 'name', '#id': '_id' },
        ExpressionAttributeValues: { ':name': name, ':now': now, ':id': s._id },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return outcome.written && outcome.output.Attributes ? named(s.topicKey, outcome.output.Attributes) : undefined;
}
