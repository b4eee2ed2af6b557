import { batchGet } from '../store/batch.ts';
import { keys } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';
import type { TopicSubscriber } from './schemas.ts';

// What topic responses show of subscribers, read in one batch (at most 100 per page or request).
// Only the summary fields are read; deleted subscribers count as not found.

export interface SubscriberSummary extends TopicSubscriber {
  createdAt: string;
  updatedAt: string;
}

const FIELDS = ['_id', 'subscriberId', 'avatar', 'firstName', 'lastName', 'email', 'deleted', 'createdAt', 'updatedAt'];

export async function findSubscribers(scope: EnvScope, subscriberIds: string[]): Promise<Map<string, SubscriberSummary>> {
  const items = await batchGet(
    subscriberIds.map((id) => keys.subscriber(scope, id)),
    FIELDS,
  );
  return new Map(items.filter((item) => !item.deleted).map((item) => [item.subscriberId as string, toSummary(item as SummaryFields)]));
}

/** The stored subscriber fields a summary is made of (a Subscriber, or a projected item). */
export type SummaryFields = Record<'_id' | 'subscriberId' | 'createdAt' | 'updatedAt', string> &
  Partial<Record<'avatar' | 'firstName' | 'lastName' | 'email', unknown>>;

export function toSummary(subscriber: SummaryFields): SubscriberSummary {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    _id: subscriber._id,
    subscriberId: subscriber.subscriberId,
    avatar: text(subscriber.avatar),
    firstName: text(subscriber.firstName),
    lastName: text(subscriber.lastName),
    email: text(subscriber.email),
    createdAt: subscriber.createdAt,
    updatedAt: subscriber.updatedAt,
  };
}
