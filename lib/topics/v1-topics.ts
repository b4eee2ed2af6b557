import { ConflictError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { EnvScope } from '../scope.ts';
import { requireTopic } from './get.ts';
import { removeTopic } from './remove.ts';
import { patchTopic } from './patch.ts';
import { createTopic, getTopic, topicsByPage } from './repository.ts';
import { subscribersOfTopicPages } from './subscriptions.ts';
import type { CreateTopicV1Input, ListTopicsV1Query, TopicListV1, TopicV1 } from './v1-schemas.ts';
import { toTopicV1 } from './v1-view.ts';
import { belongsTo } from './view.ts';

// The older topics API (/v1/topics) over the same topics as /v2/topics: what differs is the
// reference's v1 rules (create refuses a taken key, delete refuses a topic with subscribers)
// and the shape of the answers.

/** totalCount counts at most this many topics past the page (then it is a lower bound). */
const COUNT_AHEAD = 5_000;

/** A new topic; 409 when the key is taken in the environment. */
export async function createTopicV1(scope: EnvScope, input: CreateTopicV1Input): Promise<{ _id: string; key: string }> {
  const now = new Date().toISOString();
  const created = await createTopic(scope, {
    _id: newId(Date.parse(now)),
    key: input.key,
    name: input.name,
    createdAt: now,
    updatedAt: now,
  });
  if (!created) throw new ConflictError(`Topic exists with key ${input.key} in the environment`);
  return { _id: created._id, key: created.key };
}

/** Numbered pages of the environment's topics in creation order, or the one of `key`. */
export async function listTopicsV1(scope: EnvScope, query: ListTopicsV1Query): Promise<TopicListV1> {
  const { page, pageSize } = query;
  const { topics, totalCount } =
    query.key === undefined ? await topicsByPage(scope, page, pageSize, COUNT_AHEAD) : await pageOfKey(scope, query.key, page);
  return { data: await Promise.all(topics.map((topic) => toTopicV1(scope, topic))), page, pageSize, totalCount };
}

async function pageOfKey(scope: EnvScope, key: string, page: number) {
  const topic = await getTopic(scope, key);
  return { topics: topic && page === 0 ? [topic] : [], totalCount: topic ? 1 : 0 };
}

export async function getTopicV1(scope: EnvScope, key: string): Promise<TopicV1> {
  return toTopicV1(scope, await requireTopic(scope, key));
}

/** The v2 rename (patch.ts), answered in the v1 shape. */
export async function renameTopicV1(scope: EnvScope, key: string, name: string): Promise<TopicV1> {
  return toTopicV1(scope, await patchTopic(scope, key, { name }));
}

/** Deletes a topic that has no subscribers (409 otherwise, as the reference). */
export async function removeTopicV1(scope: EnvScope, key: string): Promise<void> {
  const topic = await requireTopic(scope, key);
  for await (const page of subscribersOfTopicPages(scope, key, 100)) {
    if (page.some((s) => belongsTo(s, topic))) {
      throw new ConflictError(`Topic with key ${key} can't be deleted as it still has subscribers assigned`);
    }
  }
  // Also clears what an earlier topic of the same key may have left.
  await removeTopic(scope, key);
}
