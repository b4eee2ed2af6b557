import { newId } from '../ids.ts';
import { mapConcurrently } from '../concurrency.ts';
import type { EnvScope } from '../scope.ts';
import type { CreateSubscriptionsInput, SubscriptionChange, Topic } from './schemas.ts';
import { changeResult, subscriberNotFound, type ChangeOutcome } from './subscription-result.ts';
import { findSubscribers } from './subscriber-lookup.ts';
import {
  addSubscription,
  defaultSubscriptionIdentifier,
  getSubscription,
  getSubscriptions,
  type StoredSubscription,
} from './subscription-repository.ts';
import { findOrCreateTopic } from './upsert.ts';
import { toChangedSubscription } from './view.ts';

const CONCURRENCY = 10;

/** One subscriber to subscribe, with what the request named the subscription, and where in the body it was asked. */
export interface SubscriptionRequest {
  subscriberId: string;
  identifier?: string | undefined;
  name?: string | undefined;
  /** The body path reported when this subscriber cannot be subscribed (`subscriptions.2`). */
  field: string;
}

/**
 * The subscriptions a body asks for, `subscriptions` first, then `subscriberIds`; a subscriber
 * asked for twice is subscribed once, as first asked.
 */
export function subscriptionRequests(body: CreateSubscriptionsInput): SubscriptionRequest[] {
  const requests: SubscriptionRequest[] = [
    ...(body.subscriptions ?? []).map((entry, i) =>
      typeof entry === 'string' ? { subscriberId: entry, field: `subscriptions.${i}` } : { ...entry, field: `subscriptions.${i}` },
    ),
    ...(body.subscriberIds ?? []).map((subscriberId, i) => ({ subscriberId, field: `subscriberIds.${i}` })),
  ];
  const seen = new Set<string>();
  return requests.filter((r) => !seen.has(r.subscriberId) && seen.add(r.subscriberId));
}

/**
 * Subscribes up to 100 subscribers to a topic, creating the topic when it is missing, as the
 * reference does. Subscribers already subscribed keep their subscription (and count once);
 * unknown ones are reported in `errors`.
 */
export async function subscribe(scope: EnvScope, topicKey: string, body: CreateSubscriptionsInput): Promise<SubscriptionChange> {
  const requests = subscriptionRequests(body);
  const topic = await findOrCreateTopic(scope, topicKey);
  const fields = new Map(requests.map((r) => [r.subscriberId, r.field]));
  return changeResult(
    (subscriberId) => fields.get(subscriberId)!,
    await subscribeEach(scope, topic, requests),
    'None of the subscribers could be subscribed to the topic',
  );
}

/**
 * Subscribes each of `requests` (distinct subscribers) to the topic: what subscribing changed for
 * each, in their order. Shared by both API versions, which report the outcomes differently.
 */
export async function subscribeEach(
  scope: EnvScope,
  topic: Topic,
  requests: Omit<SubscriptionRequest, 'field'>[],
): Promise<ChangeOutcome[]> {
  const topicKey = topic.key;
  const subscribers = await findSubscribers(
    scope,
    requests.map((r) => r.subscriberId),
  );
  const existing = await getSubscriptions(scope, topicKey, [...subscribers.keys()]);

  return mapConcurrently(requests, CONCURRENCY, async ({ subscriberId, identifier, name }): Promise<ChangeOutcome> => {
    const subscriber = subscribers.get(subscriberId);
    if (!subscriber) return { error: subscriberNotFound(subscriberId) };
    let subscription = existing.get(subscriberId);
    if (!subscription) {
      const now = new Date();
      const created: StoredSubscription = {
        _id: newId(now.getTime()),
        identifier: identifier ?? defaultSubscriptionIdentifier(topicKey, subscriberId),
        ...(name !== undefined && { name }),
        topicKey,
        _topicId: topic._id,
        subscriberId,
        _subscriberId: subscriber._id,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      };
      const outcome = await addSubscription(scope, created);
      if (outcome === 'subscriber-missing') return { error: subscriberNotFound(subscriberId) };
      // Subscribed meanwhile by a concurrent request: report that subscription.
      subscription = outcome === 'created' ? created : ((await getSubscription(scope, topicKey, subscriberId)) ?? created);
    }
    return { changed: toChangedSubscription(subscription, topic, subscriber) };
  });
}
