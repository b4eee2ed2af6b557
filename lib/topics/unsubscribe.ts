import { mapConcurrently } from '../concurrency.ts';
import type { EnvScope } from '../scope.ts';
import { requireTopic } from './get.ts';
import type { SubscriptionChange } from './schemas.ts';
import { changeResult, distinct, subscriberNotFound, subscriptionNotFound, type ChangeOutcome } from './subscription-result.ts';
import { findSubscribers } from './subscriber-lookup.ts';
import { getSubscriptions, removeSubscription } from './subscription-repository.ts';
import { toChangedSubscription } from './view.ts';

const CONCURRENCY = 10;

/** Unsubscribes up to 100 subscribers from an existing topic; returns the removed subscriptions. */
export async function unsubscribe(scope: EnvScope, topicKey: string, subscriberIds: string[]): Promise<SubscriptionChange> {
  const ids = distinct(subscriberIds);
  const topic = await requireTopic(scope, topicKey);
  const subscribers = await findSubscribers(scope, ids);
  const existing = await getSubscriptions(scope, topicKey, [...subscribers.keys()]);

  const outcomes = await mapConcurrently(ids, CONCURRENCY, async (subscriberId): Promise<ChangeOutcome> => {
    const subscriber = subscribers.get(subscriberId);
    if (!subscriber) return { error: subscriberNotFound(subscriberId) };
    const subscription = existing.get(subscriberId);
    // Removed meanwhile by a concurrent request counts as not subscribed.
    if (!subscription || !(await removeSubscription(scope, topicKey, subscriberId))) {
      return { error: subscriptionNotFound(subscriberId) };
    }
    return { changed: toChangedSubscription(subscription, topic, subscriber) };
  });
  return changeResult((id) => `subscriberIds.${ids.indexOf(id)}`, outcomes, 'None of the subscribers could be unsubscribed from the topic');
}
