import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { batchGet } from '../store/batch.ts';
import { db } from '../store/client.ts';
import { mapConcurrently } from '../concurrency.ts';
import { arrayReader, paginate, queryReader, type Page, type PageRequest, type SortKeyRange } from '../store/cursor-page.ts';
import { INDEXES, keys } from '../store/keys.ts';
import { indexRange } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { transact, type TransactItem, type TransactOptions } from '../store/transact.ts';

// Storage of topic subscriptions. A subscription lives in its topic's partition (fan-out reads
// the topic) and on gsi1 under its subscriber, sorted by its time-first `_id` (the subscriber's
// list). Each subscriber's count of subscriptions is a counter item changed in the same
// transaction as the subscription, so totalCount never counts items.

export interface StoredSubscription {
  _id: string;
  /** The subscription's own name for itself, given when subscribing or made from its topic and subscriber. */
  identifier: string;
  /** The name given to the subscription when subscribing, if any. */
  name?: string | undefined;
  topicKey: string;
  _topicId: string;
  subscriberId: string;
  _subscriberId: string;
  createdAt: string;
  updatedAt: string;
}

/** A transaction answers which conditions failed; conflicts with concurrent ones are retried. */
const CONDITIONS: TransactOptions = { answers: ['ConditionalCheckFailed'], attempts: 5 };

/** The stored item of a subscription; one written without an identifier gets the default one. */
export function subscriptionItem(scope: EnvScope, s: NewSubscription): Record<string, unknown> {
  return {
    ...keys.topicSubscription(scope, s.topicKey, s.subscriberId),
    ...keys.subscriptionOfSubscriberIndex(scope, s.subscriberId, s._id),
    type: 'TopicSubscription',
    _organizationId: scope.organizationId,
    _environmentId: scope.environmentId,
    ...s,
    identifier: s.identifier ?? defaultSubscriptionIdentifier(s.topicKey, s.subscriberId),
  };
}

export type NewSubscription = Omit<StoredSubscription, 'identifier'> & { identifier?: string | undefined };

/** The identifier a subscription has when none was given: `tk_<topicKey>:si_<subscriberId>`, as the reference makes it. */
export const defaultSubscriptionIdentifier = (topicKey: string, subscriberId: string) => `tk_${topicKey}:si_${subscriberId}`;

export function fromSubscriptionItem(item: Record<string, unknown>): StoredSubscription {
  const topicKey = item.topicKey as string;
  const subscriberId = item.subscriberId as string;
  return {
    _id: item._id as string,
    // Subscriptions stored before identifiers were kept have the one they would have been given.
    identifier: (item.identifier as string | undefined) ?? defaultSubscriptionIdentifier(topicKey, subscriberId),
    ...(typeof item.name === 'string' && { name: item.name }),
    topicKey,
    _topicId: item._topicId as string,
    subscriberId,
    _subscriberId: item._subscriberId as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

export async function getSubscription(scope: EnvScope, topicKey: string, subscriberId: string): Promise<StoredSubscription | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.topicSubscription(scope, topicKey, subscriberId) }));
  return Item && fromSubscriptionItem(Item);
}

/** The subscriptions of `subscriberIds` to one topic, by subscriberId. */
export async function getSubscriptions(
  scope: EnvScope,
  topicKey: string,
  subscriberIds: string[],
): Promise<Map<string, StoredSubscription>> {
  const items = await batchGet(subscriberIds.map((id) => keys.topicSubscription(scope, topicKey, id)));
  return new Map(items.map((item) => [item.subscriberId as string, fromSubscriptionItem(item)]));
}

/** The subscriber's number of subscriptions, as kept by every subscribe and unsubscribe. */
export async function subscriptionCount(scope: EnvScope, subscriberId: string): Promise<number> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.subscriptionCount(scope, subscriberId), ConsistentRead: true }),
  );
  return Math.max(0, Number(Item?.count ?? 0));
}

export type AddOutcome = 'created' | 'exists' | 'subscriber-missing';

/** Subscribes, if the subscriber still exists and is not subscribed yet, and counts it. */
export async function addSubscription(scope: EnvScope, s: StoredSubscription): Promise<AddOutcome> {
  const refused = await transact(
    [
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.subscriber(scope, s.subscriberId),
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(deleted) OR deleted = :false)',
          ExpressionAttributeValues: { ':false': false },
        },
      },
      { Put: { TableName: tableName(), Item: subscriptionItem(scope, s), ConditionExpression: 'attribute_not_exists(pk)' } },
      countChange(scope, s.subscriberId, 1),
    ],
    CONDITIONS,
  );
  if (refused === undefined) return 'created';
  return refused[0] === 'ConditionalCheckFailed' ? 'subscriber-missing' : 'exists';
}

