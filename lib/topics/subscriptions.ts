import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { batchDelete } from '../store/batch.ts';
import { db } from '../store/client.ts';
import { INDEXES, keys, type Key } from '../store/keys.ts';
import { onIndex } from '../store/index-keys.ts';
import type { EnvScope } from '../scope.ts';
import { queryPages } from '../store/query-pages.ts';
import { fromSubscriptionItem, type StoredSubscription } from './subscription-repository.ts';

// What other areas use of topic subscriptions: the fan-out of a trigger to a topic, page by page,
// and the cleanup when a subscriber is deleted. Neither ever loads a whole list into memory.

/**
 * The topic's subscriptions, one page (at most `pageSize`) at a time, in subscriberId order. Each
 * page is one Query continuing from the last one's LastEvaluatedKey, so a topic of any size is
 * read in constant memory per page.
 */
export async function* subscribersOfTopicPages(
  scope: EnvScope,
  topicKey: string,
  pageSize = 500,
): AsyncGenerator<StoredSubscription[], void, undefined> {
  const { pk, skPrefix } = keys.subscribersOfTopic(scope, topicKey);
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    Limit: pageSize,
  });
  for await (const page of pages) yield page.map(fromSubscriptionItem);
}

/**
 * Deletes every subscription of a subscriber (paged through gsi1) and its subscription counter.
 * Called when the subscriber is deleted; the counter goes with it, so nothing is decremented.
 */
export async function removeSubscriberFromAllTopics(scope: EnvScope, subscriberId: string): Promise<void> {
  const { gsi1pk } = keys.subscriptionsOfSubscriber(scope, subscriberId);
  const pages = queryPages({
    IndexName: INDEXES.subscription.ofSubscriber.name,
    KeyConditionExpression: onIndex(INDEXES.subscription.ofSubscriber),
    ExpressionAttributeValues: { ':pk': gsi1pk },
    ProjectionExpression: 'pk, sk',
    Limit: 100,
  });
  for await (const page of pages) await batchDelete(page as unknown as Key[]);
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.subscriptionCount(scope, subscriberId) }));
}
