import type { Caller } from '../auth/caller.ts';
import { removeSubscriberFromAllTopics } from '../topics/subscriptions.ts';
import { subscriberNotFound } from './get.ts';
import { deleteSubscriberPartition } from './partition.ts';
import { getSubscriber } from './repository.ts';

/**
 * Deletes a subscriber and everything stored under it. Topic subscriptions live in the topics'
 * partitions (and change the subscriber's count item), so they go first, then the partition.
 */
export async function removeSubscriber(caller: Caller, subscriberId: string) {
  if (!(await getSubscriber(caller, subscriberId))) throw subscriberNotFound(subscriberId);
  await removeSubscriberFromAllTopics(caller, subscriberId);
  await deleteSubscriberPartition(caller, subscriberId);
  return { acknowledged: true, status: 'deleted' as const };
}
