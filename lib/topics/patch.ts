import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { requireTopic } from './get.ts';
import type { SubscriptionDetails, SubscriptionPatch, NamedSubscriptionView, TopicPatch } from './patch-schemas.ts';
import { renameTopic } from './repository.ts';
import type { Topic } from './schemas.ts';
import { findSubscribers } from './subscriber-lookup.ts';
import { findSubscriptionByIdentifier, nameSubscription, type NamedSubscription } from './subscription-identifier.ts';
import { belongsTo, toTopicSubscriber } from './view.ts';

// PATCH /v2/topics/{topicKey} (its name), and one subscription of a topic by its identifier:
// GET shows it, PATCH names it. Subscriptions carry no context here: contextKeys is always [].

/** Renames a topic; without a name it is answered as it is. 404 for an unknown topic. */
export async function patchTopic(scope: EnvScope, key: string, patch: TopicPatch): Promise<Topic> {
  if (patch.name === undefined) return requireTopic(scope, key);
  const renamed = await renameTopic(scope, key, patch.name, new Date().toISOString());
  if (!renamed) throw new NotFoundError(`Topic with key ${key} not found`);
  return renamed;
}

const subscriptionNotFound = (topicKey: string, identifier: string) =>
  new NotFoundError(`Subscription with identifier ${identifier} not found in topic ${topicKey}`);

/** The subscription to this topic (not to an earlier one of the same key) with this identifier. */
async function requireNamedSubscription(scope: EnvScope, topicKey: string, identifier: string) {
  const topic = await requireTopic(scope, topicKey);
  const subscription = await findSubscriptionByIdentifier(scope, topicKey, identifier);
  if (!subscription || !belongsTo(subscription, topic)) throw subscriptionNotFound(topicKey, identifier);
  return { topic, subscription };
}

export async function getSubscriptionByIdentifier(scope: EnvScope, topicKey: string, identifier: string): Promise<SubscriptionDetails> {
  const { subscription } = await requireNamedSubscription(scope, topicKey, identifier);
  return {
    id: subscription._id,
    identifier: subscription.identifier,
    ...(subscription.name !== undefined && { name: subscription.name }),
    contextKeys: [],
  };
}

export async function patchSubscription(
  scope: EnvScope,
  topicKey: string,
  identifier: string,
  patch: SubscriptionPatch,
): Promise<NamedSubscriptionView> {
  const { topic, subscription } = await requireNamedSubscription(scope, topicKey, identifier);
  const changed =
    patch.name === undefined ? subscription : await nameSubscription(scope, subscription, patch.name, new Date().toISOString());
  if (!changed) throw subscriptionNotFound(topicKey, identifier);
  const subscriber = (await findSubscribers(scope, [changed.subscriberId])).get(changed.subscriberId);
  return view(changed, topic, subscriber ? toTopicSubscriber(subscriber) : null);
}

function view(s: NamedSubscription, topic: Topic, subscriber: NamedSubscriptionView['subscriber']): NamedSubscriptionView {
  return {
    _id: s._id,
    identifier: s.identifier,
    ...(s.name !== undefined && { name: s.name }),
    topic: { _id: topic._id, key: topic.key, ...(topic.name !== undefined && { name: topic.name }) },
    subscriber,
    contextKeys: [],
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
