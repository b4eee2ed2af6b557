import { newId } from '#lib/ids.ts';
import { batchPut } from '#lib/store/batch.ts';
import { keys } from '#lib/store/keys.ts';
import type { EnvScope } from '#lib/scope.ts';
import type { Subscriber } from '#lib/subscribers/model.ts';
import { subscriptionItem, type NewSubscription } from '#lib/topics/subscription-repository.ts';

// Test-only bulk seeding straight into the table (BatchWrite), for data sets too large to create
// one request at a time. Items have the shapes the repositories write.

export async function seedSubscribers(scope: EnvScope, subscriberIds: string[]): Promise<Subscriber[]> {
  const now = new Date().toISOString();
  const subscribers: Subscriber[] = subscriberIds.map((subscriberId) => ({
    _id: newId(),
    _organizationId: scope.organizationId,
    _environmentId: scope.environmentId,
    subscriberId,
    firstName: `First ${subscriberId}`,
    lastName: null,
    email: null,
    avatar: null,
    deleted: false,
    createdAt: now,
    updatedAt: now,
  }));
  await batchPut(
    subscribers.map((s) => ({
      ...keys.subscriber(scope, s.subscriberId),
      ...keys.subscriberListIndex(scope, s.createdAt, s._id),
      type: 'Subscriber',
      ...s,
    })),
  );
  return subscribers;
}

/** Subscribes fresh subscribers (with no other subscriptions) to a topic, counters included. */
export async function seedTopicSubscriptions(
  scope: EnvScope,
  topic: { _id: string; key: string },
  subscribers: Subscriber[],
): Promise<void> {
  const now = new Date().toISOString();
  const subscriptions: NewSubscription[] = subscribers.map((s) => ({
    _id: newId(),
    topicKey: topic.key,
    _topicId: topic._id,
    subscriberId: s.subscriberId,
    _subscriberId: s._id,
    createdAt: now,
    updatedAt: now,
  }));
  await batchPut([
    ...subscriptions.map((s) => subscriptionItem(scope, s)),
    ...subscribers.map((s) => ({ ...keys.subscriptionCount(scope, s.subscriberId), type: 'TopicSubscriptionCount', count: 1 })),
  ]);
}
