import { decodeCursor } from '../store/cursor.ts';
import type { EnvScope } from '../scope.ts';
import { requireTopic } from './get.ts';
import { cursorList, toPageRequest } from '../http/cursor-list.ts';
import type { TopicSubscriptionList, TopicSubscriptionsQuery } from './schemas.ts';
import { findSubscribers } from './subscriber-lookup.ts';
import { getSubscription, pageOfOne, topicListKey, topicSubscriptionsPage } from './subscription-repository.ts';
import { belongsTo, toTopicSubscription } from './view.ts';

/** A topic's subscriptions in subscriberId order (a Query on the topic's partition); 404 for an unknown topic. */
export async function listTopicSubscriptions(
  scope: EnvScope,
  topicKey: string,
  query: TopicSubscriptionsQuery,
): Promise<TopicSubscriptionList> {
  const request = toPageRequest(query, decodeCursor);
  const topic = await requireTopic(scope, topicKey);
  const page =
    query.subscriberId === undefined
      ? await topicSubscriptionsPage(scope, topicKey, request)
      : await pageOfOne(await getSubscription(scope, topicKey, query.subscriberId), (s) => topicListKey(scope, s), request);
  const subscribers = await findSubscribers(
    scope,
    page.items.map((s) => s.subscriberId),
  );
  return cursorList(page, (items) =>
    items.flatMap((s) => {
      const subscriber = subscribers.get(s.subscriberId);
      return subscriber && belongsTo(s, topic) ? [toTopicSubscription(s, topic, subscriber)] : [];
    }),
  );
}
