import type { Topic, TopicSubscriber, TopicSubscription } from './schemas.ts';
import type { SubscriberSummary } from './subscriber-lookup.ts';
import type { StoredSubscription } from './subscription-repository.ts';

// Stored subscriptions as the API shows them (its TopicSubscription shape).

export function toTopicSubscription(s: StoredSubscription, topic: Topic, subscriber: SubscriberSummary): TopicSubscription {
  return { _id: s._id, identifier: s.identifier, createdAt: s.createdAt, topic, subscriber: toTopicSubscriber(subscriber) };
}

export function toTopicSubscriber({ createdAt: _c, updatedAt: _u, ...summary }: SubscriberSummary): TopicSubscriber {
  return summary;
}

/** The item of a subscribe/unsubscribe result, as the reference reports it. */
export function toChangedSubscription(s: StoredSubscription, topic: Topic, subscriber: SubscriberSummary) {
  return {
    _id: s._id,
    identifier: s.identifier,
    ...(s.name !== undefined && { name: s.name }),
    topic: { _id: topic._id, key: topic.key, ...(topic.name !== undefined && { name: topic.name }) },
    subscriber,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

/** A subscription belongs to this topic only if it was made to it, not to an earlier one with the same key. */
export const belongsTo = (s: StoredSubscription, topic: Topic | undefined): topic is Topic => topic?._id === s._topicId;