/** Unsubscribes and uncounts; false when there was no such subscription. */
export async function removeSubscription(scope: EnvScope, topicKey: string, subscriberId: string): Promise<boolean> {
  return (await transact(removal(scope, topicKey, subscriberId), CONDITIONS)) === undefined;
}

/**
 * Removes many subscriptions (of distinct subscribers), 25 to a transaction; a batch that fails
 * because one of them went meanwhile is redone one by one.
 */
export async function removeSubscriptions(scope: EnvScope, subscriptions: StoredSubscription[]): Promise<void> {
  const CHUNK = 25;
  const chunks: StoredSubscription[][] = [];
  for (let i = 0; i < subscriptions.length; i += CHUNK) chunks.push(subscriptions.slice(i, i + CHUNK));
  await mapConcurrently(chunks, 4, async (chunk) => {
    const refused = await transact(
      chunk.flatMap((s) => removal(scope, s.topicKey, s.subscriberId)),
      CONDITIONS,
    );
    if (refused === undefined) return;
    for (const s of chunk) await removeSubscription(scope, s.topicKey, s.subscriberId);
  });
}

/** A page of the subscriber's subscriptions in `_id` (creation) order; cursors are `_id`s. */
export function subscriberSubscriptionsPage(
  scope: EnvScope,
  subscriberId: string,
  request: PageRequest,
): Promise<Page<StoredSubscription>> {
  return mapPage(
    paginate(
      queryReader(indexRange(INDEXES.subscription.ofSubscriber, keys.subscriptionsOfSubscriber(scope, subscriberId).gsi1pk)),
      (item) => item[INDEXES.subscription.ofSubscriber.sortKey] as string,
      request,
    ),
  );
}

/** A topic's subscriptions, in subscriberId order: the items of its partition under `SUB#`. */
export function topicSubscriptionsRange(scope: EnvScope, topicKey: string): SortKeyRange {
  const { pk, skPrefix } = keys.subscribersOfTopic(scope, topicKey);
  return { partitionKey: { name: 'pk', value: pk }, sortKeyName: 'sk', prefix: skPrefix };
}

/** A page of a topic's subscriptions in subscriberId order; cursors are table sort-key values. */
export function topicSubscriptionsPage(scope: EnvScope, topicKey: string, request: PageRequest): Promise<Page<StoredSubscription>> {
  return mapPage(paginate(queryReader(topicSubscriptionsRange(scope, topicKey)), (item) => item.sk as string, request));
}

/** The sort key a subscription has in its topic's partition (the cursor of topicSubscriptionsPage). */
export const topicListKey = (scope: EnvScope, s: StoredSubscription) => keys.topicSubscription(scope, s.topicKey, s.subscriberId).sk;

/** Pages a list of at most one subscription (a key filter) with the same cursor rules. */
export function pageOfOne(
  subscription: StoredSubscription | undefined,
  sortKeyOf: (s: StoredSubscription) => string,
  request: PageRequest,
): Promise<Page<StoredSubscription>> {
  return paginate(arrayReader(subscription ? [subscription] : [], sortKeyOf), sortKeyOf, request);
}

async function mapPage(page: Promise<Page<Record<string, unknown>>>): Promise<Page<StoredSubscription>> {
  const { items, ...rest } = await page;
  return { ...rest, items: items.map(fromSubscriptionItem) };
}

function removal(scope: EnvScope, topicKey: string, subscriberId: string): TransactItem[] {
  return [
    {
      Delete: {
        TableName: tableName(),
        Key: keys.topicSubscription(scope, topicKey, subscriberId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    countChange(scope, subscriberId, -1),
  ];
}

function countChange(scope: EnvScope, subscriberId: string, delta: number): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.subscriptionCount(scope, subscriberId),
      UpdateExpression: 'SET #type = :type ADD #count :delta',
      ExpressionAttributeNames: { '#type': 'type', '#count': 'count' },
      ExpressionAttributeValues: { ':type': 'TopicSubscriptionCount', ':delta': delta },
    },
  };
}
