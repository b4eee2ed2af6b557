import { decodeCursor } from '../store/cursor.ts';
import type { EnvScope } from '../scope.ts';
import { requireTopic } from './get.ts';
import { cursorList, toPageRequest } from '../http/cursor-list.ts';
import type { Topic, TopicSubscriptionList, TopicSubscriptionsQuery } from './schemas.ts';
import { findSubscribers } from './subscriber-lookup.ts';
import {
  getSubscription,
  pageOfOne,
  topicListKey,
  topicSubscriptionsPage,
  topicSubscriptionsRange,
  type StoredSubscription,
} from './subscription-repository.ts';
import { capTotalCount, totalCountOf, type TotalCount } from '../http/total-count.ts';
import type { Page, PageRequest } from '../store/cursor-page.ts';
import { belongsTo, toTopicSubscription } from './view.ts';

/**
 * A topic's subscriptions in subscriberId order (a Query on the topic's partition), with their
 * total (counted by Queries on it); 404 for an unknown topic.
 */
export async function listTopicSubscriptions(
  scope: EnvScope,
  topicKey: string,
  query: TopicSubscriptionsQuery,
): Promise<TopicSubscriptionList> {
  const request = toPageRequest(query, decodeCursor);
  const topic = await requireTopic(scope, topicKey);
  const [page, total] = await pageAndTotal(scope, topic, query.subscriberId, request);
  const subscribers = await findSubscribers(
    scope,
    page.items.map((s) => s.subscriberId),
  );
  const list = cursorList(page, (items) =>
    items.flatMap((s) => {
      const subscriber = subscribers.get(s.subscriberId);
      return subscriber && belongsTo(s, topic) ? [toTopicSubscription(s, topic, subscriber)] : [];
    }),
  );
  return { ...list, ...total };
}

/** The subscriberId filter is a direct read: a list of at most one, counted as such. */
async function pageAndTotal(
  scope: EnvScope,
  topic: Topic,
  subscriberId: string | undefined,
  request: PageRequest,
): Promise<[Page<StoredSubscription>, TotalCount]> {
  if (subscriberId === undefined) {
    return Promise.all([topicSubscriptionsPage(scope, topic.key, request), totalCountOf(topicSubscriptionsRange(scope, topic.key))]);
  }
  const one = await getSubscription(scope, topic.key, subscriberId);
  return [await pageOfOne(one, (s) => topicListKey(scope, s), request), capTotalCount(one && belongsTo(one, topic) ? 1 : 0)];
}
