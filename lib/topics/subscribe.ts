import { newId } from '../ids.ts';
import { mapConcurrently } from '../concurrency.ts';
import type { EnvScope } from '../scope.ts';
import type { SubscriptionChange, Topic } from './schemas.ts';
import { changeResult, distinct, subscriberNotFound, type ChangeOutcome } from './subscription-result.ts';
import { findSubscribers } from './subscriber-lookup.ts';
import { addSubscription, getSubscription, getSubscriptions, type StoredSubscription } from './subscription-repository.ts';
import { findOrCreateTopic } from './upsert.ts';
import { toChangedSubscription } from './view.ts';

const CONCURRENCY = 10;

/**
 * Subscribes up to 100 subscribers to a topic, creating the topic when it is missing, as the
 * reference does. Subscribers already subscribed keep their subscription (and count once);
 * unknown ones are reported in `errors`.
 */
export async function subscribe(scope: EnvScope, topicKey: string, subscriberIds: string[]): Promise<SubscriptionChange> {
  const ids = distinct(subscriberIds);
  const topic = await findOrCreateTopic(scope, topicKey);
  return changeResult(ids, await subscribeEach(scope, topic, ids), 'None of the subscribers could be subscribed to the topic');
}

/**
 * Subscribes each of `ids` (distinct) to the topic: what subscribing changed for each, in their
 * order. Shared by both API versions, which report the outcomes differently.
 */
export async function subscribeEach(scope: EnvScope, topic: Topic, ids: string[]): Promise<ChangeOutcome[]> {
  const topicKey = topic.key;
  const subscribers = await findSubscribers(scope, ids);
  const existing = await getSubscriptions(scope, topicKey, [...subscribers.keys()]);

  return mapConcurrently(ids, CONCURRENCY, async (subscriberId): Promise<ChangeOutcome> => {
    const subscriber = subscribers.get(subscriberId);
    if (!subscriber) return { error: subscriberNotFound(subscriberId) };
    let subscription = existing.get(subscriberId);
    if (!subscription) {
      const now = new Date().toISOString();
      const created: StoredSubscription = {
        _id: newId(),
        topicKey,
        _topicId: topic._id,
        subscriberId,
        _subscriberId: subscriber._id,
        createdAt: now,
        updatedAt: now,
      };
      const outcome = await addSubscription(scope, created);
      if (outcome === 'subscriber-missing') return { error: subscriberNotFound(subscriberId) };
      // Subscribed meanwhile by a concurrent request: report that subscription.
      subscription = outcome === 'created' ? created : ((await getSubscription(scope, topicKey, subscriberId)) ?? created);
    }
    return { changed: toChangedSubscription(subscription, topic, subscriber) };
  });
}
