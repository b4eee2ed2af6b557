import type { EnvScope } from '../scope.ts';
import { requireTopic } from './get.ts';
import { deleteTopicItem } from './repository.ts';
import { removeSubscriptions } from './subscription-repository.ts';
import { subscribersOfTopicPages } from './subscriptions.ts';

const PAGE_SIZE = 100;

/**
 * Deletes a topic with all its subscriptions, page by page, each uncounted from its subscriber.
 * The topic item goes last, so a delete that stops half-way can simply be repeated.
 */
export async function removeTopic(scope: EnvScope, key: string): Promise<{ acknowledged: true }> {
  await requireTopic(scope, key);
  for await (const page of subscribersOfTopicPages(scope, key, PAGE_SIZE)) await removeSubscriptions(scope, page);
  await deleteTopicItem(scope, key);
  return { acknowledged: true };
}
