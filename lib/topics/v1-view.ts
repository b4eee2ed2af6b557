import type { EnvScope } from '../scope.ts';
import type { Topic } from './schemas.ts';
import { subscribersOfTopicPages } from './subscriptions.ts';
import type { TopicV1 } from './v1-schemas.ts';
import { belongsTo } from './view.ts';

// A topic as the older API shows it: with the subscriberIds of its subscribers. The reference
// lists every one; a topic of any size is read here only up to TOPIC_SUBSCRIBERS_SHOWN (one
// Query), so a request's cost and answer stay bounded. The full list is the cursor list of
// GET /v2/topics/{key}/subscriptions; one subscriber is checked by
// GET /v1/topics/{key}/subscribers/{subscriberId}.

export const TOPIC_SUBSCRIBERS_SHOWN = 1000;

export async function toTopicV1(scope: EnvScope, topic: Topic): Promise<TopicV1> {
  return {
    _id: topic._id,
    _organizationId: scope.organizationId,
    _environmentId: scope.environmentId,
    key: topic.key,
    ...(topic.name !== undefined && { name: topic.name }),
    subscribers: await subscriberIdsOf(scope, topic),
  };
}

/** The first TOPIC_SUBSCRIBERS_SHOWN subscriberIds of the topic, in subscriberId order. */
async function subscriberIdsOf(scope: EnvScope, topic: Topic): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of subscribersOfTopicPages(scope, topic.key, TOPIC_SUBSCRIBERS_SHOWN)) {
    // Leftovers of an earlier topic of the same key are not this topic's subscribers.
    for (const s of page) if (belongsTo(s, topic)) ids.push(s.subscriberId);
    if (ids.length >= TOPIC_SUBSCRIBERS_SHOWN) break;
  }
  return ids.slice(0, TOPIC_SUBSCRIBERS_SHOWN);
}
