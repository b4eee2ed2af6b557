import { ConflictError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { EnvScope } from '../scope.ts';
import { createTopic, getTopic, renameTopic } from './repository.ts';
import type { Topic, UpsertTopicInput } from './schemas.ts';

const ATTEMPTS = 3;

/**
 * Creates the topic of `key`, or renames it when it exists and a new `name` is given, as the
 * reference's POST /v2/topics does. A topic created or deleted concurrently is simply re-read.
 */
export async function upsertTopic(scope: EnvScope, input: UpsertTopicInput): Promise<Topic> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const now = new Date().toISOString();
    const existing = await getTopic(scope, input.key);
    if (!existing) {
      const topic: Topic = { _id: newId(Date.parse(now)), key: input.key, createdAt: now, updatedAt: now };
      if (input.name !== undefined) topic.name = input.name;
      const created = await createTopic(scope, topic);
      if (created) return created;
      continue;
    }
    if (input.name === undefined || input.name === existing.name) return existing;
    const renamed = await renameTopic(scope, input.key, input.name, now);
    if (renamed) return renamed;
  }
  throw new ConflictError(`Topic with key ${input.key} is being changed concurrently`);
}

/**
 * The topic of `key`, created (with `nameIfNew`, if given) when missing, as subscribing does:
 * an existing topic is never renamed.
 */
export async function findOrCreateTopic(scope: EnvScope, key: string, nameIfNew?: string): Promise<Topic> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const existing = await getTopic(scope, key);
    if (existing) return existing;
    const now = new Date().toISOString();
    const created = await createTopic(scope, {
      _id: newId(Date.parse(now)),
      key,
      ...(nameIfNew !== undefined && { name: nameIfNew }),
      createdAt: now,
      updatedAt: now,
    });
    if (created) return created;
  }
  throw new ConflictError(`Topic with key ${key} is being changed concurrently`);
}
